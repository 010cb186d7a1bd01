"""The classroom's state that outlives one page: what a browser keeps, who the teacher is, who has voted, how often a
client may try. Streamlit-side like ``ui`` (which draws the poll with it), and below it: nothing here imports ``ui``.

===============  ======================================================================================================
``browser``      what this browser keeps for the lab (a voter id, the teacher key): first-party cookies, read from the
                 connection, written by a script in the page
``teacher_key``  the lab's teacher key: from ``DPLAB_TEACHER_KEY`` or made at start and printed on the terminal;
                 checked in constant time
``teacher``      the teacher view's sign-in: the key typed once, kept in this browser, never in a URL or on screen
``voter``        this browser's random voter id: one vote per browser, across reloads and replicas
``limits``       how often a client may try (unknown codes, votes, wrong keys), counted per minute in the poll store
``poll_store``   the class poll's store: rooms owned by a teacher key, one vote per voter id, reveal, expiry, attempts
                 (SQLite in WAL mode, shared by every replica)
===============  ======================================================================================================
"""

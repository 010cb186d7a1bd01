"""The classroom: what a class shares beyond one page (its state), and the parts of a page that serve the class (the
poll, the class's link and QR code, the Embed code, the handout). Streamlit-side like ``ui``, and below it: ``ui`` (the
pages' skeleton and the serving layer) draws these parts; nothing here imports ``ui`` or the pages.

Inside the package the parts stand on the state, never the other way round: ``poll`` imports ``lab_store``,
``poll_store``,
``teacher_key``, ``voter``, ``limits``, ``share`` and ``table``; ``embed`` imports ``share``; ``check_yourself``
imports ``progress``, ``progress_storage`` and ``receipts``; ``share``, ``handout`` and ``table`` import nothing of the
package, and no module of the state imports a part.

====================  ==================================================================================================
``browser``           what this browser keeps for the lab (a voter id, the teacher key): first-party cookies, read from
                      the connection, written by a script in the page
``teacher_key``       the lab's teacher key: from ``DPLAB_TEACHER_KEY`` or made at start and printed on the terminal;
                      checked in constant time
``teacher``           the teacher view's sign-in: the key typed once, kept in this browser, never in a URL or on screen
``voter``             this browser's random voter id: one vote per browser, across reloads and replicas
``limits``            how often a client may try (unknown codes, votes, wrong keys), counted per minute in the poll
                      store
``poll_store``        the class poll's store: rooms owned by a teacher key, one vote per voter id, reveal, expiry,
                      attempts, a shared secret; the statements of every backend, and SQLite's (WAL mode, shared by
                      every replica of a machine)
``postgres_poll_store``  the same store in a PostgreSQL database several machines share (row locks, pooled
                      connections, its faults as sentences)
``lab_store``         the store the environment names (``DPLAB_POLL_STORE``), opened once per process; ``python -m
                      classroom.lab_store`` checks it before ``./lab.sh`` starts
``progress``          a student's progress through the course: what the browser keeps (never the server), and its rules
``progress_storage``  the progress kept in the student's browser (``localStorage``), never on the server
``course_map``        the course map's state: where this student stands on each topic page, and what to do next
``receipts``          the lab's signature on a right answer, which a teacher can check without accounts
``check_yourself``    "Check yourself": a topic page's exercises, graded on the server, with hints, mastery and receipts
``poll``              the class poll on a page: the teacher's room (code, QR, answers counted live, the DP reveal), the
                      teacher's open polls, a student's ballot (``?room=CODE``), "Join a class poll" on the home page
``share``             "Share with the class": the page's link as a QR code (segno, offline) and an address to type; the
                      URL keys that are not a page's settings (``NOT_SETTINGS``; presentation mode's ``PRESENT`` among
                      them)
``embed``             the "Embed" code of Go deeper: an ``<iframe>`` of the page at its settings, for slides
``handout``           the page as one offline HTML lesson: the student's handout and the teacher's edition
``table``             :func:`show_table`: rows as a table that fits every screen (a card per row on a phone); here
                      because the poll draws its counts with it (``ui`` re-exports it for the pages)
====================  ==================================================================================================
"""

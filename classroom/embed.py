"""The "Embed" code of a page (in its "Go deeper"): an ``<iframe>`` of the page at its current settings, for slides
and learning-management systems.

The address is the page's own, with the settings of its URL (every control, and a chart's frame when the link set
one: :func:`classroom.share.page_settings`, the rule of the class's link too), plus Streamlit's embed mode
(``embed=true``: no toolbar, no menu, no padding for the app's header) and, when the teacher ticks it, presentation
mode (``present=1``). Nothing of the viewer's or of a class poll is embedded (:data:`classroom.share.NOT_SETTINGS`):
not the teacher view (``teacher``: slides are projected, and it shows the answers), not every answer at once
(``reveal``), not a poll's room (``room``: its question and released counts are the class's, and the room ends).
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from urllib.parse import urlencode, urlsplit

import streamlit as st

from registry import PageInfo

from .share import MOVED_FRAMES_NOTE, PRESENT, page_settings, public_url, share_link

__all__ = ["EMBED", "embed_url", "embed_code", "is_local", "show_embed"]

EMBED = "embed"  #: Streamlit's URL key of its embed mode
PRESENT_BOX = "embed_present"  # widget key: the "presentation mode" box of the Embed code
HEIGHT = 800  #: the frame's height in pixels on a slide (a page scrolls inside it)


def embed_url(address: str, query: Mapping[str, str], present: bool = False) -> str:
    """The page at ``address`` (scheme, host and path, no query) with the settings of ``query`` (its URL's:
    :func:`classroom.share.page_settings`), in Streamlit's embed mode, in presentation mode if ``present``; never the
    teacher view, the answers shown at once or a class poll's room.

    >>> embed_url("http://lab.example.org/truncation", {"eps": "0.5", "teacher": "1", "present": "1", "room": "K7QX2",
    ...                                                 "reveal": "1", "frame_truncation_rate": "0.5"})
    'http://lab.example.org/truncation?eps=0.5&frame_truncation_rate=0.5&embed=true'
    >>> embed_url("http://lab.example.org", {"eps": "2"}, present=True)
    'http://lab.example.org/?eps=2&present=1&embed=true'
    """
    parts = urlsplit(address)
    path = parts.path or "/"
    kept = list(page_settings(query).items()) + ([(PRESENT, "1")] if present else [])
    return f"{parts.scheme}://{parts.netloc}{path}?" + urlencode(kept + [(EMBED, "true")])


def embed_code(url: str, title: str, height: int = HEIGHT) -> str:
    """The ``<iframe>`` to paste into a slide or a course page: full width, ``height`` pixels, no border, named by
    ``title`` for screen readers, loaded when scrolled to.

    >>> print(embed_code("http://lab.example.org/?eps=2&embed=true", "Home"))
    <iframe src="http://lab.example.org/?eps=2&amp;embed=true" title="Home (Private Estimation Lab)"
      width="100%" height="800" style="border: 0;" loading="lazy" allow="clipboard-write; fullscreen"></iframe>
    """
    return (f'<iframe src="{html.escape(url)}" title="{html.escape(title)} (Private Estimation Lab)"\n'
            f'  width="100%" height="{height}" style="border: 0;" loading="lazy" allow="clipboard-write; fullscreen">'
            "</iframe>")


def is_local(address: str) -> bool:
    """Whether ``address`` names this computer only (``localhost``, a loopback or unspecified address): another
    computer opening it reaches itself, not the lab.

    >>> is_local("http://localhost:8501/truncation"), is_local("http://127.0.0.1:8501"), is_local("https://lab.org")
    (True, True, False)
    """
    host = (urlsplit(address).hostname or "").lower()
    return host in ("localhost", "0.0.0.0", "::", "::1") or host.startswith("127.") or host.endswith(".localhost")


def _address(info: PageInfo) -> tuple[str, bool]:
    """The page's address for students and ``True``: as the teacher's browser reaches it (``st.context.url``, without
    its query), its scheme and host replaced by the lab's public URL when it was started with one (``./lab.sh serve
    --public-url``, :func:`classroom.share.public_url`). Outside a browser and without a public URL (a test), its path
    on a local server and ``False``."""
    public, _ = public_url()  # a public URL that cannot be used is reported by "Share with the class"
    browser = st.context.url
    address = share_link(browser or f"http://localhost:8501/{info.url_path}", {}, public,
                         str(st.get_option("server.baseUrlPath") or ""))
    return address, bool(browser or public)


def show_embed(info: PageInfo, present: bool) -> None:
    """The "Embed this page" part of "Go deeper": a box for presentation mode (ticked in presentation mode), the
    ``<iframe>`` code with a copy button, and what it does; a warning when the address is this computer's own."""
    st.markdown("**Embed this page in slides or a course site**")
    if PRESENT_BOX not in st.session_state:
        st.session_state[PRESENT_BOX] = present
    framed = st.checkbox("In presentation mode (bigger text, no explanations)", key=PRESENT_BOX,
                         help="Adds present=1 to the embedded page's address.")
    address, known = _address(info)
    url = embed_url(address, st.query_params.to_dict(), framed)
    # Plain text: the HTML highlighter's colours are under 4.5:1 on the code's grey (axe-core: colour-contrast).
    st.code(embed_code(url, info.title), language=None, wrap_lines=True)
    st.caption("Copy this code (the button at its top right) into a slide or a course page that accepts HTML: it "
               "shows this page with the settings it has now, without Streamlit's menu. Students can still move "
               f"every control inside it. {MOVED_FRAMES_NOTE}")
    if known and is_local(address):
        st.warning("This address is this computer's own (localhost): another computer opening it finds nothing. "
                   "To embed for students, start the lab at an address they can reach (`./lab.sh serve --public-url "
                   "URL`, URL being this computer's address on the network) and copy the code again.",
                   icon=":material/warning:")

""""Share with the class": the page's link, with its settings, as a QR code and an address to type, on every page.

A teacher opens the control on the projector; students scan the code (or type the short address) and land on the
same page at the same settings. The QR code is made in pure Python (``segno``) and drawn as an SVG image inlined in
the page (a ``data:`` URI): nothing is fetched from the internet. Its text alternative is the address itself: its
``alt`` text, written out beside it (readable, selectable) and in a code block with a copy button.

The link is the address the teacher's browser shows (``st.context.url``) with the page's settings: its URL query
without the keys that are not settings of the page (:data:`NOT_SETTINGS`, :func:`page_settings`: presentation mode,
the teacher view, answers shown at once, a class poll's room, Streamlit's embed mode). The Embed code
(:mod:`classroom.embed`) and a handout's link keep the page's settings by the same rule. When the lab was started with a
public URL (``./lab.sh serve --public-url URL``, read from the environment variable ``DPLAB_PUBLIC_URL``:
:mod:`deploy.public_url`), that URL replaces the scheme and host. A link that would send phones to ``localhost``
comes with a warning saying how to start the lab instead.

The control is drawn at the end of the page's run (:func:`ui.chrome.footer`) into a slot kept under the title
(:func:`ui.chrome.setup_page`), so the link has the settings the page has just written into the URL; it is built
only when opened.
"""

from __future__ import annotations

import base64
import html
import os
from collections.abc import Iterable, Mapping, Sequence
from urllib.parse import urlencode, urlsplit

import segno
import streamlit as st

from deploy.public_url import ENV, is_loopback, lan_addresses, parse_public_url

__all__ = ["PRESENT", "NOT_SETTINGS", "MOVED_FRAMES_NOTE", "SHARE", "page_settings", "public_url", "share_link",
           "public_page_link", "short_address",
           "qr_code", "qr_svg", "qr_image", "class_link", "join_html", "home_address", "share_control"]

PRESENT = "present"  #: URL key of presentation mode (switched by :mod:`ui.chrome`, asked for by the Embed code)
#: URL keys that are not the page's settings, left out of every link the lab writes for others (the class's QR code,
#: the Embed code, a handout's link back): the viewer's modes (``present``, ``teacher``, ``reveal``: the projector's and
#: the teacher's), a class poll's room (``room``: joined by its own QR code, and gone with the poll) and Streamlit's
#: embed mode (``embed``, ``embed_options``: the Embed code adds its own). A chart's frame (``frame_<chart>``) is a
#: setting. The names are those of :data:`PRESENT`, ``ui.chrome.TEACHER``, ``ui.page.REVEAL``, ``classroom.poll.ROOM``
#: and ``classroom.embed.EMBED`` (those modules import this one; a test keeps them in step).
NOT_SETTINGS = ("present", "teacher", "reveal", "room", "embed", "embed_options")
#: Under a link the server writes (QR code, embed code): the page learns of a frame moved in the browser
#: (:mod:`ui.frames`) only at its next change, since moving a frame reruns nothing.
MOVED_FRAMES_NOTE = ("A chart's frame moved with its own slider since the page last changed is not in it; the link in "
                     "your browser's address bar keeps that frame.")
SHARE = "share"  #: widget key of the "Share with the class" expander
DEFAULT_ADDRESS = "http://localhost:8501/"  # what a page run without a browser (AppTest) is taken to be opened at


def public_url(environ: Mapping[str, str] | None = None) -> tuple[str | None, str | None]:
    """The public URL the lab was started with (``DPLAB_PUBLIC_URL``), checked: ``(url, None)``, ``(None, None)``
    when none was given, or ``(None, message)`` when the one given is not an address students can use."""
    raw = (os.environ if environ is None else environ).get(ENV, "").strip()
    if not raw:
        return None, None
    try:
        return parse_public_url(raw), None
    except ValueError as exc:
        return None, f"The lab's public URL ({ENV}) is not used: {exc}."


def page_settings(query: Mapping[str, str | Sequence[str]]) -> dict[str, str | Sequence[str]]:
    """The page's settings in its URL ``query``: every key but :data:`NOT_SETTINGS`, in order.

    >>> page_settings({"eps": "0.5", "present": "1", "room": "K7QX2", "frame_home_densities": "0.2", "reveal": "1"})
    {'eps': '0.5', 'frame_home_densities': '0.2'}
    """
    return {key: value for key, value in query.items() if key not in NOT_SETTINGS}


def share_link(browser_url: str | None, query: Mapping[str, str | Sequence[str]], public: str | None = None,
               base_path: str = "") -> str:
    """The link students open: the page the browser shows at ``browser_url`` (its scheme, host and page path; any
    query in it ignored) with ``query`` (a page's own query goes through :func:`page_settings` first; a class poll's
    join link is ``{"room": code}``), the scheme and host replaced by ``public`` (and the server's ``base_path``,
    Streamlit's ``server.baseUrlPath``, by the public URL's own path) when given.

    >>> share_link("http://localhost:8501/truncation-bias", page_settings({"eps": "0.5", "present": "1", "n": "1000"}))
    'http://localhost:8501/truncation-bias?eps=0.5&n=1000'
    >>> share_link("http://localhost:8501/truncation-bias", {"eps": "0.5"}, "http://192.168.1.20:8501")
    'http://192.168.1.20:8501/truncation-bias?eps=0.5'
    >>> share_link("http://127.0.0.1:8501/", {"room": "K7QX2"}, "https://lab.example.edu/dp")
    'https://lab.example.edu/dp/?room=K7QX2'
    """
    parts = urlsplit(browser_url or DEFAULT_ADDRESS)
    path = parts.path or "/"
    base = "/" + base_path.strip("/") if base_path.strip("/") else ""
    if base and (path == base or path.startswith(base + "/")):
        path = path[len(base):] or "/"
    origin = public if public else f"{parts.scheme}://{parts.netloc}{base}"
    kept = [(key, value) for key, values in query.items()
            for value in ([values] if isinstance(values, str) else values)]
    return f"{origin}{path}" + (f"?{urlencode(kept, safe=',:')}" if kept else "")


def public_page_link(url_path: str, query: Mapping[str, str | Sequence[str]],
                     environ: Mapping[str, str] | None = None) -> str | None:
    """The link to the page at ``url_path`` with the settings of ``query`` (:func:`page_settings`) on the lab's
    public address (:func:`public_url`, read from ``environ``, the process's environment by default), or None when
    none is known (a localhost link would not open on a student's machine).

    >>> public_page_link("truncation-bias", {"eps": "0.5", "teacher": "1", "room": "K7QX2"},
    ...                  {ENV: "https://lab.example.edu/dp"})
    'https://lab.example.edu/dp/truncation-bias?eps=0.5'
    """
    public, _ = public_url(environ)
    return share_link(f"{DEFAULT_ADDRESS}{url_path}", page_settings(query), public) if public else None


def short_address(link: str) -> str:
    """The address to type from the wall: the link without its query (the page at its default settings).

    >>> short_address("http://192.168.1.20:8501/truncation-bias?eps=0.5")
    'http://192.168.1.20:8501/truncation-bias'
    """
    parts = urlsplit(link)
    return f"{parts.scheme}://{parts.netloc}{parts.path if parts.path != '/' else ''}"


def qr_code(link: str) -> segno.QRCode:
    """The QR code of ``link``: a full-size code (never a micro code, which phone cameras do not all read) with error
    correction M (15 % of it may be covered or blurred), the smallest version that holds the link."""
    return segno.make(link, error="m", micro=False, boost_error=False)


def qr_svg(link: str) -> str:
    """The QR code of ``link`` as inline SVG: black on white with the standard four-module quiet zone, no fixed size
    (it scales to its box), named for screen readers as the QR code of the address written beside it."""
    svg = qr_code(link).svg_inline(scale=1, border=4, dark="#000000", light="#ffffff", omitsize=True,
                                   svgclass="dplab-qr")
    label = html.escape(f"QR code of the address {link}", quote=True)
    return svg.replace("<svg ", f'<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="{label}" ', 1)


def qr_image(link: str) -> str:
    """The QR code of ``link`` as an ``<img>`` holding its SVG (:func:`qr_svg`) as a ``data:`` URI, its ``alt`` text
    the address itself. (Streamlit's HTML sanitiser removes inline ``<svg>`` elements; an image's data URI stays,
    and nothing is fetched.)"""
    data = base64.b64encode(qr_svg(link).encode()).decode()
    alt = html.escape(f"QR code of the address {link}", quote=True)
    return f'<img class="dplab-qr" src="data:image/svg+xml;base64,{data}" alt="{alt}">'


def loopback_warning(link: str, addresses: Iterable[str] = ()) -> str | None:
    """The warning when ``link`` would send phones to the phone itself (``localhost``, ``127.0.0.1``), or None. The
    command it suggests names this machine's network address when exactly one of ``addresses`` is known, and the
    link's port.

    >>> loopback_warning("http://localhost:8501/", ["192.168.1.20"]).split("Start the lab with ")[1]
    '`./lab.sh serve --public-url http://192.168.1.20:8501` and open this page again.'
    """
    parts = urlsplit(link)
    host = parts.hostname or ""
    if not is_loopback(host):
        return None
    seen = list(addresses)
    where = seen[0] if len(seen) == 1 else "<this machine's address>"
    port = parts.port or 8501
    others = (f" This machine's address on the network seems to be {' or '.join(seen)}." if len(seen) > 1 else "")
    return (f"Students' phones cannot reach {host}: this address means \"this device\" on every device, so the QR "
            f"code would send each phone to itself. Start the lab with `./lab.sh serve --public-url "
            f"http://{where}:{port}` and open this page again.{others}")


_STYLE = """<style>
.dplab-share { display: flex; flex-wrap: wrap; gap: 1rem 2rem; align-items: center; }
.dplab-share .dplab-qr { width: min(100%, 16rem); height: auto; flex: none; }
.dplab-share p { margin: 0; }
.dplab-share .dplab-share-address { font-family: "Source Code Pro", monospace; font-size: 1.4rem;
  overflow-wrap: break-word; user-select: all; color: #000; }
.dplab-share.present .dplab-qr { width: min(92vw, 52vh); }
.dplab-share.present .dplab-share-address { font-size: 2rem; line-height: 1.25; }
.dplab-share .dplab-share-words { flex: 1 1 14rem; min-width: 0; }
.dplab-share .dplab-room-code { font-family: "Source Code Pro", monospace; font-size: 2.4rem; font-weight: 700;
  letter-spacing: 0.2em; color: #000; }
.dplab-share.present .dplab-room-code { font-size: 4rem; }
.dplab-share.room .dplab-share-words { flex-basis: 9rem; }
.dplab-share.room .dplab-qr { width: min(100%, 13rem); }
.dplab-share.present.room .dplab-qr { width: min(92vw, 36vh); }
.dplab-share.present.room .dplab-room-code { font-size: 3.2rem; }
</style>"""


def share_html(link: str, present: bool) -> str:
    """The QR code of ``link`` and, beside it (under it on a phone), the short address to type; big in
    presentation mode."""
    short = short_address(link)
    note = ("Scan the code, or type:" if short == link.removesuffix("/") else
            "Scan the code (it keeps this page's settings), or type this address (the page at its first settings):")
    return (f'{_STYLE}<div class="dplab-share{" present" if present else ""}">{qr_image(link)}'
            f'<div class="dplab-share-words"><p>{html.escape(note, quote=False)}</p>'
            f'<p class="dplab-share-address">{_breakable(short)}</p></div></div>')


def join_html(code: str, link: str, home: str, present: bool) -> str:
    """A class poll's room ``code`` in big letters, the QR code of its join ``link``, and the way in without a camera:
    the lab's ``home`` address, where the code is typed; bigger still in presentation mode."""
    words = (f'<p>Scan the code, or open</p><p class="dplab-share-address">{_breakable(home)}</p>'
             f'<p>and type the room code</p><p class="dplab-room-code">{html.escape(code)}</p>')
    return (f'{_STYLE}<div class="dplab-share room{" present" if present else ""}">{qr_image(link)}'
            f'<div class="dplab-share-words">{words}</div></div>')


def home_address(link: str, url_path: str) -> str:
    """The lab's home address from the ``link`` of its page ``url_path`` (query dropped).

    >>> home_address("https://lab.example.edu/dp/truncation-bias?room=K7QX2", "truncation-bias")
    'https://lab.example.edu/dp'
    """
    address = short_address(link)
    return address.removesuffix("/" + url_path) if url_path else address


def _breakable(address: str) -> str:
    """``address`` escaped for HTML, with a line-break opportunity after each ``/`` and before the port's ``:``
    (a long address wraps between its parts, not inside a number).

    >>> _breakable("http://192.168.1.20:8501/truncation-bias")
    'http://<wbr>192.168.1.20<wbr>:8501/<wbr>truncation-bias'
    """
    scheme, _, rest = address.partition("://")
    rest = html.escape(rest, quote=False).replace("/", "/<wbr>").replace(":", "<wbr>:")
    return f"{html.escape(scheme)}://<wbr>{rest}"


def class_link(query: Mapping[str, str | Sequence[str]]) -> str:
    """The link students open for this page with ``query`` (:func:`share_link` at the lab's public URL, if any), after
    showing the problems it may have: an unusable public URL (an error), a ``localhost`` link (a warning)."""
    public, problem = public_url()
    if problem:
        st.error(problem)
    link = share_link(_browser_url(), query, public, _base_path())
    warning = loopback_warning(link, lan_addresses())
    if warning:
        st.warning(warning, icon=":material/wifi_off:")
    return link


def _browser_url() -> str:
    """The address of this page in the teacher's browser (``st.context.url``: scheme, host, page path); without a
    browser (AppTest), this page at :data:`DEFAULT_ADDRESS`."""
    if st.context.url:
        return st.context.url
    from streamlit.runtime.context_util import maybe_add_page_path
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    return DEFAULT_ADDRESS if ctx is None else maybe_add_page_path(DEFAULT_ADDRESS, ctx.pages_manager)


def _base_path() -> str:
    return str(st.get_option("server.baseUrlPath") or "")


def share_control(present: bool) -> None:
    """The "Share with the class" expander (its content built only when open): the QR code of this page's link and
    the address to type, big in presentation mode; the full link to copy; a warning when the link names
    ``localhost`` or the public URL given is unusable."""
    with st.expander("Share with the class: QR code and address", key=SHARE, on_change="rerun",
                     icon=":material/qr_code_2:") as box:
        if not box.open:
            return
        link = class_link(page_settings({key: st.query_params.get_all(key) for key in st.query_params}))
        st.html(share_html(link, present))
        st.caption("The link itself (the page with its settings; without presentation mode, the teacher view, the "
                   "answers shown or a class poll's room). "
                   f"{MOVED_FRAMES_NOTE}")
        st.code(link, language=None, wrap_lines=True)


"""A class poll over Streamlit's websocket: a teacher and students as their browsers drive it (docs/testing.md §8).

The teacher's tab is a browser that holds the lab's teacher key (the cookie the teacher view keeps,
:mod:`classroom.teacher`; the server's ``DPLAB_TEACHER_KEY`` must be this process's): it opens
``/truncation-bias?teacher=1``, clicks "Poll the class" under the question keyed ``radius``, reads
the room's code from the page, watches the count (the page's fragment, every ``classroom.poll.TEACHER_SECONDS``) and
reveals. A student opens ``/truncation-bias?room=CODE``, picks an answer, sends it, and waits for the reveal (the
page's fragment, every ``classroom.poll.STUDENT_SECONDS``), which then draws the released counts.

Used by ``tests/e2e/test_poll_replicas.py`` (60 voters over two replicas: exact counts, replays, refusals, one release
on every screen) and ``benchmarks/load.py --poll N`` (a room of N voters: seconds per interaction).
"""

from __future__ import annotations

import html
import re

from interaction_latency import Run, Session, find_widgets
from streamlit.proto.WidgetStates_pb2 import WidgetState
from websockets.sync.client import ClientConnection, connect

from classroom import teacher_key  # noqa: E402 (after interaction_latency puts the repository on sys.path)

PAGE = "truncation-bias"  #: the page the poll runs on
QUESTION = "radius"  #: the key of that page's predict question
_CODE = re.compile(r'class="dplab-room-code">([A-Z0-9]+)<')
_ANSWERED = re.compile(r"\*\*(\d+)\*\* answered so far")
_ROW = re.compile(r'<tr role="row">(<td.*?)</tr>')
_CELL = re.compile(r'<td role="cell" data-label="([^"]*)">([^<]*)</td>')


def open_socket(url: str, timeout: float, teacher: bool = False) -> ClientConnection:
    """A websocket on the server (or nginx) at ``url`` (``ws://host:port``), as a browser tab opens it; ``teacher``:
    the teacher's browser, which sends the teacher key's token as its cookie."""
    cookie = {"Cookie": f"dplab_teacher={teacher_key.browser_token()}"} if teacher else None
    return connect(f"{url}/_stcore/stream", subprotocols=["streamlit"], max_size=None, open_timeout=timeout,
                   ping_interval=None, additional_headers=cookie)


# ---------------------------------------------------------------------------- reading a run
def element_ids(run: Run) -> dict[str, str]:
    """The element id of every keyed element of ``run`` (widgets, buttons), by its user key."""
    return {proto.id.split("-", 2)[-1]: proto.id for _, proto in run.elements if getattr(proto, "id", "")}


def bodies(run: Run, *kinds: str) -> list[str]:
    """The text bodies of the elements of ``run`` of the given kinds (``markdown``, ``html``, ``alert``)."""
    return [proto.body for name, proto in run.elements if name in kinds]


def alerts(run: Run) -> list[str]:
    """The texts of the alerts (error, warning, info, success) of ``run``."""
    return bodies(run, "alert")


def room_code(run: Run) -> str | None:
    """The room code the teacher's page shows, or None."""
    found = [match.group(1) for body in bodies(run, "html") if (match := _CODE.search(body))]
    return found[0] if found else None


def answered(run: Run) -> int | None:
    """How many answered, as the teacher's count says, or None when the run does not show it."""
    found = [int(match.group(1)) for body in bodies(run, "markdown") if (match := _ANSWERED.search(body))]
    return found[0] if found else None


def released(run: Run) -> list[tuple[str, str]] | None:
    """The released counts the run shows (``(answer, count)`` per row of the ``dplab-table`` whose column says
    "released"), or None when it shows none."""
    for body in bodies(run, "markdown"):
        if "dplab-table" in body and "released with" in body:
            rows = [dict(_CELL.findall(row)) for row in _ROW.findall(body)]
            column = next(label for label in rows[0] if label.startswith("answers, released"))
            return [(html.unescape(row["answer"]), html.unescape(row[column])) for row in rows]
    return None


# ---------------------------------------------------------------------------- the browsers
class PollPage:
    """One browser tab on the poll's page: the session, the widget states it sends, its last full run.

    Parameters
    ----------
    ws : ClientConnection
        The tab's open websocket.
    query : str
        The address's query string (``teacher=1``, ``room=CODE``).
    timeout : float
        Seconds each run may take.
    """

    def __init__(self, ws: ClientConnection, query: str, timeout: float) -> None:
        self.session = Session(ws, PAGE)
        self.session.query = query
        self.timeout = timeout
        self.states: list[WidgetState] = []
        self.last = Run()

    def open(self) -> Run:
        """The page's first run."""
        return self._full(self.session.once([], self.timeout))

    def click(self, key: str, extra: tuple[WidgetState, ...] = ()) -> Run:
        """Click the button keyed ``key`` of the last full run (with ``extra`` states, e.g. a radio's answer)."""
        button = WidgetState(id=element_ids(self.last)[key], trigger_value=True)
        return self._full(self.session.once([*self.states, *extra, button], self.timeout))

    def poll(self) -> Run:
        """One auto-rerun of the page's (first) polling fragment, as the browser's timer sends it; the run is the
        full page's when the fragment reran it."""
        fragment = next(iter(self.session.auto_reruns))
        run = self.session.once(self.states, self.timeout, fragment)
        return self._full(run) if _is_full(run) else run

    @property
    def interval(self) -> float:
        """Seconds between two auto-reruns of the page's polling fragment (0 when none is pending)."""
        return next(iter(self.session.auto_reruns.values()), 0.0)

    def _full(self, run: Run) -> Run:
        if not run.failed:
            widgets, _ = find_widgets(run)
            self.states, self.last = [widget.state(widget.value) for widget in widgets], run
        return run


def _is_full(run: Run) -> bool:
    """Whether ``run`` drew the whole page (its sidebar controls), not only a fragment."""
    return any(name == "slider" for name, _ in run.elements)


class Teacher(PollPage):
    """The teacher's tab (``?teacher=1``): opens the poll, counts, reveals."""

    def __init__(self, ws: ClientConnection, timeout: float) -> None:
        super().__init__(ws, "teacher=1", timeout)

    def start_poll(self) -> str:
        """Click "Poll the class" under the question; the room's code shown."""
        run = self.click(f"poll_start_{QUESTION}")
        code = room_code(run)
        if code is None:
            raise RuntimeError(f"no room code on the teacher's page: {run.status} {run.exceptions} {alerts(run)}")
        return code

    def reveal(self) -> Run:
        """Click "Reveal the class's answers" at the ε shown."""
        return self.click(f"poll_reveal_{QUESTION}")


class Student(PollPage):
    """A student's tab on the poll's link (``?room=CODE``)."""

    def __init__(self, ws: ClientConnection, code: str, timeout: float) -> None:
        super().__init__(ws, f"room={code}", timeout)
        self.code = code
        self._radio = self._button = ""

    @property
    def choices(self) -> list[str]:
        """The answers the ballot offers (empty when it shows none)."""
        radios = [proto for name, proto in self.last.elements if name == "radio" and proto.id == self._radio]
        return list(radios[0].options) if radios else []

    @property
    def has_ballot(self) -> bool:
        """Whether the last full run shows the ballot (the answers and "Send my answer")."""
        return "poll_send" in element_ids(self.last)

    def vote(self, choice: str) -> Run:
        """Pick ``choice`` and click "Send my answer" (also when the page has redrawn without the button: what a
        stale page, a double tap, sends)."""
        radio = WidgetState(id=self._radio, string_value=choice)
        button = WidgetState(id=self._button, trigger_value=True)
        return self._full(self.session.once([*self.states, radio, button], self.timeout))

    def double_tap(self, first: str, second: str) -> Run:
        """Send ``first``, then ``second`` before the page has redrawn (two quick taps, the answer changed between
        them); the page as it was left."""
        taps = [[*self.states, WidgetState(id=self._radio, string_value=choice),
                 WidgetState(id=self._button, trigger_value=True)] for choice in (first, second)]
        return self._full(self.session.burst(taps, self.timeout))

    def _remember_ids(self) -> None:
        ids = element_ids(self.last)
        self._radio, self._button = ids[f"poll_choice_{self.code}"], ids["poll_send"]

    def open(self) -> Run:
        """The page's first run; the ballot's ids kept (a later stale click reuses them)."""
        run = super().open()
        if self.has_ballot:
            self._remember_ids()
        return run

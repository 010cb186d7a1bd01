"""Interaction latency: how long the app takes to answer one move of one control, page by page.

What it measures
    For every page of ``registry.PAGES`` and every control on it (sliders, select sliders, radio buttons, select
    boxes, number inputs, checkboxes / toggles), the wall time from sending one changed widget value to the server
    until that rerun's ``script_finished`` arrives: what a user waits for after a move, minus the browser's drawing.
    Each control is set to ``--values`` non-default values (option widgets: first, middle, last option; numeric
    widgets: min, middle, max on the widget's step grid; always different from the default), each move made from the
    page's default state. Buttons and download buttons are skipped (a click is not a state a rerun keeps).

Method
    A real ``streamlit run app.py`` server on a free loopback port, driven over its websocket with Streamlit's own
    protobufs, as a browser does (docs/testing.md §8): per page one session; a first
    ``rerun_script`` at the defaults records the widgets from the run's elements; then for each change a
    ``rerun_script`` carrying ALL widgets' states with that one changed (timed), then one with the defaults again
    (untimed), so every change is measured from the default state. One session at a time.

    The answer time is the bar's figure. A page may answer with a quick preview and refine itself: it registers a
    ``st.fragment(run_every=...)`` (ForwardMsg ``auto_rerun``), which a browser polls with ``rerun_script``
    (``fragment_id``, ``is_auto_rerun``) until the fragment's ``st.rerun()`` redraws the page; this client polls the
    same way and also reports the time until the page has settled, so the next move starts from an idle server.

    A move fails when it shows an exception element, does not answer (or settle) within ``--timeout`` seconds, or is
    not taken by the page (the page mirrors its ``w_<key>`` controls into the URL, so the query string must change).
    Error and warning alerts (the pages' own messages) are counted, not failed.

Bar (issue)
    Any single interaction: p95 <= 1 s and max <= 2 s, on a 2-core machine with one session alone.

Run: ``./lab.sh bench`` or ``.venv/bin/python benchmarks/interaction_latency.py [--pages home,truncation-bias]
[--values N] [--timeout S] [--port P] [--json out.json]``. Exits 1 if any move failed (above); a page over the
bar alone does not fail the run.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ClientState_pb2 import ClientState
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.NumberInput_pb2 import NumberInput
from streamlit.proto.Slider_pb2 import Slider
from streamlit.proto.WidgetStates_pb2 import WidgetState, WidgetStates
from websockets.sync.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from registry import PAGES, PageInfo  # noqa: E402

BAR_P95, BAR_MAX = 1.0, 2.0  # seconds, any single interaction, one session alone on 2 cores
BAR = f"bar: p95 <= {BAR_P95:g} s, max <= {BAR_MAX:g} s per interaction (2 cores, one session)"
SKIPPED = {"button": "a click, not a state", "download_button": "a download, not a rerun"}
ALERT_FORMATS = {1: "error", 2: "warning"}


# ---------------------------------------------------------------------------- the server
def free_port() -> int:
    """A free TCP port on the loopback interface."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(port: int, log: Path, wait: float = 120.0, env: dict[str, str] | None = None, *,
                 script: str = "app.py", root: Path = ROOT) -> subprocess.Popen:
    """Start ``streamlit run app.py`` on ``127.0.0.1:port`` (its own process group) and wait for its health check.

    Parameters
    ----------
    port : int
    log : Path
        File receiving the server's output.
    wait : float
        Seconds to wait for ``/_stcore/health`` to answer 200.
    env : dict of str, optional
        The server's environment (default: this process's), e.g. with ``DPLAB_DATA_DIR`` set so that several servers
        share one poll store.
    script, root : str, Path
        The script run (``app.py``), from the checkout ``root`` (this one): its ``.streamlit/config.toml`` applies and
        its modules are imported.
    """
    command = [sys.executable, "-m", "streamlit", "run", script, "--server.headless", "true",
               "--server.address", "127.0.0.1", "--server.port", str(port), "--server.fileWatcherType", "none",
               "--browser.gatherUsageStats", "false"]
    with log.open("wb") as out:
        server = subprocess.Popen(command, cwd=root, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
                                  env=env)
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the server exited with {server.returncode}:\n{log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as answer:
                if answer.status == 200:
                    return server
        except OSError:
            time.sleep(0.2)
    stop_server(server)
    raise RuntimeError(f"no health answer on port {port} within {wait:g} s:\n{log.read_text()[-2000:]}")


def stop_server(server: subprocess.Popen) -> None:
    """Stop the server and its children (its own process group), by its id."""
    if server.poll() is None:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


# ---------------------------------------------------------------------------- one websocket session
SUCCESS = {"FINISHED_SUCCESSFULLY", "FINISHED_FRAGMENT_RUN_SUCCESSFULLY"}


@dataclass
class Run:
    """What one rerun produced.

    ``seconds``: until the first ``script_finished`` of the full run (the page's answer); ``settled``: until the page
    stopped refining itself (no fragment auto-rerun pending: a quick preview replaced by the requested run), the same
    when nothing was pending; ``polls``: fragment auto-reruns sent meanwhile. ``elements`` and ``alerts`` are those of
    the last full run; ``exceptions`` those of every run.
    """

    seconds: float = math.nan
    status: str = "TIMEOUT"
    settled: float = math.nan
    polls: int = 0
    elements: list[tuple[str, Any]] = field(default_factory=list)
    exceptions: list[str] = field(default_factory=list)
    alerts: dict[str, int] = field(default_factory=dict)

    @property
    def failed(self) -> bool:
        """Whether the rerun raised an exception, or did not finish (or settle) successfully in time."""
        return bool(self.exceptions) or self.status not in SUCCESS


class Session:
    """One browser-like session on ``/_stcore/stream`` showing one page.

    Parameters
    ----------
    ws : ClientConnection
        An open websocket (subprotocol ``streamlit``).
    page : str
        The page's URL path ("" for home), sent as ``page_name``; the page's script hash once the server named it.
    """

    def __init__(self, ws: ClientConnection, page: str) -> None:
        self.ws = ws
        self.page = page
        self.page_hash = ""
        self.query = ""  # the address bar's query string, as the page last wrote it
        self.auto_reruns: dict[str, float] = {}  # fragment id -> interval (s) the browser would poll it at

    def rerun(self, states: list[WidgetState], timeout: float, settle: bool = True) -> Run:
        """Send ``rerun_script`` with ``states``; time the answer, then (``settle``) poll like a browser until the page
        settles, or else move on as a student does, leaving the refinement to the server.

        The whole exchange is bounded by ``timeout`` seconds.
        """
        start = time.monotonic()
        deadline = start + timeout
        run = Run()
        self._send(states)
        if not self._collect(run, deadline):
            return run
        run.seconds = run.settled = time.monotonic() - start
        if not settle:
            self.auto_reruns.clear()
            return run
        while self.auto_reruns and run.status in SUCCESS:
            fragment, interval = next(iter(self.auto_reruns.items()))
            if time.monotonic() + interval >= deadline:
                run.status = "SETTLE TIMEOUT"
                return run
            time.sleep(interval)
            self._send(states, fragment)
            run.polls += 1
            if not self._collect(run, deadline):
                return run  # TIMEOUT: a fragment run is still in flight
            run.settled = time.monotonic() - start
        return run

    def once(self, states: list[WidgetState], timeout: float, fragment: str = "") -> Run:
        """One rerun, timed until its ``script_finished``, without settling: the page's pending fragment auto-reruns
        stay in :attr:`auto_reruns` for the caller to send. With ``fragment``: one auto-rerun of that fragment, as a
        browser's timer sends it (the run has the full page's elements if the fragment reran the page)."""
        start, run = time.monotonic(), Run()
        self._send(states, fragment)
        if self._collect(run, start + timeout):
            run.seconds = run.settled = time.monotonic() - start
        return run

    def burst(self, batches: list[list[WidgetState]], timeout: float, quiet: float = 1.0) -> Run:
        """Send one rerun per item of ``batches`` back to back, as quick clicks do before the page redraws; return
        the run that answered last. Streamlit may merge them, end one early for the next, or run them one after
        another: after a run finishes, the next one's start (``new_session``) is awaited ``quiet`` seconds. Bounded by
        ``timeout`` seconds in all; exceptions of every run are kept."""
        start = time.monotonic()
        deadline = start + timeout
        for states in batches:
            self._send(states)
        run = Run()
        finished = self._collect(run, deadline)
        while finished:
            run.seconds = run.settled = time.monotonic() - start
            try:
                message = ForwardMsg.FromString(self.ws.recv(timeout=min(quiet, deadline - time.monotonic())))
            except TimeoutError:
                break
            if message.WhichOneof("type") != "new_session":
                self._take(message, run)  # a closing message of the run that finished
                continue
            later = Run(exceptions=list(run.exceptions))
            finished = self._take(message, later) or self._collect(later, deadline)
            run = later
        return run

    def stop(self, timeout: float) -> bool:
        """Ask the server to stop the running script; whether it finished within ``timeout`` seconds."""
        self.ws.send(BackMsg(stop_script=True).SerializeToString())
        self.auto_reruns.clear()
        return self._collect(Run(), time.monotonic() + timeout)

    def _send(self, states: list[WidgetState], fragment: str = "") -> None:
        client = ClientState(query_string=self.query, page_name=self.page, page_script_hash=self.page_hash,
                             widget_states=WidgetStates(widgets=states), fragment_id=fragment,
                             is_auto_rerun=bool(fragment))
        self.ws.send(BackMsg(rerun_script=client).SerializeToString())

    def _collect(self, run: Run, deadline: float) -> bool:
        """Read ForwardMsgs into ``run`` until ``script_finished``; False when ``deadline`` passed first."""
        while (left := deadline - time.monotonic()) > 0:
            try:
                message = ForwardMsg.FromString(self.ws.recv(timeout=left))
            except TimeoutError:
                break
            if self._take(message, run):
                return True
        run.status = "TIMEOUT"
        return False

    def _take(self, message: ForwardMsg, run: Run) -> bool:
        """Record one ForwardMsg into ``run`` (and the session); whether it ends the script run."""
        kind = message.WhichOneof("type")
        if kind == "new_session" and not message.metadata.run.fragment_ids:
            # a full run starts (a fragment run's new_session names its fragments): the browser clears its
            # fragment timers, and the page is redrawn
            self.auto_reruns.clear()
            run.elements.clear()
            run.alerts.clear()
        elif kind == "navigation":
            # with st.navigation, new_session.page_script_hash is app.py's; the page's own hash comes here
            self.page_hash = message.navigation.page_script_hash
        elif kind == "page_info_changed":
            self.query = message.page_info_changed.query_string
        elif kind == "auto_rerun":
            self.auto_reruns[message.auto_rerun.fragment_id] = message.auto_rerun.interval
        elif kind == "stop_auto_rerun":
            for fragment in message.stop_auto_rerun.fragment_ids:
                self.auto_reruns.pop(fragment, None)
        elif kind == "page_not_found":
            run.exceptions.append(f"page not found: {message.page_not_found.page_name!r}")
        elif kind == "ref_hash":  # only sent for messages the client says it has cached; we never say so
            raise RuntimeError("the server sent a cached-message reference; this client cannot resolve it")
        elif kind == "delta" and message.delta.WhichOneof("type") == "new_element":
            self._element(message.delta.new_element, run)
        elif kind == "script_finished":
            # ignore a run ended early by a rerun (ours racing it, or the page's own st.rerun()): its successor follows
            if message.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                run.status = ForwardMsg.ScriptFinishedStatus.Name(message.script_finished)
                return True
        return False

    @staticmethod
    def _element(element: Any, run: Run) -> None:
        name = element.WhichOneof("type")
        proto = getattr(element, name)
        run.elements.append((name, proto))
        if name == "exception":
            run.exceptions.append(f"{proto.type}: {proto.message}")
        elif name == "alert" and proto.format in ALERT_FORMATS:
            level = ALERT_FORMATS[proto.format]
            run.alerts[level] = run.alerts.get(level, 0) + 1


# ---------------------------------------------------------------------------- widgets
@dataclass
class Widget:
    """A control found in a run: its id, kind, label, user key, choices and default value (wire form).

    ``options`` lists the formatted options of an option widget; ``low``/``high``/``step``/``integer`` describe a
    numeric one. ``value`` is what the browser would send: a float, an int, a bool or an option string.
    """

    id: str
    kind: str
    label: str
    value: Any
    options: list[str] = field(default_factory=list)
    low: float = 0.0
    high: float = 0.0
    step: float = 1.0
    integer: bool = False

    @property
    def key(self) -> str:
        """The widget's user key (``w_<urlkey>`` for the page controls): the id's tail after ``$$ID-<hash>-``; for a
        widget without a key, the start of its label."""
        parts = self.id.split("-", 2)
        return parts[2] if len(parts) == 3 and parts[2] != "None" else self.label[:24]

    def state(self, value: Any) -> WidgetState:
        """The ``WidgetState`` a browser sends for this widget at ``value``."""
        if self.kind == "select_slider":
            return WidgetState(id=self.id, string_array_value={"data": [value]})
        if self.kind == "slider":
            return WidgetState(id=self.id, double_array_value={"data": [value]})
        if self.kind in ("radio", "selectbox"):
            return WidgetState(id=self.id, string_value=value)
        if self.kind == "number_input":
            return WidgetState(id=self.id, int_value=value) if self.integer else WidgetState(id=self.id,
                                                                                            double_value=value)
        return WidgetState(id=self.id, bool_value=value)

    def show(self, value: Any) -> str:
        """``value`` as a short text."""
        return f"{value:g}" if isinstance(value, float) else str(value)


def _option_widget(kind: str, proto: Any, current: str) -> Widget:
    return Widget(proto.id, kind, proto.label, current, options=list(proto.options))


def parse_widget(name: str, proto: Any) -> Widget | str:
    """The :class:`Widget` of one element, or why it is not measured.

    The current value is the one the server set (``set_value``: the page seeded it from the URL) or the default.
    """
    if name == "slider" and proto.type == Slider.SELECT_SLIDER:
        current = list(proto.raw_value) if proto.set_value else [proto.options[int(i)] for i in proto.default]
        return _option_widget("select_slider", proto, current[0]) if len(current) == 1 else "a range select slider"
    if name == "slider":
        current = list(proto.value) if proto.set_value else list(proto.default)
        if len(current) != 1:
            return "a range slider"
        integer = proto.data_type == Slider.INT
        if proto.data_type not in (Slider.INT, Slider.FLOAT):
            return "a date/time slider"
        return Widget(proto.id, "slider", proto.label, current[0], low=proto.min, high=proto.max,
                      step=proto.step or (proto.max - proto.min) / 100, integer=integer)
    if name in ("radio", "selectbox"):
        if proto.set_value:
            return _option_widget(name, proto, proto.raw_value)
        if not proto.HasField("default") or not proto.options:
            return "no option selected"
        return _option_widget(name, proto, proto.options[proto.default])
    if name == "number_input":
        integer = proto.data_type == NumberInput.INT
        current = proto.value if proto.set_value else proto.default
        low = proto.min if proto.has_min else current - 100 * (proto.step or 1)
        high = proto.max if proto.has_max else current + 100 * (proto.step or 1)
        return Widget(proto.id, name, proto.label, int(current) if integer else current, low=low, high=high,
                      step=proto.step or (1 if integer else 0.01), integer=integer)
    if name == "checkbox":
        return Widget(proto.id, name, proto.label, proto.value if proto.set_value else proto.default)
    return SKIPPED.get(name, "not a widget this benchmark can set")


def find_widgets(run: Run) -> tuple[list[Widget], list[str]]:
    """The measurable widgets of a run, and a line for each widget skipped (with the reason)."""
    widgets: dict[str, Widget] = {}
    skipped = []
    for name, proto in run.elements:
        if not getattr(proto, "id", "") or name in ("plotly_chart", "dataframe", "vega_lite_chart"):
            continue  # a display element (charts carry an id for their selection state; not a control)
        found = parse_widget(name, proto)
        if isinstance(found, Widget):
            widgets[found.id] = found
        else:
            skipped.append(f"{name} {getattr(proto, 'label', '') or proto.id!r}: {found}")
    return list(widgets.values()), skipped


def spread(count: int, current: int | None, n: int) -> list[int]:
    """``n`` indices out of ``range(count)`` spread from first to last (one: the middle), never ``current``.

    >>> spread(10, 0, 3), spread(10, 9, 1), spread(2, 0, 3)
    ([1, 4, 9], [4], [1])
    """
    positions = [0.5] if n == 1 else [k / (n - 1) for k in range(n)]
    chosen: list[int] = []
    for position in positions:
        target = round(position * (count - 1))
        for offset in range(2 * n + 2):
            index = target + (offset + 1) // 2 * (1 if offset % 2 else -1)
            if 0 <= index < count and index != current and index not in chosen:
                chosen.append(index)
                break
    return chosen


def values_to_try(widget: Widget, n: int) -> list[Any]:
    """``n`` non-default values of ``widget`` (fewer when it has fewer): spread options, or min / middle / max on
    its step grid."""
    if widget.kind == "checkbox":
        return [not widget.value]
    if widget.options:
        current = widget.options.index(widget.value) if widget.value in widget.options else None
        return [widget.options[i] for i in spread(len(widget.options), current, n)]
    count = int(math.floor((widget.high - widget.low) / widget.step + 1e-9)) + 1
    current = round((widget.value - widget.low) / widget.step)
    grid = [min(widget.low + i * widget.step, widget.high) for i in spread(count, current, n)]
    return [int(round(v)) if widget.integer else float(f"{v:.12g}") for v in grid]


# ---------------------------------------------------------------------------- measuring a page
@dataclass
class Change:
    """One measured move: the control, the value sent and what came back.

    ``seconds``: until the page's answer (``script_finished``); ``settled``: until it stopped refining itself;
    ``applied``: whether the page took the value (it mirrors its ``w_<key>`` controls into the URL, so the query
    string must change; None for other widgets).
    """

    page: str
    key: str
    label: str
    value: str
    seconds: float
    settled: float
    polls: int
    status: str
    exceptions: list[str]
    alerts: dict[str, int]
    applied: bool | None

    @property
    def failed(self) -> bool:
        """An exception, a timeout, or a value the page did not take."""
        return bool(self.exceptions) or self.status not in SUCCESS or self.applied is False


@dataclass
class PageResult:
    """All the moves measured on one page, the widgets skipped, and the page-level problems."""

    page: str
    title: str
    default_seconds: float = math.nan
    changes: list[Change] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def failures(self) -> int:
        """Failed moves plus page-level problems."""
        return sum(change.failed for change in self.changes) + len(self.problems)


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile ``q`` (0-100) of ``values`` (nan when empty).

    >>> percentile([1.0, 2.0, 3.0, 4.0], 50), percentile([1.0, 2.0, 3.0, 4.0], 95)
    (2.0, 4.0)
    """
    ordered = sorted(values)
    return ordered[max(math.ceil(q / 100 * len(ordered)) - 1, 0)] if ordered else math.nan


def move(session: Session, page: str, widgets: list[Widget], index: int, value: Any, timeout: float) -> Change:
    """Time one move: every widget at its default but ``widgets[index]`` at ``value``."""
    widget = widgets[index]
    states = [w.state(value if i == index else w.value) for i, w in enumerate(widgets)]
    before = session.query
    run = session.rerun(states, timeout)
    applied = session.query != before if widget.key.startswith("w_") and run.status in SUCCESS else None
    return Change(page, widget.key, widget.label, widget.show(value), run.seconds, run.settled, run.polls,
                  run.status, run.exceptions, dict(run.alerts), applied)


def measure_page(page: PageInfo, port: int, n: int, timeout: float) -> PageResult:
    """Open a session on ``page``, run it at its defaults, then time ``n`` moves of every control from there."""
    result = PageResult(page.url_path, page.title)
    with connect(f"ws://127.0.0.1:{port}/_stcore/stream", subprotocols=["streamlit"], max_size=None,
                 open_timeout=30, ping_interval=None) as ws:
        session = Session(ws, page.url_path)
        first = session.rerun([], timeout)
        result.default_seconds = first.settled
        if first.failed:
            result.problems.append(f"the default run: {first.status} {first.exceptions}")
            return result
        widgets, result.skipped = find_widgets(first)
        defaults = [widget.state(widget.value) for widget in widgets]
        print_page_header(result, widgets)
        for index, widget in enumerate(widgets):
            for value in values_to_try(widget, n):
                change = move(session, page.url_path, widgets, index, value, timeout)
                result.changes.append(change)
                print_change(change)
                if change.status == "TIMEOUT" and not session.stop(timeout):
                    result.problems.append(f"{change.key}={change.value} could not be stopped")
                    return result
                restored = session.rerun(defaults, timeout)
                if restored.failed:
                    result.problems.append(f"restoring the defaults after {change.key}={change.value}: "
                                           f"{restored.status} {restored.exceptions}")
                    return result
    return result


# ---------------------------------------------------------------------------- reporting
def _cell(seconds: float) -> str:
    return "-" if math.isnan(seconds) else f"{seconds:.3f}"


def print_page_header(result: PageResult, widgets: list[Widget]) -> None:
    """The page's heading, its default run and the widgets measured and skipped."""
    print(f"\n## {result.title} (/{result.page}): default run {_cell(result.default_seconds)} s; "
          f"{len(widgets)} controls")
    for line in result.skipped:
        print(f"   skipped: {line}")
    print(f"   {'control':<24} {'value':>16} {'answer s':>9} {'settled s':>9}  notes")


def print_change(change: Change) -> None:
    """One measured move, as a table row (printed as soon as it is measured)."""
    notes = [change.status] if change.status != "FINISHED_SUCCESSFULLY" else []
    notes += [f"quick preview, {change.polls} poll(s)"] if change.polls else []
    notes += ["VALUE NOT APPLIED"] if change.applied is False else []
    notes += [f"{count} {level} alert(s)" for level, count in sorted(change.alerts.items())]
    notes += [f"EXCEPTION {text[:100]}" for text in change.exceptions]
    print(f"   {change.key:<24} {change.value[:16]:>16} {_cell(change.seconds):>9} {_cell(change.settled):>9}  "
          f"{'; '.join(notes)}", flush=True)


def page_summary(result: PageResult) -> dict[str, Any]:
    """p50 / p95 / max seconds (answer and settled), the worst move, failures and alerts of a page."""
    answered = [change for change in result.changes if not math.isnan(change.seconds) and change.status != "TIMEOUT"]
    times = [change.seconds for change in answered]
    settled = [change.settled for change in result.changes if change.status in SUCCESS]
    worst = max(result.changes, key=lambda c: math.inf if c not in answered else c.seconds, default=None)
    return dict(page=result.page or "home", changes=len(result.changes), p50=percentile(times, 50),
                p95=percentile(times, 95), max=max(times, default=math.nan),
                settled_p95=percentile(settled, 95), settled_max=max(settled, default=math.nan),
                timeouts=sum(change.status.endswith("TIMEOUT") for change in result.changes),
                exceptions=sum(bool(change.exceptions) for change in result.changes),
                not_applied=sum(change.applied is False for change in result.changes), failures=result.failures,
                error_alerts=sum(change.alerts.get("error", 0) for change in result.changes),
                worst=f"{worst.label} ({worst.key}) = {worst.value}" if worst else "-")


def meets_bar(summary: dict[str, Any]) -> str:
    """PASS / FAIL of one page's answer times against the bar."""
    ok = summary["p95"] <= BAR_P95 and summary["max"] <= BAR_MAX and not summary["timeouts"]
    return "PASS" if ok else "FAIL"


def print_page_footer(result: PageResult) -> None:
    """The page's p50 / p95 / max, worst move and failures, next to the bar."""
    s = page_summary(result)
    print(f"   -> {s['changes']} changes, answer: p50 {_cell(s['p50'])} s, p95 {_cell(s['p95'])} s, max "
          f"{_cell(s['max'])} s ({BAR}: {meets_bar(s)}); settled: p95 {_cell(s['settled_p95'])} s, max "
          f"{_cell(s['settled_max'])} s; worst: {s['worst']}; exceptions {s['exceptions']}, timeouts {s['timeouts']}, "
          f"not applied {s['not_applied']}, error alerts {s['error_alerts']}")
    for problem in result.problems:
        print(f"   PROBLEM: {problem}")


def print_summary(results: list[PageResult]) -> None:
    """The table of all pages."""
    print(f"\n## Summary ({BAR})")
    print(f"{'page':<22} {'moves':>5} {'p50 s':>7} {'p95 s':>7} {'max s':>8} {'bar':<4} {'settled p95/max s':>17} "
          f"{'exc':>4} {'t/o':>4} {'n/a':>4} {'err':>4}  worst control")
    for result in results:
        s = page_summary(result)
        settled = f"{_cell(s['settled_p95'])}/{_cell(s['settled_max'])}"
        print(f"{s['page']:<22} {s['changes']:>5} {_cell(s['p50']):>7} {_cell(s['p95']):>7} {_cell(s['max']):>8} "
              f"{meets_bar(s):<4} {settled:>17} {s['exceptions']:>4} {s['timeouts']:>4} {s['not_applied']:>4} "
              f"{s['error_alerts']:>4}  {s['worst']}")
    print("p50/p95/max: seconds until the page answers (script_finished), the bar's figure; settled: until a quick "
          "preview has been replaced by the requested run; exc: moves showing an exception; t/o: not finished within "
          "--timeout; n/a: value not taken by the page; err: error alerts shown (the pages' own messages, not "
          "failures)")


# ---------------------------------------------------------------------------- main
def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command-line options."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pages", default="", help="comma-separated URL paths (home: 'home' or ''); default all")
    parser.add_argument("--values", type=int, default=3, help="non-default values per control (default 3)")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per move, answer + settling (300)")
    parser.add_argument("--port", type=int, default=0, help="server port (default: a free one)")
    parser.add_argument("--json", type=Path, help="also write the raw measurements to this file")
    return parser.parse_args(argv)


def chosen_pages(spec: str) -> list[PageInfo]:
    """The pages named in ``--pages`` (all when empty), in registry order."""
    if not spec:
        return list(PAGES)
    wanted = {"" if name.strip() in ("home", "/") else name.strip().lstrip("/") for name in spec.split(",")}
    unknown = wanted - {page.url_path for page in PAGES}
    if unknown:
        raise SystemExit(f"unknown pages {sorted(unknown)}; known: {['home'] + [p.url_path for p in PAGES[1:]]}")
    return [page for page in PAGES if page.url_path in wanted]


def main(argv: list[str] | None = None) -> int:
    """Start the server, measure the chosen pages one session at a time, print the tables; 1 on any failure."""
    args = parse_args(argv)
    pages = chosen_pages(args.pages)
    port = args.port or free_port()
    log = Path(tempfile.mkstemp(prefix="interaction_latency-", suffix=".log")[1])
    print(f"Interaction latency over the websocket: {len(pages)} page(s), {args.values} value(s) per control, "
          f"timeout {args.timeout:g} s per rerun; {BAR}; server log {log}")
    server = start_server(port, log)
    results = []
    try:
        for page in pages:
            result = measure_page(page, port, args.values, args.timeout)
            print_page_footer(result)
            results.append(result)
    finally:
        stop_server(server)
    print_summary(results)
    if args.json:
        args.json.write_text(json.dumps(dict(bar=dict(p95=BAR_P95, max=BAR_MAX), values=args.values,
                                             timeout=args.timeout, pages=[asdict(r) for r in results],
                                             summary=[page_summary(r) for r in results]), indent=1, default=str))
    return 1 if any(result.failures for result in results) else 0


if __name__ == "__main__":
    sys.exit(main())

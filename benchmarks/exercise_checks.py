"""Checking an answer ("Check yourself"): what it costs the server, over Streamlit's websocket, against a real server.

What it measures
    A fresh ``streamlit run app.py`` on a free loopback port, with its own ``DPLAB_DATA_DIR`` in a temporary folder,
    that has opened every page once, as ``load.py`` and ``./lab.sh serve`` do (``deploy/warm.py``; with ``--mixed 0``
    only ``/pure-vs-approximate``, the page with exercises). Each simulated student opens that page and waits for its
    first run; then the hidden progress component reports what the browser keeps (nothing: a new student), and the
    student answers the page's numeric exercise (:mod:`dpcore.exercises`): types a number in its box, then clicks
    "Check" (:mod:`classroom.check_yourself`). A seeded two in three of the answers are right (the
    right value of the student's own variant), the others wrong; every check must come back graded ("Right." or
    "Not yet.").

    * **1 student, ``--checks`` checks one after another**: the server's CPU-seconds per check and the seconds per
      check; then, in the same session, ``--moves`` moves of ε (a full rerun of the page, every figure; three
      values of the slider, then back to the default, in turn) for comparison.
    * **``--students`` students answering at once**: all open the page and report their progress, wait for each
      other, then all check at once: the seconds per check (p50 / p95 / max) and the CPU-seconds per check.
    * **``--mixed`` sessions of ``load.py``'s wave** on the same server (every page, rotating; a fresh seed and a
      stored setting in turn), for comparison: the server CPU-seconds per interaction, beside load.py's recorded figure
      (:data:`LOAD_FIGURE`).

    CPU is read from ``/proc/<pid>/stat`` (utime + stime) of the server and, apart, of its sweep worker, before and
    after each scenario's checks (not the opens), divided by the checks made.

Method
    The client of ``interaction_latency.py`` (docs/testing.md §8), as a browser sends it:

    * the progress component (Streamlit's custom components v2, ``st.components.v2.component``: a ``bidi_component``
      element) is a widget whose state is a ``WidgetState.json_value``; its script calls ``setStateValue('kept',
      '')``, which the browser sends as ``json_value = '{"kept":""}'`` (``JSON.stringify`` of the state) in a
      ``rerun_script`` carrying the id of the fragment the component sits in (``Delta.fragment_id`` of its element),
      not an auto-rerun;
    * the typed number is the text input's ``string_value`` (the box commits on Enter or when it loses focus: a
      fragment rerun of its own), then the click is the button's ``trigger_value`` with the same fragment id; a
      check is those two fragment reruns, each sent once the one before has finished. Its time is the click's, from
      the send to ``script_finished`` (a student who pressed Enter, then Check); ``both95`` is the p95 from the
      typed number's send to the click's ``script_finished`` (a student who types and clicks at once waits for
      both). A check's CPU is both reruns';
    * every ``rerun_script`` carries every widget's state (the page's controls at their values, the component's
      state), as the browser's widget manager does.

    Every rerun is bounded by ``--timeout`` seconds, the wave's meeting points by three times that. Loopback only.

Bar
    PASS when the server's CPU per check (server and sweep worker, in both scenarios) is <= :data:`LOAD_FIGURE`
    (load.py's CPU per interaction of a mixed wave: checking must not cost more than what a class already does) and
    the p95 of a check with ``--students`` (50) at once is <= 2 s.

Run: ``.venv/bin/python benchmarks/exercise_checks.py [--students 50] [--checks 20] [--moves 6] [--mixed 10]
[--port P] [--root DIR] [--json out.json]`` (part of ``./lab.sh bench``). ``--root DIR`` serves another checkout (before
and after a change). Exits 1 when a check failed (an exception, no grade, a timeout, a disconnect).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from interaction_latency import (
    ROOT,
    SUCCESS,
    Run,
    Session,
    Widget,
    find_widgets,
    free_port,
    percentile,
    start_server,
    stop_server,
    values_to_try,
)
from load import cpu_seconds
from load import wave as mixed_wave
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ClientState_pb2 import ClientState
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState, WidgetStates
from websockets.exceptions import WebSocketException
from websockets.sync.client import ClientConnection, connect

from classroom.progress import ProgressError, from_json  # noqa: E402 (interaction_latency puts the repository first)
from deploy.warm import warm  # noqa: E402
from dpcore import exercises  # noqa: E402

PAGE = "pure-vs-approximate"  #: the page with exercises
LOAD_FIGURE = 0.063  #: server CPU-s per interaction of load.py's mixed wave (recorded): the bar for a check
BAR_P95 = 2.0  #: seconds: a check's p95 with --students at once
RIGHT_SHARE = 2 / 3  #: share of the answers typed right
KEPT = json.dumps({"kept": ""}, separators=(",", ":"))  #: what a new browser's component sends (JSON.stringify)


# ---------------------------------------------------------------------------- one student
class CheckSession(Session):
    """:class:`Session` that also keeps each element's fragment id and the progress component's data."""

    def __init__(self, ws: ClientConnection, page: str) -> None:
        super().__init__(ws, page)
        self.fragment_of: dict[str, str] = {}  # element id -> the id of the fragment it was drawn in ("" none)
        self.component_data = ""  # the progress component's data (JSON) in the last run that drew it

    def _take(self, message: ForwardMsg, run: Run) -> bool:
        if message.WhichOneof("type") == "delta" and message.delta.WhichOneof("type") == "new_element":
            element = message.delta.new_element
            proto = getattr(element, element.WhichOneof("type"))
            if getattr(proto, "id", ""):
                self.fragment_of[proto.id] = message.delta.fragment_id
            if element.WhichOneof("type") == "bidi_component":
                self.component_data = proto.json
        return super()._take(message, run)

    def act(self, states: list[WidgetState], fragment: str, timeout: float) -> Run:
        """A user's rerun (a value committed, a click): ``rerun_script`` with ``states`` and, for a widget in a
        fragment, that fragment's id (not an auto-rerun); timed until its ``script_finished``."""
        client = ClientState(query_string=self.query, page_name=self.page, page_script_hash=self.page_hash,
                             widget_states=WidgetStates(widgets=states), fragment_id=fragment)
        start, run = time.monotonic(), Run()
        self.ws.send(BackMsg(rerun_script=client).SerializeToString())
        if self._collect(run, start + timeout):
            run.seconds = run.settled = time.monotonic() - start
        return run


def answer_table(exercise: exercises.Exercise, seeds: int = 4000) -> dict[str, float]:
    """Prompt -> answer of ``exercise``'s variants over ``seeds`` seeds: a student reads the numbers in the prompt
    before the browser has been handed their progress (the first check)."""
    return {made.prompt: made.answer for made in map(exercise.variant, range(seeds))}


@dataclass
class Check:
    """One check: the commit of the typed number, then the click; whether it was right and came back graded."""

    commit: float
    click: float
    right: bool
    graded: str  # "right", "wrong", or what came back instead


class Student:
    """One browser tab on the exercise page: opens it, lets the progress component report, checks answers, moves ε.

    Raises RuntimeError when the page does not show what a check needs (no component, no box, no button)."""

    def __init__(self, ws: ClientConnection, exercise: exercises.Exercise, table: dict[str, float],
                 rng: random.Random, timeout: float) -> None:
        self.session = CheckSession(ws, PAGE)
        self.exercise, self.table, self.rng, self.timeout = exercise, table, rng, timeout
        self.controls: list[Widget] = []
        self.values: dict[str, Any] = {}  # control id -> its value
        self.component = self.fragment = self.box = self.button = ""
        self._written: str | None = None  # the progress as last handed to the component
        self.answer: float = math.nan
        self.exceptions: list[str] = []

    def _states(self) -> list[WidgetState]:
        states = [widget.state(self.values[widget.id]) for widget in self.controls]
        if self.component:
            states.append(WidgetState(id=self.component, json_value=KEPT))
        return states

    def _read(self, run: Run, where: str) -> Run:
        """Take the ids a check needs, and this variant's answer, from ``run``'s elements."""
        self.exceptions += run.exceptions
        if run.status not in SUCCESS:
            raise RuntimeError(f"{where}: {run.status}")
        for name, proto in run.elements:
            if name == "bidi_component" and proto.id.endswith("-progress_storage"):
                self.component, self.fragment = proto.id, self.session.fragment_of.get(proto.id, "")
            elif name == "text_input" and f"-answer_{self.exercise.key}_" in proto.id:
                self.box = proto.id
            elif name == "button" and proto.id.endswith(f"-check_{self.exercise.key}"):
                self.button = proto.id
            elif name == "markdown" and proto.body in self.table:
                self.answer = self.table[proto.body]
        kept = self._kept_answer()
        if not math.isnan(kept):
            self.answer = kept
        return run

    def _kept_answer(self) -> float:
        """The answer of this student's current variant, from the progress the server hands the component to keep
        (its seed and the attempt reached), as the lab computes it; NaN before the first."""
        try:
            written = json.loads(self.session.component_data or "{}").get("write") or self._written
            progress = from_json(written) if written else None
            self._written = written  # the component is handed the progress only when it changed
        except (ValueError, ProgressError, AttributeError):
            return math.nan
        if progress is None:
            return math.nan
        attempt = progress.page(PAGE).exercise(self.exercise.key).attempt
        return self.exercise.variant(exercises.variant_seed(progress.seed, PAGE, self.exercise.key, attempt)).answer

    def open(self) -> Run:
        """The page's first run (settled), at its defaults; its controls and the component's id."""
        run = self.session.rerun([], self.timeout)
        self.controls, _ = find_widgets(run)
        self.values = {widget.id: widget.value for widget in self.controls}
        self._read(run, "opening the page")
        if not (self.component and self.fragment):
            raise RuntimeError("the page drew no progress component in a fragment")
        return run

    def report(self) -> Run:
        """The component reports what the browser keeps (nothing): its state, a rerun of its fragment."""
        run = self._read(self.session.act(self._states(), self.fragment, self.timeout), "the component's report")
        if not (self.box and self.button):
            raise RuntimeError("after the component's report, no answer box or Check button")
        return run

    def check(self) -> Check:
        """Type a number (right with probability :data:`RIGHT_SHARE`) and commit it, then click Check."""
        right = not math.isnan(self.answer) and self.rng.random() < RIGHT_SHARE
        typed = f"{self.answer:g}" if right else f"{(self.answer if not math.isnan(self.answer) else 0) * 2 + 1:g}"
        text = WidgetState(id=self.box, string_value=typed)
        commit = self._read(self.session.act([*self._states(), text], self.fragment, self.timeout), "typing")
        click = self.session.act([*self._states(), text, WidgetState(id=self.button, trigger_value=True)],
                                 self.fragment, self.timeout)
        said = [proto.body for name, proto in click.elements if name == "alert"]
        self._read(click, "the click on Check")
        graded = ("right" if any(body.startswith("Right.") for body in said) else
                  "wrong" if any(body.startswith("Not yet.") for body in said) else
                  f"no grade ({'; '.join(said)[:80] or 'no alert'})")
        return Check(commit.seconds, click.seconds, right, graded)

    def move(self, key: str, value: Any) -> Run:
        """A full rerun: the control ``w_<key>`` moved to ``value`` (settled, as a student sees the figures)."""
        widget = next(widget for widget in self.controls if widget.key == f"w_{key}")
        self.values[widget.id] = value
        return self._read(self.session.rerun(self._states(), self.timeout), f"moving {key}")


def connection(url: str, timeout: float) -> ClientConnection:
    return connect(f"{url}/_stcore/stream", subprotocols=["streamlit"], max_size=None, open_timeout=timeout,
                   ping_interval=None)


# ---------------------------------------------------------------------------- scenarios
@dataclass
class Scenario:
    """What a scenario measured: the seconds of each interaction, the server's CPU (server, worker) over them."""

    name: str
    unit: str
    seconds: list[float] = field(default_factory=list)
    totals: list[float] = field(default_factory=list)  # a check's: the typed number's rerun, then the click's
    cpu: tuple[float, float] = (math.nan, math.nan)
    right: int = 0
    failures: list[str] = field(default_factory=list)
    wall: float = math.nan

    def per(self) -> tuple[float, float]:
        """CPU-seconds per interaction: the server's, the sweep worker's."""
        count = max(1, len(self.seconds))
        return self.cpu[0] / count, self.cpu[1] / count

    def row(self) -> dict:
        server, worker = self.per()
        return dict(scenario=self.name, unit=self.unit, count=len(self.seconds), right=self.right,
                    p50=percentile(self.seconds, 50), p95=percentile(self.seconds, 95),
                    max=max(self.seconds, default=math.nan), both_p95=percentile(self.totals, 95),
                    cpu_server=server, cpu_worker=worker, failures=len(self.failures), wall=self.wall,
                    examples=sorted(set(self.failures))[:3])


def _record(scenario: Scenario, check: Check, exceptions: list[str]) -> None:
    if check.graded not in ("right", "wrong") or exceptions:
        scenario.failures.append(f"{check.graded}; {'; '.join(exceptions)[:120]}")
    elif check.graded != ("right" if check.right else "wrong"):
        scenario.failures.append(f"typed {'right' if check.right else 'wrong'}, graded {check.graded}")
    scenario.seconds.append(check.click)
    scenario.totals.append(check.commit + check.click)
    scenario.right += check.graded == "right"


def one_student(url: str, pids: list[int], exercise: exercises.Exercise, table: dict[str, float], checks: int,
                moves: int, timeout: float) -> tuple[Scenario, Scenario, Scenario]:
    """One student: opens the page, reports, checks ``checks`` times one after another, then moves ε ``moves``
    times (full reruns). The component's report, the checks and the moves."""
    report = Scenario("component reports (1)", "report")
    checked = Scenario(f"1 student, {checks} checks in turn", "check")
    moved = Scenario(f"1 student, {moves} moves of ε", "full rerun")
    try:
        with connection(url, timeout) as ws:
            student = Student(ws, exercise, table, random.Random(1), timeout)
            student.open()
            before = cpu_seconds(pids)
            report.seconds.append(student.report().seconds)
            report.cpu = _used(before, pids)
            before, began = cpu_seconds(pids), time.monotonic()
            for _ in range(checks):
                _record(checked, student.check(), student.exceptions)
                student.exceptions.clear()
            checked.cpu, checked.wall = _used(before, pids), time.monotonic() - began
            print(f"(the progress the server hands the component when it changed, after {checked.right} right "
                  f"answers: {len(student._written or ''):,} bytes of JSON)", flush=True)
            epsilon = next(widget for widget in student.controls if widget.key == "w_eps")
            values = values_to_try(epsilon, 3) + [epsilon.value]
            before, began = cpu_seconds(pids), time.monotonic()
            for index in range(moves):
                run = student.move("eps", values[index % len(values)])
                moved.seconds.append(run.settled)
                moved.failures += run.exceptions
            moved.cpu, moved.wall = _used(before, pids), time.monotonic() - began
    except (WebSocketException, OSError, RuntimeError, StopIteration) as error:
        checked.failures.append(f"{type(error).__name__}: {error}")
    return report, checked, moved


def _used(before: tuple[float, float], pids: list[int]) -> tuple[float, float]:
    after = cpu_seconds(pids)
    return (after[0] - before[0], after[1] - before[1]) if pids else (math.nan, math.nan)


def at_once(url: str, pids: list[int], exercise: exercises.Exercise, table: dict[str, float], students: int,
            timeout: float) -> tuple[Scenario, Scenario]:
    """``students`` students open the page and report together, wait for each other, then all check at once, and
    wait for each other again before closing (a closing session's cost is not a check's). The reports, the checks."""
    reports = Scenario(f"{students} students report at once", "report")
    checked = Scenario(f"{students} students check at once", "check")
    marks: dict[str, Any] = {}
    lock = threading.Lock()

    def mark(name: str) -> None:
        marks[name] = (cpu_seconds(pids), time.monotonic())
    ready = threading.Barrier(students, action=lambda: mark("checks"))
    done = threading.Barrier(students, action=lambda: mark("done"))

    def student(index: int) -> None:
        learner = None
        try:
            with connection(url, timeout) as ws:
                try:
                    learner = Student(ws, exercise, table, random.Random(1000 + index), timeout)
                    learner.open()
                    seconds = learner.report().seconds
                    with lock:
                        reports.seconds.append(seconds)
                except (WebSocketException, OSError, RuntimeError) as error:
                    learner = None
                    with lock:
                        checked.failures.append(f"before the check: {type(error).__name__}: {error}")
                _meet(ready, timeout, checked, lock)
                if learner is not None:
                    check = learner.check()
                    with lock:
                        _record(checked, check, learner.exceptions)
                _meet(done, timeout, checked, lock)
        except (WebSocketException, OSError, RuntimeError) as error:
            with lock:
                checked.failures.append(f"{type(error).__name__}: {error}")
    threads = [threading.Thread(target=student, args=(index,)) for index in range(students)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if "checks" in marks and "done" in marks and pids:
        (before, began), (after, ended) = marks["checks"], marks["done"]
        checked.cpu, checked.wall = (after[0] - before[0], after[1] - before[1]), ended - began
    return reports, checked


def _meet(barrier: threading.Barrier, timeout: float, scenario: Scenario, lock: threading.Lock) -> None:
    """Wait at ``barrier`` for the others (an open, a report and a check each bounded by ``timeout``)."""
    try:
        barrier.wait(3 * timeout)
    except threading.BrokenBarrierError:
        with lock:
            scenario.failures.append("a meeting point timed out (the CPU of the checks is not measured)")


def mixed(url: str, pids: list[int], sessions: int, timeout: float) -> Scenario:
    """``load.py``'s wave (``sessions`` sessions at once, every page in turn, 4 moves each) on the same server."""
    result = mixed_wave(url, pids, sessions, 4, "warm", timeout)
    scenario = Scenario(f"load.py wave, {sessions} sessions", "interaction")
    scenario.seconds = [r.open_seconds for r in result.results] + [t for r in result.results for t in r.reruns]
    scenario.seconds = [t for t in scenario.seconds if not math.isnan(t)]
    scenario.cpu, scenario.wall = result.cpu, result.seconds
    scenario.failures = [e for r in result.results for e in r.exceptions] + \
                        [r.disconnected for r in result.results if r.disconnected]
    return scenario


# ---------------------------------------------------------------------------- reporting
def _cell(value: float, spec: str = ".3f", width: int = 7) -> str:
    return f"{'-' if value is None or math.isnan(value) else format(value, spec):>{width}}"


def print_table(rows: list[dict]) -> None:
    print(f"\n{'scenario':<36} {'per':<11} {'count':>5} {'right':>5} {'p50 s':>7} {'p95 s':>7} {'max s':>7} "
          f"{'both95':>7} {'cpu/int':>7} {'wrk/int':>7} {'fail':>4} {'wall s':>7}")
    for row in rows:
        right = str(row["right"]) if row["unit"] == "check" else "-"
        print(f"{row['scenario']:<36} {row['unit']:<11} {row['count']:>5} {right:>5} {_cell(row['p50'])} "
              f"{_cell(row['p95'])} {_cell(row['max'])} {_cell(row['both_p95'])} {_cell(row['cpu_server'], '.4f')} "
              f"{_cell(row['cpu_worker'], '.4f')} {row['failures']:>4} {_cell(row['wall'], '.1f')}"
              f"{'  ' + '; '.join(row['examples'])[:160] if row['examples'] else ''}")
    print("(seconds; p50 / p95 / max: a check's from the click on Check to its script_finished, a report's from the "
          "component's state sent, an ε move's until the page settled, an interaction's as load.py; both95: p95 of a "
          "check from the typed number's rerun (the box commits when it loses focus) to the click's script_finished, "
          "what a student who types and clicks at once waits for. cpu/int: server CPU-s per check (both reruns), "
          "move or interaction; wrk/int: the sweep worker's; wall: the scenario's seconds)")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=50, help="students checking at once (default 50)")
    parser.add_argument("--checks", type=int, default=20, help="checks of the student alone (default 20)")
    parser.add_argument("--moves", type=int, default=6, help="moves of ε of the student alone (default 6)")
    parser.add_argument("--mixed", type=int, default=10, help="sessions of load.py's wave on the same server, for "
                        "comparison (default 10; 0: none)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per rerun (default 120)")
    parser.add_argument("--port", type=int, default=0, help="server port (default: a free one)")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout served (default: this one)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    exercise = next((e for e in exercises.for_page(PAGE) if e.kind == "numeric"), None)
    if exercise is None:
        raise SystemExit(f"/{PAGE} has no numeric exercise")
    table = answer_table(exercise)
    folder = Path(tempfile.mkdtemp(prefix="dplab-checks-"))
    port = args.port or free_port()
    load = os.getloadavg()
    print(f"Checking an answer on /{PAGE} ({exercise.key}): server {args.root} on 127.0.0.1:{port}, data and log in "
          f"{folder}; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores")
    began = time.monotonic()
    server = start_server(port, folder / "server.log", env={**os.environ, "DPLAB_DATA_DIR": str(folder / "data")},
                          root=args.root)
    url, pids = f"ws://127.0.0.1:{port}", [server.pid]
    scenarios: list[Scenario] = []
    try:
        if args.mixed:  # as load.py: every page opened once (imports done, figures cached), as ./lab.sh serve does
            print(f"(the fresh server opened every page once, as ./lab.sh serve does: "
                  f"{warm(f'http://127.0.0.1:{port}', 3 * args.timeout):.1f} s)", flush=True)
        else:  # the page opened once
            with connection(url, args.timeout) as ws:
                opened = CheckSession(ws, PAGE).rerun([], args.timeout)
            print(f"(the fresh server opened /{PAGE} once: {opened.settled:.1f} s, {opened.status})", flush=True)
        report, alone, moved = one_student(url, pids, exercise, table, args.checks, args.moves, args.timeout)
        scenarios += [report, alone, moved]
        print(f"1 student: {len(alone.seconds)} checks, {len(moved.seconds)} moves of ε", flush=True)
        reports, crowd = at_once(url, pids, exercise, table, args.students, args.timeout)
        scenarios += [reports, crowd]
        print(f"{args.students} students at once: {len(crowd.seconds)} checks", flush=True)
        if args.mixed:
            scenarios.append(mixed(url, pids, args.mixed, args.timeout))
    finally:
        stop_server(server)
    rows = [scenario.row() for scenario in scenarios]
    print_table(rows)
    per_check = max(sum(alone.per()), sum(crowd.per()))
    mixed_rows = [row for row in rows if row["unit"] == "interaction"]
    measured = (f"; measured here now: {mixed_rows[0]['cpu_server'] + mixed_rows[0]['cpu_worker']:.4f} per "
                f"interaction ({mixed_rows[0]['scenario']})" if mixed_rows else "")
    print(f"\nserver CPU-s per check: {sum(alone.per()):.4f} alone, {sum(crowd.per()):.4f} with {args.students} at "
          f"once; per full rerun (ε): {sum(moved.per()):.4f}; load.py's mixed wave: {LOAD_FIGURE} per interaction "
          f"(recorded){measured}")
    ok = per_check <= LOAD_FIGURE and percentile(crowd.seconds, 95) <= BAR_P95 and not math.isnan(per_check)
    print(f"CPU per check {per_check:.4f} s (target <= {LOAD_FIGURE}), p95 with {args.students} at once "
          f"{percentile(crowd.seconds, 95):.3f} s (target <= {BAR_P95:g} s): {'PASS' if ok else 'FAIL'}; "
          f"{time.monotonic() - began:.0f} s in all; load average now {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    if args.json:
        args.json.write_text(json.dumps(dict(rows=rows, per_check=per_check, passed=ok, load=load), indent=1))
    failed = [s for s in scenarios if s.failures and s.unit in ("check", "report")] + \
             [s for s in (alone, crowd) if not s.seconds]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

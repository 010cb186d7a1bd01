"""Load: a whole class at once, over Streamlit's websocket, against a real server on loopback.

What it measures
    For each level N (``--sessions 10,25,50``): a **freshly started** server that has opened each page once, as
    ``./lab.sh serve`` does before it gives out the address (``deploy/warm.py``; ``--unwarmed`` skips that, as a bare
    ``streamlit run`` or ``./lab.sh app`` would: the first sessions then wait for the imports and the first
    figures), then N sessions that start together,
    each opening a page (rotating over every page of the registry) and then making ``--changes`` moves, alternately a
    fresh one-run seed (a new draw, computed live) and a stored setting (a select-slider or radio option one move
    from the defaults, served from ``assets/precomputed``). Then the same wave again on the now warm server.
    Printed per wave: open and rerun times (p50 / p95 / max, until ``script_finished``) and every interaction's p95
    and max, the **server CPU-seconds per interaction** (the server process, and its sweep worker apart, read from
    ``/proc``), runs showing an exception, disconnects, and the resident memory (RSS) of the server with its sweep
    worker: before, peak, after.
    ``--ramp S --think LOW HIGH`` is a class with reading time: sessions start evenly over S seconds and each reads
    a seeded uniform LOW-HIGH seconds before every move.
    ``--sequential N`` instead opens N sessions one after another, each with its own seed, and prints the RSS every
    tenth of the way: caches are bounded, so it levels off.
    ``--poll N`` instead runs a class poll (``benchmarks/poll_client.py``) on a fresh poll store: a teacher opens
    ``/truncation-bias?teacher=1`` and a room on its question; N students open the poll's link (over ``--ramp``),
    read the question (``--think``), vote, and let their page check for the reveal every
    ``classroom.poll.STUDENT_SECONDS`` (each check an interaction); the projector counts every
    ``classroom.poll.TEACHER_SECONDS``; once all have answered the teacher reveals and every student's next check shows
    the release. Printed per interaction kind
    (teacher opens the page and the room, student opens the room, votes, teacher count, student check, teacher
    reveals, reveal shown): runs, p50 / p95 / max, then the server CPU-seconds per interaction and the failures.

Method
    The client of ``interaction_latency.py`` (docs/testing.md §8), one thread per session; every rerun
    bounded by ``--timeout`` seconds, the whole run by the levels given. Loopback only.

Targets on the 2-core machine, one server: 0 exceptions and 0 disconnects at every level, cold or warm; server CPU per
interaction <= 0.04 s on stored settings and revisits, <= 0.10 s with fresh seeds; 50 sessions at once, open and rerun
p95 <= 3 s; 100 sessions reading (``--ramp 20 --think 3 8``), every interaction p95 <= 1 s and max <= 3 s; a class
poll of 60 voters reading (``--poll 60 --ramp 20 --think 3 8``), every interaction kind p95 <= 1 s.

Run: ``./lab.sh load N`` (one level), or ``.venv/bin/python benchmarks/load.py [--sessions 10,25] [--changes 4]
[--ramp 20 --think 3 8] [--sequential 200] [--poll 60] [--replicas 2] [--url ws://127.0.0.1:8501 [--pid PID]]
[--keynote] [--json out.json]``;
``--keynote`` is a conference audience scanning the projector's code: 500 sessions over 20 s through ``./lab.sh serve``
(2 replicas), 2 moves each after 3-8 s of reading, on a fresh server (targets: open p95 and every interaction p95
<= 3 s); ``--keynote --poll 500``, a poll of 500 voters through ``./lab.sh serve`` (targets: vote p95 <= 1 s, the
reveal on every phone within 5 s);
``--replicas N`` starts nginx and N Streamlit replicas (``deploy/replicas.py``) instead of one server; ``--url``
measures a running server (or nginx) instead of starting one (its CPU and RSS only with ``--pid``). Exits 1 when a
wave had an exception or a disconnect (a poll also on a timeout).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import random
import socket
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from interaction_latency import (
    PAGES,
    SUCCESS,
    Run,
    Session,
    find_widgets,
    free_port,
    percentile,
    start_server,
    stop_server,
    values_to_try,
)
from poll_client import Student, Teacher, alerts, answered, open_socket, released
from websockets.exceptions import WebSocketException
from websockets.sync.client import connect

from classroom import teacher_key  # noqa: E402 (after interaction_latency puts the repository on sys.path)
from classroom.poll import STUDENT_SECONDS, TEACHER_SECONDS  # noqa: E402
from deploy.replicas import Deployment  # noqa: E402
from deploy.warm import warm  # noqa: E402

BAR_P95 = 3.0  # seconds: open and rerun p95 at 50 sessions at once
BAR_READING = (1.0, 3.0)  # seconds: every interaction's p95 and max, 100 sessions with reading time


def free_port_block(size: int) -> int:
    """A loopback port p with p … p + size - 1 free (nginx and its replicas)."""
    while True:
        start = free_port()
        if start + size < 65535 and all(_port_free(port) for port in range(start + 1, start + size)):
            return start


def _port_free(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) != 0


# ---------------------------------------------------------------------------- memory
def descendants(pid: int) -> list[int]:
    """Every living descendant of process ``pid`` (the sweep worker and its helpers), from ``/proc``."""
    found, stack = [], [pid]
    while stack:
        for task in Path(f"/proc/{stack.pop()}/task").iterdir():
            children = [int(child) for child in (task / "children").read_text().split()]
            found += children
            stack += children
    return found


def tree_rss(pids: list[int]) -> float:
    """Resident memory (MB) of the processes ``pids`` and all their descendants (the servers, their sweep workers,
    nginx)."""
    total, stack = 0.0, list(pids)
    while stack:
        current = stack.pop()
        try:
            status = Path(f"/proc/{current}/status").read_text()
            total += next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")) / 1024
            for task in Path(f"/proc/{current}/task").iterdir():
                stack += [int(child) for child in (task / "children").read_text().split()]
        except (OSError, StopIteration):
            continue
    return total


def cpu_seconds(pids: list[int]) -> tuple[float, float]:
    """CPU seconds (user + system, from ``/proc``) used so far by the processes ``pids`` themselves, and by all their
    living descendants (the sweep worker, nginx's workers): ``(servers, descendants)``."""
    tick = os.sysconf("SC_CLK_TCK")
    own = children = 0.0
    stack = [(pid, True) for pid in pids]
    while stack:
        current, top = stack.pop()
        try:
            fields = Path(f"/proc/{current}/stat").read_text().rsplit(")", 1)[1].split()
            used = (int(fields[11]) + int(fields[12])) / tick  # utime, stime: fields 14 and 15 of stat(5)
            for task in Path(f"/proc/{current}/task").iterdir():
                stack += [(int(child), False) for child in (task / "children").read_text().split()]
        except (OSError, IndexError, ValueError):
            if top:  # a server that cannot be read (gone, or not ours): not measured, rather than 0
                own = math.nan
            continue
        if top:
            own += used
        else:
            children += used
    return own, children


def handles(pids: list[int]) -> tuple[int, int]:
    """Threads and open file descriptors of the processes ``pids`` themselves (the servers): what a closed session
    must give back."""
    threads = descriptors = 0
    for pid in pids:
        with contextlib.suppress(OSError, StopIteration):
            status = Path(f"/proc/{pid}/status").read_text()
            threads += next(int(line.split()[1]) for line in status.splitlines() if line.startswith("Threads:"))
            descriptors += len(os.listdir(f"/proc/{pid}/fd"))
    return threads, descriptors


class MemoryWatch:
    """Samples :func:`tree_rss` every 0.2 s in a thread while in use: ``before``, ``peak``, ``after`` (MB)."""

    def __init__(self, pids: list[int]) -> None:
        self.pids, self.before, self.peak, self.after = pids, float("nan"), float("nan"), float("nan")
        self._done = threading.Event()

    def __enter__(self) -> MemoryWatch:
        if self.pids:
            self.before = self.peak = tree_rss(self.pids)
            threading.Thread(target=self._sample, daemon=True).start()
        return self

    def _sample(self) -> None:
        while not self._done.wait(0.2):
            self.peak = max(self.peak, tree_rss(self.pids))

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        if self.pids:
            self.after = tree_rss(self.pids)
            self.peak = max(self.peak, self.after)


# ---------------------------------------------------------------------------- one session
@dataclass
class SessionResult:
    page: str
    open_seconds: float = float("nan")
    reruns: list[float] = field(default_factory=list)
    exceptions: list[str] = field(default_factory=list)
    disconnected: str = ""
    timeouts: int = 0


def moves(widgets: list, changes: int, rng: random.Random) -> list[tuple[int, object]]:
    """(widget index, value) of each move: alternately a fresh one-run seed and a stored option one move away."""
    keys = [widget.key for widget in widgets]
    seed = keys.index("w_seed") if "w_seed" in keys else None
    options = [i for i, widget in enumerate(widgets) if widget.kind in ("select_slider", "radio") and
               widget.key not in ("w_trials",)]
    chosen = []
    for move in range(changes):
        if move % 2 == 0 and seed is not None:
            chosen.append((seed, rng.randrange(1, 2**31 - 1)))
        elif options:
            index = options[move % len(options)]
            chosen.append((index, rng.choice(values_to_try(widgets[index], 3))))
    return chosen


@dataclass(frozen=True)
class Pace:
    """How a wave's sessions arrive and read: all at once (``ramp`` 0, a barrier), or starting evenly over ``ramp``
    seconds; between moves each waits a seeded uniform time in ``think`` seconds (a student reading)."""

    ramp: float = 0.0
    think: tuple[float, float] = (0.0, 0.0)


def run_session(url: str, page: str, changes: int, seed: int, timeout: float, start: threading.Barrier | float,
                think: tuple[float, float] = (0.0, 0.0)) -> SessionResult:
    """One student: open ``page`` when every session is ready (``start`` a barrier) or after ``start`` seconds, then
    make ``changes`` moves from the defaults, reading ``think`` seconds (uniform, seeded) before each."""
    result, rng = SessionResult(page), random.Random(seed)
    try:
        if not isinstance(start, threading.Barrier):
            time.sleep(start)
        with connect(f"{url}/_stcore/stream", subprotocols=["streamlit"], max_size=None, open_timeout=timeout,
                     ping_interval=None) as ws:
            session = Session(ws, page)
            if isinstance(start, threading.Barrier):
                start.wait(timeout)
            opened = session.rerun([], timeout)
            result.open_seconds, result.exceptions = opened.seconds, list(opened.exceptions)
            result.timeouts += opened.status == "TIMEOUT"
            widgets, _ = find_widgets(opened)
            defaults = [widget.state(widget.value) for widget in widgets]
            for index, value in moves(widgets, changes, rng):
                time.sleep(rng.uniform(*think))
                states = list(defaults)
                states[index] = widgets[index].state(value)
                run = session.rerun(states, timeout)
                result.reruns.append(run.seconds)
                result.exceptions += run.exceptions
                result.timeouts += run.status == "TIMEOUT"
    except (WebSocketException, OSError, threading.BrokenBarrierError) as error:
        result.disconnected = f"{type(error).__name__}: {error}"
    return result


# ---------------------------------------------------------------------------- waves
@dataclass
class Wave:
    sessions: int
    state: str
    results: list[SessionResult]
    rss: tuple[float, float, float]
    seconds: float
    cpu: tuple[float, float] = (math.nan, math.nan)  # CPU seconds of the servers, and of their workers

    def interactions(self) -> int:
        return sum(1 + len(r.reruns) for r in self.results if not math.isnan(r.open_seconds))

    def summary(self) -> dict:
        opens = [r.open_seconds for r in self.results]
        reruns = [t for r in self.results for t in r.reruns]
        per = max(1, self.interactions())
        return dict(sessions=self.sessions, state=self.state, seconds=round(self.seconds, 1),
                    open=[round(percentile(opens, q), 3) for q in (50, 95, 100)],
                    rerun=[round(percentile(reruns, q), 3) for q in (50, 95, 100)],
                    every=[round(percentile(opens + reruns, q), 3) for q in (50, 95, 100)],
                    interactions=self.interactions(),
                    cpu_per_interaction=[_rounded(self.cpu[0] / per, 4), _rounded(self.cpu[1] / per, 4)],
                    exceptions=sum(bool(r.exceptions) for r in self.results),
                    disconnects=sum(bool(r.disconnected) for r in self.results),
                    timeouts=sum(r.timeouts for r in self.results),
                    rss_mb=[_rounded(value) for value in self.rss],
                    examples=sorted({e for r in self.results for e in r.exceptions} |
                                    {r.disconnected for r in self.results if r.disconnected})[:3])


def _rounded(value: float, digits: int | None = None) -> float | None:
    """``round(value, digits)``, or ``None`` for a value not measured (NaN: a server this script did not start)."""
    return None if math.isnan(value) else round(value, digits)


def wave(url: str, pids: list[int], sessions: int, changes: int, state: str, timeout: float, seed: int = 0,
         pace: Pace = Pace()) -> Wave:
    """``sessions`` sessions, rotating over every page: all at once, or arriving over ``pace.ramp`` seconds."""
    barrier, results = threading.Barrier(sessions), [None] * sessions

    def student(i: int) -> None:
        page = PAGES[i % len(PAGES)].url_path
        start = barrier if not pace.ramp else pace.ramp * i / sessions
        results[i] = run_session(url, page, changes, seed * 100_003 + i, timeout, start, pace.think)
    threads = [threading.Thread(target=student, args=(i,)) for i in range(sessions)]
    began, cpu_before = time.monotonic(), cpu_seconds(pids)
    with MemoryWatch(pids) as memory:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    cpu_after = cpu_seconds(pids)
    cpu = tuple(after - before for after, before in zip(cpu_after, cpu_before)) if pids else (math.nan, math.nan)
    return Wave(sessions, state, results, (memory.before, memory.peak, memory.after), time.monotonic() - began, cpu)


def _cell(value: float | None, width: int, spec: str) -> str:
    return f"{'-' if value is None else format(value, spec):>{width}}"


def print_wave(summary: dict) -> None:
    open_, rerun, every, rss, cpu = (summary[key] for key in ("open", "rerun", "every", "rss_mb",
                                                               "cpu_per_interaction"))
    times = " ".join(_cell(value, 7, ".2f") for value in (*open_, *rerun, every[1], every[2]))
    print(f"{summary['sessions']:>8} {summary['state']:>5} {times} {_cell(cpu[0], 7, '.3f')} {_cell(cpu[1], 7, '.3f')}"
          f" {summary['exceptions']:>4} {summary['disconnects']:>4} {summary['timeouts']:>4} "
          f"{' '.join(_cell(value, 5, '.0f') for value in rss)}  {'; '.join(summary['examples'])[:160]}", flush=True)


HEADER = ("sessions state  open50  open95 openmax   rer50   rer95  rermax   all95  allmax cpu/int wrk/int  exc disc"
          "  t/o  rss0 rsspk  rss1\n  (seconds; cpu/int: server CPU-s per interaction (open or move), wrk/int: the "
          "sweep worker's; RSS MB of server + worker: before, peak, after)")


def sequential(url: str, pids: list[int], count: int, timeout: float) -> list[dict]:
    """``count`` sessions one after another, each opening a page with its own seed; RSS, threads and open file
    descriptors every tenth (a closed session gives its threads and descriptors back)."""
    rows, began = [], cpu_seconds(pids)
    if pids:
        print(f"before: server threads {handles(pids)[0]}, open file descriptors {handles(pids)[1]}", flush=True)
    for i in range(count):
        page = PAGES[i % len(PAGES)].url_path
        result = run_session(url, page, 2, 7_000_000 + i, timeout, threading.Barrier(1))
        if result.exceptions or result.disconnected:
            rows.append(dict(session=i + 1, problem=result.exceptions[:1] or result.disconnected))
        if (i + 1) % max(1, count // 10) == 0:
            used = sum(cpu_seconds(pids)) - sum(began)
            threads, descriptors = handles(pids) if pids else (None, None)
            rows.append(dict(session=i + 1, rss_mb=round(tree_rss(pids)) if pids else None,
                             cpu_seconds=round(used, 1) if pids else None, threads=threads, descriptors=descriptors))
            print(f"after {i + 1:>4} sessions: server + worker RSS {rows[-1]['rss_mb']} MB, "
                  f"CPU {rows[-1]['cpu_seconds']} s, server threads {threads}, open file descriptors {descriptors}",
                  flush=True)
    return rows


# ---------------------------------------------------------------------------- a class poll
POLL_KINDS = ("teacher opens the page", "teacher opens the room", "student opens the room", "student votes",
              "teacher count", "student check", "teacher reveals", "reveal shown")
REVEAL_PAUSE = 4.0  # seconds the teacher leaves the full count on the projector before revealing


class PollRecord:
    """The runs of a class poll by kind (thread-safe): seconds, and the runs that failed."""

    def __init__(self) -> None:
        self.seconds: dict[str, list[float]] = {kind: [] for kind in POLL_KINDS}
        self.exceptions: list[str] = []
        self.disconnects: list[str] = []
        self.timeouts = 0
        self._lock = threading.Lock()

    def add(self, kind: str, run: Run) -> Run:
        """Record ``run`` as an interaction of ``kind``; return it."""
        with self._lock:
            if run.status in SUCCESS:
                self.seconds[kind].append(run.seconds)
            self.timeouts += run.status.endswith("TIMEOUT")
            self.exceptions += run.exceptions
        return run

    def gave_up(self) -> None:
        """A student whose page never showed the reveal in time."""
        with self._lock:
            self.timeouts += 1

    def lost(self, error: Exception) -> None:
        """A tab's connection that failed."""
        with self._lock:
            self.disconnects.append(f"{type(error).__name__}: {error}")

    def interactions(self) -> int:
        """Every run recorded, in time."""
        return sum(map(len, self.seconds.values()))


def poll_student(url: str, code: str, seed: int, start: float, think: tuple[float, float], timeout: float,
                 record: PollRecord, until: float) -> None:
    """One student: opens the poll's link after ``start`` seconds, reads the question ``think`` seconds (uniform,
    seeded), votes, then lets the page check for the reveal every ``classroom.poll.STUDENT_SECONDS`` until it shows the
    release (or the monotonic time ``until``)."""
    rng = random.Random(seed)
    time.sleep(start)
    try:
        with open_socket(url, timeout) as ws:
            student = Student(ws, code, timeout)
            record.add("student opens the room", student.open())
            if not student.has_ballot:
                raise RuntimeError(f"no ballot on the poll's page: {alerts(student.last)}")
            time.sleep(rng.uniform(*think))
            record.add("student votes", student.vote(rng.choice(student.choices)))
            while student.interval and time.monotonic() < until:
                time.sleep(student.interval)
                check = student.poll()
                if released(check) is not None:
                    record.add("reveal shown", check)
                    return
                record.add("student check", check)
            record.gave_up()
    except (WebSocketException, OSError, RuntimeError) as error:
        record.lost(error)


def poll_teacher(teacher: Teacher, voters: int, record: PollRecord, until: float) -> None:
    """The projector counts every ``classroom.poll.TEACHER_SECONDS`` until ``voters`` answered (or ``until``), shows the
    count :data:`REVEAL_PAUSE` seconds, and the teacher reveals."""
    while time.monotonic() < until:
        if not teacher.interval:
            raise RuntimeError("the teacher's page does not count the answers")
        time.sleep(teacher.interval)
        if answered(record.add("teacher count", teacher.poll())) == voters:
            break
    time.sleep(REVEAL_PAUSE)
    record.add("teacher reveals", teacher.reveal())


def poll_wave(url: str, pids: list[int], voters: int, pace: Pace, timeout: float) -> tuple[PollRecord, tuple, float]:
    """A teacher opens a room on the poll's page; ``voters`` students join over ``pace.ramp`` seconds, read, vote and
    wait for the reveal, which the teacher makes once all answered. The record, the server CPU-seconds (servers,
    workers) and the wave's seconds."""
    record, began, cpu_before = PollRecord(), time.monotonic(), cpu_seconds(pids)
    until = began + pace.ramp + pace.think[1] + 60.0 + timeout
    try:
        with open_socket(url, timeout, teacher=True) as ws:
            teacher = Teacher(ws, timeout)
            record.add("teacher opens the page", teacher.open())
            code = teacher.start_poll()
            record.add("teacher opens the room", teacher.last)
            students = [threading.Thread(target=poll_student, args=(url, code, 29_000 + i, pace.ramp * i / voters,
                                                                    pace.think, timeout, record, until))
                        for i in range(voters)]
            for thread in students:
                thread.start()
            poll_teacher(teacher, voters, record, until)
            for thread in students:
                thread.join()
    except (WebSocketException, OSError, RuntimeError) as error:
        record.lost(error)
    cpu_after = cpu_seconds(pids)
    cpu = tuple(after - before for after, before in zip(cpu_after, cpu_before)) if pids else (math.nan, math.nan)
    return record, cpu, time.monotonic() - began


def print_poll(record: PollRecord, cpu: tuple, seconds: float) -> dict:
    """The table of a poll wave: seconds per interaction kind (p50, p95, max), CPU per interaction, failures, and
    whether every interaction's p95 meets the reading bar; its figures as a dict."""
    print(f"{'interaction':<24} {'runs':>5} {'p50 s':>7} {'p95 s':>7} {'max s':>7}")
    rows = {kind: times for kind, times in record.seconds.items()}
    rows["every interaction"] = [t for times in record.seconds.values() for t in times]
    summary = {kind: [len(times), *(round(percentile(times, q), 3) for q in (50, 95, 100))]
               for kind, times in rows.items()}
    for kind, (runs, p50, p95, top) in summary.items():
        print(f"{kind:<24} {runs:>5} {p50:>7.3f} {p95:>7.3f} {top:>7.3f}")
    per = max(1, record.interactions())
    examples = "; ".join(sorted(set(record.exceptions + record.disconnects))[:3])
    print(f"server CPU-s per interaction {_cell(_rounded(cpu[0] / per, 4), 0, '.4f')} (sweep worker "
          f"{_cell(_rounded(cpu[1] / per, 4), 0, '.4f')}); exceptions {len(record.exceptions)}, disconnects "
          f"{len(record.disconnects)}, timeouts {record.timeouts}; {seconds:.1f} s in all; {examples}")
    worst = max(p95 for _, _, p95, _ in summary.values() if not math.isnan(p95))
    ok = worst <= BAR_READING[0]
    print(f"every interaction kind p95 <= {BAR_READING[0]:g} s: worst p95 {worst:.3f} s: {'PASS' if ok else 'FAIL'}",
          flush=True)
    return dict(kinds=summary, cpu_per_interaction=[_rounded(cpu[0] / per, 4), _rounded(cpu[1] / per, 4)],
                exceptions=len(record.exceptions), disconnects=len(record.disconnects), timeouts=record.timeouts,
                seconds=round(seconds, 1), passed=ok)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", default="10,25,50", help="comma-separated levels (default 10,25,50)")
    parser.add_argument("--changes", type=int, default=4, help="moves per session after opening (default 4)")
    parser.add_argument("--sequential", type=int, default=0, help="instead: N sessions one after another")
    parser.add_argument("--poll", type=int, default=0, help="instead: a class poll of N voters (a teacher opens a room "
                        "on /truncation-bias, students join over --ramp, read --think, vote, wait for the reveal)")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per rerun (default 300)")
    parser.add_argument("--url", default="", help="a running server's ws://host:port (default: start one)")
    parser.add_argument("--replicas", type=int, default=0, help="N: start nginx and N replicas (deploy/replicas.py) "
                        "instead of one server (default 0: one server, no nginx)")
    parser.add_argument("--pid", type=int, action="append", default=[],
                        help="with --url: the server's process id, to measure its CPU and memory (repeatable)")
    parser.add_argument("--ramp", type=float, default=0.0, help="sessions start evenly over this many seconds "
                        "(default 0: all at once)")
    parser.add_argument("--think", type=float, nargs=2, default=(0.0, 0.0), metavar=("LOW", "HIGH"),
                        help="seconds a session reads before each move, uniform and seeded (default 0 0)")
    parser.add_argument("--states", default="cold,warm", help="waves per level: a fresh server (cold), then the "
                        "same server again (warm); default cold,warm")
    parser.add_argument("--unwarmed", action="store_true", help="do not open every page once on the fresh server "
                        "first (./lab.sh serve does; ./lab.sh app does not)")
    parser.add_argument("--json", default="", help="also write the results here")
    parser.add_argument("--keynote", action="store_true", help="a keynote's audience: 500 sessions over 20 s through "
                        "./lab.sh serve (2 replicas), each reading 3-8 s before each of 2 moves, on a fresh server; "
                        "with --poll N, a poll of N voters through ./lab.sh serve instead")
    args = parser.parse_args(argv)
    if args.keynote:  # the scenario's settings, where the command line left the defaults
        defaults = {"sessions": "500", "ramp": 20.0, "changes": 2, "think": [3.0, 8.0], "replicas": 2,
                    "states": "cold"}
        for name, value in defaults.items():
            if getattr(args, name) == parser.get_default(name) and not (args.poll and name in ("changes", "states")):
                setattr(args, name, value)
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    report: dict = {"waves": [], "sequential": []}
    levels = [int(level) for level in args.sessions.split(",") if level]
    if args.poll and not args.url:  # the servers started here share a fresh poll store, and the teacher's key
        os.environ["DPLAB_DATA_DIR"] = tempfile.mkdtemp(prefix="dplab-poll-")
        os.environ.setdefault(teacher_key.ENV, teacher_key.new_key())
    for level in levels if not (args.sequential or args.poll) else [0]:
        server, url, pids = None, args.url, list(args.pid)
        if url:
            pass
        elif args.replicas:
            server = Deployment(args.replicas, free_port_block(args.replicas + 1)).start()
            url, pids = server.url.replace("http", "ws"), [p.pid for p in [server.nginx, *server.replicas]]
            if not args.unwarmed and (failures := server.warm()):
                raise RuntimeError(f"could not warm the {failures[0]}")
        else:
            port = free_port()
            server = start_server(port, Path(tempfile.mkdtemp()) / "server.log")
            url, pids = f"ws://127.0.0.1:{port}", [server.pid]
            if not args.unwarmed:
                print(f"(the fresh server opened every page once, as ./lab.sh serve does: "
                      f"{warm(f'http://127.0.0.1:{port}'):.1f} s)")
        try:
            if args.sequential:
                report["sequential"] = sequential(url, pids, args.sequential, args.timeout)
                continue
            pace = Pace(args.ramp, tuple(args.think))
            arrival = f"starting over {pace.ramp:g} s" if pace.ramp else "at once"
            reading = f", reading {pace.think[0]:g}-{pace.think[1]:g} s before each" if pace.think[1] else ""
            if args.poll:
                voting = reading.replace("each", "voting")
                print(f"\n## a class poll: a teacher and {args.poll} students {arrival}{voting}, then checking for the "
                      f"reveal every {STUDENT_SECONDS:g} s; the projector counts every "
                      f"{TEACHER_SECONDS:g} s")
                report["poll"] = print_poll(*poll_wave(url, pids, args.poll, pace, args.timeout))
                continue
            print(f"\n## {level} sessions {arrival}, {args.changes} moves each{reading}, pages rotating over "
                  f"{len(PAGES)}")
            print(HEADER)
            for state in args.states.split(","):
                summary = wave(url, pids, level, args.changes, state, args.timeout, seed=len(report["waves"]),
                               pace=pace).summary()
                report["waves"].append(summary)
                print_wave(summary)
        finally:
            if isinstance(server, Deployment):
                server.stop()
            elif server is not None:
                stop_server(server)
    poll = report.get("poll", {})
    poll_failed = [poll] if poll.get("exceptions") or poll.get("disconnects") or poll.get("timeouts") else []
    failed = poll_failed + [w for w in report["waves"] if w["exceptions"] or w["disconnects"]] + \
             [row for row in report["sequential"] if "problem" in row]
    for summary in report["waves"]:
        if args.ramp and summary["sessions"] >= 100:
            ok = summary["every"][1] <= BAR_READING[0] and summary["every"][2] <= BAR_READING[1]
            print(f"{summary['sessions']} sessions reading, {summary['state']}: every interaction p95 "
                  f"{summary['every'][1]} s, max {summary['every'][2]} s (target <= {BAR_READING[0]:g} s, "
                  f"<= {BAR_READING[1]:g} s): {'PASS' if ok else 'FAIL'}")
        elif summary["sessions"] >= 50 and not args.ramp:
            ok = summary["open"][1] <= BAR_P95 and summary["rerun"][1] <= BAR_P95
            print(f"{summary['sessions']} sessions {summary['state']}: open p95 {summary['open'][1]} s, rerun p95 "
                  f"{summary['rerun'][1]} s (target <= {BAR_P95:g} s): {'PASS' if ok else 'FAIL'}")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

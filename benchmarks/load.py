"""Load: a whole class at once, over Streamlit's websocket, against a real server on loopback.

What it measures
    For each level N (``--sessions 10,25,50``): a **freshly started** server, then N sessions that start together,
    each opening a page (rotating over every page of the registry) and then making ``--changes`` moves, alternately a
    fresh one-run seed (a new draw, computed live) and a stored setting (a select-slider or radio option one move
    from the defaults, served from ``assets/precomputed``). Then the same wave again on the now warm server.
    Printed per wave: open and rerun times (p50 / p95 / max, until ``script_finished``), runs showing an exception,
    disconnects, and the resident memory (RSS) of the server with its sweep worker: before, peak, after.
    ``--sequential N`` instead opens N sessions one after another, each with its own seed, and prints the RSS every
    tenth of the way: caches are bounded, so it levels off.

Method
    The client of ``interaction_latency.py`` (``../shared/docs/testing.md`` §8), one thread per session; every rerun
    bounded by ``--timeout`` seconds, the whole run by the levels given. Loopback only.

Targets (issue): 0 exceptions and 0 disconnects at every level, cold or warm; at 50 sessions, open p95 <= 3 s and
rerun p95 <= 3 s on the 2-core machine.

Run: ``./lab.sh load N`` (one level), or ``.venv/bin/python benchmarks/load.py [--sessions 10,25] [--changes 4]
[--sequential 200] [--replicas 2] [--url ws://127.0.0.1:8501] [--json out.json]``; ``--replicas N`` starts nginx and
N Streamlit replicas (``deploy/replicas.py``) instead of one server; ``--url`` measures a running server (or nginx)
instead of starting one (RSS is then not measured). Exits 1 when a wave had an exception or a disconnect.
"""

from __future__ import annotations

import argparse
import json
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
    Session,
    find_widgets,
    free_port,
    percentile,
    start_server,
    stop_server,
    values_to_try,
)
from websockets.exceptions import WebSocketException
from websockets.sync.client import connect

from deploy.replicas import Deployment  # noqa: E402 (after interaction_latency puts the repository on sys.path)

BAR_P95 = 3.0  # seconds: open and rerun p95 at 50 sessions


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


def run_session(url: str, page: str, changes: int, seed: int, timeout: float, start: threading.Barrier
                ) -> SessionResult:
    """One student: open ``page`` when every session is ready, then make ``changes`` moves from the defaults."""
    result = SessionResult(page)
    try:
        with connect(f"{url}/_stcore/stream", subprotocols=["streamlit"], max_size=None, open_timeout=timeout,
                     ping_interval=None) as ws:
            session = Session(ws, page)
            start.wait(timeout)
            opened = session.rerun([], timeout)
            result.open_seconds, result.exceptions = opened.seconds, list(opened.exceptions)
            result.timeouts += opened.status == "TIMEOUT"
            widgets, _ = find_widgets(opened)
            defaults = [widget.state(widget.value) for widget in widgets]
            for index, value in moves(widgets, changes, random.Random(seed)):
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

    def summary(self) -> dict:
        opens = [r.open_seconds for r in self.results]
        reruns = [t for r in self.results for t in r.reruns]
        return dict(sessions=self.sessions, state=self.state, seconds=round(self.seconds, 1),
                    open=[round(percentile(opens, q), 3) for q in (50, 95, 100)],
                    rerun=[round(percentile(reruns, q), 3) for q in (50, 95, 100)],
                    exceptions=sum(bool(r.exceptions) for r in self.results),
                    disconnects=sum(bool(r.disconnected) for r in self.results),
                    timeouts=sum(r.timeouts for r in self.results),
                    rss_mb=[round(value) for value in self.rss],
                    examples=sorted({e for r in self.results for e in r.exceptions} |
                                    {r.disconnected for r in self.results if r.disconnected})[:3])


def wave(url: str, pids: list[int], sessions: int, changes: int, state: str, timeout: float, seed: int = 0) -> Wave:
    """``sessions`` sessions at once, rotating over every page."""
    start, results = threading.Barrier(sessions), [None] * sessions

    def student(i: int) -> None:
        page = PAGES[i % len(PAGES)].url_path
        results[i] = run_session(url, page, changes, seed * 100_003 + i, timeout, start)
    threads = [threading.Thread(target=student, args=(i,)) for i in range(sessions)]
    began = time.monotonic()
    with MemoryWatch(pids) as memory:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    return Wave(sessions, state, results, (memory.before, memory.peak, memory.after), time.monotonic() - began)


def print_wave(summary: dict) -> None:
    open_, rerun, rss = summary["open"], summary["rerun"], summary["rss_mb"]
    print(f"{summary['sessions']:>8} {summary['state']:>5} {open_[0]:>7.2f} {open_[1]:>7.2f} {open_[2]:>7.2f} "
          f"{rerun[0]:>7.2f} {rerun[1]:>7.2f} {rerun[2]:>7.2f} {summary['exceptions']:>5} {summary['disconnects']:>5} "
          f"{summary['timeouts']:>4} {rss[0]:>6} {rss[1]:>6} {rss[2]:>6}  {'; '.join(summary['examples'])[:160]}",
          flush=True)


HEADER = ("sessions state open50  open95 openmax  rer50  rer95  rermax   exc  disc  t/o  rss0  rsspk  rss1  "
          "(seconds; RSS MB of server + sweep worker: before, peak, after)")


def sequential(url: str, pids: list[int], count: int, timeout: float) -> list[dict]:
    """``count`` sessions one after another, each opening a page with its own seed; RSS every tenth."""
    rows = []
    for i in range(count):
        page = PAGES[i % len(PAGES)].url_path
        result = run_session(url, page, 2, 7_000_000 + i, timeout, threading.Barrier(1))
        if result.exceptions or result.disconnected:
            rows.append(dict(session=i + 1, problem=result.exceptions[:1] or result.disconnected))
        if (i + 1) % max(1, count // 10) == 0:
            rows.append(dict(session=i + 1, rss_mb=round(tree_rss(pids)) if pids else None))
            print(f"after {i + 1:>4} sessions: server + worker RSS {rows[-1]['rss_mb']} MB", flush=True)
    return rows


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", default="10,25,50", help="comma-separated levels (default 10,25,50)")
    parser.add_argument("--changes", type=int, default=4, help="moves per session after opening (default 4)")
    parser.add_argument("--sequential", type=int, default=0, help="instead: N sessions one after another")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per rerun (default 300)")
    parser.add_argument("--url", default="", help="a running server's ws://host:port (default: start one)")
    parser.add_argument("--replicas", type=int, default=0, help="N: start nginx and N replicas (deploy/replicas.py) "
                        "instead of one server (default 0: one server, no nginx)")
    parser.add_argument("--json", default="", help="also write the results here")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    report: dict = {"waves": [], "sequential": []}
    levels = [int(level) for level in args.sessions.split(",") if level]
    for level in levels if not args.sequential else [0]:
        server, url, pids = None, args.url, []
        if url:
            pass
        elif args.replicas:
            server = Deployment(args.replicas, free_port_block(args.replicas + 1)).start()
            url, pids = server.url.replace("http", "ws"), [p.pid for p in [server.nginx, *server.replicas]]
        else:
            port = free_port()
            server = start_server(port, Path(tempfile.mkdtemp()) / "server.log")
            url, pids = f"ws://127.0.0.1:{port}", [server.pid]
        try:
            if args.sequential:
                report["sequential"] = sequential(url, pids, args.sequential, args.timeout)
                continue
            print(f"\n## {level} sessions at once, {args.changes} moves each, pages rotating over {len(PAGES)}")
            print(HEADER)
            for state in ("cold", "warm"):
                summary = wave(url, pids, level, args.changes, state, args.timeout, seed=len(report["waves"])).summary()
                report["waves"].append(summary)
                print_wave(summary)
        finally:
            if isinstance(server, Deployment):
                server.stop()
            elif server is not None:
                stop_server(server)
    failed = [w for w in report["waves"] if w["exceptions"] or w["disconnects"]] + \
             [row for row in report["sequential"] if "problem" in row]
    for summary in report["waves"]:
        if summary["sessions"] >= 50:
            ok = summary["open"][1] <= BAR_P95 and summary["rerun"][1] <= BAR_P95
            print(f"{summary['sessions']} sessions {summary['state']}: open p95 {summary['open'][1]} s, rerun p95 "
                  f"{summary['rerun'][1]} s (target <= {BAR_P95:g} s): {'PASS' if ok else 'FAIL'}")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

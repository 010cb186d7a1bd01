"""Fairness: ten students beside one heavy visitor, over Streamlit's websocket, against a real server on loopback.

What it measures
    Two scenarios, each on a freshly started server with quick previews on (as deployed):

    * **alone**: ten students open a page at a setting nobody stored (a Monte Carlo run of their own, ``mc``), each
      seeing a quick preview at once while its requested runs finish on the shared worker;
    * **beside a heavy visitor**: the same, one second after one visitor opened five heavy settings in five tabs of
      one browser (trials 2,000 on three pages, partitioning rounds at d = 4096, the audit at 10^6 draws).

    Printed per scenario: the students' open time (the page's first answer, a preview) and settle time (until their
    requested runs are drawn), p50 / p95 / max, and exceptions. The worker serves each browser in turn
    (:mod:`ui.progressive`), so the heavy visitor costs a student about one heavy run, not all of them.

Run: ``.venv/bin/python benchmarks/fairness.py [--timeout 600]`` (part of ``./lab.sh bench``). Loopback only; every
session is bounded by ``--timeout`` seconds.
"""

from __future__ import annotations

import argparse
import os
import secrets
import sys
import tempfile
import threading
import time
from pathlib import Path

from interaction_latency import Run, Session, free_port, percentile, start_server, stop_server
from websockets.exceptions import WebSocketException
from websockets.sync.client import connect

#: (page, query) of each student: a Monte Carlo run of their own, previewed by the stored run 0
STUDENTS = [("pure-vs-approximate" if i % 2 else "exponential-mechanism", f"mc={i + 1}") for i in range(10)]
#: The heavy visitor's five tabs
HEAVY = [("pure-vs-approximate", "trials=2000&mc=77"), ("truncation-bias", "trials=2000&mc=77"),
         ("scheffe-tournament", "trials=500&mc=77"), ("partitioning-rounds", "d=4096&mc=77"),
         ("privacy-audit-lab", "draws=1000000&seed=77")]


def browser_cookie(token: bytes) -> str:
    """A Streamlit XSRF cookie for the browser whose token is ``token``, masked anew (as each answer masks it)."""
    mask = secrets.token_bytes(4)
    masked = bytes(byte ^ mask[i % 4] for i, byte in enumerate(token))
    return f"_streamlit_xsrf=2|{mask.hex()}|{masked.hex()}|{int(time.time())}"


def visit(url: str, page: str, query: str, timeout: float, cookie: str = "") -> Run:
    """Open ``page?query`` in a new tab and wait until it settles (its requested runs drawn)."""
    try:
        with connect(f"{url}/_stcore/stream", subprotocols=["streamlit"], max_size=None, open_timeout=timeout,
                     ping_interval=None, additional_headers={"Cookie": cookie} if cookie else None) as ws:
            session = Session(ws, page)
            session.query = query
            return session.rerun([], timeout)
    except (WebSocketException, OSError) as error:
        run = Run()
        run.exceptions.append(f"{type(error).__name__}: {error}")
        return run


def scenario(heavy: bool, timeout: float) -> list[Run]:
    """The ten students' runs on a fresh server, with or without the heavy visitor's five tabs opened first."""
    port = free_port()
    server = start_server(port, Path(tempfile.mkdtemp()) / "server.log")
    url, runs = f"ws://127.0.0.1:{port}", [Run() for _ in STUDENTS]
    try:
        if heavy:
            token = secrets.token_bytes(32)
            for page, query in HEAVY:  # the visitor's tabs stay open in the background until the server stops
                threading.Thread(target=visit, args=(url, page, query, timeout, browser_cookie(token)),
                                 daemon=True).start()
            time.sleep(1.0)

        def student(i: int) -> None:
            runs[i] = visit(url, *STUDENTS[i], timeout)
        threads = [threading.Thread(target=student, args=(i,)) for i in range(len(STUDENTS))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        stop_server(server)
    return runs


def row(name: str, runs: list[Run]) -> str:
    opens, settled = [run.seconds for run in runs], [run.settled for run in runs]
    cells = " ".join(f"{percentile(values, q):>7.1f}" for values in (opens, settled) for q in (50, 95, 100))
    return f"{name:<24} {cells} {sum(bool(run.failed) for run in runs):>6}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per session (default 600)")
    args = parser.parse_args(argv)
    os.environ.pop("DPLAB_QUICK_SECONDS", None)  # quick previews on, as deployed
    print("\n## Ten students, alone and beside one heavy visitor (five heavy tabs), fresh server each (seconds)")
    print(f"{'scenario':<24} {'open50':>7} {'open95':>7} {'openmax':>7} {'sett50':>7} {'sett95':>7} {'settmax':>7} "
          f"{'failed':>6}")
    failed = 0
    for name, heavy in (("alone", False), ("beside a heavy visitor", True)):
        runs = scenario(heavy, args.timeout)
        failed += sum(run.failed for run in runs)
        print(row(name, runs), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

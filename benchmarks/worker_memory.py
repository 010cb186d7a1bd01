"""The sweep worker's memory at the top of each page's trial control, over Streamlit's websocket, on loopback.

What it measures
    For each page with a "Monte Carlo trials" control (or those given with ``--pages``): a freshly started server,
    one session that opens the page, moves the trial control to its largest value (as a student drags the slider to
    the end), and waits until the page has settled (every requested run finished and drawn); then the peak resident
    memory (``VmHWM`` in ``/proc``) of the server and of its sweep worker, and the time the page took to settle.
    Each page on its own server, so each peak is that page's.

Target (issue "never down"): the worker's peak under about 500 MB at every page's top trial count, so that two such
runs fit a small server.

Run: ``.venv/bin/python benchmarks/worker_memory.py [--pages truncation-bias,...] [--timeout 900]``. Loopback only;
one session; each page bounded by ``--timeout`` seconds. Exits 1 if a page failed to settle or showed an exception.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from interaction_latency import PAGES, Session, find_widgets, free_port, start_server, stop_server
from load import descendants
from websockets.sync.client import connect

BAR_MB = 500
TRIALS_KEY = "w_trials"


def peaks_mb(pid: int) -> tuple[float, float]:
    """Peak RSS (MB) of the server ``pid`` and the largest of its descendants (the sweep worker)."""
    def peak(process: int) -> float:
        for line in Path(f"/proc/{process}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
        return 0.0

    return peak(pid), max((peak(child) for child in descendants(pid)), default=0.0)


def page_peak(page: str, timeout: float) -> dict:
    """Open ``page`` on a fresh server, move its trials control to the top, settle; the peaks and times."""
    port = free_port()
    server = start_server(port, Path(tempfile.mkdtemp()) / "server.log")
    try:
        with connect(f"ws://127.0.0.1:{port}/_stcore/stream", subprotocols=["streamlit"], max_size=None,
                     open_timeout=timeout, ping_interval=None) as ws:
            session = Session(ws, page)
            widgets, _ = find_widgets(session.rerun([], timeout))
            trials = next((widget for widget in widgets if widget.key == TRIALS_KEY), None)
            if trials is None:
                return {}
            states = [widget.state(widget.options[-1] if widget is trials else widget.value) for widget in widgets]
            run = session.rerun(states, timeout)
            server_mb, worker_mb = peaks_mb(server.pid)
            return {"trials": trials.options[-1], "server": server_mb, "worker": worker_mb, "answer": run.seconds,
                    "settled": run.settled, "failed": run.failed, "status": run.status}
    finally:
        stop_server(server)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", default="", help="comma-separated URL paths (default: every page)")
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds per page (default 900)")
    args = parser.parse_args(argv)
    chosen = [page for page in PAGES if not args.pages or page.url_path in args.pages.split(",")]
    print("\n## The sweep worker's peak memory at the top trial count, one page per fresh server")
    print(f"{'page':24} {'trials':>7} {'worker MB':>10} {'server MB':>10} {'answer s':>9} {'settled s':>10}")
    failed = worst = 0
    for page in chosen:
        result = page_peak(page.url_path, args.timeout)
        if not result:
            continue
        failed += result["failed"]
        worst = max(worst, result["worker"])
        problem = f"  {result['status']}" if result["failed"] else ""
        print(f"{page.url_path or 'home':24} {result['trials']:>7} {result['worker']:>10.0f} {result['server']:>10.0f} "
              f"{result['answer']:>9.2f} {result['settled']:>10.1f}{problem}", flush=True)
    print(f"worst worker peak: {worst:.0f} MB (target <= {BAR_MB} MB): {'PASS' if worst <= BAR_MB else 'FAIL'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

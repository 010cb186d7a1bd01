"""What a fresh seed costs the server, page by page, over Streamlit's websocket against a real server on loopback.

What it measures
    One session at a time on an idle server: each page is opened (twice, so its figures and texts are cached), then
    ``--draws`` fresh one-run seeds are drawn (the "Draw again" a student presses; every one-run picture is new), then
    ``--draws`` revisits of a seed already drawn (served from the shared caches). Printed per page: the server's CPU
    seconds per interaction (from ``/proc``, the server process alone; the sweep worker is not involved) and the
    answer time, for fresh seeds and for revisits.

Targets on the 2-core machine: a fresh seed <= 0.10 CPU-s per interaction, a revisit <= 0.04.

Run: ``.venv/bin/python benchmarks/fresh_seed.py [--draws 5] [--pages truncation-bias,...]`` (part of
``./lab.sh bench``). Loopback only; every rerun bounded by ``--timeout`` seconds.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from interaction_latency import PAGES, Session, find_widgets, free_port, percentile, start_server, stop_server
from load import cpu_seconds
from websockets.sync.client import connect

BARS = {"fresh": 0.10, "revisit": 0.04}  # server CPU-s per interaction


def page_costs(url: str, pid: int, page: str, draws: int, timeout: float) -> dict[str, tuple[float, float]]:
    """``{"fresh" | "revisit": (server CPU-s per interaction, p50 answer seconds)}`` of one page."""
    with connect(f"{url}/_stcore/stream", subprotocols=["streamlit"], max_size=None, open_timeout=timeout,
                 ping_interval=None) as ws:
        session = Session(ws, page)
        widgets, _ = find_widgets(session.rerun([], timeout))  # the first run shows every control's value
        session.rerun([widget.state(widget.value) for widget in widgets], timeout)
        keys = [widget.key for widget in widgets]
        if "w_seed" not in keys:
            return {}
        seed = keys.index("w_seed")
        defaults = [widget.state(widget.value) for widget in widgets]
        costs = {}
        for name, seeds in (("fresh", range(1000, 1000 + draws)), ("revisit", range(1000, 1000 + draws))):
            before, seconds = cpu_seconds([pid])[0], []
            for value in seeds:
                states = list(defaults)
                states[seed] = widgets[seed].state(value)
                run = session.rerun(states, timeout)
                if run.failed:
                    raise RuntimeError(f"{page}: seed {value}: {run.status} {run.exceptions[:1]}")
                seconds.append(run.seconds)
            costs[name] = ((cpu_seconds([pid])[0] - before) / draws, percentile(seconds, 50))
        return costs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--draws", type=int, default=5, help="fresh seeds (and revisits) per page (default 5)")
    parser.add_argument("--pages", default="", help="comma-separated URL paths (default: every page with a seed)")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per rerun (default 300)")
    args = parser.parse_args(argv)
    pages = [info.url_path for info in PAGES if not args.pages or info.url_path in args.pages.split(",")]
    port = free_port()
    server = start_server(port, Path(tempfile.mkdtemp()) / "server.log")
    print(f"\n## A fresh seed, page by page: server CPU-s per interaction and answer p50 (one session, {args.draws} "
          "draws)")
    print(f"{'page':<24} {'fresh cpu':>9} {'fresh p50':>9} {'revisit cpu':>11} {'revisit p50':>11}")
    worst = dict.fromkeys(BARS, 0.0)
    try:
        for page in pages:
            costs = page_costs(f"ws://127.0.0.1:{port}", server.pid, page, args.draws, args.timeout)
            if not costs:
                continue
            for name in BARS:
                worst[name] = max(worst[name], costs[name][0])
            print(f"{page or 'home':<24} {costs['fresh'][0]:>9.3f} {costs['fresh'][1]:>9.3f} "
                  f"{costs['revisit'][0]:>11.3f} {costs['revisit'][1]:>11.3f}", flush=True)
    finally:
        stop_server(server)
    for name, bar in BARS.items():
        print(f"worst {name}: {worst[name]:.3f} CPU-s per interaction (target <= {bar:g}): "
              f"{'PASS' if worst[name] <= bar else 'FAIL'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

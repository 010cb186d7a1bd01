"""Every page answers at once: one and two moves from its defaults, on a fresh server, each answered within 3 s.

What it measures
    A freshly started server; per page, one session opened at the defaults, then every control with options (select
    sliders and radio buttons; the seed is ``fresh_seed.py``'s) moved one option away from its default, alone and
    beside every other such control (two moves), then back to the defaults. Printed per move: the seconds until the
    page's first answer (``script_finished``: every section drawn, from a quick preview if the requested runs are
    still computing), its error boxes, and whether it kept the page waiting with nothing to show (no answer within
    ``--within`` seconds). The requested runs are not waited for: the next move supersedes them, as a student's does.

Method
    The websocket client of ``interaction_latency.py`` (docs/testing.md §8), one session per page,
    loopback only, every answer bounded by ``--timeout`` seconds.

Target on the 2-core machine: every move answered within 3 s, no error box, no exception.

Run: ``.venv/bin/python benchmarks/answers_at_once.py [--pages truncation-bias,partitioning-rounds] [--within 3]``.
Exits 1 when a move missed the target.
"""

from __future__ import annotations

import argparse
import itertools
import math
import sys
import tempfile
from pathlib import Path

from interaction_latency import (
    SUCCESS,
    Run,
    Session,
    Widget,
    chosen_pages,
    find_widgets,
    free_port,
    start_server,
    stop_server,
)
from websockets.sync.client import connect


def one_move_away(widget: Widget) -> str:
    """The option next to the widget's default (the one before it, at the end of the list)."""
    index = widget.options.index(widget.value)
    return widget.options[index + 1 if index + 1 < len(widget.options) else index - 1]


def first_answer(session: Session, widgets: list[Widget], moved: dict[int, str], timeout: float) -> Run:
    """Send every widget's state (``moved``: index -> new value) and wait only for the page's first answer."""
    return session.rerun([widget.state(moved.get(i, widget.value)) for i, widget in enumerate(widgets)], timeout,
                         settle=False)


def measure(page_path: str, port: int, within: float, timeout: float) -> list[tuple[str, float, int, list[str]]]:
    """(moves, seconds to the first answer (infinite when none came within ``timeout``), error boxes, exceptions) of
    every move of one page."""
    rows = []
    with connect(f"ws://127.0.0.1:{port}/_stcore/stream", subprotocols=["streamlit"], max_size=None,
                 open_timeout=30, ping_interval=None) as ws:
        session = Session(ws, page_path)
        opened = session.rerun([], timeout)
        widgets = [w for w in find_widgets(opened)[0] if w.options and w.kind in ("select_slider", "radio")
                   and w.value in w.options]
        movable = range(len(widgets))
        for chosen in [*((i,) for i in movable), *itertools.combinations(movable, 2)]:
            moved = {i: one_move_away(widgets[i]) for i in chosen}
            run = first_answer(session, widgets, moved, timeout)
            label = " & ".join(f"{widgets[i].key.removeprefix('w_')}={value}" for i, value in moved.items())
            seconds = run.seconds if run.status in SUCCESS else math.inf
            rows.append((label, seconds, run.alerts.get("error", 0), run.exceptions))
            flag = "" if seconds <= within and not run.alerts.get("error") and not run.exceptions else "  <- MISSED"
            print(f"  {label:48s} {seconds:6.2f} s  errors {run.alerts.get('error', 0)}{flag}", flush=True)
            first_answer(session, widgets, {}, timeout)  # back to the defaults (stored: at once)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", default="", help="comma-separated URL paths (default: every topic page)")
    parser.add_argument("--within", type=float, default=3.0, help="seconds a first answer may take (default 3)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per answer at most (default 120)")
    args = parser.parse_args(argv)
    port = free_port()
    server = start_server(port, Path(tempfile.mkdtemp(prefix="dplab-answers-")) / "server.log")
    missed = total = 0
    try:
        for page in chosen_pages(args.pages):
            if not page.url_path:
                continue
            print(f"## {page.title} (/{page.url_path}): first answer after one and two moves, fresh server")
            for _, seconds, errors, exceptions in measure(page.url_path, port, args.within, args.timeout):
                total += 1
                missed += seconds > args.within or errors > 0 or bool(exceptions)
    finally:
        stop_server(server)
    print(f"{total - missed} of {total} moves answered within {args.within:g} s without an error box: "
          f"{'PASS' if not missed else 'FAIL'}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())

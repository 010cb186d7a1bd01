"""Links an attacker or a typo could make: every URL key of every page with bad values, over Streamlit's websocket.

What it measures
    A freshly started server on loopback. For every page, its URL keys are read from a first run (the ``w_<key>``
    controls); then one session per (key, value) opens the page with ``?key=value`` for each value of :data:`VALUES`
    (out of range, not a number, NaN and infinities, huge, empty, unicode, a 10 kB value, Markdown, HTML, script and
    LaTeX payloads), and one session per value with every key at once and with the key repeated. Printed per page:
    links tried, runs that raised an exception (a traceback on screen), messages showing markup outside a code span
    (a link, an image, HTML or math that the message box would render), the longest message that shows a value of
    the link (in a code span), and the slowest answer.

Bar (issue "never down, never spoofed"): 0 exceptions, 0 messages with markup, every message short (about 40
characters of the value).

Run: ``.venv/bin/python benchmarks/fuzz_links.py [--pages truncation-bias,...] [--timeout 120]``. Loopback only;
one session at a time. Exits 1 if a link raised an exception or put markup in a message.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

from interaction_latency import PAGES, Session, find_widgets, free_port, start_server, stop_server
from websockets.sync.client import connect

VALUES = ["-1", "0", "-0", "1e308", "1e-320", "nan", "inf", "-inf", "abc", "", "0x10", "1_000", "２", "😀",
          "9" * 400, "`$x$`](https://evil.example) " * 400,
          "[Session expired: log in again](https://evil.example/login)", "![x](https://evil.example/p.png)",
          "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "javascript:alert(1)",
          "$\\href{https://evil.example}{x}$", "\\(x\\) $$\\frac{1}{0}$$", "**bold** _it_ # heading"]
CODE_SPAN = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)", re.DOTALL)
MARKUP = re.compile(r"\]\(|<|\$|\\\(|https?:|javascript:")
LONGEST = 240  # characters: a message names the key and shows at most about 40 characters of the value


def rendered(markdown: str) -> str:
    """What of ``markdown`` a message box renders as markup: the text outside its code spans."""
    return CODE_SPAN.sub("", markdown)


def open_page(url: str, page: str, query: str, timeout: float) -> tuple[list[str], list[str], float]:
    """Open ``page`` with ``query`` in a new session: its exceptions, its message bodies, the answer time."""
    with connect(f"{url}/_stcore/stream", subprotocols=["streamlit"], max_size=None, open_timeout=timeout,
                 ping_interval=None) as ws:
        session = Session(ws, page)
        session.query = query
        run = session.rerun([], timeout, settle=False)
    messages = [proto.body for name, proto in run.elements if name == "alert"]
    return run.exceptions + ([] if run.status.startswith("FINISHED") else [run.status]), messages, run.seconds


def fuzz_page(url: str, page: str, timeout: float) -> dict:
    """Every key of ``page`` with every value of :data:`VALUES`, one at a time, then all at once and repeated."""
    with connect(f"{url}/_stcore/stream", subprotocols=["streamlit"], max_size=None, ping_interval=None) as ws:
        widgets, _ = find_widgets(Session(ws, page).rerun([], timeout))
    keys = [widget.key.removeprefix("w_") for widget in widgets if widget.key.startswith("w_")]
    queries = [urlencode({key: value}) for key in keys for value in VALUES]
    queries += [urlencode(dict.fromkeys(keys, value)) for value in VALUES]
    queries += [urlencode([(key, "1"), (key, value)]) for key in keys for value in VALUES[:8]]
    summary = {"links": 0, "exceptions": 0, "markup": 0, "longest": 0, "slowest": 0.0, "examples": []}
    for query in queries:
        exceptions, messages, seconds = open_page(url, page, query, timeout)
        marked = [message for message in messages if MARKUP.search(rendered(message))]
        summary["links"] += 1
        summary["exceptions"] += bool(exceptions)
        summary["markup"] += bool(marked)
        echoed = [message for message in messages if "`" in message]  # the messages showing a value of the link
        summary["longest"] = max([summary["longest"], *map(len, echoed)])
        summary["slowest"] = max(summary["slowest"], seconds)
        if (exceptions or marked) and len(summary["examples"]) < 3:
            summary["examples"].append(f"?{query[:80]}: {(exceptions or marked)[0][:120]}")
    return summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", default="", help="comma-separated URL paths (default: every page)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per link (default 120)")
    args = parser.parse_args(argv)
    chosen = [page for page in PAGES if not args.pages or page.url_path in args.pages.split(",")]
    port = free_port()
    server = start_server(port, Path(tempfile.mkdtemp()) / "server.log")
    failed, start = False, time.monotonic()
    try:
        print("\n## Bad links, every key of every page (one session each)")
        print(f"{'page':24} {'links':>6} {'exceptions':>11} {'markup':>7} {'longest':>8} {'slowest s':>10}")
        for page in chosen:
            summary = fuzz_page(f"ws://127.0.0.1:{port}", page.url_path, args.timeout)
            failed |= bool(summary["exceptions"] or summary["markup"]) or summary["longest"] > LONGEST
            print(f"{page.url_path or 'home':24} {summary['links']:>6} {summary['exceptions']:>11} "
                  f"{summary['markup']:>7} {summary['longest']:>8} {summary['slowest']:>10.2f}", flush=True)
            for example in summary["examples"]:
                print(f"    {example}")
    finally:
        stop_server(server)
    print(f"{'FAIL' if failed else 'PASS'}: 0 exceptions, 0 messages with markup, every message under {LONGEST} "
          f"characters ({time.monotonic() - start:.0f} s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

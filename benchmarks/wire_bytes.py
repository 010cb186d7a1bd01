"""Wire bytes: what a student's phone downloads to open a page of the lab, and how long a slow network makes it wait.

What it measures
    In headless Chromium (Debian's ``/usr/bin/chromium``, driven by Playwright and the Chrome DevTools Protocol),
    through ``./lab.sh serve`` (nginx in front of ``--replicas`` Streamlit processes, ``deploy/replicas.py``), for every
    page of ``registry.PAGES`` (or ``--pages``):

    1. **Cold open on a phone**: a fresh browser context (empty cache), viewport 390x844, opens the page and waits until
       it has finished running (Streamlit's script state ``notRunning``, no status widget, the first Plotly chart drawn
       when the page has one, then no request for ``--quiet`` seconds). Reported: the HTTP bytes on the wire (the sum
       of ``Network.loadingFinished.encodedDataLength`` over every non-websocket request: compressed bodies plus
       headers), the number of HTTP requests that reached the server (a 304 counts, one served from the browser's
       cache does not), and the websocket payload received (the sum of the ``Network.webSocketFrameReceived``
       payloads; a binary frame's payload, base64 in the protocol, counted as the bytes it decodes to): "websocket
       payload per open, as Chromium reports it" (frame payloads, not the TCP bytes: Chromium reports them inflated,
       so permessage-deflate does not show here; whether it was negotiated is printed).
    2. **The next page in the same browser** (warm cache): the same context opens the page after it in the registry's
       order (``registry.next_page``; after the last, home) by its URL, a full navigation; its HTTP bytes and
       requests (and websocket payload, in ``--json``).
    3. **First chart on a slow network** (``--slow-pages``, default all): a fresh context with
       ``Network.emulateNetworkConditions`` (latency 100 ms, 4 Mbit/s = 500000 bytes/s down and up) and the cache
       enabled but empty: the seconds from navigation start (``performance.timeOrigin``) until the first Plotly chart
       is drawn (``.js-plotly-plot .main-svg`` present). A page without a chart: until it has finished running,
       marked ``*``.

Method
    A fresh Deployment on free loopback ports with its own temporary log directory, warmed as ``./lab.sh serve`` warms
    it before it gives out the address (``--unwarmed`` skips that); or ``--url`` to measure a running server (a bare
    ``streamlit run`` for comparison, or a ``./lab.sh serve``). One browser, one context at a time, pages one after
    another. The byte counts come from a CDP session on the page, enabled before the navigation. A page fails when it
    does not finish within ``--timeout`` seconds, its document is not a 2xx, or it shows an exception.

Targets (a phone on a classroom network)
    cold open HTTP <= 2.5 MiB; next page HTTP <= 400 KiB; websocket payload per open <= 300 KiB; first chart at
    4 Mbit/s and 100 ms <= 8 s. Printed per page, then the worst page per column against its target.

Run: ``.venv/bin/python benchmarks/wire_bytes.py [--pages home,truncation-bias] [--slow-pages a,b|all|none]
[--replicas 2] [--url http://127.0.0.1:8501] [--unwarmed] [--timeout S] [--json out.json]``.
Exits 0 (a measurement: a page over a target does not fail the run), 1 when a page failed to load.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from interaction_latency import chosen_pages
from load import free_port_block
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

from classroom import teacher_key  # noqa: E402 (after interaction_latency puts the repository on sys.path)
from deploy.replicas import Deployment  # noqa: E402
from registry import PageInfo, next_page  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]  # as tests/e2e/conftest.py
PHONE = {"width": 390, "height": 844}
SLOW = {"offline": False, "latency": 100, "downloadThroughput": 500_000, "uploadThroughput": 500_000}  # 4 Mbit/s
MIB, KIB = 1024 * 1024, 1024
TARGETS = {"cold_http": 2.5 * MIB, "next_http": 400 * KIB, "ws": 300 * KIB, "first_chart": 8.0}

CHART = ".js-plotly-plot .main-svg"
#: the page has finished running: a script run has ended, no status widget ("Running…"), and the first chart, if
#: the page has one, is drawn
FINISHED = """() => {
    const app = document.querySelector('[data-testid="stApp"]');
    if (!app || app.getAttribute('data-test-script-state') !== 'notRunning') return false;
    if (document.querySelector('[data-testid="stStatusWidget"]')) return false;
    const chart = document.querySelector('[data-testid="stPlotlyChart"]');
    return !chart || !!chart.querySelector('.main-svg');
}"""
FIRST_CHART = f"() => document.querySelector('{CHART}') ? performance.now() : 0"
IDLE = f"() => ({FINISHED})() ? performance.now() : 0"


# ---------------------------------------------------------------------------- counting bytes over CDP
def ws_payload_bytes(frame: dict[str, Any]) -> int:
    """The payload bytes of a CDP ``WebSocketFrame``: text frames as sent (UTF-8), binary frames (opcode 2) as the
    bytes their base64 ``payloadData`` decodes to (len * 3 / 4, minus the padding)."""
    data = frame.get("payloadData", "")
    if frame.get("opcode") == 2:
        return len(data) * 3 // 4 - (data[-2:].count("=") if data else 0)
    return len(data.encode())


@dataclass
class Traffic:
    """What one page open moved: HTTP bytes (encoded, with headers) and requests, websocket payload received."""

    http_bytes: int = 0
    requests: int = 0  #: HTTP requests that reached the server (a 304 counts; one served from the cache does not)
    cached: int = 0  #: requests served from the browser's cache
    failed_requests: int = 0
    ws_bytes: int = 0
    ws_frames: int = 0
    ws_sent_bytes: int = 0
    ws_extensions: str = ""  #: the handshake's Sec-WebSocket-Extensions (permessage-deflate: the wire carries less)
    largest: list[tuple[int, str]] = field(default_factory=list)  #: the five largest responses: (bytes, url)
    encodings: dict[str, int] = field(default_factory=dict)  #: responses by Content-Encoding ("identity" if none)


class Meter:
    """Counts a page's network traffic from CDP events (``Network.*``), from :meth:`reset` on."""

    def __init__(self, context: BrowserContext, page: Page) -> None:
        self.cdp = context.new_cdp_session(page)
        self.urls: dict[str, str] = {}  #: HTTP requests in flight or done, by request id
        self.done: set[str] = set()
        self.cached: set[str] = set()  #: request ids served from the browser's cache
        self.sizes: list[tuple[int, str]] = []
        self.traffic = Traffic()
        self.last_event = time.monotonic()
        self.cdp.on("Network.requestWillBeSent", self._sent)
        self.cdp.on("Network.requestServedFromCache", self._from_cache)
        self.cdp.on("Network.responseReceived", self._response)
        self.cdp.on("Network.loadingFinished", self._finished)
        self.cdp.on("Network.loadingFailed", self._failed)
        self.cdp.on("Network.webSocketFrameReceived", self._frame)
        self.cdp.on("Network.webSocketFrameSent", self._frame_sent)
        self.cdp.on("Network.webSocketHandshakeResponseReceived", self._handshake)
        self.cdp.send("Network.enable")

    def reset(self) -> None:
        self.urls, self.done, self.cached, self.sizes, self.traffic = {}, set(), set(), [], Traffic()
        self.last_event = time.monotonic()

    def in_flight(self) -> int:
        return len(self.urls.keys() - self.done)

    def result(self) -> Traffic:
        self.traffic.largest = sorted(self.sizes, reverse=True)[:5]
        return self.traffic

    def _sent(self, event: dict) -> None:
        url = event["request"]["url"]
        if not url.startswith(("data:", "blob:")):  # no bytes on the wire
            if event.get("redirectResponse"):  # the redirect's own response travelled too
                self.traffic.http_bytes += int(event["redirectResponse"].get("encodedDataLength", 0))
                self.traffic.requests += 1
            self.urls[event["requestId"]] = url
        self.last_event = time.monotonic()

    def _from_cache(self, event: dict) -> None:
        self.cached.add(event["requestId"])

    def _response(self, event: dict) -> None:
        response = event["response"]
        if event["requestId"] in self.urls:
            headers = {name.lower(): value for name, value in (response.get("headers") or {}).items()}
            encoding = headers.get("content-encoding", "identity")
            self.traffic.encodings[encoding] = self.traffic.encodings.get(encoding, 0) + 1
        if response.get("fromDiskCache") or response.get("fromPrefetchCache") or response.get("fromServiceWorker"):
            self.cached.add(event["requestId"])

    def _finished(self, event: dict) -> None:
        request = event["requestId"]
        if request in self.urls and request not in self.done:
            size = int(event.get("encodedDataLength", 0))
            self.done.add(request)
            self.traffic.http_bytes += size
            if request in self.cached:
                self.traffic.cached += 1
            else:
                self.traffic.requests += 1
            self.sizes.append((size, self.urls[request]))
        self.last_event = time.monotonic()

    def _failed(self, event: dict) -> None:
        request = event["requestId"]
        if request in self.urls and request not in self.done and event.get("type") != "WebSocket":
            self.done.add(request)
            self.traffic.requests += 1
            self.traffic.failed_requests += 1
        self.last_event = time.monotonic()

    def _frame(self, event: dict) -> None:
        self.traffic.ws_bytes += ws_payload_bytes(event["response"])
        self.traffic.ws_frames += 1
        self.last_event = time.monotonic()

    def _frame_sent(self, event: dict) -> None:
        self.traffic.ws_sent_bytes += ws_payload_bytes(event["response"])

    def _handshake(self, event: dict) -> None:
        headers = {key.lower(): value for key, value in event["response"].get("headers", {}).items()}
        self.traffic.ws_extensions = headers.get("sec-websocket-extensions", "")


# ---------------------------------------------------------------------------- one page
@dataclass
class PageResult:
    page: str
    next_page: str = ""
    cold: Traffic | None = None
    cold_seconds: float = float("nan")  #: navigation start until finished (unthrottled)
    has_chart: bool = False
    next: Traffic | None = None
    first_chart: float | None = None  #: seconds at 4 Mbit/s, 100 ms; None when not measured
    slow_idle_only: bool = False  #: the page has no chart: first_chart is until it finished running
    problems: list[str] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        """The page did not load (an error in the page's JavaScript alone, with every figure measured, is not)."""
        return any(not problem.startswith("pageerror") for problem in self.problems)


def path_of(info: PageInfo) -> str:
    return "/" + info.url_path


def open_page(page: Page, meter: Meter, url: str, timeout: float, quiet: float) -> tuple[Traffic, float]:
    """Navigate to ``url``, wait until the page has finished running and the network has been quiet for ``quiet``
    seconds; return the traffic and the seconds from navigation start until finished."""
    meter.reset()
    response = page.goto(url, wait_until="commit", timeout=timeout * 1000)
    if response is None or not response.ok:
        raise RuntimeError(f"{url}: HTTP {response.status if response else 'no response'}")
    finished = page.wait_for_function(IDLE, timeout=timeout * 1000, polling=50).json_value() / 1000
    deadline = time.monotonic() + min(timeout, 30.0)
    while time.monotonic() < deadline and (meter.in_flight() or time.monotonic() - meter.last_event < quiet):
        page.wait_for_timeout(100)  # lets Playwright deliver the CDP events
    if page.locator('[data-testid="stException"]').count():
        raise RuntimeError(f"{url} shows an exception")
    return meter.result(), finished


def measure_page(browser: Browser, base: str, info: PageInfo, timeout: float, quiet: float,
                 slow: bool, headers: dict[str, str]) -> PageResult:
    following = next_page(info)
    result = PageResult(path_of(info), path_of(following))
    context = browser.new_context(viewport=PHONE, extra_http_headers=headers)
    try:
        page = context.new_page()
        errors: list[str] = []
        console: list[str] = []  #: the page's console errors, named when the page fails (a script refused, ...)
        page.on("pageerror", lambda error: errors.append(f"pageerror: {error}"))
        page.on("console", lambda message: message.type == "error" and console.append(message.text))
        meter = Meter(context, page)
        result.cold, result.cold_seconds = open_page(page, meter, base + result.page, timeout, quiet)
        result.has_chart = page.locator(CHART).count() > 0
        result.next, _ = open_page(page, meter, base + result.next_page, timeout, quiet)
        result.problems += errors
    except Exception as exc:  # noqa: BLE001 (a page that fails is reported, the others are measured)
        result.problems.append(f"{type(exc).__name__}: {str(exc).splitlines()[0]}")
        result.problems += [f"console ({console.count(text)}x): {text[:200]}" for text in dict.fromkeys(console)][:3]
    finally:
        context.close()
    if slow and not result.problems:
        try:
            result.first_chart, result.slow_idle_only = first_chart(browser, base + result.page, result.has_chart,
                                                                    timeout, headers)
        except Exception as exc:  # noqa: BLE001
            result.problems.append(f"slow network: {type(exc).__name__}: {str(exc).splitlines()[0]}")
    return result


def first_chart(browser: Browser, url: str, has_chart: bool, timeout: float,
                headers: dict[str, str]) -> tuple[float, bool]:
    """Seconds from navigation start until the first chart is drawn, cold, at 4 Mbit/s and 100 ms (a page without a
    chart: until it has finished running); and whether it was the latter."""
    context = browser.new_context(viewport=PHONE, extra_http_headers=headers)
    try:
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.setCacheDisabled", {"cacheDisabled": False})
        cdp.send("Network.emulateNetworkConditions", SLOW)
        response = page.goto(url, wait_until="commit", timeout=timeout * 1000)
        if response is None or not response.ok:
            raise RuntimeError(f"{url}: HTTP {response.status if response else 'no response'}")
        when = page.wait_for_function(FIRST_CHART if has_chart else IDLE, timeout=timeout * 1000, polling=50)
        return when.json_value() / 1000, not has_chart
    finally:
        context.close()


# ---------------------------------------------------------------------------- the report
def mib(size: float) -> str:
    return f"{size / MIB:.2f}"


def kib(size: float) -> str:
    return f"{size / KIB:.0f}"


HEADER = (f"{'page':<24} {'cold MiB':>8} {'req':>4} {'ws KiB':>7} {'open s':>6}   {'next page':<24} "
          f"{'next KiB':>8} {'req':>4}   {'chart s':>7}")


def print_row(r: PageResult) -> None:
    if r.cold is None or r.next is None:
        print(f"{r.page:<24} FAILED: {'; '.join(r.problems)}", flush=True)
        return
    chart = "-" if r.first_chart is None else f"{r.first_chart:.1f}{'*' if r.slow_idle_only else ''}"
    print(f"{r.page:<24} {mib(r.cold.http_bytes):>8} {r.cold.requests:>4} {kib(r.cold.ws_bytes):>7} "
          f"{r.cold_seconds:>6.1f}   {r.next_page:<24} {kib(r.next.http_bytes):>8} {r.next.requests:>4}   {chart:>7}",
          flush=True)
    for problem in r.problems:
        print(f"    ! {problem}", flush=True)


def worst(results: list[PageResult]) -> list[dict[str, Any]]:
    """Per measured column: the worst page, its value, the target and PASS / FAIL."""
    columns = [
        ("cold open HTTP", "cold_http", lambda r: r.cold and r.cold.http_bytes, mib, "MiB"),
        ("next page HTTP", "next_http", lambda r: r.next and r.next.http_bytes, kib, "KiB"),
        ("websocket payload per open, as Chromium reports it", "ws", lambda r: r.cold and r.cold.ws_bytes, kib,
         "KiB"),
        ("first chart at 4 Mbit/s, 100 ms", "first_chart", lambda r: r.first_chart, lambda s: f"{s:.1f}", "s"),
    ]
    rows = []
    for label, key, value, show, unit in columns:
        measured = [(value(r), r.page) for r in results if value(r) is not None]
        if not measured:
            continue
        top, page = max(measured)
        rows.append(dict(column=label, key=key, page=page, value=top, target=TARGETS[key],
                         ok=top <= TARGETS[key], shown=f"{show(top)} {unit}",
                         target_shown=f"{show(TARGETS[key])} {unit}"))
    return rows


def print_summary(results: list[PageResult]) -> list[dict[str, Any]]:
    rows = worst(results)
    encodings = sum((Counter(r.cold.encodings) for r in results if r.cold), Counter())
    print("\ncold opens' HTTP responses by Content-Encoding: "
          + ", ".join(f"{name} {count}" for name, count in encodings.most_common()))
    extensions = sorted({r.cold.ws_extensions or "none" for r in results if r.cold})
    print(f"\nwebsocket extensions negotiated: {', '.join(extensions) or '-'} (the ws column counts payloads as "
          "Chromium reports them: inflated, before any permessage-deflate saving)")
    print("worst page per column, against the targets:")
    for row in rows:
        print(f"  {row['column']:<52} {row['shown']:>10}  ({row['page']})  target <= {row['target_shown']}: "
              f"{'PASS' if row['ok'] else 'FAIL'}")
    print("cold: fresh context (empty cache), 390x844; HTTP = encoded bytes + headers of every non-websocket request; "
          "req = requests that reached the server (not those served from the cache); ws = websocket payload received "
          "until the page finished (binary frames decoded); open s = navigation start until finished, unthrottled; "
          "next: the next page in registry order opened by URL in the same context (warm cache); chart s = navigation "
          "start until the first Plotly chart is drawn, cold, at 4 Mbit/s and 100 ms latency (* no chart on the page: "
          "until it finished running; - not measured)")
    return rows


# ---------------------------------------------------------------------------- main
def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pages", default="", help="comma-separated URL paths (home: 'home'); default all")
    parser.add_argument("--slow-pages", default="all", help="pages measured at 4 Mbit/s and 100 ms: 'all' (default: "
                        "every page measured), 'none', or comma-separated URL paths")
    parser.add_argument("--replicas", type=int, default=2, help="Streamlit replicas behind nginx (default 2)")
    parser.add_argument("--url", default="", help="measure this running server (http://127.0.0.1:PORT) instead of "
                        "starting a Deployment")
    parser.add_argument("--unwarmed", action="store_true", help="do not open every page once on the fresh "
                        "Deployment first (./lab.sh serve does)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per page open (default 120)")
    parser.add_argument("--quiet", type=float, default=1.5, help="seconds without a request after the page has "
                        "finished, before its bytes are read (default 1.5)")
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument("--gzip-only", action="store_true", help="the browser asks for gzip, not brotli, as it does "
                        "over plain http to a classroom address (it offers brotli over https and on loopback)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    pages = chosen_pages(args.pages)
    if args.slow_pages == "all":
        slow = {page.url_path for page in pages}
    elif args.slow_pages == "none":
        slow = set()
    else:
        slow = {page.url_path for page in chosen_pages(args.slow_pages)}
    server = None
    if args.url:
        base = args.url.rstrip("/")
        where = f"the running server at {base}"
    else:
        os.environ.setdefault(teacher_key.ENV, teacher_key.new_key())
        logs = Path(tempfile.mkdtemp(prefix="wire_bytes-"))
        server = Deployment(args.replicas, free_port_block(args.replicas + 1), logs=logs).start()
        base = server.url
        where = f"./lab.sh serve: nginx + {args.replicas} replicas at {base} (logs in {logs})"
    results: list[PageResult] = []
    try:
        if server is not None and not args.unwarmed:
            start = time.monotonic()
            if failures := server.warm():
                raise RuntimeError(f"could not warm the {failures[0]}")
            print(f"(every replica opened every page once, as ./lab.sh serve does: {time.monotonic() - start:.1f} s)")
        print(f"Wire bytes of {len(pages)} page(s) in headless Chromium, phone viewport {PHONE['width']}x"
              f"{PHONE['height']}, through {where}\n")
        print(HEADER, flush=True)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                for info in pages:
                    result = measure_page(browser, base, info, args.timeout, args.quiet, info.url_path in slow,
                                          {"Accept-Encoding": "gzip, deflate"} if args.gzip_only else {})
                    print_row(result)
                    results.append(result)
            finally:
                browser.close()
    finally:
        if server is not None:
            server.stop()
    rows = print_summary(results)
    failed = [r for r in results if r.failed]
    if args.json:
        args.json.write_text(json.dumps(dict(server=where, targets=TARGETS, viewport=PHONE, slow_network=SLOW,
                                             pages=[asdict(r) for r in results], worst=rows), indent=1))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

"""Real data with a student's big file: a 100,000-row CSV uploaded to the real-data page, then the controls moved.

What it measures
    On a freshly started server (loopback), one browser tab (headless Chromium) opens
    ``/real-data?data=upload&low=0&high=100&scale=10`` (the public range typed in the link: the page releases nothing
    until it is; the values every upload had before it was the student's to type) and uploads a seeded CSV of
    ``--rows`` rows (a log-normal income column and an age column); then it makes ``--moves`` control changes,
    alternately: ε one step with the arrow keys, a clipping bound typed, the column switched, δ one
    step. For each change, two times:

    * the **answer**: from the tab sending its ``rerun_script`` to the ``script_finished`` of that rerun, read off the
      tab's own websocket frames with their network timestamps (Chrome DevTools Protocol). This is what
      ``interaction_latency.py`` times for every other page: what a user waits for after a move, minus the browser's
      drawing. The bar applies to it.
    * **drawn**: from the key press until that rerun has finished in the tab, Streamlit's status widget is gone and
      the tab has painted twice since: the browser's drawing included. Here Chromium shares the server's 2 cores
      (its CPU-seconds per change are printed), so this is a pessimistic figure for a student's own device.

    Printed: the upload (file chosen -> page drawn), each kind's p50 / p95 / max of both times, the server's and
    Chromium's CPU-seconds per change (from ``/proc``), and PASS when every change's answer p95 <= 1 s.

Target on the 2-core machine: a control change <= 1 s at p95 for a 100,000-row column (issue 30), as for every page.
The column's results are private (computed in the session, never in the shared caches: docs/design.md §4.2), so
every change recomputes on the column what the change touches.

Run: ``.venv/bin/python benchmarks/real_data_upload.py [--rows 100000] [--moves 20]`` (in ``./lab.sh bench``).
"""

from __future__ import annotations

import argparse
import base64
import os
import tempfile
import time
from pathlib import Path

import numpy as np
from interaction_latency import free_port, percentile, start_server, stop_server
from load import cpu_seconds
from playwright.sync_api import CDPSession, Page, sync_playwright
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

ROOT = Path(__file__).resolve().parents[1]
BUDGET = 1.0  #: seconds: a change's p95 must be under it
IDLE = "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')"


def column_file(rows: int, folder: Path, seed: int = 0) -> Path:
    """A seeded CSV of ``rows`` rows: yearly incomes (log-normal, a long right tail) and ages (18 to 90)."""
    rng = np.random.default_rng(seed)
    incomes = np.round(rng.lognormal(10.0, 0.8, rows), 2)
    ages = rng.integers(18, 91, rows)
    path = folder / "incomes.csv"
    path.write_text("income,age\n" + "\n".join(f"{i},{a}" for i, a in zip(incomes, ages)) + "\n", encoding="utf-8")
    return path


def settled(page: Page) -> None:
    """The rerun the last action started has finished."""
    page.wait_for_timeout(150)  # the status widget shows within a few frames of a widget's change
    page.wait_for_function(IDLE, timeout=60_000)


class Frames:
    """The tab's websocket frames as they cross the network: (DevTools timestamp in s, "rerun" or "finished")."""

    def __init__(self, session: CDPSession) -> None:
        self.seen: list[tuple[float, str]] = []
        session.send("Network.enable")
        session.on("Network.webSocketFrameSent", lambda event: self._record(event, BackMsg, "rerun_script", "rerun"))
        session.on("Network.webSocketFrameReceived",
                   lambda event: self._record(event, ForwardMsg, "script_finished", "finished"))

    def _record(self, event: dict, message: type, kind: str, name: str) -> None:
        frame = event["response"]
        if frame.get("opcode") != 2:  # binary frames carry Streamlit's protobufs
            return
        parsed = message.FromString(base64.b64decode(frame["payloadData"]))
        if parsed.WhichOneof("type") == kind:
            self.seen.append((event["timestamp"], name))

    def done(self) -> bool:
        """Whether a rerun was sent and the last one sent has finished."""
        reruns = [stamp for stamp, name in self.seen if name == "rerun"]
        return bool(reruns) and any(name == "finished" and stamp >= max(reruns) for stamp, name in self.seen)

    def answer(self) -> float:
        """Seconds from the first rerun sent to the last script finished since the last call; then forget them."""
        reruns = [stamp for stamp, name in self.seen if name == "rerun"]
        finished = [stamp for stamp, name in self.seen if name == "finished"]
        self.seen.clear()
        return max(finished) - min(reruns)


PAINTED = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"


def answered_and_drawn(page: Page, frames: Frames) -> None:
    """Wait until the tab's last rerun has finished (its ``script_finished`` frame), the status widget is gone and the
    tab has painted twice since."""
    deadline = time.monotonic() + 60
    while not frames.done():
        if time.monotonic() > deadline:
            raise TimeoutError("the change's rerun did not finish within 60 s")
        page.wait_for_timeout(10)  # lets this process receive the tab's frame events
    page.wait_for_function(IDLE, timeout=60_000)
    page.evaluate(PAINTED)


def moves(page: Page, frames: Frames, count: int) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """``count`` control changes of four kinds, in turn: the answer and drawn seconds of each, by kind."""
    eps = page.locator(".st-key-w_eps input[type=range]")
    delta = page.locator(".st-key-w_delta input[type=range]")
    upper = page.locator(".st-key-w_upper input")
    column = page.locator(".st-key-upload_column")
    kinds = {
        "ε one step": lambda i: (eps.focus(), page.keyboard.press("ArrowLeft" if i % 2 else "ArrowRight")),
        "clipping bound typed": lambda i: (upper.fill(str(150_000 + 10_000 * i)), upper.press("Enter")),
        "column switched": lambda i: (column.click(), page.get_by_role("option").nth(i % 2).click()),
        "δ one step": lambda i: (delta.focus(), page.keyboard.press("ArrowLeft" if i % 2 else "ArrowRight")),
    }
    answered: dict[str, list[float]] = {kind: [] for kind in kinds}
    drawn: dict[str, list[float]] = {kind: [] for kind in kinds}
    for index in range(count):
        kind, turn = list(kinds)[index % len(kinds)], index // len(kinds) + 1
        page.wait_for_timeout(300)  # the previous change's last frames arrive; then forget them
        frames.seen.clear()
        start = time.perf_counter()
        kinds[kind](turn)
        answered_and_drawn(page, frames)
        drawn[kind].append(time.perf_counter() - start)
        answered[kind].append(frames.answer())
    return answered, drawn


def chromium_cpu_seconds() -> float:
    """User + system CPU-seconds of every Chromium process on the machine (from ``/proc``)."""
    total, tick = 0.0, os.sysconf("SC_CLK_TCK")
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if b"chromium" not in Path(f"/proc/{pid}/cmdline").read_bytes():
                continue
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # ended meanwhile
            continue
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


def report(upload: float, answered: dict[str, list[float]], drawn: dict[str, list[float]], cpu: float,
           browser_cpu: float, rows: int) -> bool:
    every = {"answer": [v for values in answered.values() for v in values],
             "drawn": [v for values in drawn.values() for v in values]}
    changes = len(every["answer"])
    print(f"Real data, a {rows:,}-row upload: file chosen -> page drawn in {upload:.2f} s")
    print(f"{'change':22} {'runs':>4} | {'answer p50':>10} {'p95':>6} {'max':>6} | {'drawn p50':>10} {'p95':>6} "
          f"{'max':>6}")
    for kind in [*answered, "every change"]:
        times = (every["answer"], every["drawn"]) if kind == "every change" else (answered[kind], drawn[kind])
        cells = " | ".join(f"{percentile(values, 50):9.3f}s {percentile(values, 95):5.3f}s {max(values):5.3f}s"
                           for values in times)
        print(f"{kind:22} {len(times[0]):4d} | {cells}")
    print(f"server CPU-s per change {cpu / changes:.3f}; Chromium CPU-s per change {browser_cpu / changes:.3f} "
          "(same 2 cores)")
    passed = percentile(every["answer"], 95) <= BUDGET
    print(f"every change's answer p95 <= {BUDGET:g} s: {'PASS' if passed else 'FAIL'}")
    return passed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--moves", type=int, default=20)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        server = start_server(port, Path(folder) / "server.log")
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path="/usr/bin/chromium")
                page = browser.new_page(viewport=dict(width=1440, height=900))
                page.goto(f"http://127.0.0.1:{port}/real-data?data=upload&low=0&high=100&scale=10", timeout=120_000)
                page.wait_for_selector(".st-key-upload_file input[type=file]", state="attached", timeout=120_000)
                settled(page)
                path = column_file(args.rows, Path(folder))
                start = time.perf_counter()
                page.locator(".st-key-upload_file input[type=file]").set_input_files(path)
                page.wait_for_selector(".st-key-real_error_means .main-svg", timeout=120_000)
                settled(page)
                upload = time.perf_counter() - start
                frames = Frames(page.context.new_cdp_session(page))
                before, browser_before = cpu_seconds([server.pid])[0], chromium_cpu_seconds()
                answered, drawn = moves(page, frames, args.moves)
                cpu = cpu_seconds([server.pid])[0] - before
                browser_cpu = chromium_cpu_seconds() - browser_before
                browser.close()
        finally:
            stop_server(server)
    return 0 if report(upload, answered, drawn, cpu, browser_cpu, args.rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())

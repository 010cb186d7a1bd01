"""Real data with a student's big file: a 100,000-row CSV uploaded to the real-data page, then the controls moved.

What it measures
    On a freshly started server (loopback), one browser tab (headless Chromium) opens ``/real-data?data=upload`` and
    uploads a seeded CSV of ``--rows`` rows (a log-normal income column and an age column); then it makes ``--moves``
    control changes, alternately: ε one step with the arrow keys, a clipping bound typed, the column switched, δ one
    step. Each is timed from the key press to the end of the rerun (Streamlit's status widget gone). Printed: the
    upload (file chosen → page drawn), each kind's p50 / p95 / max and all together, the server's CPU-seconds per
    change (its process, from ``/proc``), and PASS when every change's p95 ≤ 1 s.

Target on the 2-core machine: a control change ≤ 1 s at p95 for a 100,000-row column (issue 30). The column's
results are private (computed in the session, never in the shared caches: docs/design.md §4.2), so every change
recomputes the page's releases and its Monte Carlo over ε on the column.

Run: ``.venv/bin/python benchmarks/real_data_upload.py [--rows 100000] [--moves 20]`` (in ``./lab.sh bench``).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np
from interaction_latency import free_port, percentile, start_server, stop_server
from load import cpu_seconds
from playwright.sync_api import Page, sync_playwright

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


def timed(page: Page, action) -> float:
    start = time.perf_counter()
    action()
    settled(page)
    return time.perf_counter() - start


def moves(page: Page, count: int) -> dict[str, list[float]]:
    """``count`` control changes of four kinds, in turn; the seconds of each, by kind."""
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
    seconds: dict[str, list[float]] = {kind: [] for kind in kinds}
    for index in range(count):
        kind, turn = list(kinds)[index % len(kinds)], index // len(kinds) + 1
        seconds[kind].append(timed(page, lambda move=kinds[kind], turn=turn: move(turn)))
    return seconds


def report(upload: float, seconds: dict[str, list[float]], cpu: float, rows: int) -> bool:
    every = [value for values in seconds.values() for value in values]
    print(f"Real data, a {rows:,}-row upload: file chosen -> page drawn in {upload:.2f} s")
    print(f"{'change':24} {'runs':>4} {'p50 s':>7} {'p95 s':>7} {'max s':>7}")
    for kind, values in [*seconds.items(), ("every change", every)]:
        print(f"{kind:24} {len(values):4d} {percentile(values, 50):7.3f} {percentile(values, 95):7.3f} "
              f"{max(values):7.3f}")
    print(f"server CPU-s per change {cpu / len(every):.3f}")
    passed = percentile(every, 95) <= BUDGET
    print(f"every change p95 <= {BUDGET:g} s: {'PASS' if passed else 'FAIL'}")
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
                page.goto(f"http://127.0.0.1:{port}/real-data?data=upload", timeout=120_000)
                page.wait_for_selector(".st-key-upload_file input[type=file]", state="attached", timeout=120_000)
                settled(page)
                path = column_file(args.rows, Path(folder))
                upload = timed(page, lambda: page.locator(".st-key-upload_file input[type=file]").set_input_files(path))
                page.wait_for_selector(".st-key-real_error_means .main-svg", timeout=120_000)
                before = cpu_seconds([server.pid])[0]
                seconds = moves(page, args.moves)
                cpu = cpu_seconds([server.pid])[0] - before
                browser.close()
        finally:
            stop_server(server)
    return 0 if report(upload, seconds, cpu, args.rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())

"""A student's biggest upload: the memory and the time of reading a 1,000,000-row CSV, by one tab and by five at once.

What it measures
    A seeded CSV at the page's limits: ``--rows`` rows (1,000,000) of 6 numeric columns (age, height, weight, visits,
    smoker, income in thousands), 19.1 MB. Uploaded over HTTP as a browser sends it (``upload_client.py``: the
    websocket asks for an address, the file is PUT to Streamlit's upload route, the rerun names it), to a fresh
    ``streamlit run`` on a loopback port, in four scenarios, then the reader alone:

    * **the upload alone, 1 tab**: a page that draws only the uploader and reads its file as the real-data page does
      (``ui.upload.uploaded_column``: the upload route and manager, ``ui.upload``, ``dpcore.columns.read_csv_columns``,
      the column's checks);
    * **the upload alone, 5 tabs at once**: five sessions of one server upload the file together;
    * **the real-data page, 1 tab**, and **5 tabs at once**: the same through ``app.py``'s real-data page, which then
      computes every figure on the column (what a student waits for before the first answer).

    For each: the server's resident memory before (the page open, no file yet), its peak meanwhile (``VmHWM``, reset
    just before the upload by writing 5 to ``/proc/PID/clear_refs``) and after the last answer, the seconds from the
    start of the PUT to the answer (the rerun's ``script_finished``; with five tabs, the slowest) and the server's
    CPU-seconds meanwhile (steadier than the seconds on a shared machine). Last, the reader alone,
    ``read_csv_columns`` on the bytes in a fresh Python process: its seconds, CPU-seconds and peak over its start.

Target (issue 39): the upload alone, one tab, peaks at <= 400 MB of server memory.

Before and after: ``--root DIR`` measures another checkout (``git archive <commit> | tar -x -C DIR``) with this
script; a checkout without ``ui.upload_limits`` runs without its bounds.

Run: ``.venv/bin/python benchmarks/upload_memory.py [--rows 1000000] [--tabs 5] [--no-page] [--root DIR]`` (in
``./lab.sh bench``).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
from interaction_latency import ROOT, free_port, start_server, stop_server
from load import cpu_seconds
from upload_client import UploadTab

TARGET_MB = 400.0  #: the upload alone, one tab: the server's peak
#: A page with the real-data page's uploader and nothing else (imported from the checkout measured)
UPLOAD_ONLY = '''"""The upload alone (benchmarks/upload_memory.py): the real-data page's uploader and reading."""
import importlib
import importlib.util

from ui import upload

if importlib.util.find_spec("ui.upload_limits"):  # as app.py does (an earlier checkout has no such bounds)
    importlib.import_module("ui.upload_limits").bound_uploads()
upload.uploaded_column()
'''
READER_ALONE = '''import sys, time
from dpcore.columns import read_csv_columns
def status(key):
    return next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith(key)) / 1024
data = open(sys.argv[1], "rb").read()
before = status("VmRSS")
start, cpu = time.perf_counter(), time.process_time()
read_csv_columns(data)
print(time.perf_counter() - start, time.process_time() - cpu, before, status("VmHWM"))
'''


def realistic_csv(rows: int, seed: int = 0) -> bytes:
    """``rows`` rows of 6 numeric columns, as a survey exports them (whole numbers, one decimal for the income)."""
    rng = np.random.default_rng(seed)
    columns = (rng.integers(18, 91, rows), rng.integers(150, 201, rows), rng.integers(45, 121, rows),
               np.minimum(rng.poisson(1.5, rows), 9), rng.integers(0, 2, rows),
               np.round(rng.lognormal(3.3, 0.5, rows), 1))
    lines = (f"{a},{h},{w},{v},{s},{i:g}" for a, h, w, v, s, i in zip(*(column.tolist() for column in columns)))
    return ("age,height,weight,visits,smoker,income\n" + "\n".join(lines) + "\n").encode()


def memory(pid: int, key: str) -> float:
    """``VmRSS`` or ``VmHWM`` of process ``pid``, in MB."""
    with open(f"/proc/{pid}/status") as lines:
        return next(int(line.split()[1]) for line in lines if line.startswith(f"{key}:")) / 1024


def scenario(root: Path, script: str, page: str, query: str, data: bytes, tabs: int, folder: Path) -> dict:
    """A fresh server running ``script``; ``tabs`` tabs open ``page``, then upload ``data`` together. The server's
    memory (MB) before, at its peak and after; the slowest tab's seconds from its PUT to its answer."""
    port = free_port()
    server = start_server(port, folder / f"server-{port}.log", script=script, root=root)
    base = f"http://127.0.0.1:{port}"
    try:
        opened = [UploadTab(base, timeout=600.0, page=page, query=query) for _ in range(tabs)]
        for tab in opened:
            tab.open()
        before, cpu = memory(server.pid, "VmRSS"), cpu_seconds([server.pid])[0]
        with open(f"/proc/{server.pid}/clear_refs", "w") as refs:
            refs.write("5")
        seconds, failed = [], []

        def upload(tab: UploadTab) -> None:
            start = time.monotonic()
            run = tab.upload(data)
            seconds.append(time.monotonic() - start)
            failed.extend(run.exceptions + ([run.status] if run.failed else []) + (
                [f"{run.alerts['error']} error messages"] if run.alerts.get("error") else []))

        threads = [threading.Thread(target=upload, args=(tab,)) for tab in opened]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        result = dict(before=before, peak=memory(server.pid, "VmHWM"), after=memory(server.pid, "VmRSS"),
                      seconds=max(seconds), cpu=cpu_seconds([server.pid])[0] - cpu, failed=failed)
        for tab in opened:
            tab.close()
        return result
    finally:
        stop_server(server)


def reader_alone(root: Path, path: Path) -> dict:
    """``read_csv_columns`` of ``root`` on the file at ``path`` in a fresh process: seconds, CPU-seconds, memory
    before and peak."""
    answer = subprocess.run([sys.executable, "-c", READER_ALONE, str(path)], cwd=root, capture_output=True, text=True,
                            check=True, timeout=600)
    seconds, cpu, before, peak = (float(value) for value in answer.stdout.split())
    return dict(before=before, peak=peak, after=float("nan"), seconds=seconds, cpu=cpu, failed=[])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--tabs", type=int, default=5, help="tabs uploading at once in the second scenarios")
    parser.add_argument("--no-page", action="store_true", help="skip the real-data page's scenarios")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout measured (default: this one)")
    args = parser.parse_args(argv)
    data = realistic_csv(args.rows)
    print(f"A {args.rows:,}-row CSV of 6 numeric columns, {len(data) / 1e6:.1f} MB, uploaded over loopback; checkout "
          f"{args.root}; server memory in MB (peak: VmHWM), seconds from the PUT to the answer (the slowest tab), "
          "server CPU-seconds meanwhile")
    print(f"{'scenario':44} {'before':>7} {'peak':>7} {'growth':>7} {'after':>7} {'seconds':>8} {'CPU-s':>7}")
    results = {}
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        (folder / "upload_only.py").write_text(UPLOAD_ONLY)
        (folder / "data.csv").write_bytes(data)
        plan = [("the upload alone, 1 tab", str(folder / "upload_only.py"), "", "", 1),
                (f"the upload alone, {args.tabs} tabs at once", str(folder / "upload_only.py"), "", "", args.tabs)]
        if not args.no_page:  # the public range typed in the link (the page releases nothing until it is), the
            # values every upload had before it was the student's to type: the same computations as before
            page = "data=upload&low=0&high=100&scale=10"
            plan += [("the real-data page, 1 tab", "app.py", "real-data", page, 1),
                     (f"the real-data page, {args.tabs} tabs at once", "app.py", "real-data", page, args.tabs)]
        for label, script, page, query, tabs in plan:
            results[label] = scenario(args.root, script, page, query, data, tabs, folder)
            show(label, results[label])
        results["reader"] = reader_alone(args.root, folder / "data.csv")
        show("the reader alone (a fresh process)", results["reader"])
    peak = results["the upload alone, 1 tab"]["peak"]
    passed = peak <= TARGET_MB and not any(result["failed"] for result in results.values())
    print(f"the upload alone, 1 tab: peak {peak:.0f} MB <= {TARGET_MB:.0f} MB and no failure: "
          f"{'PASS' if passed else 'FAIL'}")
    return 0 if passed else 1


def show(label: str, result: dict) -> None:
    """One line of the table (and what failed, if anything)."""
    print(f"{label:44} {result['before']:7.0f} {result['peak']:7.0f} {result['peak'] - result['before']:7.0f} "
          f"{result['after']:7.0f} {result['seconds']:8.2f} {result['cpu']:7.2f}"
          + (f"  FAILED: {result['failed']}" if result["failed"] else ""), flush=True)


if __name__ == "__main__":
    raise SystemExit(main())

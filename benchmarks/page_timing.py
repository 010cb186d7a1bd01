"""Shared harness for the page benchmarks: time a page script at its defaults, cold and warm.

* cold: a fresh interpreter imports streamlit, plotly and dpcore first, then times the page's first
  ``AppTest`` run — everything the page computes and renders on a first visit, no Streamlit cache.
* warm: the second run in the same ``AppTest`` (caches filled) and the median of further reruns.

Targets (issues): cold < 1.5 s, warm < 0.2 s.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COLD_TARGET, WARM_TARGET = 1.5, 0.2
CHILD = """
import json, logging, sys, time
logging.getLogger("streamlit").setLevel(logging.ERROR)
import numpy, plotly, scipy, streamlit, dpcore, dpcore.viz
from streamlit.testing.v1 import AppTest
sys.path.insert(0, {root!r})
at = AppTest.from_file({page!r}, default_timeout=600)
start = time.perf_counter()
at.run()
elapsed = time.perf_counter() - start
reruns = []
for _ in range(6):
    start = time.perf_counter()
    at.run()
    reruns.append(time.perf_counter() - start)
print(json.dumps(dict(cold=elapsed, warm=reruns, exceptions=[str(e.value) for e in at.exception])))
"""


def measure(page: str, repeats: int = 3) -> tuple[list[float], list[float]]:
    """(cold seconds per fresh interpreter, warm rerun seconds pooled) for ``app_pages/<page>``."""
    colds, warms = [], []
    for _ in range(repeats):
        code = CHILD.format(root=str(ROOT), page=str(ROOT / "app_pages" / page))
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
        run = json.loads(out.stdout.strip().splitlines()[-1])
        if run["exceptions"]:
            raise RuntimeError(f"{page} raised: {run['exceptions']}")
        colds.append(run["cold"])
        warms.extend(run["warm"])
    return colds, warms


def report(title: str, page: str) -> None:
    """Print the cold and warm times of a page at its defaults, with PASS/FAIL against the targets."""
    colds, warms = measure(page)
    cold, warm = statistics.median(colds), statistics.median(warms)
    print(f"{title} ({page}) at its defaults")
    print(f"  cold (first run in a fresh interpreter): {', '.join(f'{c:.3f}' for c in colds)} s; median {cold:.3f} s "
          f"— target < {COLD_TARGET} s: {'PASS' if cold < COLD_TARGET else 'FAIL'}")
    print(f"  warm (reruns with caches): median {warm:.3f} s, max {max(warms):.3f} s "
          f"— target < {WARM_TARGET} s: {'PASS' if warm < WARM_TARGET else 'FAIL'}")


def seconds(function, *args, **kwargs) -> float:
    """Wall time of one call."""
    start = time.perf_counter()
    function(*args, **kwargs)
    return time.perf_counter() - start

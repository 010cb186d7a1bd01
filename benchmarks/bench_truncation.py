"""Speed of the truncation page at its defaults (issue: cold < 1.5 s, warm < 0.2 s).

The default sweeps are served from ``assets/precomputed``; the last line shows what computing them
would cost instead (the reason they are precomputed).

Run: ``.venv/bin/python benchmarks/bench_truncation.py`` (or ``./lab.sh bench``).
"""

import math

import numpy as np
from page_timing import report, seconds

from dpcore.lessons import truncation

if __name__ == "__main__":
    report("Truncation bias", "truncation.py")
    error = seconds(truncation.error_sweep, "lomax", np.array([2, 2.5, 3, 4, 6, 10, math.inf]),
                    np.array([100, 300, 1000, 3000, 10_000, 30_000, 100_000]), 1.0, 400_000, 0, 1000.0)
    bias = seconds(truncation.bias_correction_sweep, np.array([1000, 2000, 4000, 8000, 16_000, 32_000]),
                   np.array([0.25, 0.5, 1.0, 2.0, 4.0]), 1e-6, 0.8, 0.0, 1.5, 200, 0)
    print(f"  without assets/precomputed the default sweeps would take {error:.2f} s + {bias:.2f} s")

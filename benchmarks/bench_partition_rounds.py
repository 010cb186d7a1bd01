"""Speed of the partitioning-rounds page at its defaults (issue: cold < 1.5 s, warm < 0.2 s), and of the pieces a
non-default setting recomputes: one simulated run with its trace, and one sweep grid point per dimension.

Run: ``.venv/bin/python benchmarks/bench_partition_rounds.py`` (or ``./lab.sh bench``).
"""

import statistics

import numpy as np
from page_timing import report, seconds

from dpcore.distributions import binary_product as products
from dpcore.estimators import partition_rounds as product
from dpcore.lessons import partition_rounds as partition_rounds_lesson

if __name__ == "__main__":
    report("Partitioning rounds", "partition_rounds.py")
    p = products.marginal_profile("log-uniform", 1024)
    run = statistics.median(seconds(product.simulate_estimators, p, 10**6, 1.0, 0) for _ in range(5))
    print(f"  one run, every estimator (d = 1024, n = 10^6, fast mode): median {1e3 * run:.0f} ms")
    rows = products.sample_rows(products.marginal_profile("log-uniform", 64), 200_000, rng=0)
    exact = statistics.median(seconds(product.partition_rounds, rows, 1.0, 0) for _ in range(3))
    print(f"  partition_rounds on real rows (d = 64, n = 2*10^5, clipped): median {1e3 * exact:.0f} ms")
    for trials in (30, 2):  # the page's default, and the two-trial probe of a quick preview (ui.progressive)
        for d in (256, 1024, 4096):
            point = statistics.median(seconds(partition_rounds_lesson.error_sweep, np.array([1e6]), np.array([d]),
                                              np.array([1.0]), ["log-uniform"], trials, 0) for _ in range(3))
            print(f"  one sweep grid point, 6 methods x {trials} trials, TV by Monte Carlo (d = {d}): "
                  f"{1e3 * point:.0f} ms")

"""Speed of the exponential-mechanism page at its defaults (issue: cold < 1.5 s, warm < 0.2 s; one draw over
10⁶ candidates with fresh scores under 20 ms).

Run: ``.venv/bin/python benchmarks/bench_exponential_mechanism.py`` (or ``./lab.sh bench``).
"""

import statistics

import numpy as np
from page_timing import report, seconds

from dpcore import mechanisms

if __name__ == "__main__":
    report("Exponential mechanism", "exponential_mechanism.py")
    rng = np.random.default_rng(0)
    for method in ("inverse_cdf", "gumbel"):  # inverse_cdf is the default sampler
        times = [seconds(mechanisms.exponential, rng.uniform(0, 1e3, 10**6), 1.0, 1.0, False, rng, None, method)
                 for _ in range(7)]
        median = statistics.median(times)
        print(f"  one draw over 10^6 candidates, fresh scores ({method}): median {1e3 * median:.1f} ms "
              f"— target < 20 ms: {'PASS' if median < 0.02 else 'FAIL'}")

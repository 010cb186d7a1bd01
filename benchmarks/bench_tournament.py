"""Speed of the tournament page and of the vectorised Scheffé tournament (issue: a 1-D tournament with k = 1,000
hypotheses and n = 5,000 under 50 ms and at least 20x faster than a per-pair loop; page cold < 1.5 s, warm < 0.2 s).

Run: ``.venv/bin/python benchmarks/bench_tournament.py`` (or ``./lab.sh bench``).
"""

import math
import statistics

import numpy as np
from page_timing import report, seconds

from dpcore.estimators import selection


def per_pair_tournament(family, x):
    """The same tournament with a Python loop over the k(k−1)/2 pairs (data sorted once, one search per pair)."""
    p1, p2 = family.probabilities()
    ordered, n, means = np.sort(x), x.size, family.means
    wins = np.zeros(family.size, dtype=int)
    for i in range(family.size):
        for j in range(i + 1, family.size):
            midpoint = (means[i] + means[j]) / 2
            above = n - np.searchsorted(ordered, midpoint, side="right")
            tau = above / n if means[i] > means[j] else (n - above) / n
            if abs(p1[i, j] - tau) < abs(p2[i, j] - tau):
                wins[i] += 1
            elif abs(p2[i, j] - tau) < abs(p1[i, j] - tau):
                wins[j] += 1
    return int(np.argmax(wins))


if __name__ == "__main__":
    report("Tournament selection", "tournament.py")
    rng = np.random.default_rng(0)
    build = seconds(selection.gaussian_grid, 1000)
    family = selection.gaussian_grid(1000)
    family.probabilities()  # data-independent: computed once per family
    print(f"  k = 1,000 family: building its Scheffé sets and probabilities once: {1e3 * build:.0f} ms")
    x = rng.normal(0.33, 1.0, 5000)
    for name, function in (("tournament winner (win matrix)", selection.tournament_winner),
                           ("pairwise scores S(H)", lambda f, data: selection.scheffe_scores(f, data, 0.05)),
                           ("private selection (scores + EM)", lambda f, data: selection.private_select(f, data, 0.1,
                                                                                                         rng=1))):
        median = statistics.median(seconds(function, family, x) for _ in range(9))
        print(f"  k = 1,000, n = 5,000, {name}: median {1e3 * median:.1f} ms — target < 50 ms: "
              f"{'PASS' if median < 0.05 else 'FAIL'}")
        if name.startswith("tournament"):
            vectorised = median
    loop = seconds(per_pair_tournament, family, x)
    assert per_pair_tournament(family, x) == selection.tournament_winner(family, x)
    speedup = loop / vectorised
    print(f"  per-pair loop (499,500 pairs, one search each): {1e3 * loop:.0f} ms → vectorised is {speedup:.0f}x "
          f"faster — target >= 20x: {'PASS' if speedup >= 20 else 'FAIL'}")
    users = rng.normal(0.33, 1.0, (40, 1000, 64))
    user = seconds(selection.user_scheffe_scores, selection.gaussian_grid(41), users, 0.05, math.sqrt(64))
    print(f"  user-level scores, 40 datasets x 1,000 users x 64 examples, k = 41: {1e3 * user:.0f} ms")

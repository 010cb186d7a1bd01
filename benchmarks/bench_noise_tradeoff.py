"""Speed of the pure vs approximate DP page at its defaults (issue: cold < 1.5 s, warm < 0.2 s).

Run: ``.venv/bin/python benchmarks/bench_noise_tradeoff.py`` (or ``./lab.sh bench``).
"""

from page_timing import report

if __name__ == "__main__":
    report("Pure vs approximate DP", "noise_tradeoff.py")

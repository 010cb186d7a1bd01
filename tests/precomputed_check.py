"""Recompute stored results in assets/precomputed and compare them with what is stored: every result a page shows at
its defaults, and a fixed sample of one in GRID_SAMPLE of those stored one move away from them (the grid: the same
functions at other parameters, made by the same ``./lab.sh precompute`` run; all of them would take CI half an hour).

Run by ``tests/test_precomputed.py`` in a subprocess per BLAS thread count (the thread count is fixed when numpy
loads, so it cannot change inside one process). Prints one line per mismatch and exits 1 when there is any.

What must match exactly: the function's parameters, method names, seed, grids and trial counts (they are what the
figure *is*). The floating-point statistics must match to ``RTOL``: a fresh run on another CPU, or with another
OpenBLAS thread count, differs in the last bits (2e-14 to 1.2e-7 relative seen: vectorised kernels reorder sums,
Brent refinements in ``distributions.optimal_window`` magnify last-bit differences). A figure shows at most four
significant digits, so 1e-6 is the same figure, and still 100x tighter than any Monte Carlo error on screen.
"""

import sys
from pathlib import Path

import numpy as np

from dpcore.experiments import rerun_stored, stored_calls

RTOL = 1e-6
ATOL = 1e-12  # errors exactly 0 (a point mass) compare with this floor instead of a relative tolerance
STORE = Path(__file__).resolve().parents[1] / "assets" / "precomputed"
STATISTICS = ("median", "lower", "upper", "mean", "rmse")
GRID_SAMPLE = 16


def mismatches(path: Path) -> list[str]:
    """What differs between the stored result at ``path`` and a fresh run of the call it records."""
    stored, fresh = rerun_stored(path)
    found = []
    if (stored.parameters, stored.methods, stored.seed) != (fresh.parameters, fresh.methods, fresh.seed):
        return [f"{path.name}: parameters, methods or seed differ"]
    for axis in stored.parameters:
        if not np.array_equal(stored.grid[axis], fresh.grid[axis]):
            found.append(f"{path.name}: grid {axis} differs")
    if not np.array_equal(stored.trials, fresh.trials):
        found.append(f"{path.name}: trial counts differ")
    for name in STATISTICS:
        if not np.allclose(getattr(stored, name), getattr(fresh, name), rtol=RTOL, atol=ATOL, equal_nan=True):
            worst = np.nanmax(np.abs(getattr(stored, name) / getattr(fresh, name) - 1))
            found.append(f"{path.name}: {name} differs by up to {worst:.2e} relative")
    return found


def checked() -> list[Path]:
    """The stored files compared: every default-state one, and the grid ones whose name's digest is 0 modulo
    GRID_SAMPLE (the digest hashes function and parameters: a fixed, well-spread sample)."""
    defaults = [path for _, _, path in stored_calls(STORE, "defaults")]
    grid = [path for _, _, path in stored_calls(STORE, "grid")
            if int(path.stem.rpartition("-")[2], 16) % GRID_SAMPLE == 0]
    return defaults + grid


def main() -> int:
    paths = checked()
    problems = [line for path in paths for line in mismatches(path)]
    print("\n".join(problems) or f"{len(paths)} stored results match a fresh run (rtol {RTOL:g})")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

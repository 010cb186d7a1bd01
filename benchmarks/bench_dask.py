"""Research scale: one large sweep on a local Dask cluster with 1 and 2 workers, against the plain sequential run.

The sweep is the pure-vs-approximate page's error-versus-n grid (Laplace vs Gaussian means, 9 sample sizes x 4
dimensions x 3 values of ε) at TRIALS trials per point, ten times the page's maximum. Each data-parameter combination
is one task (``dpcore.experiments.parallel_over``); every worker draws the same random numbers, so the results agree
whatever the backend to the last bits of floating-point sums (checked here, and in
tests/experiments/test_engine.py): Dask's workers use one BLAS thread, so this process does too, and numpy's
vectorised sums may still round differently with another memory alignment. Scaling is bounded by this machine's 2 cores.

Run: ``.venv/bin/python benchmarks/bench_dask.py`` (also run by ``./lab.sh bench``).
"""

from __future__ import annotations

import os

os.environ["OPENBLAS_NUM_THREADS"] = os.environ["OMP_NUM_THREADS"] = "1"  # as in Dask's workers; before numpy loads

import sys
import time
from pathlib import Path

import numpy as np  # noqa: E402
from distributed import Client, LocalCluster  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dpcore.experiments import parallel_over  # noqa: E402
from dpcore.lessons import noise_tradeoff  # noqa: E402

TRIALS = 20_000
RTOL = 1e-12  # the same draws; numpy's vectorised sums may round differently with another memory alignment
PARAMS = dict(n_values=list(np.geomspace(100, 1_000_000, 9).round().astype(int).tolist()), dimensions=[1, 8, 64, 256],
              epsilons=[0.25, 0.5, 1.0], delta=1e-6, trials=TRIALS, seed=0)


def timed(label: str, executor=None):
    start = time.perf_counter()
    if executor is None:
        result = noise_tradeoff.error_sweep(**PARAMS)
    else:
        with parallel_over(executor):
            result = noise_tradeoff.error_sweep(**PARAMS)
    seconds = time.perf_counter() - start
    print(f"  {label:<32} {seconds:7.2f} s", flush=True)
    return result, seconds


def main() -> int:
    points = len(PARAMS["n_values"]) * len(PARAMS["dimensions"]) * len(PARAMS["epsilons"])
    print(f"One sweep on Dask: {points} grid points x {TRIALS:,} trials x 2 methods (pure vs approximate error vs n)")
    reference, sequential = timed("sequential (no Dask)")
    times = {}
    for workers in (1, 2):
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                          host="127.0.0.1") as cluster, Client(cluster) as client:
            result, times[workers] = timed(f"LocalCluster, {workers} worker{'s' if workers > 1 else ''}",
                                           client.get_executor())
        worst = max(float(np.max(np.abs(getattr(result, name) / getattr(reference, name) - 1)))
                    for name in ("median", "lower", "upper", "mean", "rmse"))
        same = np.array_equal(result.trials, reference.trials) and worst <= RTOL
        print(f"    same as the sequential run: {same} (largest relative difference {worst:.1e})")
        if not same:
            return 1
    print(f"  speed-up 2 workers / 1 worker: {times[1] / times[2]:.2f}x (2 cores bound it near 2x); "
          f"vs sequential: {sequential / times[2]:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""How close is the Monte Carlo engine to the cost of its random numbers?

Workload: the clipped Laplace mean of N(0, 1) data, clipped to [-3, 3], noise Lap(6 / (epsilon n)),
epsilon = 1, error |estimate - 0|. Three ways to get the same summaries:

* engine    ``dpcore.experiments.run_sweep`` with one grid point;
* loop      a Python loop over trials, bare NumPy inside each trial (draw, clip, mean, noise);
* api loop  the loop a page would write without the engine: per trial, NumPy draw and clip, then the
            validated public mechanism ``dpcore.mechanisms.laplace``;
* draw-only just the random numbers, drawn at once (normals + Laplace): a floor for any method;
* direct    the same ``sample`` and estimator called once by hand, no engine: engine/direct is the
            engine's own overhead (streams, checks, summaries), engine/draw-only adds the estimator's
            arithmetic (clip, mean) and memory traffic.

Times are the best of 5 runs (``time.perf_counter``). Run: ``.venv/bin/python benchmarks/bench_engine.py``.
"""

from __future__ import annotations

import time

import numpy as np

from dpcore.experiments import run_sweep
from dpcore.mechanisms import laplace

CLIP = 3.0
EPSILON = 1.0
REPEATS = 5
CASES = ((100, 10_000), (1_000, 1_000), (100_000, 100))  # (n, trials)
TARGET_DRAW_RATIO = 1.2  # engine time / draw-only time, at most
TARGET_SPEEDUP = 25.0  # loop time / engine time at n = 100, 10k trials, at least


def noise_scale(n: int) -> float:
    return 2.0 * CLIP / (EPSILON * n)


def sample(params: dict, trials: int, rng: np.random.Generator) -> np.ndarray:
    return rng.standard_normal((trials, params["n"]))


def clipped_laplace(data: np.ndarray, params: dict, rng: np.random.Generator) -> np.ndarray:
    estimate = np.clip(data, -CLIP, CLIP).mean(axis=1) + rng.laplace(0.0, noise_scale(params["n"]), data.shape[0])
    return np.abs(estimate)


def engine(n: int, trials: int) -> None:
    run_sweep(sample, {"clipped Laplace": clipped_laplace}, {"n": [n], "epsilon": [EPSILON]},
              data_parameters=("n",), trials=trials, seed=0)


def loop(n: int, trials: int) -> None:
    rng = np.random.default_rng(0)
    errors = np.empty(trials)
    for i in range(trials):
        estimate = np.clip(rng.standard_normal(n), -CLIP, CLIP).mean() + rng.laplace(0.0, noise_scale(n))
        errors[i] = abs(estimate)
    np.quantile(errors, (0.1, 0.5, 0.9))


def api_loop(n: int, trials: int) -> None:
    rng = np.random.default_rng(0)
    errors = np.empty(trials)
    for i in range(trials):
        errors[i] = abs(laplace(np.clip(rng.standard_normal(n), -CLIP, CLIP).mean(), 2.0 * CLIP / n, EPSILON, rng))
    np.quantile(errors, (0.1, 0.5, 0.9))


def draw_only(n: int, trials: int) -> None:
    rng = np.random.default_rng(0)
    rng.standard_normal((trials, n))
    rng.laplace(0.0, noise_scale(n), trials)


def direct(n: int, trials: int) -> None:
    rng = np.random.default_rng(0)
    errors = clipped_laplace(sample({"n": n}, trials, rng), {"n": n, "epsilon": EPSILON}, rng)
    np.quantile(errors, (0.1, 0.5, 0.9))


def best_time(function, *args) -> float:
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        function(*args)
        times.append(time.perf_counter() - start)
    return min(times)


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def main() -> None:
    header = f"{'n':>7} {'trials':>7} {'engine ms':>10} {'loop ms':>9} {'api loop ms':>12} {'draw ms':>8} " \
             f"{'direct ms':>10} {'loop/engine':>12} {'api/engine':>11} {'engine/draw':>12} {'engine/direct':>14} " \
             f"{'loop/draw':>10}"
    print(header)
    print("-" * len(header))
    rows = {}
    for n, trials in CASES:
        t_engine, t_loop, t_api, t_draw, t_direct = (best_time(f, n, trials)
                                                     for f in (engine, loop, api_loop, draw_only, direct))
        rows[n, trials] = (t_engine, t_loop, t_api, t_draw)
        print(f"{n:>7} {trials:>7} {1e3 * t_engine:>10.2f} {1e3 * t_loop:>9.2f} {1e3 * t_api:>12.2f} "
              f"{1e3 * t_draw:>8.2f} {1e3 * t_direct:>10.2f} {t_loop / t_engine:>11.1f}x {t_api / t_engine:>10.1f}x "
              f"{t_engine / t_draw:>11.2f}x {t_engine / t_direct:>13.2f}x {t_loop / t_draw:>9.1f}x")
    t_engine, t_loop, t_api, t_draw = rows[CASES[0]]
    print()
    print(f"target engine/draw-only <= {TARGET_DRAW_RATIO}x at n=100, 10k trials: "
          f"{t_engine / t_draw:.2f}x {verdict(t_engine / t_draw <= TARGET_DRAW_RATIO)}")
    print(f"target loop/engine >= {TARGET_SPEEDUP:.0f}x at n=100, 10k trials: bare-NumPy loop "
          f"{t_loop / t_engine:.1f}x {verdict(t_loop / t_engine >= TARGET_SPEEDUP)} "
          f"(ceiling for any vectorised engine = loop/draw-only = {t_loop / t_draw:.1f}x); "
          f"public-API loop {t_api / t_engine:.1f}x {verdict(t_api / t_engine >= TARGET_SPEEDUP)}")


if __name__ == "__main__":
    main()

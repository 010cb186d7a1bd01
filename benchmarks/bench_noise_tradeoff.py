"""Compute time of the "Pure vs approximate DP" page (pages/noise_tradeoff.py) at its defaults.

Defaults: ε = 1, δ = 1e-6, d = 64, n = 10^4, k = 100, trials = 200, seed = 0.

* **cold**: a fresh interpreter (one subprocess per repeat), imports not timed, then the dpcore calls the page
  makes on a first visit, timed step by step: the error-vs-n sweep (n grid × d frames), the error-vs-d sweep
  (d grid × ε frames), their theory curves and animated figures (dpcore.viz), the profile and composition
  figures, the one-run release clouds, the δ table, the sample-complexity table and the small per-run numbers.
  The page is a script, so these calls mirror it; its grids are read from the page source (``ast``), so
  the benchmark follows the page when they change. Streamlit's own work (widgets, figure copies in ``ui``,
  serialisation) is not in this number.
* **warm**: the page through ``streamlit.testing.v1.AppTest`` after a first run, i.e. with every
  ``st.cache_data`` result cached: the time of ``at.run()`` again (the cost of any rerun, e.g. a widget move
  that hits the cache). This one includes Streamlit's work.

Targets: cold < 1.5 s, warm < 0.2 s. Run: ``.venv/bin/python benchmarks/bench_noise_tradeoff.py``.
"""

from __future__ import annotations

import ast
import json
import logging
import math
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "pages" / "noise_tradeoff.py"
DEFAULTS = dict(epsilon=1.0, delta=1e-6, dimension=64, n=10_000, k=100, trials=200, seed=0)
COLD_TARGET, WARM_TARGET = 1.5, 0.2
COLD_REPEATS, WARM_RERUNS = 3, 5


def page_constants() -> dict:
    """The page's literal module-level constants (grids, frame values), read without running the page."""
    constants = {}
    for node in ast.parse(PAGE.read_text()).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            try:
                constants[node.targets[0].id] = ast.literal_eval(node.value)
            except ValueError:
                pass
    constants.setdefault("DELTAS", tuple(10.0**-e for e in range(3, 13)))  # a generator expression on the page
    return constants


# ---------------------------------------------------------------------------------------- cold
def cold_compute() -> dict[str, float]:
    """One first-visit computation at the defaults; returns seconds per step (imports excluded)."""
    import numpy as np

    import ui  # only for its pure log_grid (the page's k grid)
    from dpcore import noise_tradeoff as nt
    from dpcore import viz
    from dpcore.experiments import fit_power_law

    c = page_constants()
    eps, delta, d, n = DEFAULTS["epsilon"], DEFAULTS["delta"], DEFAULTS["dimension"], DEFAULTS["n"]
    trials, seed, k = DEFAULTS["trials"], DEFAULTS["seed"], DEFAULTS["k"]
    dims, n_grid, eps_frames = c["DIMENSIONS"], c["N_GRID"], c["EPSILON_FRAMES"]

    def mechanisms_for(epsilons):
        return nt.MECHANISMS if max(epsilons) <= 1.0 else tuple(m for m in nt.MECHANISMS if m != "Gaussian (classical)")

    def theory(methods, xs, error_at):
        def curves(frame_value):
            return [viz.Series(f"{m} (exact RMSE)", np.array(xs), np.array([error_at(m, x, frame_value) for x in xs]),
                               kind="theory", color=viz.method_color(m), group=m) for m in methods]
        return curves

    times: dict[str, float] = {}

    def step(name, function):
        start = time.perf_counter()
        out = function()
        times[name] = time.perf_counter() - start
        return out

    by_n = step("sweep: error vs n (n grid x d frames)", lambda: nt.error_sweep(
        np.array(n_grid), np.array(dims), np.array([eps]), delta, trials, seed, mechanisms_for([eps])))
    by_d = step("sweep: error vs d (d grid x eps frames)", lambda: nt.error_sweep(
        np.array([n]), np.array(dims), np.array(eps_frames), delta, trials, seed, mechanisms_for(eps_frames)))
    step("figure: error vs n (+ theory)", lambda: viz.animated_sweep(
        viz.sweep_frames(by_n, x="n", frame="dimension", fixed={"epsilon": eps}, statistic="rmse",
                         theory=theory((*mechanisms_for([eps]), nt.NON_PRIVATE), n_grid,
                                       lambda m, x, dim: nt.expected_error(m, dim, x, eps, delta))),
        x_title="n", y_title="error", frame_title="d"))
    step("figure: error vs d (+ theory)", lambda: viz.animated_sweep(
        viz.sweep_frames(by_d, x="dimension", frame="epsilon", fixed={"n": n}, statistic="rmse",
                         theory=theory((*mechanisms_for(eps_frames), nt.NON_PRIVATE), dims,
                                       lambda m, x, e: nt.expected_error(m, x, n, e, delta))),
        x_title="d", y_title="error", frame_title="ε"))

    def profiles():
        epsilons, frames = np.linspace(0.0, 6.0, 121), []
        for noise_epsilon in c["NOISE_FRAMES"]:
            values = nt.privacy_profiles(epsilons, noise_epsilon)
            frames.append(viz.FrameData(f"{noise_epsilon:g}", [
                viz.Series("Laplace", epsilons, np.where(values["Laplace"] >= 1e-12, values["Laplace"], np.nan)),
                viz.Series("Gaussian (analytic)", epsilons, values["Gaussian"]),
                viz.Series("Laplace reaches δ = 0", [noise_epsilon, noise_epsilon], [1e-12, 1.0], kind="baseline")]))
        return viz.animated_sweep(frames, x_title="ε", y_title="δ", frame_title="ε0", log_x=False)

    def composition():
        releases, frames = np.array(ui.log_grid(1, 1000, integer=True), dtype=float), []  # the page's k grid
        for release_epsilon in c["RELEASE_EPSILON_FRAMES"]:
            totals = nt.composition_epsilons(releases, release_epsilon, delta)
            frames.append(viz.FrameData(f"{release_epsilon:g}", [viz.Series(key, releases, values, color="#000000")
                                                                  for key, values in totals.items()]))
        return viz.animated_sweep(frames, x_title="k", y_title="ε", frame_title="ε0")

    step("figure: privacy profiles", profiles)
    step("figure: composition", composition)

    def clouds():
        rng = np.random.default_rng(seed)
        center, cloud_n = np.array([1.0, -0.5]), min(n, 20_000)
        points = center + rng.standard_normal((cloud_n, 2))
        radius = nt.clip_radius(2, cloud_n)
        data_rng, laplace_rng, gauss_rng = rng.spawn(3)
        releases = {name: nt.repeated_releases(points, eps, delta, name, radius, c["CLOUD_RELEASES"], center, stream)
                    for name, stream in (("Laplace", laplace_rng), ("Gaussian (analytic)", gauss_rng))}
        shown = points[data_rng.choice(cloud_n, size=min(cloud_n, 400), replace=False)]
        return viz.release_clouds(shown, center, radius, releases)

    step("figure: release clouds (one run)", clouds)

    def tables():
        for table_delta in c["DELTAS"]:
            radius = nt.clip_radius(d, n)
            nt.calibrate("Laplace", d, n, eps, table_delta, radius)
            nt.calibrate("Gaussian (analytic)", d, n, eps, table_delta, radius)
            nt.crossover_dimension(eps, table_delta)
        if hasattr(nt, "sample_complexity_table"):  # d = 64 > 2: the page does not run the cover mechanism
            nt.sample_complexity_table(d, c.get("TARGET_ERROR", 0.1), eps, delta, None)

    step("tables: δ table, sample complexity", tables)

    def numbers():
        radius = nt.clip_radius(d, n)
        nt.crossover_dimension(eps, delta)
        for m in mechanisms_for([eps]):
            nt.calibrate(m, d, n, eps, delta, radius)
        for m in ("Laplace", "Gaussian (analytic)", nt.NON_PRIVATE):
            nt.expected_error(m, d, n, eps, delta)
        frame_eps = min(eps_frames, key=lambda e: abs(math.log(e / eps)))
        ratio = (by_d.curve("Laplace", "dimension", n=n, epsilon=frame_eps)["rmse"]
                 / by_d.curve("Gaussian (analytic)", "dimension", n=n, epsilon=frame_eps)["rmse"])
        fit_power_law(np.array(dims, dtype=float), ratio)
        nt.advanced_beats_basic_from(0.1, delta)
        nt.composition_epsilons(np.array([k]), 0.1, delta)

    step("numbers: captions, takeaways", numbers)
    return times


def cold() -> list[dict[str, float]]:
    """``COLD_REPEATS`` fresh interpreters, each timing :func:`cold_compute` once."""
    runs = []
    for _ in range(COLD_REPEATS):
        out = subprocess.run([sys.executable, __file__, "--cold-child"], capture_output=True, text=True, check=True,
                             cwd=ROOT)
        runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
    return runs


# ---------------------------------------------------------------------------------------- warm
def warm() -> tuple[float, float, list[float]]:
    """(first run, second run, further reruns) of the page in AppTest, in seconds."""
    logging.getLogger("streamlit").setLevel(logging.ERROR)
    sys.path.insert(0, str(ROOT))
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(PAGE), default_timeout=120)
    start = time.perf_counter()
    at.run()
    first = time.perf_counter() - start
    if at.exception:
        raise RuntimeError(f"the page raised: {[e.value for e in at.exception]}")
    reruns = []
    for _ in range(1 + WARM_RERUNS):
        start = time.perf_counter()
        at.run()
        reruns.append(time.perf_counter() - start)
    return first, reruns[0], reruns[1:]


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def main() -> None:
    print(f"Pure vs approximate DP page at defaults {DEFAULTS}")
    runs = cold()
    totals = [sum(run.values()) for run in runs]
    print(f"\ncold compute, {COLD_REPEATS} fresh interpreters (ms per step):")
    for name in runs[0]:
        print(f"  {name:45s} " + " ".join(f"{1e3 * run[name]:8.1f}" for run in runs))
    print(f"  {'total':45s} " + " ".join(f"{1e3 * t:8.1f}" for t in totals))
    cold_time = statistics.median(totals)

    first, second, more = warm()
    print("\nwarm (AppTest, st.cache_data filled by a first run):")
    print(f"  first run (cold caches, incl. Streamlit)      {1e3 * first:8.1f} ms")
    print(f"  second run                                    {1e3 * second:8.1f} ms")
    print(f"  {WARM_RERUNS} more reruns: " + ", ".join(f"{1e3 * t:.1f}" for t in more)
          + f" ms (median {1e3 * statistics.median(more):.1f})")

    print()
    print(f"target cold < {COLD_TARGET} s: median {cold_time:.3f} s {verdict(cold_time < COLD_TARGET)}")
    print(f"target warm < {WARM_TARGET} s: second run {second:.3f} s {verdict(second < WARM_TARGET)} "
          f"(median of further reruns {statistics.median(more):.3f} s)")


if __name__ == "__main__":
    if sys.argv[1:] == ["--cold-child"]:
        sys.path.insert(0, str(ROOT))
        print(json.dumps(cold_compute()))
    else:
        main()

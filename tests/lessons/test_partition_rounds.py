"""The partitioning-rounds lesson (dpcore.lessons.partition_rounds) against docs/algorithms.md §3.5–§3.6: the error
sweep, rate curves and their fits, the page's one run, tables, sweeps and takeaways, and the page's question.
"""

import json
import math

import numpy as np
import pytest

from dpcore import experiments
from dpcore.distributions import binary_product as pd
from dpcore.estimators import partition_rounds as product
from dpcore.lessons import partition_rounds as lesson
from dpcore.lessons.methods import label
from tests.examples import PARTITION_SWEEP, stored
from tests.lessons.answers import chosen

PARTITION_RUN = lesson.one_run("two-level", 16, 10_000, 1.0)

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "composition_question": dict(single=PARTITION_RUN),
    "error_sweep": dict(
        n_values=np.array([100.0]),
        dimensions=np.array([4.0]),
        epsilons=np.array([1.0]),
        profiles=["log-uniform"],
        trials=2,
        seed=0,
        metric="tv",
        delta=1e-6,
        beta=0.1,
        methods=("naive_laplace", "partition_pure"),
        mc_samples=10,
    ),
    "rate_curve": dict(
        dimension=4, n_values=np.array([10.0, 100.0]), epsilon=1.0, noise_power=1.5, constant=1.0
    ),
    "fit_rate_constant": dict(
        dimension=4, n_values=np.array([100.0, 1000.0]), epsilon=1.0, errors=np.array([0.3, 0.1]), noise_power=1.5
    ),
    "nearest_n": dict(n=15_000),
    "one_run_tv_points": dict(profile="two-level", dimension=64),
    "one_run": dict(
        profile="two-level", dimension=16, n=10_000, epsilon=1.0, delta=1e-6, seed=0
    ),
    "one_run_caption": dict(
        profile="two-level", dimension=16, n=10_000, epsilon=1.0, delta=1e-6, seed=0
    ),
    "run_caption": dict(single=PARTITION_RUN),
    "block_table": dict(single=PARTITION_RUN),
    "block_summary": dict(single=PARTITION_RUN),
    "distance_table": dict(single=PARTITION_RUN),
    "sweep_vs_n": dict(
        profile="two-level", dimension=16, delta=1e-6, trials=2, seed=0, metric="kl"
    ),
    "sweep_vs_dimension": dict(
        profile="log-uniform", epsilon=1.0, delta=1e-6, trials=30, seed=0, run=stored
    ),
    "sweep_by_profile": dict(dimension=16, epsilon=1.0, delta=1e-6, trials=2, seed=0),
    "rate_curves": dict(
        result=PARTITION_SWEEP, profile="log-uniform", dimension=16, epsilon=1.0
    ),
    "sample_complexity": dict(result=PARTITION_SWEEP, epsilon=1.0),
    "complexity_table": dict(
        profile="log-uniform", epsilon=1.0, delta=1e-6, trials=30, seed=0, run=stored
    ),
    "takeaways": dict(
        profile="log-uniform", n=1_000_000, epsilon=1.0, delta=1e-6, trials=30, seed=0, run=stored
    ),
}


# ------------------------------------------------------------------------------------ sweeps and rates
def test_error_sweep_is_reproducible_and_methods_can_be_chosen():
    """Same seed, same errors; another seed, other errors; the methods subset is respected, in order."""
    kwargs = dict(n_values=[10**4, 10**5], dimensions=[64], epsilons=[0.5, 2.0], profiles=["two-level"], trials=6)
    methods = (product.NAIVE, product.PARTITION_PURE)
    first = lesson.error_sweep(**kwargs, seed=3, methods=methods)
    again = lesson.error_sweep(**kwargs, seed=3, methods=methods)
    other = lesson.error_sweep(**kwargs, seed=4, methods=methods)
    assert first.methods == methods
    assert first.parameters == ("profile", "dimension", "n", "epsilon")
    assert first.mean.shape == (2, 1, 1, 2, 2)
    np.testing.assert_array_equal(first.mean, again.mean)
    assert not np.array_equal(first.mean, other.mean)
    assert np.all((first.mean > 0) & (first.mean <= 1))
    # more data or more ε never hurts the naive estimator on average here
    naive = first.mean[0, 0, 0]
    assert naive[1, 0] < naive[0, 0] and naive[0, 1] < naive[0, 0]


def test_error_sweep_tv_points_are_drawn_once_per_marginal_profile_and_dimension():
    """TV is measured over Monte Carlo points keyed by (seed, "tv points", profile, d) and shared by every n: the
    sweep's TV of the estimates equals TVMonteCarlo over exactly those points (common random numbers across n)."""
    from dpcore.core.randomness import child_generator
    result = lesson.error_sweep([10**3, 10**5], [64], [1.0], ["two-level"], trials=1, seed=7,
                                methods=[product.NON_PRIVATE], mc_samples=500)
    p = pd.marginal_profile("two-level", 64)
    tv = pd.TVMonteCarlo(p, 500, child_generator(7, "tv points", "two-level", 64))
    for i, n in enumerate((10**3, 10**5)):
        layout = product.block_layout(n, 64, 0.1)
        counts = product.draw_block_counts(p, layout, 1, child_generator(7, "data", "two-level", 64, n))
        estimate = product.estimate_from_counts(product.NON_PRIVATE, counts, layout, p, 1.0, 0)
        assert result.errors[0, 0, 0, i, 0][0] == pytest.approx(tv(estimate)[0], rel=1e-12)


def test_error_sweep_kl_metric_is_finite_for_every_method():
    """metric="kl" floors estimates at 1/(2n): finite for all six methods, even when estimates hit 0."""
    result = lesson.error_sweep([10**4], [256], [0.5], ["log-uniform", "all tiny"], trials=5, seed=0, metric="kl")
    assert result.methods == product.METHODS
    assert np.all(np.isfinite(result.mean)) and np.all(result.mean > 0)
    non_private = result.mean[result.methods.index(product.NON_PRIVATE)]
    assert np.all(result.mean >= non_private * 0.5)  # nobody is far below the non-private error


@pytest.mark.parametrize("kwargs, match", [
    (dict(profiles=["uniform"]), "profiles"), (dict(profiles=[]), "profiles"),
    (dict(methods=("magic",)), "methods"), (dict(methods=()), "methods"), (dict(metric="hellinger"), "metric"),
])
def test_error_sweep_rejects_unknown_profiles_methods_and_metrics(kwargs, match):
    """Bad names raise ValueError before any simulation."""
    call = dict(n_values=[1000], dimensions=[16], epsilons=[1.0], profiles=["log-uniform"], trials=2, seed=0)
    with pytest.raises(ValueError, match=match):
        lesson.error_sweep(**{**call, **kwargs})


def test_rate_curve_known_values():
    """min(1, sqrt(d/n)/sqrt(2π) + c d^a/(εn)): hand-computed values, the cap at 1, ε = inf non-private."""
    n = np.array([10.0, 1e4, 1e6])
    d, epsilon, a, c = 100, 0.5, 1.5, 0.2
    expected = np.minimum(1, np.sqrt(d / n) / math.sqrt(2 * math.pi) + c * d ** a / (epsilon * n))
    np.testing.assert_allclose(lesson.rate_curve(d, n, epsilon, a, c), expected, rtol=1e-14)
    assert lesson.rate_curve(d, n, epsilon, a, c)[0] == 1.0
    assert lesson.rate_curve(d, 1e6, epsilon, a, c) == pytest.approx(0.0039894 + 0.4 * 1e-3, rel=1e-4)
    assert lesson.rate_curve(1024, 1e6, 1.0) == pytest.approx(0.40 * 0.032 + 1024 / 1e6, rel=5e-3)  # 0.40 sqrt(d/n)
    non_private = np.minimum(1, np.sqrt(d / n) / math.sqrt(2 * math.pi))
    np.testing.assert_allclose(lesson.rate_curve(d, n, math.inf), non_private, rtol=1e-14)


@pytest.mark.parametrize("a, c", [(1.0, 1.0), (1.5, 0.37), (2.0, 0.2), (1.5, 0.0)])
def test_fit_rate_constant_recovers_c_from_its_own_curve(a, c):
    """Errors generated by rate_curve (saturated points included, then left out by the fit) give back c exactly."""
    n = np.geomspace(10, 1e8, 15)
    d, epsilon = 256, 0.8
    errors = lesson.rate_curve(d, n, epsilon, a, c)
    assert np.any(errors >= 0.8) or c == 0  # some points must be dropped by the fit
    assert lesson.fit_rate_constant(d, n, epsilon, errors, a) == pytest.approx(c, rel=1e-10, abs=1e-12)


def test_fit_rate_constant_edge_cases():
    """Below the sampling curve the constant is clamped at 0; all points saturated gives nan; shapes must match."""
    n = np.array([1e4, 1e5])
    below = 0.5 * lesson.rate_curve(64, n, math.inf)
    assert lesson.fit_rate_constant(64, n, 1.0, below, 1.0) == 0.0
    assert math.isnan(lesson.fit_rate_constant(64, n, 1.0, np.array([0.9, 1.0]), 1.0))
    with pytest.raises(ValueError, match="errors"):
        lesson.fit_rate_constant(64, n, 1.0, np.array([0.1, 0.2, 0.3]), 1.0)


# ------------------------------------------------------------------------------------ the page's lesson
def test_page_sweeps_run_the_page_grids_with_json_parameters():
    """Each page sweep hands its runner error_sweep and JSON values only (the app caches and stores on them): the
    n grid, ε frames, dimensions and profiles of the page, methods by id; the ε-DP methods without δ, the (ε, δ)
    Gaussian with it (a new δ recomputes that one method only)."""
    calls = []

    def record(function, **params):
        calls.append((function, params))
        return function(**{**params, "dimensions": [16]})  # the grid asked for is checked below; run a small one
    lesson.sweep_vs_n("two-level", 16, 1e-6, 2, 0, "kl", run=record)
    lesson.sweep_vs_dimension("two-level", 0.5, 1e-6, 2, 0, run=record)
    lesson.sweep_by_profile(16, 0.5, 1e-6, 2, 0, run=record)
    assert [function for function, _ in calls] == [lesson.error_sweep] * 6
    pure = [method for method in product.METHODS if method != "one_shot_gaussian"]

    def both(**params):
        return [dict(params, methods=pure), dict(params, methods=["one_shot_gaussian"], delta=1e-6)]
    assert [params for _, params in calls] == [
        *both(n_values=list(lesson.N_GRID), dimensions=[16], epsilons=list(lesson.EPSILONS), profiles=["two-level"],
              trials=2, seed=0, metric="kl"),
        *both(n_values=list(lesson.N_GRID), dimensions=list(lesson.DIMENSIONS), epsilons=[0.5],
              profiles=["two-level"], trials=2, seed=0),
        *both(n_values=list(lesson.N_GRID), dimensions=[16], epsilons=[0.5], profiles=list(pd.PROFILES), trials=2,
              seed=0)]
    assert all(type(v) in (int, float, str, list) for _, params in calls for v in params.values())
    assert lesson.sweep_vs_n("all tiny", 16, 1e-6, 2, 0).methods == product.METHODS


def test_nearest_n_is_the_log_nearest_grid_value():
    assert [lesson.nearest_n(n) for n in (10_000, 15_000, 20_000, 1_000_000, 1_500_000, 10_000_000)] == \
        [10_000, 10_000, 30_000, 1_000_000, 1_000_000, 10_000_000]


@pytest.fixture(scope="module")
def default_run():
    return lesson.one_run("log-uniform", 1024, 10**6, 1.0, 1e-6, 0)


def test_one_run_is_the_library_run_and_is_shared(default_run):
    """The pure partition's trace of simulate_estimators with the same seed, TV of every method from one set of
    Monte Carlo points (the profile's and dimension's, not the run's seed: issue 44), in METHODS order, inside the
    Bhattacharyya bounds; the same call returns the same (cached) object."""
    from dpcore.core.randomness import child_generator
    trace, estimates = product.simulate_estimators(pd.marginal_profile("log-uniform", 1024), 10**6, 1.0, rng=0)
    np.testing.assert_array_equal(default_run.trace.estimate, trace.estimate)
    assert [found.method for found in default_run.distances] == list(product.METHODS)
    points = pd.TVMonteCarlo(default_run.truth, lesson.ONE_RUN_TV_POINTS,
                             child_generator(lesson.ONE_RUN_TV_SEED, "one run tv points", "log-uniform", 1024))
    value, error = points.estimate(np.array(list(estimates.values())))
    np.testing.assert_array_equal([found.value for found in default_run.distances], value)
    np.testing.assert_array_equal([found.standard_error for found in default_run.distances], error)
    assert all(found.lower <= found.value <= found.upper and not found.exact for found in default_run.distances)
    assert lesson.one_run("log-uniform", 1024, 10**6, 1.0, 1e-6, 0) is default_run
    assert not default_run.truth.flags.writeable


def test_a_fresh_seed_reuses_the_tv_points(default_run):
    """Issue 44: the one run's TV is integrated over common random numbers, points keyed by profile and d only.
    A fresh seed finds them cached (the same object, no new draw) and two seeds' estimates are measured on
    identical points; the points are not the sweeps' (another stream) and another profile or d has its own."""
    points = lesson.one_run_tv_points("log-uniform", 1024)
    fresh = lesson.one_run("log-uniform", 1024, 10**6, 1.0, 1e-6, 12345)
    assert lesson.one_run_tv_points("log-uniform", 1024) is points
    for single in (default_run, fresh):
        np.testing.assert_array_equal([found.value for found in single.distances], points(run_estimates(single)))
    assert not np.array_equal(fresh.trace.estimate, default_run.trace.estimate)
    other = lesson.one_run_tv_points("all tiny", 1024)
    assert other is not points and other is lesson.one_run_tv_points("all tiny", 1024)
    assert lesson.one_run_tv_points("log-uniform", 1024) is points  # still kept: both fit the cache's budget


def run_estimates(single):
    """Every method's estimate in the run ``single`` (its seed's simulate_estimators, recomputed), in METHODS order."""
    _, estimates = product.simulate_estimators(single.truth, single.n, single.epsilon, rng=single.seed,
                                               delta=single.delta)
    return np.array([estimates[method] for method in product.METHODS])


def test_one_run_tv_is_within_its_monte_carlo_error_of_a_precise_reference():
    """The one run's TV (20,000 common points) against a reference over 1,000,000 independent points (standard error
    about 0.0002): within 0.01 for every method of a known case, and within 4 of its own standard errors; every
    standard error is at most 1/(2√20,000) ≈ 0.0035, and at the page's default at most the quoted 0.002."""
    single = lesson.one_run("log-uniform", 64, 100_000, 1.0, 1e-6, 3)
    reference, reference_error = pd.tv_monte_carlo(single.truth, run_estimates(single), 1_000_000, rng=2024)
    assert reference_error.max() < 3e-4
    for found, exact in zip(single.distances, reference):
        assert abs(found.value - exact) < min(0.01, 4 * found.standard_error + 1e-3), found.method
        assert 0 < found.standard_error <= 0.5 / math.sqrt(lesson.ONE_RUN_TV_POINTS)
    default = lesson.one_run("log-uniform", 1024, 10**6, 1.0, 1e-6, 0)
    assert max(found.standard_error for found in default.distances) <= lesson.ONE_RUN_TV_ERROR


def test_the_tv_point_cache_is_bounded_and_keeps_no_set_above_its_budget(monkeypatch):
    """The cache of TV point sets holds at most _TV_POINTS_BYTES, least recently used dropped first; a set above the
    budget is drawn for its run and not kept; a set drawn again holds the same points."""
    monkeypatch.setattr(lesson, "_tv_point_sets", type(lesson._tv_point_sets)())
    small, large = lesson.one_run_tv_points("all tiny", 64), lesson.one_run_tv_points("log-uniform", 64)
    assert small.nbytes < large.nbytes
    monkeypatch.setattr(lesson, "_tv_point_sets", type(lesson._tv_point_sets)())
    monkeypatch.setattr(lesson, "_TV_POINTS_BYTES", small.nbytes + large.nbytes)
    first = lesson.one_run_tv_points("all tiny", 64)
    assert lesson.one_run_tv_points("all tiny", 64) is first
    second = lesson.one_run_tv_points("log-uniform", 64)
    assert list(lesson._tv_point_sets) == [("all tiny", 64), ("log-uniform", 64)]
    monkeypatch.setattr(lesson, "_TV_POINTS_BYTES", large.nbytes)
    assert lesson.one_run_tv_points("log-uniform", 64) is second  # used last: kept; the other one dropped
    lesson.one_run_tv_points("log-uniform", 256)  # above the budget: not kept, and it pushed out what was there
    assert list(lesson._tv_point_sets) == []
    np.testing.assert_array_equal(lesson.one_run_tv_points("all tiny", 64).points.toarray(), first.points.toarray())


def test_one_run_tables_and_caption_quote_the_run(default_run):
    """The block table adds up to n and follows the trace; the summary fields, the distance table (labels, values,
    how computed) and the caption quote the run's own numbers."""
    trace = default_run.trace
    blocks = lesson.block_table(default_run)
    assert sum(int(row["rows"].replace(",", "")) for row in blocks) == 10**6
    assert [row["block"] for row in blocks[:len(trace.rounds)]] == [f"round {r + 1}" for r in range(len(trace.rounds))]
    assert [row["moved to a group"] for row in blocks[:len(trace.rounds)]] == [str(int(step.selected.sum()))
                                                                               for step in trace.rounds]
    assert blocks[-2]["coordinates"] + blocks[-1]["coordinates"] == 1024  # every coordinate: heavy or final
    layout = trace.layout
    assert lesson.block_summary(default_run) == {
        "round_rows": f"{layout.rounds * layout.round_size:,}", "round_size": f"{layout.round_size:,}",
        "heavy_size": f"{layout.heavy_size:,}", "final_size": f"{layout.final_size:,}",
        "releases": str(len(trace.rounds) + 2)}
    distances = lesson.distance_table(default_run)
    assert [row["method"] for row in distances] == ["partition rounds (pure)", "naive Laplace",
                                                    "partition + Gaussian (zCDP)", "one-shot Gaussian (ε, δ)",
                                                    "one-shot Laplace (oracle radius)", "non-private"]
    assert [row["TV (this run)"] for row in distances] == [round(f.value, 4) for f in default_run.distances]
    assert all(row["computed"].startswith("Monte Carlo, s.e. ") for row in distances)  # d = 1024 > 16
    tv = {found.method: found.value for found in default_run.distances}
    caption = lesson.run_caption(default_run)
    assert f"partition estimate **{tv[product.PARTITION_PURE]:.3f}**" in caption
    assert f"naive Laplace **{tv[product.NAIVE]:.3f}**" in caption
    assert f"non-private {tv[product.NON_PRIVATE]:.3f};" in caption
    assert (f"{len(trace.rounds)} rounds placed {int(trace.heavy.coordinates.sum())} heavy coordinates, "
            f"{int(trace.final.coordinates.sum())} went to the final round") in caption
    assert caption.endswith("Each TV distance is estimated from 20,000 random points drawn from P (the same points "
                            "for every seed), so it carries a Monte Carlo error of about ± 0.002 (the table below "
                            "gives each one's).")
    assert "random points" not in lesson.run_caption(PARTITION_RUN)  # d = 16: exact, no Monte Carlo error


def test_rate_curves_are_the_rate_shapes_and_the_fitted_laws():
    """Non-private and Singhal (2023) curves of rate_curve; each fitted law is rate_curve with fit_rate_constant's c."""
    result = lesson.sweep_vs_n("log-uniform", 64, 1e-6, 3, 0)
    curves = lesson.rate_curves(result, "log-uniform", 64, 2.0)
    n = np.array(lesson.N_GRID, dtype=float)
    np.testing.assert_array_equal(curves.n, n)
    np.testing.assert_array_equal(curves.non_private, lesson.rate_curve(64, n, math.inf))
    np.testing.assert_array_equal(curves.singhal_rate, lesson.rate_curve(64, n, 2.0))
    assert set(curves.fitted) == {product.PARTITION_PURE, product.NAIVE}
    for method, (power, curve) in curves.fitted.items():
        assert power == lesson.RATE_POWERS[method]
        median = result.curve(method, "n", epsilon=2.0)["median"]
        np.testing.assert_allclose(curve, lesson.rate_curve(64, n, 2.0, power,
                                                            lesson.fit_rate_constant(64, n, 2.0, median, power)))


@pytest.fixture(scope="module")
def by_dimension():
    """The page's "vs d" sweep (log-uniform, ε = 1, 4 trials) and a runner that serves its parts, each computed once."""
    parts = {}

    def serve(function, **params):
        key = json.dumps(params, sort_keys=True)
        if key not in parts:
            parts[key] = experiments.run_now(function, **params)
        return parts[key]
    return lesson.sweep_vs_dimension("log-uniform", 1.0, 1e-6, 4, 0, run=serve), serve


def test_complexity_table_quotes_samples_needed_and_the_fitted_exponents(by_dimension):
    result, serve = by_dimension
    complexity = lesson.sample_complexity(result, 1.0)
    table = lesson.complexity_table("log-uniform", 1.0, 1e-6, 4, 0, run=serve)
    assert [row["method"] for row in table] == [label(method) for method in product.METHODS]
    n = np.array(lesson.N_GRID, dtype=float)
    for row, method in zip(table, product.METHODS):
        for d in lesson.DIMENSIONS:
            needed = experiments.samples_needed(n, result.curve(method, "n", dimension=d)["median"], lesson.TARGET_TV)
            assert row[f"d = {d}"] == ("> 10⁷" if math.isnan(needed) else "≤ 10³" if needed <= 1000 else
                                       f"{needed:,.0f}")
        exponent = complexity.exponents[method]
        assert row["fitted exponent b (n* ∝ dᵇ)"] == ("—" if math.isnan(exponent) else round(exponent, 2))
    measured = complexity.needed[product.NON_PRIVATE] > 1000
    assert complexity.exponents[product.NON_PRIVATE] == pytest.approx(experiments.fit_power_law(
        np.array(lesson.DIMENSIONS, dtype=float)[measured], complexity.needed[product.NON_PRIVATE][measured])[0])
    assert 0.8 < complexity.exponents[product.NON_PRIVATE] < 1.2  # theory: b = 1


@pytest.mark.parametrize("n", [10**6, 30_000])
def test_takeaways_quote_the_sweep(by_dimension, n):
    """The ratios naive/partition at the grid n nearest n, the dimensions where the partition loses, the fitted
    exponents and δ are the numbers of the sweep."""
    result, serve = by_dimension
    notes = lesson.takeaways("log-uniform", n, 1.0, 1e-6, 4, 0, run=serve)
    at = lesson.N_GRID.index(lesson.nearest_n(n))
    ratio = {d: result.curve(product.NAIVE, "n", dimension=d)["median"][at]
             / result.curve(product.PARTITION_PURE, "n", dimension=d)["median"][at] for d in lesson.DIMENSIONS}
    assert notes[0].startswith(f"Naive Laplace's median TV divided by the partition's, at n = {lesson.N_GRID[at]:,}")
    assert ", ".join(f"**{ratio[d]:.1f}** (d = {d})" for d in lesson.DIMENSIONS) in notes[0]
    losing = [str(d) for d in lesson.DIMENSIONS if ratio[d] < 1]
    if losing:
        assert f"for d = {', '.join(losing)} — its constants" in notes[1]
    else:
        assert notes[1] == f"At n = {lesson.N_GRID[at]:,} the partition beats naive Laplace at every d shown."
    exponents = lesson.sample_complexity(result, 1.0).exponents
    assert (f"partition **{exponents[product.PARTITION_PURE]:.2f}**, naive **{exponents[product.NAIVE]:.2f}**, "
            f"non-private {exponents[product.NON_PRIVATE]:.2f}.") in notes[2]
    assert "(δ = 1e-06)" in notes[3] and len(notes) == 4


def test_the_page_sweeps_recompute_only_the_delta_method_and_equal_one_sweep_of_all_methods():
    """sweep_vs_dimension runs the ε-DP methods without δ and the (ε, δ) Gaussian with it; joined, they equal one
    error_sweep of every method, number for number (streams keyed by method id and grid values)."""
    calls = []

    def recorded(function, **params):
        calls.append(params)
        return experiments.run_now(function, **params)

    joined = lesson.sweep_vs_dimension("log-uniform", 1.0, 1e-8, 2, 5, run=recorded)
    whole = lesson.error_sweep(n_values=list(lesson.N_GRID), dimensions=list(lesson.DIMENSIONS), epsilons=[1.0],
                               profiles=["log-uniform"], trials=2, seed=5, delta=1e-8)
    assert [("delta" in params, params["methods"]) for params in calls] == [
        (False, [method for method in product.METHODS if method != "one_shot_gaussian"]),
        (True, ["one_shot_gaussian"])]
    assert joined.methods == whole.methods == product.METHODS
    for name in ("median", "lower", "upper", "mean", "rmse", "trials"):
        np.testing.assert_array_equal(getattr(joined, name), getattr(whole, name))


# ------------------------------------------------------------------------------------ the page's question
# Predict, then reveal: the right answer agrees with what the page draws (see tests/lessons/test_questions.py).
@pytest.mark.parametrize("profile", lesson.PROFILES)
@pytest.mark.parametrize("epsilon", [0.1, 1.0])
def test_composition_answer_is_the_epsilon_each_row_is_charged(profile, epsilon):
    """Partitioning rounds: every block of the run's table charges its rows ε and the rows are disjoint, so the
    whole run is ε-DP (parallel composition), the first choice; the prompt counts the run's releases."""
    single = lesson.one_run(profile, 64, 100_000, epsilon, seed=3)
    question = lesson.composition_question(single)
    table = lesson.block_table(single)
    charged = {float(row["ε on these rows"]) for row in table}
    assert charged <= {0.0, epsilon} and epsilon in charged
    assert question.answer == 0 and chosen(question) == f"ε = {epsilon:g} in total"
    releases = len(single.trace.rounds) + 2
    assert f"makes {releases} Laplace releases" in question.prompt
    assert sum(int(row["rows"].replace(",", "")) for row in table) <= 100_000  # no row is read twice

"""The truncation lesson: its two sweeps (error_sweep, the rates of Kamath, Singhal & Ullman 2020;
bias_correction_sweep), its one-run numbers, its takeaways and its question.

Seeded Monte Carlo; every tolerance is stated next to the number of trials behind it.
"""

import importlib
import json
import math

import numpy as np
import pytest

from dpcore.core.randomness import child_generator
from dpcore.distributions import heavy_tailed as distributions
from dpcore.estimators import heavy_tailed_mean as truncation
from dpcore.estimators import truncated_mle
from dpcore.experiments import fit_power_law
from dpcore.lessons import truncation as truncation_lesson
from dpcore.lessons.plain_words import superscript

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "bias_correction_sweep": dict(
        n_values=np.array([200]),
        epsilons=np.array([1.0]),
        delta=1e-6,
        true_mean=0.8,
        warm_start=0.0,
        survival_radius=1.5,
        trials=3,
        seed=0,
    ),
    "radius_question": dict(family="lomax", moment_k=3, n=100, epsilon=1.0),
    "error_sweep": dict(
        family="lomax",
        moments=np.array([3.0, math.inf]),
        n_values=np.array([100.0]),
        epsilon=1.0,
        budget=2000,
        seed=0,
        mean_range=100.0,
    ),
    "moment_order": dict(moment="inf"),
    "law": dict(family="two-point", moment_k=3),
    "sweep_budget": dict(trials=20),
    "bias_frame": dict(epsilon=0.7),
    "one_run": dict(family="lomax", moment_k=3, n=100, radius=2.0, epsilon=1.0, seed=0),
    "window_caption": dict(family="lomax", moment_k=3, n=100, radius=2.0, epsilon=1.0, seed=0),
    "bias_noise_tradeoff": dict(family="lomax", moment_k=3, n=100, epsilon=1.0),
    "error_vs_n": dict(family="lomax", epsilon=1.0, trials=2, seed=0),
    "rate_companions": dict(epsilon=1.0, moment_k=3),
    "theory_slope": dict(moment_k=3),
    "private_slope": dict(
        result=importlib.import_module("dpcore.lessons.truncation").error_sweep(
            "lomax", [3.0], [100, 1000], 1.0, 2000, 0
        ),
        moment_k=3,
    ),
    "slope_note": dict(family="lomax", epsilon=1.0, trials=2, seed=0, moment_k=3),
    "bias_correction": dict(trials=2, seed=0),
    "bias_companions": dict(epsilon=1.0),
    "takeaways": dict(family="lomax", moment_k=3, n=100, radius=2.0, epsilon=1.0, seed=0, trials=2),
}


N_VALUES = [1000, 10_000, 100_000, 1_000_000]
BUDGET = 20_000_000  # trials_for_budget: 1000, 1000, 200, 20 at n = 10^3 ... 10^6 (about 3 s)
SEED = 0
K = 3.0
PRIVATE = "private_part"
HALF_NORMAL_MEDIAN = 0.6744897501960817  # median of |N(0, 1)|

# docs/algorithms.md §1.7, the 1-D default of the bias-correction experiment
TRUE_MEAN, WARM_START, SURVIVAL_RADIUS, DELTA, EPSILON, N_DEFAULT = 0.8, 0.0, 1.5, 1e-6, 1.0, 4000
BIAS_N = [1000, 4000, 16_000]
BIAS_TRIALS = 200
MOMENT_MATCHING = "truncated_mle_moments"
CORRECTED = (MOMENT_MATCHING, "truncated_mle_dpgd")


@pytest.fixture(scope="module")
def lomax_sweep():
    """Lomax (asymmetric, shape 4), k = 3, ε = 1, R = 1000, n = 10^3 ... 10^6."""
    return truncation_lesson.error_sweep("lomax", [K], N_VALUES, 1.0, BUDGET, SEED)


def medians(result, method, **fixed):
    return result.curve(method, "n", moment_k=K, **fixed)["median"]


def test_sweep_layout_and_trial_budget(lomax_sweep):
    assert lomax_sweep.methods == truncation_lesson.SWEEP_METHODS
    assert lomax_sweep.parameters == ("moment_k", "n", "epsilon")
    np.testing.assert_array_equal(lomax_sweep.grid["n"], N_VALUES)
    np.testing.assert_array_equal(lomax_sweep.trials[0].ravel(), [1000, 1000, 200, 20])  # budget // n, in [20, 1000]


def test_private_part_falls_with_slope_minus_two_thirds(lomax_sweep):
    """Bias + noise at the bias–noise optimal window: log–log slope −(k−1)/k = −2/3 ± 0.1 over n = 10^3..10^6.

    Lomax(4) is lighter-tailed than the k = 3 worst case: its own asymptotic slope is −(a−1)/a = −3/4, and over
    this range the fit sits between the two.
    """
    slope, _ = fit_power_law(np.array(N_VALUES, dtype=float), medians(lomax_sweep, PRIVATE))
    assert abs(slope - (-(K - 1) / K)) <= 0.1, slope
    assert slope > -0.75  # not yet the Lomax(4) asymptote: the bias still matters over this range


def test_private_part_is_the_exact_bias_plus_laplace_noise_at_the_optimal_window(lomax_sweep):
    """Its median is |b(t*)| + median|Lap(2t*/(εn))| = |b(t*)| + ln 2 · 2t*/(εn) (1000 trials at n = 10^3: ±5 %)."""
    law = distributions.heavy_tailed("lomax", K)
    radius, _ = distributions.optimal_window(law, 1000, 1.0, include_sampling=False)
    expected = abs(law.clipping_bias(law.mean, radius)) + math.log(2) * 2 * radius / 1000
    assert medians(lomax_sweep, PRIVATE)[0] == pytest.approx(expected, rel=0.05)


def test_ksu20_beats_the_naive_window_where_its_noise_dominates(lomax_sweep):
    """≥ 5× at n = 10^3, 10^4 (R = 1000). At n ≥ 10^5 the naive noise 2R ln2/(εn) is no longer 5× the error of Kamath,
    Singhal & Ullman's estimator (sampling error + its own noise): measured ratio ≈ 5.6 at 10^5 and ≈ 1.2 at 10^6 — see
    the next test."""
    ratio = medians(lomax_sweep, "naive_window") / medians(lomax_sweep, "ksu20")
    assert np.all(ratio[:2] >= 5), ratio
    assert np.all(ratio > 1), ratio  # never worse than the worst-case window


def test_ksu20_beats_naive_by_5x_at_every_n_when_the_range_is_wide():
    """With R = 10^5 the naive window's noise grows 100×, their estimator's error barely moves (log R buckets)."""
    wide = truncation_lesson.error_sweep("lomax", [K], N_VALUES, 1.0, 2_000_000, SEED, mean_range=1e5)
    ratio = medians(wide, "naive_window") / medians(wide, "ksu20")
    assert np.all(ratio >= 5), ratio
    narrow = truncation_lesson.error_sweep("lomax", [K], N_VALUES, 1.0, 2_000_000, SEED)  # same data and noise streams
    np.testing.assert_allclose(medians(wide, "naive_window") / medians(narrow, "naive_window"), 100, rtol=0.35)
    np.testing.assert_allclose(medians(wide, "ksu20") / medians(narrow, "ksu20"), 1, rtol=0.1)


def test_ksu20_error_decreases_with_n(lomax_sweep):
    assert np.all(np.diff(medians(lomax_sweep, "ksu20")) < 0)


def test_non_private_error_is_the_half_normal_median(lomax_sweep):
    """Median |x̄ − μ| ≈ 0.6745·sd/√n: within 15 % at each n with ≥ 200 trials (the median's relative sd is
    ≈ 1.17/√trials, ≤ 8 %), and within 5 % for the errors of all n pooled (2220 trials, relative sd 2.5 %)."""
    sd = distributions.heavy_tailed("lomax", K).sd()
    n = np.array(N_VALUES, dtype=float)
    ratio = medians(lomax_sweep, "non_private") / (HALF_NORMAL_MEDIAN * sd / np.sqrt(n))
    enough = lomax_sweep.trials[0].ravel() >= 200
    assert enough.sum() == 3
    np.testing.assert_allclose(ratio[enough], 1, rtol=0.15)
    scaled = np.concatenate([errors * math.sqrt(size) / sd
                             for errors, size in zip(lomax_sweep.errors[0].ravel(), N_VALUES)])
    assert np.median(scaled) == pytest.approx(HALF_NORMAL_MEDIAN, rel=0.05)


def test_methods_share_the_data_and_draw_their_own_noise():
    """Every method's errors are reproduced from the one dataset of stream (seed, "data", k, n)."""
    result = truncation_lesson.error_sweep("lomax", [K], [1000], 1.0, 20_000, 5)
    trials = int(result.trials[0].ravel()[0])
    x = distributions.heavy_tailed("lomax", K).sample((trials, 1000), child_generator(5, "data", K, 1000))

    def errors(method):
        return result.errors[result.methods.index(method)].ravel()[0]

    def noise(method):
        return child_generator(5, "noise", method, K, 1000)

    np.testing.assert_array_equal(errors("non_private"), np.abs(x.mean(axis=1)))
    naive = truncation.clipped_laplace_mean(x, 1.0, -1000.0, 1000.0, noise("naive_window")).estimate
    np.testing.assert_array_equal(errors("naive_window"), np.abs(naive))
    ksu20 = truncation.private_mean_1d(x, 1.0, K, 1000.0, noise("ksu20")).estimate
    np.testing.assert_array_equal(errors("ksu20"), np.abs(ksu20))


def test_same_seed_same_sweep_other_seed_other_data():
    args = ("lomax", [2.0, math.inf], [1000, 4000], 0.5, 40_000)
    first, again, other = (truncation_lesson.error_sweep(*args, seed) for seed in (3, 3, 4))
    for a, b in zip(first.errors.ravel(), again.errors.ravel()):
        np.testing.assert_array_equal(a, b)
    for a, b in zip(first.errors.ravel(), other.errors.ravel()):
        assert not np.any(a == b)


def test_k_infinity_means_gaussian_data_and_a_private_part_of_pure_noise():
    """k = inf is the Gaussian for every family. Centred on the mean of a symmetric law the window has no bias, and
    the optimal radius is the floor t0 = 1, so the private part is |Lap(2/(εn))|: n·ε/2 times it has median ln 2
    (1120 trials pooled: relative sd 4.5 %), and the slope is −1."""
    n_values = [1000, 10_000, 100_000]
    lomax = truncation_lesson.error_sweep("lomax", [math.inf], n_values, 1.0, 1_000_000, 1)
    two_point = truncation_lesson.error_sweep("two-point", [math.inf], n_values, 1.0, 1_000_000, 1)
    for a, b in zip(lomax.errors.ravel(), two_point.errors.ravel()):
        np.testing.assert_array_equal(a, b)
    private = lomax.errors[lomax.methods.index(PRIVATE)].ravel()
    scaled = np.concatenate([errors * size / 2 for errors, size in zip(private, n_values)])
    assert scaled.size == 1000 + 100 + 20
    assert np.median(scaled) == pytest.approx(math.log(2), rel=0.1)
    slope, _ = fit_power_law(np.array(n_values, dtype=float), lomax.curve(PRIVATE, "n")["median"])
    assert slope == pytest.approx(-1.0, abs=0.1)


# ------------------------------------------------------------------------------------------ bias correction
@pytest.fixture(scope="module")
def bias_sweep():
    return truncation_lesson.bias_correction_sweep(BIAS_N, [0.25, EPSILON], DELTA, TRUE_MEAN, WARM_START,
                                                   SURVIVAL_RADIUS, BIAS_TRIALS, SEED)


def exact_naive_bias() -> float:
    return TRUE_MEAN - truncated_mle.truncated_mean_map(TRUE_MEAN, WARM_START, SURVIVAL_RADIUS)


def test_naive_error_is_the_truncation_bias_at_every_n(bias_sweep):
    assert exact_naive_bias() == pytest.approx(0.37993, abs=1e-5)
    for epsilon in (0.25, EPSILON):
        naive = bias_sweep.curve("naive_truncated_mean", "n", epsilon=epsilon)["median"]
        np.testing.assert_allclose(naive, exact_naive_bias(), atol=0.02)  # noise + sampling sd ≤ 0.013 at n = 1000


def test_bias_correction_cuts_the_naive_error_at_least_5x(bias_sweep):
    at_default = BIAS_N.index(N_DEFAULT)
    naive = bias_sweep.curve("naive_truncated_mean", "n", epsilon=EPSILON)["median"][at_default]
    for method in CORRECTED:
        corrected = bias_sweep.curve(method, "n", epsilon=EPSILON)["median"]
        assert naive / corrected[at_default] >= 5, (method, naive, corrected)
        assert np.all(np.diff(corrected) < 0), method  # consistent: its error shrinks with n


def test_public_truncated_mle_mean_is_the_sweeps_estimator(bias_sweep):
    """truncation re-exports truncated_mle.truncated_mle_mean; called directly on the sweep's data and noise stream
    it gives the sweep's errors, and its own naive release is ≥ 5× worse."""
    assert truncation_lesson.truncated_mle_mean is truncated_mle.truncated_mle_mean
    assert truncation_lesson.BIAS_CORRECTION_METHODS[MOMENT_MATCHING] is truncation_lesson.truncated_mle_mean
    x = TRUE_MEAN + child_generator(SEED, "data", N_DEFAULT).standard_normal((BIAS_TRIALS, N_DEFAULT))
    result = truncation_lesson.truncated_mle_mean(x, EPSILON, DELTA, WARM_START, SURVIVAL_RADIUS,
                                           child_generator(SEED, "noise", MOMENT_MATCHING, N_DEFAULT),
                                           mean_offset_bound=1.0)
    errors = np.abs(result.estimate - TRUE_MEAN)
    swept = bias_sweep.errors[bias_sweep.methods.index(MOMENT_MATCHING), BIAS_N.index(N_DEFAULT), 1]
    np.testing.assert_array_equal(errors, swept)
    naive_errors = np.abs(result.naive - TRUE_MEAN)
    assert np.median(naive_errors) == pytest.approx(exact_naive_bias(), abs=0.01)
    assert np.median(naive_errors) / np.median(errors) >= 5
    assert result.target_size == truncated_mle.target_size(N_DEFAULT, 1.0, SURVIVAL_RADIUS) == 2192


# ------------------------------------------------------------------------------------------ the page's numbers
DEFAULTS = dict(family="lomax", moment_k=3, n=10_000, radius=2.0, epsilon=1.0, seed=0)
PAGE_TRIALS = 200


@pytest.fixture(scope="module")
def runner():
    """A runner that records every call, checks its parameters are JSON values (the app caches on them) and runs
    each distinct call once."""
    done = {}

    def run(function, **params):
        key = (function.__name__, json.dumps(params, sort_keys=True))
        assert json.loads(key[1]) == params  # plain JSON values, no numpy scalars or tuples
        if key not in done:
            done[key] = function(**params)
        return done[key]

    run.done = done
    return run


def test_page_sweeps_run_the_lesson_sweeps_at_the_page_grids(runner):
    result = truncation_lesson.error_vs_n("lomax", 1.0, PAGE_TRIALS, SEED, run=runner)
    assert result.methods == truncation_lesson.SWEEP_METHODS
    assert result.grid["moment_k"].tolist() == [2, 2.5, 3, 4, 6, 10, math.inf]
    assert result.grid["n"].tolist() == list(truncation_lesson.N_GRID)
    assert result.trials[0].ravel().tolist() == [1000, 1000, 400, 133, 40, 20, 20] * 7  # 400,000 draws per point
    corrected = truncation_lesson.bias_correction(PAGE_TRIALS, SEED, run=runner)
    assert corrected.methods == tuple(truncation_lesson.BIAS_CORRECTION_METHODS)
    assert corrected.grid["epsilon"].tolist() == list(truncation_lesson.BIAS_EPSILONS)
    assert {name for name, _ in runner.done} == {"error_sweep", "bias_correction_sweep"}  # both through ``run``


def test_one_run_centres_the_window_on_the_mean_and_releases_the_clipped_mean():
    run = truncation_lesson.one_run(**DEFAULTS)
    law = distributions.heavy_tailed("lomax", K)
    assert (run.low, run.high) == (-2.0, 2.0) and run.sample.shape == (10_000,)
    assert run.clipped_fraction == np.mean(np.abs(run.sample) > 2.0)
    assert run.means["clipped mean"] == pytest.approx(np.clip(run.sample, -2.0, 2.0).mean())
    assert run.bias == law.clipping_bias(0.0, 2.0) < 0  # Lomax is right-skewed: clipping pulls the mean down
    assert run.noise_sd == pytest.approx(math.sqrt(2) * 4 / 10_000)  # Lap(2t/(εn)) has sd √2·2t/(εn)
    assert run.title == "Lomax (Pareto II), k = 3, n = 10,000, ε = 1"
    assert truncation_lesson.one_run("lomax", math.inf, 100, 1.0, 1.0, 0).title.startswith("Gaussian, k = ∞")


def test_the_tradeoff_is_the_exact_bias_noise_curve_and_its_best_radius():
    curve = truncation_lesson.bias_noise_tradeoff("lomax", 3, 10_000, 1.0)
    law = distributions.heavy_tailed("lomax", K)
    exact = distributions.bias_noise_curve(law, 10_000, 1.0, curve["radii"])
    np.testing.assert_array_equal(curve["mse"], exact["mse"])
    best, best_mse = distributions.optimal_window(law, 10_000, 1.0, radii=curve["radii"])
    assert (curve["best"], curve["best_rmse"]) == (best, math.sqrt(best_mse))
    assert np.argmin(curve["mse"]) in (np.searchsorted(curve["radii"], best) - 1, np.searchsorted(curve["radii"], best))
    assert np.all(np.isnan(truncation_lesson.bias_noise_tradeoff("two-point", math.inf, 100, 1.0)["bound"]))


def test_window_caption_quotes_the_one_run():
    run = truncation_lesson.one_run(**DEFAULTS)
    assert truncation_lesson.window_caption(**DEFAULTS) == (
        f"Window radius t = 2: {100 * run.clipped_fraction:.2f} % of points clipped (counted on the data without "
        f"noise: not private), exact bias {run.bias:+.4f}, privacy noise sd {run.noise_sd:.4f}.")


def test_slope_note_quotes_the_fit_and_explains_a_law_lighter_than_the_worst_case(runner):
    result = truncation_lesson.error_vs_n("lomax", 1.0, PAGE_TRIALS, SEED, run=runner)
    for moment_k in truncation_lesson.MOMENT_ORDERS:
        curve = result.curve(PRIVATE, "n", moment_k=moment_k)
        slope, _ = fit_power_law(curve["x"].astype(float), curve["median"])
        worst = truncation_lesson.theory_slope(moment_k)
        note = truncation_lesson.slope_note("lomax", 1.0, PAGE_TRIALS, SEED, moment_k, run=runner)
        assert f"at k = {moment_k:g}: **{slope:.2f}**; theory −(k−1)/k = **{worst:.2f}**" in note
        assert ("This law falls faster" in note) == (abs(slope - worst) > 0.1)
    assert "falls faster" in truncation_lesson.slope_note("lomax", 1.0, PAGE_TRIALS, SEED, 2, run=runner)
    assert "falls faster" not in truncation_lesson.slope_note("lomax", 1.0, PAGE_TRIALS, SEED, 3, run=runner)


def test_takeaways_quote_the_sweeps_the_tradeoff_and_the_one_run(runner):
    lines = truncation_lesson.takeaways(**DEFAULTS, trials=PAGE_TRIALS, run=runner)
    assert len(lines) == 4 and not any(line.startswith("-") for line in lines)  # the page adds the bullets
    result = truncation_lesson.error_vs_n("lomax", 1.0, PAGE_TRIALS, SEED, run=runner)
    ksu20, naive = (result.curve(method, "n", moment_k=K)["median"] for method in ("ksu20", "naive_window"))
    assert (f"median error is {naive[0]:.2g}, the private-range-then-clip estimator's {ksu20[0]:.2g} "
            f"({naive[0] / ksu20[0]:.0f}× smaller)") in lines[0]
    assert f"By n = 100,000 the gap is {naive[-1] / ksu20[-1]:.1f}×" in lines[0]
    slope = truncation_lesson.private_slope(result, 3)
    assert lines[1].startswith(f"The private part falls like n{superscript(slope, '.2f')} (theory, worst case over "
                               "the class: n⁻⁰·⁶⁷): heavier tails")
    run, curve = truncation_lesson.one_run(**DEFAULTS), truncation_lesson.bias_noise_tradeoff("lomax", 3, 10_000, 1.0)
    assert lines[2] == (f"The best clipping radius for this sample size is t = {curve['best']:.3g}; at t = 2 the bias "
                        f"is {run.bias:+.4f} and the noise's standard deviation {run.noise_sd:.4f}.")
    corrected = truncation_lesson.bias_correction(PAGE_TRIALS, SEED, run=runner)
    naive_error, matched = (corrected.curve(method, "n", epsilon=1.0)["median"][-1]
                            for method in ("naive_truncated_mean", MOMENT_MATCHING))
    assert lines[3] == (f"At n = 32,000, ε = 1: naive truncated mean error {naive_error:.3f}, moment matching "
                        f"{matched:.4f} — {naive_error / matched:,.0f}× smaller for the same privacy.")
    assert naive_error / matched >= 5


@pytest.mark.parametrize("matched, said", [(0.38 / 1.2, "1.2× smaller"), (0.37, "about the same"),
                                            (0.38 * 1.3, "1.3× larger"), (0.0075, "51× smaller")])
def test_the_bias_correction_takeaway_never_says_one_times_smaller(runner, monkeypatch, matched, said):
    """The naive truncated mean's error against moment matching's in words (issue 40: "1× smaller" said nothing, a
    ratio below 1 was "0× smaller"), whatever the sweep's numbers."""
    class Corrected:
        def curve(self, method, axis, epsilon):
            return {"median": np.array([0.38 if method == "naive_truncated_mean" else matched])}
    monkeypatch.setattr(truncation_lesson, "bias_correction", lambda *args, **kwargs: Corrected())
    line = truncation_lesson.takeaways(**DEFAULTS, trials=PAGE_TRIALS, run=runner)[3]
    assert line.endswith(f"— {said} for the same privacy."), line


def test_takeaways_follow_the_sidebar_epsilon_frame_and_a_symmetric_law(runner):
    lines = truncation_lesson.takeaways("lomax", math.inf, 1000, 1.0, 0.7, 0, PAGE_TRIALS, run=runner)
    assert "this law is symmetric" in lines[1]  # k = inf is the Gaussian, whatever the family
    assert lines[3].startswith("At n = 32,000, ε = 0.5:")  # 0.7 is nearest to the frame 0.5 on a log scale
    assert [truncation_lesson.bias_frame(eps) for eps in (0.01, 0.3, 1.5, 5.0)] == [0.25, 0.25, 2.0, 4.0]


def test_theory_companions():
    rates = truncation_lesson.rate_companions(2.0, 4)
    n = np.array(truncation_lesson.N_GRID, dtype=float)
    np.testing.assert_allclose(rates["lower_bound"], (2.0 * n) ** -0.75)
    np.testing.assert_allclose(rates["non_private"], HALF_NORMAL_MEDIAN / np.sqrt(n))
    np.testing.assert_allclose(truncation_lesson.rate_companions(1.0, math.inf)["lower_bound"], 1 / n)
    companions = truncation_lesson.bias_companions(1.0)
    np.testing.assert_allclose(companions["naive_truncated_mean"], exact_naive_bias())
    assert np.all(np.diff(companions["truncated_mle_moments"]) < 0)
    assert truncation_lesson.TRUNCATED_MEAN == pytest.approx(0.42, abs=0.005)


# ------------------------------------------------------------------------------------ the page's question
# Predict, then reveal: the right answer agrees with what the page draws (see tests/lessons/test_questions.py).
@pytest.mark.parametrize("family", truncation_lesson.FAMILIES)
@pytest.mark.parametrize("moment_k", [2, 3, math.inf])
@pytest.mark.parametrize("n, epsilon", [(100, 0.1), (10_000, 1.0), (1_000_000, 5.0)])
def test_radius_answer_is_the_bottom_of_the_exact_mse_curve(family, moment_k, n, epsilon):
    """Truncation: the radius at the minimum of the figure's total-error curve is in the chosen interval."""
    question = truncation_lesson.radius_question(family, moment_k, n, epsilon)
    curve = truncation_lesson.bias_noise_tradeoff(family, moment_k, n, epsilon)
    lowest = curve["radii"][np.argmin(curve["mse"])]
    edges = (0, 1, 3, 10, 30, np.inf)
    assert edges[question.answer] <= curve["best"] < edges[question.answer + 1]
    assert edges[question.answer] <= lowest * 1.05 and lowest / 1.05 < edges[question.answer + 1]  # grid spacing
    assert f"t = {curve['best']:.2f}" in question.explanation

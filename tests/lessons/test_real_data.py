"""The real-data lesson (dpcore.lessons.real_data) on seeded synthetic columns (an income-like Lomax column, heavy
tailed, and an age-like bounded column) and on the bundled real columns (dpcore.datasets): the clipping bias is the
column's exact bias, the Laplace noise has its scale, the private median keeps its exponential-mechanism bound, and
the page's clipped mean passes a privacy audit on a worst-case neighbour of Engel's incomes.

Seeded Monte Carlo; every tolerance is stated next to the number of draws behind it.
"""

import math
from urllib.parse import parse_qs, urlsplit

import numpy as np
import pytest
from scipy import stats

from dpcore import accounting, audit, mechanisms, planning
from dpcore.core.guarantees import privacy_roles
from dpcore.core.validation import InvalidParameterError
from dpcore.datasets import DATASETS, load_dataset
from dpcore.estimators import heavy_tailed_mean
from dpcore.lessons import glossary
from dpcore.lessons import real_data as lesson
from dpcore.lessons.real_data import child_generator


def income(n=2000, seed=0):
    """Lomax(2.2) household incomes in francs: 300 + 400·Lomax, heavy right tail (finite mean, infinite 3rd moment)."""
    return 300.0 + 400.0 * np.random.default_rng(seed).pareto(2.2, n)


def ages(n=944, seed=1):
    return np.clip(np.round(np.random.default_rng(seed).normal(47.0, 17.0, n)), 17.0, 93.0)


INCOME = dict(public_low=0.0, public_high=10_000.0, lower=0.0, upper=10_000.0, epsilon=1.0, delta=1e-6,
              scale=500.0, moment_k=2.0)
AGES = dict(public_low=0.0, public_high=120.0, lower=0.0, upper=120.0, epsilon=1.0, delta=1e-6, scale=20.0,
            moment_k=4.0)
X = np.linspace(300.0, 900.0, 20)

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "column_facts": dict(x=X),
    "fact_rows": dict(x=X),
    "bounds_warning": dict(x=X, public_low=0.0, public_high=1000.0, lower=0.0, upper=1000.0),
    "coverage_warning": dict(x=X, public_low=0.0, public_high=1000.0, lower=0.0, upper=1000.0),
    "release_rows": dict(x=X, **INCOME, seed=0),
    "clipping_decomposition": dict(x=X, lower=0.0, upper=1000.0, epsilon=1.0),
    "best_bounds": dict(x=X, epsilon=1.0),
    "clipped_mean_draws": dict(x=X, lower=0.0, upper=1000.0, epsilon=1.0, trials=3, rng=0),
    "private_quantiles": dict(x=X, public_low=0.0, public_high=10_000.0, epsilon=1.0, seed=0),
    "private_histogram": dict(x=X, public_low=0.0, public_high=10_000.0, epsilon=1.0, seed=0, bins=10),
    "releases": dict(x=X, **INCOME, seed=0, bins=10),
    "mean_error_vs_epsilon": dict(x=X, **INCOME, epsilons=np.array([0.5, 1.0]), trials=3, seed=0,
                                  methods=("clipped_laplace",)),
    "quantile_error_vs_epsilon": dict(x=X, public_low=0.0, public_high=10_000.0, epsilon=1.0,
                                      epsilons=np.array([0.5, 1.0]), trials=3, seed=0, methods=("private_median",)),
    "error_vs_epsilon": dict(x=X, **INCOME, epsilons=np.array([0.5, 1.0]), trials=3, seed=0),
    "takeaways": dict(x=X, **INCOME, trials=3, seed=0, unit="francs"),
    "cost_question": dict(x=X, lower=0.0, upper=1000.0, epsilon=1.0),
    "page_plan": dict(public_low=0.0, public_high=120.0, lower=0.0, upper=120.0, epsilon=1.0, delta=1e-6,
                      data="anes96", bins=20),
    "plan_note": dict(public_low=0.0, public_high=120.0, lower=0.0, upper=120.0, epsilon=1.0, delta=1e-6,
                      data="anes96", bins=20, unit="years"),
}


# --------------------------------------------------------------------------------------- the column and its clipping
def test_column_facts_are_the_plain_statistics_and_marked_diagnostic():
    x = income()
    facts = lesson.column_facts(x)
    assert (facts.n, facts.mean, facts.median, facts.sd) == (2000, x.mean(), np.median(x), x.std())
    assert set(privacy_roles(lesson.ColumnFacts).values()) == {"diagnostic"}


def test_the_clipping_bias_is_the_exact_bias_computed_directly():
    x = income()
    split = lesson.clipping_decomposition(x, 350.0, 1500.0, 0.5)
    direct = np.mean(np.minimum(np.maximum(x, 350.0), 1500.0)) - np.mean(x)
    assert split.bias == pytest.approx(direct, rel=1e-12, abs=1e-9)
    assert split.bias < 0  # the right tail is clipped: the mean moves down
    assert split.noise_scale == pytest.approx((1500.0 - 350.0) / (0.5 * 2000))
    assert split.clipped_fraction == np.mean((x < 350.0) | (x > 1500.0))


def test_the_laplace_noise_spread_matches_its_scale():
    """The page's clipped-mean releases: mean |noise| = b and sd = √2·b, over 200,000 seeded draws (standard errors
    about 0.22 % and 0.5 % of b; tolerances 1 % and 2 %, so a noise scale off by 2 % would fail)."""
    x = income()
    split = lesson.clipping_decomposition(x, 0.0, 5000.0, 0.3)
    noise = lesson.clipped_mean_draws(x, 0.0, 5000.0, 0.3, 200_000, rng=3) - split.clipped_mean
    assert np.mean(np.abs(noise)) == pytest.approx(split.noise_scale, rel=0.01)
    assert np.std(noise) == pytest.approx(math.sqrt(2) * split.noise_scale, rel=0.02)
    assert np.median(np.abs(noise)) == pytest.approx(math.log(2) * split.noise_scale, rel=0.015)


@pytest.mark.parametrize("lower, upper, epsilon", [(0.0, 10_000.0, 1.0), (350.0, 700.0, 1.0), (300.0, 2000.0, 0.2)])
def test_the_expected_error_closed_form_matches_monte_carlo(lower, upper, epsilon):
    """E|c + Lap(b)| = |c| + b·exp(−|c|/b) against 200,000 releases (standard error < 0.3 %; tolerance 1.5 %), from
    a noise-dominated to a bias-dominated case."""
    x = income()
    split = lesson.clipping_decomposition(x, lower, upper, epsilon)
    draws = lesson.clipped_mean_draws(x, lower, upper, epsilon, 200_000, rng=4)
    assert np.mean(np.abs(draws - x.mean())) == pytest.approx(split.expected_error, rel=0.015)


def test_best_bounds_beat_the_public_range_on_a_heavy_tailed_column_and_say_they_are_not_private():
    x = income()
    best = lesson.best_bounds(x, 1.0)
    public = lesson.clipping_decomposition(x, 0.0, 10_000.0, 1.0)
    assert best.decomposition.expected_error < public.expected_error / 2
    assert "not private" in best.note
    assert privacy_roles(lesson.BestBounds)["decomposition"] == "diagnostic"
    # The oracle's error is the least over its grid: no pair of the grid's quantiles does better.
    levels = [0.0, 0.01, 0.1, 0.3]
    for low in np.quantile(x, levels):
        for high in np.quantile(x, [1.0 - level for level in levels]):
            assert lesson.clipping_decomposition(x, low, high, 1.0).expected_error >= \
                best.decomposition.expected_error - 1e-9


def test_best_bounds_of_a_constant_column_are_refused_without_saying_the_value():
    with pytest.raises(InvalidParameterError) as caught:
        lesson.best_bounds(np.full(10, 3.25), 1.0)
    assert str(caught.value) == ("Every value of the column is the same: there are no bounds to choose, and nothing to "
                                 "estimate privately. Pick a column whose values differ.")


# --------------------------------------------------------------------------------------- one release of each
def test_releases_state_their_guarantees():
    x = income()
    result = lesson.releases(x, **INCOME, seed=0)
    width = INCOME["upper"] - INCOME["lower"]
    assert result.means["clipped_laplace"].guarantee.startswith("1-DP (pure), replace-one; Δ₁ = (upper − lower)/n = 5")
    sigma = mechanisms.gaussian_sigma(width / x.size, 1.0, 1e-6)
    assert f"σ = {sigma:.4g}" in result.means["gaussian_analytic"].guarantee
    rho = accounting.approx_to_zcdp(1.0, 1e-6)
    assert accounting.zcdp_to_approx(rho, 1e-6) == pytest.approx(1.0)  # the zCDP release spends the same (ε, δ)
    assert result.means["ksu20_zcdp"].guarantee.startswith(f"{rho:.4g}-zCDP")
    assert all("0.3333-DP" in release.guarantee for release in result.quantiles.values())
    assert "Δ₁ = 2" in result.histogram.guarantee
    assert privacy_roles(lesson.Release) == {"method": "public", "value": "released", "true_value": "diagnostic",
                                             "guarantee": "public"}


def test_releases_are_seeded_and_their_true_values_are_the_column_s():
    x = ages()
    first, again = lesson.releases(x, **AGES, seed=5), lesson.releases(x, **AGES, seed=5)
    other = lesson.releases(x, **AGES, seed=6)
    for name in lesson.MEAN_METHODS:
        assert first.means[name].value == again.means[name].value != other.means[name].value
        assert first.means[name].true_value == x.mean()
    for name, q in lesson.QUANTILES.items():
        assert first.quantiles[name].value == again.quantiles[name].value
        assert first.quantiles[name].true_value == np.quantile(x, q)
    np.testing.assert_array_equal(first.histogram.value, again.histogram.value)
    assert first.histogram.true_value.sum() == x.size and first.edges.size == lesson.BINS + 1


def test_ksu20_releases_are_private_mean_1d_on_the_publicly_standardised_column():
    """The KSU20 releases are private_mean_1d (and _zcdp) called directly on z = (x − c)/s, in the page's
    data-independent random order, with the same streams, mapped back by c + s·ẑ."""
    x = income()
    result = lesson.releases(x, **INCOME, seed=9)
    centre, scale = 5000.0, INCOME["scale"]
    z = ((x - centre) / scale)[child_generator(9, "permutation").permutation(x.size)]
    streams = dict(zip(lesson.MEAN_METHODS + ("histogram",) + lesson.QUANTILE_METHODS,
                       child_generator(9, "epsilon", 1.0).spawn(8), strict=True))
    pure = heavy_tailed_mean.private_mean_1d(z, 1.0, 2.0, 5000.0 / scale, streams["ksu20"]).estimate
    assert result.means["ksu20"].value == centre + scale * pure
    rho = accounting.approx_to_zcdp(1.0, 1e-6)
    zcdp = heavy_tailed_mean.private_mean_1d_zcdp(z, rho, 2.0, 5000.0 / scale, streams["ksu20_zcdp"]).estimate
    assert result.means["ksu20_zcdp"].value == centre + scale * zcdp


def test_the_private_median_is_within_its_exponential_mechanism_bound():
    """private_quantile's utility (its docstring; McSherry & Talwar 2007): with probability ≥ 1 − e^{−t} the released
    median's rank error is at most (2/ε')(ln((b − a)/len(G)) + t), ε' = ε/3, G = the interval between the order
    statistics of ranks n/2 ± 1 (rank error ≤ 1 on it). At t = ln 100 at most 1 % of releases may exceed it; over 500
    seeded releases we allow 2 % (binomial: P(> 10 of 500 | p = 0.01) < 0.015)."""
    x = ages(seed=2) + np.random.default_rng(3).uniform(-0.5, 0.5, 944)  # no ties, so ranks are exact
    epsilon = 0.3
    sweep_draws = lesson.error_vs_epsilon(x, **dict(AGES, epsilon=epsilon), epsilons=[epsilon], trials=500, seed=1)
    ordered = np.sort(x)
    law = mechanisms.quantile_density(x, 0.5, epsilon / 3, 0.0, 120.0)
    draws = mechanisms.sample_quantile_density(law, 500, rng=2)
    good = ordered[x.size // 2 + 1] - ordered[x.size // 2 - 1]
    bound = (2 / (epsilon / 3)) * (math.log(120.0 / good) + math.log(100))
    rank_error = np.abs(np.searchsorted(ordered, draws) - x.size / 2)
    assert np.mean(rank_error > bound) <= 0.02
    assert sweep_draws.errors["private_median"].shape == (3, 1)


def test_a_bad_parameter_is_named():
    x = income(100)
    for change, name in ((dict(epsilon=0.0), "epsilon"), (dict(delta=1.0), "delta"), (dict(delta=0.0), "delta"),
                         (dict(scale=-1.0), "scale"), (dict(lower=math.nan), "lower"),
                         (dict(moment_k=1.0), "moment_k")):
        with pytest.raises(InvalidParameterError, match=name):
            lesson.releases(x, **dict(INCOME, **change), seed=0)
    with pytest.raises(InvalidParameterError, match="x"):
        lesson.column_facts(np.array([1.0]))
    with pytest.raises(InvalidParameterError, match="x"):
        lesson.clipping_decomposition(np.array([1.0, math.inf]), 0.0, 1.0, 1.0)
    with pytest.raises(InvalidParameterError, match="clipping bound U"):
        lesson.clipping_decomposition(x, 5.0, 1.0, 1.0)


@pytest.mark.parametrize("change, message", [
    (dict(lower=10.0, upper=10.0), "The clipping bound U (10) must be greater than the clipping bound L (10): values "
                                   "are moved into the window from L to U."),
    (dict(lower=2500.5, upper=-1_000_000.0), "The clipping bound U (−1,000,000) must be greater than the clipping "
                                             "bound L (2,500.5): values are moved into the window from L to U."),
    (dict(public_low=5.0, public_high=1.0), "The public range's highest value b (1) must be greater than its lowest "
                                            "value a (5): the range holds every value such a column can take."),
])
def test_crossed_bounds_are_refused_in_the_pages_words_with_the_numbers_typed(change, message):
    """The page's labels (public range a and b, clipping bounds L and U) and the numbers as typed, every digit."""
    for refused in (lambda: lesson.releases(income(100), **dict(INCOME, **change), seed=0),
                    lambda: lesson.takeaways(income(100), **dict(INCOME, **change), trials=3)):
        with pytest.raises(InvalidParameterError) as caught:
            refused()
        assert str(caught.value) == message


def test_bounds_that_leave_out_more_than_five_percent_are_warned_of_as_a_count_that_is_not_private():
    x = np.arange(1.0, 101.0)  # 1, 2, …, 100
    assert lesson.coverage_warning(x, 0, 100, 0, 100) == lesson.coverage_warning(x, 0, 95, 5, 100) == ""  # 5 %: fine
    said = lesson.coverage_warning(x, 0, 94, 0, 100)
    assert said.startswith("The public range [0, 94] leaves out 6 % of this column's values: the private median, "
                           "quartiles and histogram answer only inside it")
    assert "Clipping" not in said and "not private" in said
    said = lesson.coverage_warning(x, 0, 100, 10, 90)
    assert said.startswith("Clipping to [10, 90] moves 19 % of the values to a bound") and "public range" not in said
    both = lesson.coverage_warning(x * 1000, 0, 100, 0, 100)
    assert "leaves out 100 %" in both and "moves 100 %" in both and both.count("not private") == 1
    assert lesson.coverage_warning(x, 100, 0, 90, 10) == ""  # crossed: the refusals say so


def test_the_private_range_needs_four_values_and_says_so():
    three = np.array([1.0, 5.0, 9.0])
    for refused in (lambda: lesson.release_rows(three, **INCOME, seed=0),
                    lambda: lesson.mean_error_vs_epsilon(three, **INCOME, trials=3, methods=("ksu20",))):
        with pytest.raises(InvalidParameterError) as caught:
            refused()
        assert str(caught.value) == ("The private range needs at least 4 values (it splits the column into halves); "
                                     "this column has 3.")
    assert lesson.mean_error_vs_epsilon(three, **INCOME, trials=3, methods=("clipped_laplace",)).trials == 3
    assert len(lesson.release_rows(np.array([1.0, 5.0, 9.0, 2.0]), **INCOME, seed=0)) == len(lesson.METHODS)


def test_a_public_range_too_wide_for_the_private_range_is_said_in_the_pages_words():
    """[−10¹², 10¹²] at s = 10⁻⁹: the estimator's histogram would need more than MAX_HISTOGRAM_CELLS bins; its own
    message (mean_range, alpha, bucket_constant) is kept as the cause, for a notebook's traceback."""
    wide = dict(INCOME, public_low=-1e12, public_high=1e12, scale=1e-9)
    with pytest.raises(InvalidParameterError) as caught:
        lesson.release_rows(income(100), **wide, seed=0)
    assert str(caught.value) == (
        "The private range cannot run with this public range and scale: it counts the column in a noisy histogram "
        "over the whole public range, in bins proportional to the scale s, and [−1,000,000,000,000, "
        "1,000,000,000,000] at s = 1e−09 needs more bins than the lab counts at once (20,000,000). Narrow the public "
        "range, make the scale s larger.")
    assert "mean_range" in str(caught.value.__cause__)
    with pytest.raises(InvalidParameterError, match=r"\(20,000,000 for the 50 trials together\)\. Narrow the "
                                                    r"public range, make the scale s larger, or use fewer trials\."):
        lesson.mean_error_vs_epsilon(income(100), **wide, trials=50, methods=("ksu20_zcdp",))


# --------------------------------------------------------------------------------------- the sweep
def test_the_sweep_is_seeded_per_epsilon_and_its_errors_fall_with_epsilon():
    x = income()
    small = lesson.error_vs_epsilon(x, **INCOME, epsilons=[0.1, 1.0], trials=200, seed=3)
    large = lesson.error_vs_epsilon(x, **INCOME, epsilons=[0.1, 0.3, 1.0, 3.0], trials=200, seed=3)
    for name in lesson.METHODS:
        np.testing.assert_array_equal(small.errors[name][:, 1], large.errors[name][:, 2])  # ε = 1: same draws
        assert small.errors[name][1, 0] > small.errors[name][1, 1]  # 10× the budget: smaller typical error
        assert np.all(small.errors[name][0] <= small.errors[name][1])
        assert np.all(small.errors[name][1] <= small.errors[name][2])
    assert small.true_values["private_median"] == np.median(x)
    assert set(privacy_roles(lesson.ErrorSweep).values()) == {"public", "diagnostic"}


def test_the_sweep_draws_the_releases_laws():
    """Each scalar release of the sweep against one-at-a-time releases (lesson.releases over 300 seeds): two-sample
    KS at level 0.001 per method, the sweep's 10/50/90 % percentiles built from 2,000 vectorised draws (a noise scale
    or a quantile sampler off by 2× fails it)."""
    x = income(400, seed=7)
    params = dict(INCOME, epsilon=0.5)
    single = {name: [] for name in lesson.METHODS}
    for seed in range(300):
        result = lesson.releases(x, **params, seed=seed)
        for name in lesson.MEAN_METHODS:
            single[name].append(result.means[name].value)
        for name in lesson.QUANTILE_METHODS:
            single[name].append(result.quantiles[name].value)
    sweep = lesson.error_vs_epsilon(x, **params, epsilons=[0.5], trials=2000, seed=11)
    for name in lesson.METHODS:
        p10, p50, p90 = sweep.released[name][:, 0]
        assert np.mean(np.array(single[name]) <= p50) == pytest.approx(0.5, abs=0.1), name
        assert np.mean(np.array(single[name]) <= p10) == pytest.approx(0.1, abs=0.06), name
        assert np.mean(np.array(single[name]) <= p90) == pytest.approx(0.9, abs=0.06), name


def test_each_release_and_each_method_of_the_sweep_has_its_own_stream():
    """The page draws each figure from the part of the lesson it shows (the quantiles alone, the histogram alone, a
    sweep of some methods): each must give the numbers of the whole, value for value, at the same seed."""
    x = income(500, seed=4)
    whole = lesson.releases(x, **INCOME, seed=8, bins=12)
    quantiles = lesson.private_quantiles(x, INCOME["public_low"], INCOME["public_high"], INCOME["epsilon"], seed=8)
    assert quantiles == whole.quantiles
    histogram = lesson.private_histogram(x, INCOME["public_low"], INCOME["public_high"], INCOME["epsilon"], seed=8,
                                         bins=12)
    np.testing.assert_array_equal(histogram.value, whole.histogram.value)
    np.testing.assert_array_equal(histogram.true_value, whole.histogram.true_value)
    grid = [0.1, 1.0, 3.0]
    swept = lesson.error_vs_epsilon(x, **INCOME, epsilons=grid, trials=50, seed=2)
    means = lesson.mean_error_vs_epsilon(x, **INCOME, epsilons=grid, trials=50, seed=2, methods=["ksu20_zcdp"])
    quantile = lesson.quantile_error_vs_epsilon(x, INCOME["public_low"], INCOME["public_high"], INCOME["epsilon"],
                                                epsilons=grid, trials=50, seed=2, methods=["private_q3"])
    for part, name in ((means, "ksu20_zcdp"), (quantile, "private_q3")):
        assert list(part.errors) == [name]
        np.testing.assert_array_equal(part.released[name], swept.released[name])
        np.testing.assert_array_equal(part.errors[name], swept.errors[name])
        assert part.true_values[name] == swept.true_values[name]
    for methods in ([], ["private_median"], ["ksu20", "ksu20"]):
        with pytest.raises(InvalidParameterError, match="methods"):
            lesson.mean_error_vs_epsilon(x, **INCOME, methods=methods)


# --------------------------------------------------------------------------------------- privacy audit
AUDIT_DRAWS = 10**6


def audit_clipped_mean(claimed, used):
    """The page's clipped mean on a worst-case neighbour of a real column (Engel's 235 household incomes): one value at
    ``lower`` replaced by one at ``upper`` (the clipped mean moves by exactly Δ₁); releases at the privacy parameter
    ``used``, audited against ``claimed``."""
    lower, upper = 200.0, 3000.0
    x = load_dataset("engel")
    x[np.argmin(x)] = lower  # the real column, one household at the lower bound: its worst-case neighbour has it at
    neighbour = np.where(np.arange(x.size) == np.argmin(x), upper, x)  # the upper bound (Δ₁ exactly)
    on_x = lesson.clipped_mean_draws(x, lower, upper, used, AUDIT_DRAWS, rng=1)
    on_neighbour = lesson.clipped_mean_draws(neighbour, lower, upper, used, AUDIT_DRAWS, rng=2)
    centre, width = np.clip(x, lower, upper).mean(), (upper - lower) / x.size
    thresholds = centre + width * np.linspace(-8.0, 9.0, 120) / claimed
    return audit.epsilon_lower_bound(audit.threshold_counts(on_x, thresholds),
                                     audit.threshold_counts(on_neighbour, thresholds), AUDIT_DRAWS).epsilon_lower_bound


def test_the_page_s_clipped_mean_passes_its_privacy_audit():
    bound = audit_clipped_mean(claimed=1.0, used=1.0)
    assert 0.8 < bound <= 1.0  # tight: the audit sees most of the ε it must not exceed


def test_a_clipped_mean_with_half_the_noise_is_caught():
    assert audit_clipped_mean(claimed=1.0, used=2.0) > 1.0  # ε doubled = noise scale halved


# --------------------------------------------------------------------------------------- words
def test_takeaways_are_short_defined_and_carry_no_raw_floats():
    x = income(235)
    words = lesson.takeaways(x, **INCOME, trials=100, seed=0, unit="francs")
    assert 3 <= len(words) <= 5
    assert "ε: the privacy budget" in words[0]
    for sentence in words:
        assert not any(len(token.strip(".,()[]≈")) > 8 and token.replace(".", "").isdigit()
                       for token in sentence.split())
    sweep = lesson.error_vs_epsilon(x, **INCOME, epsilons=lesson.EPSILONS, trials=100, seed=0)
    column = int(np.argmin(np.abs(sweep.epsilons - 1.0)))
    from dpcore.lessons.plain_words import number_text
    assert number_text(sweep.errors["clipped_laplace"][1, column]) in words[0]


def test_the_cost_question_is_answered_from_the_decomposition():
    x = income(235)
    noisy = lesson.cost_question(x, 0.0, 10_000.0, 1.0)
    assert noisy.choices[noisy.answer] == "the noise"
    biased = lesson.cost_question(x, 400.0, 600.0, 5.0)
    split = lesson.clipping_decomposition(x, 400.0, 600.0, 5.0)
    assert abs(split.bias) > 1.25 * split.noise_scale and biased.choices[biased.answer] == "the clipping bias"


def test_the_glossary_terms_exist():
    assert set(lesson.GLOSSARY) <= set(glossary.TERMS)


def test_ks_check_of_the_quantile_path_inside_the_sweep():
    """The sweep's median draws and private_quantile's at the same ε/3: two-sample KS, p > 0.001."""
    x = ages(400, seed=8) + np.random.default_rng(9).uniform(-0.5, 0.5, 400)
    law = mechanisms.quantile_density(np.sort(x), 0.5, 0.1, 0.0, 120.0)
    fast = mechanisms.sample_quantile_density(law, 3000, rng=0)
    slow = mechanisms.private_quantile(np.broadcast_to(x, (3000, x.size)), 0.5, 0.1, 0.0, 120.0, rng=1)
    assert stats.ks_2samp(fast, slow).pvalue > 1e-3


# --------------------------------------------------------------------------------------- the bundled real columns
PUBLIC = {"engel": (0.0, 10_000.0, 500.0), "anes96": (0.0, 120.0, 20.0), "randhie": (0.0, 100.0, 5.0)}


@pytest.mark.parametrize("data", list(DATASETS))
def test_on_every_bundled_column_the_bias_is_exact_and_the_noise_has_its_scale(data):
    """Bounds at the column's 5th and 95th percentiles (both tails clipped): the bias equals the column's own, computed
    directly; 100,000 seeded releases have mean |noise| = b within 1.5 % (standard error about 0.3 %)."""
    x = load_dataset(data)
    lower, upper = np.quantile(x, [0.05, 0.95])
    if lower == upper:
        lower, upper = x.min(), x.max()
    split = lesson.clipping_decomposition(data, lower, upper, 0.5)  # the page passes the data set's key
    assert split.bias == pytest.approx(np.clip(x, lower, upper).mean() - x.mean(), rel=1e-12, abs=1e-12)
    noise = lesson.clipped_mean_draws(data, lower, upper, 0.5, 100_000, rng=7) - split.clipped_mean
    assert np.mean(np.abs(noise)) == pytest.approx((upper - lower) / (0.5 * x.size), rel=0.015)


@pytest.mark.parametrize("data", ["engel", "anes96"])
def test_on_a_bundled_column_the_private_median_keeps_its_bound(data):
    """The bound of test_the_private_median_is_within_its_exponential_mechanism_bound on the real column (ε = 1, so
    ε/3 for the median), with G widened to the interval of ranks n/2 ± 3 when ties make the narrow one empty; 1,000
    seeded releases, at most 2 % beyond it (expected ≤ 1 %)."""
    x = load_dataset(data)
    low, high, _ = PUBLIC[data]
    ordered = np.sort(x)
    law = mechanisms.quantile_density(x, 0.5, 1.0 / 3, low, high)
    draws = mechanisms.sample_quantile_density(law, 1000, rng=5)
    half = x.size // 2
    good = max(ordered[half + 3] - ordered[half - 3], 1e-9)
    bound = (2 / (1.0 / 3)) * (math.log((high - low) / good) + math.log(100)) + 3
    below, above = np.searchsorted(ordered, draws, side="left"), np.searchsorted(ordered, draws, side="right")
    rank_error = np.minimum(np.abs(below - x.size / 2), np.abs(above - x.size / 2))
    assert np.mean(rank_error > bound) <= 0.02


@pytest.mark.parametrize("data", list(DATASETS))
def test_every_release_on_a_bundled_column_is_seeded_and_states_its_guarantee(data):
    low, high, scale = PUBLIC[data]
    settings = dict(public_low=low, public_high=high, lower=low, upper=high, epsilon=1.0, delta=1e-6, scale=scale,
                    moment_k=2.0)
    first, again = lesson.releases(data, **settings, seed=3), lesson.releases(data, **settings, seed=3)
    values = [release.value for release in (*first.means.values(), *first.quantiles.values())]
    assert values == [release.value for release in (*again.means.values(), *again.quantiles.values())]
    assert all(np.isfinite(values))
    assert first.means["clipped_laplace"].true_value == pytest.approx(load_dataset(data).mean())


# --------------------------------------------------------------------------------------- the releases as a plan
def planned(link: str) -> tuple[tuple[planning.Release, ...], float]:
    """The plan and δ a link to the planner holds, read as the planner reads its URL."""
    parts = urlsplit(link)
    assert parts.path == f"/{lesson.PLANNER}"
    query = parse_qs(parts.query, strict_parsing=True)
    assert set(query) <= {"plan", "delta"} and all(len(values) == 1 for values in query.values())
    return planning.parse_plan(query["plan"][0]), float(query.get("delta", ["0"])[0])


@pytest.mark.parametrize("data", [*DATASETS, None])
@pytest.mark.parametrize("epsilon, delta", [(1.0, 1e-6), (0.3, 1e-12), (10.0, 1e-3), (0.02, 1e-8)])
def test_the_plan_link_gives_back_the_pages_epsilon_for_every_release(data, epsilon, delta):
    """Each release the link plans reaches, at this page's ε, the target the link gives it: the planner's calibration
    finds this page's ε again (ε/3 for each quartile; the Gaussian mean at the page's δ, its plan's only Gaussian
    release); the targets are those of the page's own mechanisms at 95 %, computed here from their laws."""
    low, high, _ = PUBLIC[data] if data else (10.0, 130.0, None)
    lower, upper = low + 0.1 * (high - low), high - 0.2 * (high - low)
    releases, linked_delta = planned(lesson.page_plan(low, high, lower, upper, epsilon, delta, data).link)
    n = DATASETS[data].rows if data else 1000  # a student's file: the planner's default, nothing of the file
    width = (upper - lower) / n
    kinds = [(release.kind, release.mechanism) for release in releases]
    quartiles = kinds.count(("quantile", "laplace"))
    assert kinds == [("mean", "laplace"), ("mean", "gaussian"), *[("quantile", "laplace")] * quartiles,
                     ("histogram", "laplace")] and quartiles in (0, 3)
    assert linked_delta == delta
    laws = {  # the 95 % target of each of the page's releases at ε, from the mechanisms' own laws
        ("mean", "laplace"): width / epsilon * math.log(20),  # P(|Lap(b)| ≤ t) = 1 − e^(−t/b)
        ("mean", "gaussian"): mechanisms.gaussian_sigma(width, epsilon, delta) * stats.norm.ppf(0.975),
        ("quantile", "laplace"): 2 / (epsilon / 3) * (math.log(1000) + math.log(20)),  # Dwork & Roth 2014, Thm 3.11
        ("histogram", "laplace"): 2 / epsilon * -math.log(1 - 0.95 ** (1 / lesson.BINS)),  # every bin at once
    }
    plan = planning.plan_for(releases, linked_delta)
    for release, item in zip(releases, plan.items, strict=True):
        spent = epsilon / 3 if release.kind == "quantile" else epsilon
        assert release.error == pytest.approx(laws[release.kind, release.mechanism], rel=1e-8)
        assert item.epsilon == pytest.approx(spent, abs=1e-6, rel=1e-9)
        assert release.confidence == 0.95
        if release.kind in ("mean", "quantile"):  # the kinds that use n and a range (a histogram has neither)
            assert release.n == n
            bounds = (lower, upper) if release.kind == "mean" else (low, high)
            assert (release.lower, release.upper) == pytest.approx(bounds, rel=1e-11)
    assert plan.totals[0].epsilon == pytest.approx(epsilon * (3 + (quartiles > 0)), rel=1e-6)


def test_a_quartile_beyond_the_planners_reach_is_left_out_and_said():
    """At ε = 0.1 on Engel's 235 incomes a quartile (ε/3) is only within ±594 people in rank: the planner cannot hold
    more than n, so the three are left out, and the words say why; the private range is never in the plan."""
    plan = lesson.page_plan(0.0, 10_000.0, 0.0, 10_000.0, 0.1, 1e-6, "engel")
    assert [release.kind for release in plan.releases] == ["mean", "mean", "histogram"]
    assert plan.left_out[0].startswith("the three private quartiles") and "n = 235" in plan.left_out[0]
    note = lesson.plan_note(0.0, 10_000.0, 0.0, 10_000.0, 0.1, 1e-6, "engel", unit="francs a year")
    assert "±594 people in rank" in note and "Kamath, Singhal & Ullman (2020)" in note
    assert "your file" not in note  # a bundled data set's n is public, and in the link


def test_a_students_file_has_no_n_in_the_link_and_the_words_say_to_type_it():
    plan = lesson.page_plan(0.0, 120.0, 18.0, 95.0, 1.0, 1e-6)
    assert all(release.n == 1000 for release in plan.releases)  # the planner's default
    assert "n%3D" not in plan.link and "n=" not in planning.plan_text(plan.releases)
    note = lesson.plan_note(0.0, 120.0, 18.0, 95.0, 1.0, 1e-6)
    assert f"]({plan.link})" in note and "Type your column's n there" in note
    assert "not even its number of values n" in note


def test_the_link_keeps_every_digit_the_planner_needs():
    """A bound typed with many digits, and a δ, go into the link as typed (12 significant digits), not rounded to
    the planner's 6, so that each ε comes back to 1e-9."""
    plan = lesson.page_plan(-0.123456789, 1234567.891, 0.987654321, 1234.56789, 0.7, 1e-6, "randhie")
    releases, _ = planned(plan.link)
    assert releases[0].lower == 0.987654321 and releases[0].upper == 1234.56789 and releases[0].n == 20_190
    assert releases[2].lower == -0.123456789 and releases[2].upper == 1234567.891
    assert planning.calibrate(releases[0]).epsilon == pytest.approx(0.7, rel=1e-9)

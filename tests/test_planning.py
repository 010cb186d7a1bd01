"""Planning releases from accuracy targets: closed forms, simulated coverage, totals, the split of a budget, the
attacker's numbers and the plan as text.

The oracles are the error laws themselves (P(|Lap(b)| ≤ t) = 1 − e^{−t/b}, P(|N(0, σ²)| ≤ t) = 2Φ(t/σ) − 1, the
exponential mechanism's utility bound t = (2/ε) ln(G/(1 − c)), Dwork & Roth 2014, Thm 3.11), the composition theorems
(basic, zCDP of Bun & Steinke 2016 converted by accounting.zcdp_to_approx_optimal, Gaussian DP of Dong, Roth & Su 2022)
and the trade-off curves of dpcore.accounting (tested in tests/test_accounting.py).
"""

import dataclasses
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from dpcore import accounting, privacy_loss
from dpcore.core.validation import InvalidParameterError
from dpcore.planning import (
    FPR,
    MAX_RELEASES,
    WORKED_EXAMPLE,
    Release,
    at_epsilon,
    attacker_risk,
    calibrate,
    coverage,
    parse_plan,
    plan_for,
    plan_text,
    posterior,
    roc,
    split_budget,
)

_PLAN = plan_for(WORKED_EXAMPLE)
_RISK = attacker_risk(_PLAN)

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "calibrate": dict(release=Release("count", 10.0), delta=0.0),
    "at_epsilon": dict(release=Release("count", 10.0), epsilon=0.3, delta=0.0),
    "coverage": dict(calibration=calibrate(Release("count", 10.0)), trials=1_000, seed=0),
    "plan_for": dict(releases=list(WORKED_EXAMPLE), delta=0.0),
    "split_budget": dict(releases=list(WORKED_EXAMPLE), epsilon=1.0, delta=0.0),
    "attacker_risk": dict(plan=_PLAN),
    "roc": dict(plan=_PLAN, fpr=0.05),
    "posterior": dict(risk=_RISK, prior=0.01, fpr=0.01),
    "parse_plan": dict(text="count:t=10,c=0.95"),
    "plan_text": dict(releases=list(WORKED_EXAMPLE)),
}

SLOW = settings(max_examples=4, deadline=None)  # split_budget: a cvxpy solve and a root of the numerical total each
TEXT = settings(max_examples=60, deadline=None)


# ------------------------------------------------------------------------------------- the closed forms (oracles)
def l1_sensitivity(release: Release) -> float:
    return {"count": 1.0, "mean": (release.upper - release.lower) / release.n, "histogram": 2.0,
            "quantile": 1.0}[release.kind]


def l2_sensitivity(release: Release) -> float:
    return math.sqrt(2.0) if release.kind == "histogram" else l1_sensitivity(release)


def per_value(release: Release) -> float:
    """Every one of B bins within ±t with probability c: each with c^{1/B} (the bins' noises are independent)."""
    return release.confidence ** (1 / release.bins) if release.kind == "histogram" else release.confidence


def normal_width(confidence: float) -> float:
    return float(stats.norm.ppf((1 + confidence) / 2))


def laplace_width(confidence: float) -> float:
    return math.log(1 / (1 - confidence))


def pure_epsilon(release: Release) -> float:
    """ε of a pure release meeting its target: Δ ln(1/(1−c))/t, or 2 ln(G/(1−c))/t for a quantile."""
    if release.kind == "quantile":
        return 2 * math.log(release.grid / (1 - release.confidence)) / release.error
    return l1_sensitivity(release) * laplace_width(per_value(release)) / release.error


def gaussian_mu(release: Release) -> float:
    """μ = Δ2/σ with σ = t/Φ⁻¹((1 + c)/2)."""
    return l2_sensitivity(release) * normal_width(per_value(release)) / release.error


def gaussian_share(releases, delta: float) -> float:
    count = sum(release.mechanism == "gaussian" for release in releases)
    return delta / count if count else 0.0


def target_epsilon(release: Release, share: float) -> float:
    if release.mechanism == "gaussian":
        return accounting.gaussian_epsilon(gaussian_mu(release), share)
    return pure_epsilon(release)


def target_rho(release: Release) -> float:
    return gaussian_mu(release) ** 2 / 2 if release.mechanism == "gaussian" else pure_epsilon(release) ** 2 / 2


def grid_bound(items) -> float:
    """k·h of a plan's numerical total: k losses (a Laplace histogram's replace-one moves two bins: two), on the
    step h = max(1e-4, spread/50,000) of dpcore.planning (the spread: 2ε per pure loss, 24μ + μ² per Gaussian)."""
    spread, count = 0.0, 0
    for item in items:
        spread += 24 * item.mu + item.mu ** 2 if item.gaussian else 2 * item.epsilon
        count += 2 if item.release.kind == "histogram" and not item.gaussian else 1
    return count * max(privacy_loss.STEP, spread / 50_000)


def zcdp_budget(epsilon: float, delta: float) -> float:
    """The largest ρ whose zCDP conversion is at most ε at δ, by bisection (the conversion grows with ρ)."""
    low, high = 0.0, 1.0
    while accounting.zcdp_to_approx_optimal(high, delta) <= epsilon:
        low, high = high, 2 * high
    for _ in range(200):
        middle = (low + high) / 2
        if middle in (low, high):
            break
        low, high = (middle, high) if accounting.zcdp_to_approx_optimal(middle, delta) <= epsilon else (low, middle)
    return low


COUNT = Release("count", 10.0)
MEAN = Release("mean", 1.0, lower=0.0, upper=120.0, n=1000)
RELEASES = [  # (release, its δ)
    (COUNT, 0.0),
    (Release("count", 3.0, 0.9, "gaussian"), 1e-5),
    (MEAN, 0.0),
    (Release("mean", 0.5, 0.99, "gaussian", lower=-5.0, upper=5.0, n=200), 1e-6),
    (Release("histogram", 20.0, bins=10), 0.0),
    (Release("histogram", 5.0, 0.8, "gaussian", bins=25), 1e-6),
    (Release("quantile", 50.0, grid=1000, n=1000), 0.0),
    (Release("quantile", 7.0, 0.6, lower=-1.0, upper=3.0, n=40, grid=17), 0.0),
]
IDS = [f"{release.kind}-{release.mechanism}-{i}" for i, (release, _) in enumerate(RELEASES)]


# ---------------------------------------------------------------------------------------------------- calibrate
@pytest.mark.parametrize("release, delta", RELEASES, ids=IDS)
def test_calibrate_equals_the_closed_forms(release, delta):
    calibration = calibrate(release, delta)
    assert calibration.error == release.error
    if release.kind == "quantile":
        assert calibration.epsilon == pytest.approx(pure_epsilon(release), rel=1e-12)
        assert calibration.scale == pytest.approx(2 / calibration.epsilon, rel=1e-12)
        assert calibration.delta == 0.0
    elif release.mechanism == "gaussian":
        sigma = release.error / normal_width(per_value(release))
        assert calibration.scale == pytest.approx(sigma, rel=1e-9)
        assert calibration.mu == pytest.approx(l2_sensitivity(release) / sigma, rel=1e-9)
        assert calibration.rho == pytest.approx(calibration.mu ** 2 / 2, rel=1e-12)
        assert calibration.delta == delta
        assert calibration.epsilon == pytest.approx(accounting.gaussian_epsilon(gaussian_mu(release), delta), rel=1e-9)
        # that σ is the analytic Gaussian's at (ε, δ): its profile at ε is δ
        assert accounting.gaussian_delta(calibration.epsilon, sigma, l2_sensitivity(release)) == \
            pytest.approx(delta, rel=1e-6)
    else:
        assert calibration.epsilon == pytest.approx(pure_epsilon(release), rel=1e-9)
        assert calibration.scale == pytest.approx(l1_sensitivity(release) / calibration.epsilon, rel=1e-9)
        assert calibration.rho == pytest.approx(calibration.epsilon ** 2 / 2, rel=1e-12)
        assert calibration.delta == 0.0


def test_calibrate_known_values_of_the_worked_example():
    assert calibrate(COUNT).epsilon == pytest.approx(math.log(20) / 10, rel=1e-12)
    assert round(calibrate(COUNT).epsilon, 4) == 0.2996
    assert calibrate(MEAN).epsilon == pytest.approx(0.12 * math.log(20), rel=1e-12)
    assert MEAN.sensitivity == pytest.approx(0.12)
    plan = plan_for(WORKED_EXAMPLE)
    assert [total.method for total in plan.totals] == ["basic"]
    assert plan.best.epsilon == pytest.approx(math.log(20) / 10 + 0.12 * math.log(20), rel=1e-12)  # 0.22 ln 20
    assert round(plan.best.epsilon, 4) == 0.6591 and plan.best.delta == 0.0


def test_histogram_uses_l1_two_l2_root_two_and_the_per_bin_confidence():
    histogram = Release("histogram", 4.0, 0.9, bins=16)
    assert histogram.sensitivity == 2.0 and histogram.l2_sensitivity == pytest.approx(math.sqrt(2))
    assert histogram.per_value_confidence == pytest.approx(0.9 ** (1 / 16))
    assert calibrate(histogram).epsilon == pytest.approx(2 * math.log(1 / (1 - 0.9 ** (1 / 16))) / 4.0, rel=1e-9)
    gaussian = dataclasses.replace(histogram, mechanism="gaussian")
    assert calibrate(gaussian, 1e-6).scale == pytest.approx(4.0 / stats.norm.ppf((1 + 0.9 ** (1 / 16)) / 2), rel=1e-9)
    one_bin = Release("histogram", 4.0, 0.9, bins=1)  # one bin: a count of sensitivity 2
    assert calibrate(one_bin).epsilon == pytest.approx(2 * calibrate(Release("count", 4.0, 0.9)).epsilon, rel=1e-12)


@pytest.mark.parametrize("release, delta", RELEASES, ids=IDS)
def test_at_epsilon_is_the_inverse_of_calibrate(release, delta):
    calibration = calibrate(release, delta)
    back = at_epsilon(release, calibration.epsilon, delta)
    assert back.error == pytest.approx(release.error, rel=1e-9)
    assert back.scale == pytest.approx(calibration.scale, rel=1e-9)
    for factor in (0.3, 1.7, 4.0):  # and the other way round: the target reached at ε costs ε
        reached = at_epsilon(release, calibration.epsilon * factor, delta)
        again = calibrate(dataclasses.replace(release, error=reached.error), delta)
        assert again.epsilon == pytest.approx(calibration.epsilon * factor, rel=1e-9)
        if release.mechanism == "laplace":  # error ∝ 1/ε
            assert reached.error == pytest.approx(release.error / factor, rel=1e-12)


# ----------------------------------------------------------------------------------------------------- coverage
COVERED = RELEASES + [(Release("count", 2.0, 0.5), 0.0), (Release("histogram", 3.0, 0.7, "gaussian", bins=100), 1e-3)]
COVERED_IDS = IDS + ["count-c50", "histogram-100-gaussian"]


@pytest.mark.parametrize("seed", [0, 7])
@pytest.mark.parametrize("release, delta", COVERED, ids=COVERED_IDS)
def test_simulated_coverage_meets_the_confidence(release, delta, seed):
    calibration = calibrate(release, delta)
    share = coverage(calibration, trials=10_000, seed=seed)
    standard_error = math.sqrt(release.confidence * (1 - release.confidence) / 10_000)
    if release.kind == "quantile":  # a bound: at least c
        assert share >= release.confidence - 4 * standard_error
    else:  # an exact law
        assert abs(share - release.confidence) <= 4 * standard_error
    assert coverage(calibration, trials=10_000, seed=seed) == share


@pytest.mark.parametrize("release, delta", [(COUNT, 0.0), (Release("mean", 2.0, 0.8, "gaussian", upper=50.0, n=100),
                                                           1e-6), (Release("histogram", 5.0, 0.9, bins=4), 0.0)],
                         ids=["count", "mean-gaussian", "histogram"])
def test_coverage_at_a_given_epsilon_meets_the_confidence(release, delta):
    """at_epsilon's error is reached with the release's confidence too (the same law, solved for t)."""
    reached = at_epsilon(release, 0.37, delta)
    share = coverage(reached, trials=10_000, seed=3)
    assert abs(share - release.confidence) <= 4 * math.sqrt(release.confidence * (1 - release.confidence) / 10_000)


def test_coverage_depends_on_the_seed_only_through_the_draws():
    calibration = calibrate(COUNT)
    shares = [coverage(calibration, trials=2_000, seed=seed) for seed in range(6)]
    assert len(set(shares)) > 1  # the seed moves the draws
    assert shares == [coverage(calibration, trials=2_000, seed=seed) for seed in range(6)]


def test_a_target_too_tight_for_its_epsilon_is_missed_in_simulation():
    """The share is a real measurement: the count's noise at half the ε misses ±10 far more often."""
    half = dataclasses.replace(calibrate(COUNT), scale=calibrate(COUNT).scale * 2)
    assert coverage(half, trials=10_000, seed=0) == pytest.approx(1 - math.sqrt(0.05), abs=0.02)  # 1 − e^{−t/2b}


# ------------------------------------------------------------------------------------------------------- totals
PLANS = {
    "worked": (WORKED_EXAMPLE, 0.0),
    "worked-delta": (WORKED_EXAMPLE, 1e-6),
    "gaussians": ((Release("count", 10.0, mechanism="gaussian"), Release("mean", 1.0, mechanism="gaussian",
                                                                         upper=120.0),
                   Release("histogram", 20.0, mechanism="gaussian")), 1e-6),
    "mixed": ((Release("count", 10.0, mechanism="gaussian"), Release("histogram", 5.0, bins=20),
               Release("quantile", 50.0)), 1e-6),
    "two-counts": ((Release("count", 3.0), Release("count", 3.0, mechanism="gaussian")), 1e-5),
    "laplace": ((Release("count", 5.0),), 1e-3),
    "quantiles": ((Release("quantile", 20.0, grid=50, n=100),) * 3, 1e-6),
    "histogram": ((Release("histogram", 2.0, bins=5),), 0.0),
    "one-gaussian": ((Release("count", 4.0, 0.9, "gaussian"),), 1e-8),
    "one-quantile": ((Release("quantile", 20.0, grid=50, n=100),), 0.0),
}


@pytest.mark.parametrize("name", PLANS)
def test_totals_are_the_composition_theorems(name):
    releases, delta = PLANS[name]
    plan = plan_for(releases, delta)
    share = gaussian_share(releases, delta)
    totals = {total.method: total for total in plan.totals}
    basic = totals["basic"]
    assert basic.epsilon == pytest.approx(sum(target_epsilon(r, share) for r in releases), rel=1e-9)
    assert basic.delta == pytest.approx(share * sum(r.mechanism == "gaussian" for r in releases), rel=1e-12)
    assert plan.best == min(plan.totals, key=lambda total: total.epsilon)
    assert plan.best.epsilon == min(total.epsilon for total in plan.totals)
    assert [item.error for item in plan.items] == [release.error for release in releases]
    if delta == 0:
        assert list(totals) == ["basic"]
        return
    assert list(totals) == ["basic", "zcdp", "numerical"]
    rho = sum(target_rho(release) for release in releases)
    assert totals["zcdp"].epsilon == pytest.approx(accounting.zcdp_to_approx_optimal(rho, delta), rel=1e-9)
    assert totals["zcdp"].delta == totals["numerical"].delta == delta
    # the numerical composition is at most the exact ε + kh, and the exact ε at most the basic sum at Σδ_i ≤ δ
    assert 0 <= totals["numerical"].epsilon <= basic.epsilon + grid_bound(plan.items) + 1e-9


@pytest.mark.parametrize("name", ["gaussians", "one-gaussian"])
def test_numerical_total_of_gaussians_is_gaussian_dp(name):
    releases, delta = PLANS[name]
    plan = plan_for(releases, delta)
    exact = accounting.gaussian_epsilon(math.sqrt(sum(gaussian_mu(r) ** 2 for r in releases)), delta)
    numerical = plan.totals[2].epsilon
    assert exact - 1e-9 <= numerical <= exact + min(1e-2, grid_bound(plan.items))
    if len(releases) == 1:  # one release: its own ε at δ is exact, the basic total (numerical ties it within h)
        assert plan.best.method == "basic" and plan.best.epsilon == pytest.approx(exact, rel=1e-9)
    else:  # several: Gaussian DP beats adding up the ε_i
        assert plan.best.method == "numerical" and plan.totals[0].epsilon > numerical + 0.1


def test_numerical_total_of_one_laplace_release_is_its_exact_profile():
    """One Laplace release of ε0 at δ: exactly ε0 + 2 ln(1 − δ) (accounting.laplace_delta's root), up to one step."""
    releases, delta = PLANS["laplace"]
    epsilon0 = math.log(20) / 5.0
    numerical = plan_for(releases, delta).totals[2].epsilon
    assert epsilon0 + 2 * math.log(1 - delta) - 1e-9 <= numerical <= epsilon0 + 2 * math.log(1 - delta) + 1e-4 + 1e-9


def test_gaussian_releases_share_the_plan_delta_equally():
    releases, delta = PLANS["gaussians"]
    plan = plan_for(releases, delta)
    assert [item.delta for item in plan.items] == pytest.approx([delta / 3] * 3, rel=1e-12)
    assert plan.totals[0].delta == pytest.approx(delta, rel=1e-12)


# --------------------------------------------------------------------------------------------------- allocation
def release_strategy(pure_only: bool = False):
    kinds = st.sampled_from(["count", "mean", "histogram", "quantile"])
    mechanisms = st.just("laplace") if pure_only else st.sampled_from(["laplace", "gaussian"])

    def build(kind, mechanism, error, confidence, bins):
        if kind == "quantile":
            return Release("quantile", error * 10, confidence, grid=200, n=1000)
        if kind == "mean":
            return Release("mean", error / 10, confidence, mechanism, upper=100.0, n=500)
        return Release(kind, error, confidence, mechanism, bins=bins)
    return st.builds(build, kinds, mechanisms, st.floats(1.0, 30.0), st.floats(0.6, 0.99), st.integers(1, 30))


@SLOW
@given(releases=st.lists(release_strategy(), min_size=1, max_size=3), budget=st.floats(0.2, 5.0),
       delta=st.sampled_from([1e-7, 1e-5]))
def test_split_budget_never_exceeds_the_budget_and_equalises_the_ratios(releases, budget, delta):
    plan = split_budget(releases, budget, delta)
    assert plan.best.epsilon <= budget
    # and spends it: up to the root's tolerance, or a step of the numerical total (its losses move by grid points)
    assert plan.best.epsilon >= budget * (1 - 1e-5) - (grid_bound(plan.items) if delta else 0.0)
    ratios = [item.error / item.release.error for item in plan.items]
    assert ratios == pytest.approx([ratios[0]] * len(ratios), rel=1e-9)
    assert plan.worst_ratio == pytest.approx(max(ratios), rel=1e-12)
    assert all(item.delta == (gaussian_share(releases, delta) if item.gaussian else 0.0) for item in plan.items)


PURE_PLANS = {
    "worked": (WORKED_EXAMPLE, 1.0),
    "three": ((Release("count", 5.0, 0.9), Release("histogram", 10.0, bins=8), Release("quantile", 40.0, grid=200)),
              2.0),
    "one": ((MEAN,), 0.25),
}


@pytest.mark.parametrize("name", PURE_PLANS)
def test_split_budget_of_a_pure_plan_is_the_closed_form(name):
    releases, budget = PURE_PLANS[name]
    plan = split_budget(releases, budget)
    assert plan.worst_ratio == pytest.approx(sum(pure_epsilon(r) for r in releases) / budget, rel=1e-6)
    assert plan.totals[0].epsilon <= budget
    assert plan.totals[0].epsilon == pytest.approx(budget, rel=1e-6)
    for item in plan.items:  # each at its share ε_i* / w
        assert item.epsilon == pytest.approx(pure_epsilon(item.release) / plan.worst_ratio, rel=1e-6)


def test_split_budget_worked_example_errors():
    plan = split_budget(WORKED_EXAMPLE, 1.0)
    assert [round(item.error, 3) for item in plan.items] == [6.591, 0.659]


@pytest.mark.parametrize("releases, budget", [
    ((COUNT, Release("quantile", 30.0, grid=100, n=1000)), 1.5),
    ((Release("count", 5.0), Release("mean", 0.5, upper=50.0, n=500), Release("histogram", 10.0, bins=5)), 1.0),
], ids=["two", "three"])
def test_split_budget_beats_every_split_on_a_grid(releases, budget):
    """Brute force: every split of the budget (ε_i > 0 summing to it) on a grid; each release's error ratio at ε_i is
    ε_i*/ε_i (error ∝ 1/ε). No grid split has a smaller worst ratio, and the best comes close."""
    plan = split_budget(releases, budget)
    needed = np.array([pure_epsilon(release) for release in releases])
    u = np.linspace(1e-3, 1 - 1e-3, 4001 if len(releases) == 2 else 401)
    if len(releases) == 2:
        splits = np.stack([u, 1 - u], axis=1)
    else:
        a, b = np.meshgrid(u, u)
        keep = a + b < 1
        splits = np.stack([a[keep], b[keep], 1 - a[keep] - b[keep]], axis=1)
    worst = np.max(needed / (splits * budget), axis=1)
    assert worst.min() >= plan.worst_ratio - 1e-9
    assert worst.min() <= plan.worst_ratio * (1 + 1e-2)
    # the ratio law used, checked on the library's own accuracies at one split
    for release, share in zip(releases, splits[len(splits) // 2]):
        assert at_epsilon(release, share * budget).error / release.error == \
            pytest.approx(pure_epsilon(release) / (share * budget), rel=1e-12)


@pytest.mark.parametrize("releases, budget, delta", [
    ((Release("count", 10.0, mechanism="gaussian"), MEAN), 1.0, 1e-6),
    ((Release("count", 10.0, mechanism="gaussian"), Release("histogram", 20.0, mechanism="gaussian"),
      Release("quantile", 50.0)), 2.0, 1e-6),
], ids=["gaussian-and-laplace", "three"])
def test_split_budget_with_a_gaussian_release_is_at_most_the_zcdp_closed_form(releases, budget, delta):
    """The zCDP split: w = √(ρ(E, δ) / (Σε_i*²/2 + Σρ_j*)); the numerical total may only improve on it."""
    plan = split_budget(releases, budget, delta)
    spent = sum(target_rho(release) for release in releases)
    closed = math.sqrt(spent / zcdp_budget(budget, delta))
    assert plan.worst_ratio <= closed * (1 + 1e-9)
    assert plan.best.epsilon <= budget
    ratios = [item.error / item.release.error for item in plan.items]
    assert ratios == pytest.approx([ratios[0]] * len(ratios), rel=1e-9)


def test_split_budget_of_gaussians_is_the_gaussian_dp_optimum():
    """All Gaussian: the best total is Gaussian DP's ε of √(Σμ_j²) (numerical, within kh), μ_j = μ_j*/ratio, so the
    ratio is √(Σμ_j*²)/μ(E) with μ(E) the largest μ whose ε at δ is E, up to the numerical total's grid."""
    releases, delta, budget = PLANS["gaussians"][0], 1e-6, 1.0
    plan = split_budget(releases, budget, delta)
    needed = math.sqrt(sum(gaussian_mu(release) ** 2 for release in releases))
    optimum = needed / accounting.gaussian_mu(budget, delta)
    assert plan.worst_ratio >= optimum * (1 - 1e-9)  # no split beats the exact accounting
    assert plan.worst_ratio <= optimum * 1.01


# ---------------------------------------------------------------------------------------------- attacker risk
@pytest.mark.parametrize("name", ["gaussians", "one-gaussian"])
def test_attacker_of_gaussian_plans_is_exactly_gaussian_dp(name):
    releases, delta = PLANS[name]
    risk = attacker_risk(plan_for(releases, delta))
    mu = math.sqrt(sum(gaussian_mu(release) ** 2 for release in releases))
    assert risk.exact
    np.testing.assert_allclose(risk.tpr, 1 - accounting.gaussian_tradeoff(risk.fpr, mu), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(risk.tpr, stats.norm.sf(stats.norm.isf(risk.fpr) - mu), rtol=1e-9, atol=1e-12)
    assert risk.advantage == pytest.approx(2 * stats.norm.cdf(mu / 2) - 1, rel=1e-9)
    assert risk.tpr_1 == pytest.approx(stats.norm.sf(stats.norm.isf(0.01) - mu), rel=1e-9)
    assert risk.tpr_5 == pytest.approx(stats.norm.sf(stats.norm.isf(0.05) - mu), rel=1e-9)
    prior = 0.01
    expected = prior * risk.tpr_1 / (prior * risk.tpr_1 + (1 - prior) * 0.01)
    assert posterior(risk, prior) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("name", ["worked", "worked-delta", "mixed", "two-counts", "laplace", "quantiles", "histogram",
                                  "one-quantile"])
def test_attacker_of_other_plans_is_bounded_by_the_best_total(name):
    releases, delta = PLANS[name]
    plan = plan_for(releases, delta)
    risk = attacker_risk(plan)
    assert not risk.exact
    assert (risk.epsilon, risk.delta) == (plan.best.epsilon, plan.best.delta)
    bound = 1 - accounting.dp_tradeoff(risk.fpr, plan.best.epsilon, plan.best.delta)
    assert np.all(risk.tpr <= bound + 1e-9)  # never beyond what the stated (ε, δ) allows
    assert np.all(risk.tpr >= risk.fpr)
    assert np.all(risk.tpr <= 1)
    assert np.all(np.diff(risk.tpr) >= 0)
    assert np.all(np.diff(risk.fpr) > 0) and {0.01, 0.05} <= set(risk.fpr)
    assert risk.advantage >= np.max(risk.tpr - risk.fpr) - 1e-9
    # nor an advantage beyond (ε, δ)'s: max_α 1 − f_{ε,δ}(α) − α = δ + (1 − δ)(e^ε − 1)/(e^ε + 1),
    # at α = (1 − δ)/(e^ε + 1)
    epsilon, delta = plan.best.epsilon, plan.best.delta
    largest = delta + (1 - delta) * math.expm1(epsilon) / (math.exp(epsilon) + 1)
    alpha = np.linspace(0, 1, 100_001)
    assert np.max(1 - accounting.dp_tradeoff(alpha, epsilon, delta) - alpha) == pytest.approx(largest, abs=1e-4)
    assert risk.advantage <= largest + 1e-9
    assert risk.tpr_1 == risk.tpr[list(risk.fpr).index(0.01)]


@pytest.mark.parametrize("error", [10.0, 1.0, 0.3])
def test_attacker_of_one_laplace_release_is_the_laplace_tradeoff(error):
    """1 − accounting.laplace_tradeoff(α, ε) is that release's exact attacker curve; the profile-based one is an upper
    bound within the grid's slack (h = 1e-4 in the loss, 801 values of ε for the envelope)."""
    plan = plan_for([Release("count", error)])
    epsilon = math.log(20) / error
    risk = attacker_risk(plan)
    exact = 1 - accounting.laplace_tradeoff(risk.fpr, epsilon)
    assert np.all(risk.tpr >= exact - 1e-12)
    assert np.all(risk.tpr <= exact + 1e-4)
    assert risk.advantage == pytest.approx(accounting.laplace_delta(0.0, scale=1 / epsilon), abs=1e-4)


@pytest.mark.parametrize("name", ["worked", "quantiles", "histogram", "one-quantile"])
@pytest.mark.parametrize("prior", [0.01, 0.2])
def test_posterior_of_a_pure_plan_is_at_most_the_classic_bound(name, prior):
    releases, _ = PLANS[name]
    plan = plan_for(releases)
    risk = attacker_risk(plan)
    odds = math.exp(plan.best.epsilon)
    for fpr in (0.01, 0.05):
        value = posterior(risk, prior, fpr)
        assert prior <= value <= prior * odds / (1 - prior + prior * odds) + 1e-6


def test_posterior_of_the_worked_example():
    assert round(posterior(_RISK), 4) == 0.0192
    assert round(_RISK.tpr_1, 4) == 0.0193 and round(_RISK.advantage, 4) == 0.173


def test_roc_reads_the_attacker_curve():
    assert roc(_PLAN, 0.05) == pytest.approx([_RISK.tpr_5], rel=1e-12)
    np.testing.assert_allclose(roc(_PLAN, [0.01, 0.05, 0.3]), np.interp([0.01, 0.05, 0.3], FPR, _RISK.tpr), rtol=1e-12)


# ------------------------------------------------------------------------------------------------ plans as text
def text_release():
    errors, confidences = st.floats(1e-6, 1e9, allow_subnormal=False), st.floats(0.5, 1.0, exclude_max=True)
    mechanisms = st.sampled_from(["laplace", "gaussian"])
    lows, spans = st.floats(-1e6, 1e6, allow_subnormal=False), st.floats(1e-3, 1e6, allow_subnormal=False)
    people = st.integers(1, 10**9)
    count = st.builds(lambda t, c, m: Release("count", t, c, m), errors, confidences, mechanisms)
    mean = st.builds(lambda t, c, m, lo, span, n: Release("mean", t, c, m, lower=lo, upper=lo + span, n=n),
                     errors, confidences, mechanisms, lows, spans, people)
    histogram = st.builds(lambda t, c, m, b: Release("histogram", t, c, m, bins=b), errors, confidences, mechanisms,
                          st.integers(1, 100))
    quantile = st.builds(lambda share, c, lo, span, n, g: Release("quantile", share * n, c, lower=lo, upper=lo + span,
                                                                  n=n, grid=g),
                         st.floats(1e-3, 1.0), confidences, lows, spans, people, st.integers(2, 10**6))
    return st.one_of(count, mean, histogram, quantile)


@TEXT
@given(releases=st.lists(text_release(), min_size=1, max_size=MAX_RELEASES))
def test_plan_text_round_trips(releases):
    text = plan_text(releases)
    assert parse_plan(text) == tuple(releases)
    assert plan_text(parse_plan(text)) == text


def test_plan_text_known_values():
    assert plan_text(WORKED_EXAMPLE) == "count:t=10;mean:t=1,hi=120"
    assert parse_plan("count:t=10;mean:t=1,hi=120") == WORKED_EXAMPLE
    assert plan_text([Release("count", 10.0, mechanism="gaussian")]) == "count:t=10,m=g"
    assert parse_plan("histogram:t=5,c=0.9,m=g,bins=20") == (Release("histogram", 5.0, 0.9, "gaussian", bins=20),)
    assert parse_plan("quantile:t=50,lo=0,hi=120,n=1000,grid=500") == (
        Release("quantile", 50.0, lower=0.0, upper=120.0, n=1000, grid=500),)


@pytest.mark.parametrize("text, says", [
    ("", "text must be"), ("count", "needs its target t"), ("count:t=-1", "error must be"),
    ("count:x=1", "'x'"), ("count:t=1,t=2", "'t' twice"), ("quantile:t=5,m=g", "'m'"),
    (";".join(["count:t=1"] * 9), "at most 8"), ("mean:t=1,lo=5,hi=1", "upper must be greater"),
    ("x" * 300, "text must be"), ("count:t=1;" * 40, "text must be"), ("count:t=" + "9" * 40, "text must be"),
    ("count:t=abc", "t must be a number"), ("count:t=nan", "error must be"), ("count:t=1e999", "error must be"),
    ("count:t=1,c=1", "confidence must be"), ("count:t=1,m=x", "mechanism must be"),
    ("histogram:t=1,bins=2.5", "bins must be"), ("histogram:t=1,bins=101", "bins must be"),
    ("quantile:t=2000,n=1000", "at most n=1000"), ("cauchy:t=1", "'t'"), ("count:t=1,lo=0", "'lo'"),
    ("COUNT:t=1", "text must be"), ("count:t=1 ; mean:t=2", "text must be"), ("count:t=1,", "text must be"),
])
def test_parse_plan_rejects_bad_text_with_a_readable_message(text, says):
    with pytest.raises(InvalidParameterError) as caught:
        parse_plan(text)
    message = str(caught.value)
    assert says in message[:200]  # what is wrong comes first (the bad text is quoted after it)
    assert "Traceback" not in message


# -------------------------------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("fields, name", [
    (dict(kind="sum", error=1.0), "kind"), (dict(kind="count", error=0.0), "error"),
    (dict(kind="count", error=math.nan), "error"), (dict(kind="count", error=1.0, confidence=0.4), "confidence"),
    (dict(kind="count", error=1.0, confidence=1.0), "confidence"),
    (dict(kind="count", error=1.0, mechanism="cauchy"), "mechanism"),
    (dict(kind="quantile", error=1.0, mechanism="gaussian"), "mechanism"),
    (dict(kind="mean", error=1.0, lower=2.0, upper=2.0), "upper"), (dict(kind="count", error=1.0, n=0), "n"),
    (dict(kind="histogram", error=1.0, bins=0), "bins"), (dict(kind="quantile", error=1.0, grid=1), "grid"),
    (dict(kind="quantile", error=11.0, n=10), "error"), (dict(kind="mean", error=1.0, lower=math.inf), "lower"),
])
def test_release_rejects_bad_fields_naming_them(fields, name):
    with pytest.raises(InvalidParameterError, match=name):
        Release(**fields)


@pytest.mark.parametrize("call, name", [
    (lambda: calibrate("count"), "release"), (lambda: calibrate(COUNT, 1.0), "delta"),
    (lambda: calibrate(Release("count", 1.0, mechanism="gaussian")), "delta"),
    (lambda: at_epsilon(COUNT, 0.0), "epsilon"), (lambda: at_epsilon(COUNT, math.inf), "epsilon"),
    (lambda: at_epsilon(Release("count", 1.0, mechanism="gaussian"), 1.0), "delta"),
    (lambda: coverage(calibrate(COUNT), trials=0), "trials"), (lambda: coverage(calibrate(COUNT), seed=-1), "seed"),
    (lambda: coverage(COUNT), "calibration"), (lambda: plan_for([]), "releases"),
    (lambda: plan_for([COUNT] * (MAX_RELEASES + 1)), "releases"), (lambda: plan_for([COUNT, "mean"]), "releases"),
    (lambda: plan_for([Release("count", 1.0, mechanism="gaussian")]), "delta"),
    (lambda: plan_for(WORKED_EXAMPLE, -1e-6), "delta"), (lambda: split_budget(WORKED_EXAMPLE, 0.0), "epsilon"),
    (lambda: split_budget([Release("count", 1.0, mechanism="gaussian")], 1.0), "delta"),
    (lambda: split_budget("count:t=1", 1.0), "releases"), (lambda: attacker_risk(_RISK), "plan"),
    (lambda: posterior(_RISK, 0.0), "prior"), (lambda: posterior(_RISK, 1.0), "prior"),
    (lambda: posterior(_RISK, 0.01, 0.02), "fpr"), (lambda: roc(_PLAN, 0.0), "fpr"), (lambda: roc(_PLAN, 1.5), "fpr"),
    (lambda: parse_plan(None), "text"), (lambda: plan_text(None), "releases"),
])
def test_bad_input_is_rejected_naming_the_parameter(call, name):
    with pytest.raises(InvalidParameterError, match=name):
        call()

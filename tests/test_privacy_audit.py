"""Statistical privacy audits of every mechanism: correct ones pass, deliberately broken ones are caught.

Each case runs a mechanism 10^6 times (vectorised) on two neighbouring inputs, counts events, and
computes a 95 %-confidence empirical lower bound on epsilon (dpcore.audit). A correct mechanism's bound
stays at or below its claimed epsilon; a broken one's exceeds it. Run this file as a script to print the
table of measured bounds: ``python tests/test_privacy_audit.py``.
"""

import numpy as np
import pytest

from dpcore import audit, mechanisms

DRAWS = 10**6
EPSILON = 1.0
DELTA = 1e-5


def scalar_audit(draw, delta=0.0, thresholds=np.linspace(-15.0, 16.0, 125)):
    """Audit a scalar-output mechanism ``draw(query_value, rng) -> samples`` on neighbours with values 0 and 1."""
    on_x = draw(0.0, 1)
    on_neighbour = draw(1.0, 2)
    return audit.epsilon_lower_bound(audit.threshold_counts(on_x, thresholds),
                                     audit.threshold_counts(on_neighbour, thresholds), DRAWS, delta)


def laplace(noise_factor=1.0, sensitivity=1.0):
    return lambda value, seed: mechanisms.laplace(np.full(DRAWS, value), sensitivity, EPSILON / noise_factor, rng=seed)


def gaussian(sigma_factor=1.0, calibration="analytic", epsilon=EPSILON):
    sigma = sigma_factor * mechanisms.gaussian_sigma(1.0, epsilon, DELTA, calibration)
    return lambda value, seed: value + np.random.default_rng(seed).normal(0.0, sigma, DRAWS)


def gaussian_mechanism(calibration, epsilon):
    return lambda value, seed: mechanisms.gaussian(np.full(DRAWS, value), 1.0, epsilon, DELTA, rng=seed,
                                                   calibration=calibration)


# Scores on neighbouring datasets. Non-monotone: one candidate loses a point, all others gain one
# (worst case for the factor 2). Monotone: one candidate gains a vote (add/remove-one counts).
CANDIDATES = 100
NON_MONOTONE = (np.r_[1.0, np.zeros(CANDIDATES - 1)], np.r_[0.0, np.ones(CANDIDATES - 1)])
MONOTONE = (np.r_[1.0, np.zeros(CANDIDATES - 1)], np.zeros(CANDIDATES))


def selection_audit(select, neighbours):
    scores, scores_neighbour = neighbours
    return audit.epsilon_lower_bound(audit.outcome_counts(select(scores, 1), CANDIDATES),
                                     audit.outcome_counts(select(scores_neighbour, 2), CANDIDATES), DRAWS)


def exponential(monotonic):
    return lambda scores, seed: mechanisms.exponential(scores, EPSILON, monotonic=monotonic, rng=seed, size=DRAWS)


def noisy_max(monotonic, candidates=20):
    draws = DRAWS // 5
    def select(scores, seed):
        return mechanisms.report_noisy_max(scores[:candidates], EPSILON, monotonic=monotonic, rng=seed, size=draws)
    return select, draws, candidates


def histogram_audit(epsilon_used):
    """Neighbours move one point from bin 0 to bin 1; the joint event {y0 - y1 > t} sees both counts move."""
    data = np.zeros(10)
    neighbour = data.copy()
    neighbour[0] = 1.5
    edges = np.array([-1.0, 1.0, 2.0])
    on_x = mechanisms.laplace_histogram(np.broadcast_to(data, (DRAWS, 10)), edges, epsilon_used, rng=1)
    on_neighbour = mechanisms.laplace_histogram(np.broadcast_to(neighbour, (DRAWS, 10)), edges, epsilon_used, rng=2)
    thresholds = np.linspace(0.0, 20.0, 41)
    return audit.epsilon_lower_bound(audit.threshold_counts(on_x[:, 0] - on_x[:, 1], thresholds),
                                     audit.threshold_counts(on_neighbour[:, 0] - on_neighbour[:, 1], thresholds), DRAWS)


# name -> (audit, the fraction of the claimed epsilon the audit must see: its power). The classical
# Gaussian calibration is conservative at eps = 1 (sigma 4.84 where 3.73 suffices), so less is visible.
CORRECT = {
    "Laplace (eps=1)": (lambda: scalar_audit(laplace()), 0.9),
    "Gaussian analytic (1, 1e-5)": (lambda: scalar_audit(gaussian_mechanism("analytic", 1.0), DELTA), 0.4),
    "Gaussian classical (1, 1e-5)": (lambda: scalar_audit(gaussian_mechanism("classical", 1.0), DELTA), 0.25),
    "exponential, factor 2": (lambda: selection_audit(exponential(False), NON_MONOTONE), 0.85),
    "exponential, monotone scores": (lambda: selection_audit(exponential(True), MONOTONE), 0.85),
    "Laplace histogram (eps=1)": (lambda: histogram_audit(EPSILON), 0.7),
}
BROKEN = {
    "Laplace, noise halved": lambda: scalar_audit(laplace(noise_factor=0.5)),
    "Laplace, sensitivity ignored (claims 0.5)": lambda: scalar_audit(laplace(sensitivity=0.5)),
    "Gaussian, sigma halved": lambda: scalar_audit(gaussian(sigma_factor=0.5), DELTA),
    "exponential without factor 2": lambda: selection_audit(exponential(True), NON_MONOTONE),
    "Laplace histogram, noise halved": lambda: histogram_audit(2 * EPSILON),
}


@pytest.mark.parametrize("name", CORRECT)
def test_correct_mechanism_passes_the_audit(name):
    run, power = CORRECT[name]
    result = run()
    assert result.epsilon_lower_bound <= EPSILON
    assert result.epsilon_lower_bound > power * EPSILON  # the audit has power: it sees the claimed epsilon


@pytest.mark.parametrize("name", BROKEN)
def test_broken_mechanism_is_caught(name):
    assert BROKEN[name]().epsilon_lower_bound > 1.2 * EPSILON


@pytest.mark.parametrize("monotonic, neighbours, caught", [(False, NON_MONOTONE, False), (True, NON_MONOTONE, True)])
def test_report_noisy_max_audit(monotonic, neighbours, caught):
    select, draws, candidates = noisy_max(monotonic)
    scores, scores_neighbour = (s[:candidates] for s in neighbours)
    result = audit.epsilon_lower_bound(audit.outcome_counts(select(scores, 1), candidates),
                                       audit.outcome_counts(select(scores_neighbour, 2), candidates), draws)
    assert (result.epsilon_lower_bound > EPSILON) == caught


def test_audit_bound_is_zero_for_identical_distributions():
    same = scalar_audit(lambda value, seed: np.random.default_rng(seed).normal(0.0, 1.0, DRAWS))
    assert same.epsilon_lower_bound < 0.02


def test_clopper_pearson_known_interval():
    lower, upper = audit.clopper_pearson(np.array([5]), 10, 0.95)
    assert lower[0] == pytest.approx(0.187086, abs=1e-6)
    assert upper[0] == pytest.approx(0.812914, abs=1e-6)


if __name__ == "__main__":
    print(f"{'mechanism':55s} {'claimed eps':>11s} {'measured lower bound':>21s}")
    for name, (run, _) in CORRECT.items():
        print(f"{'correct: ' + name:55s} {EPSILON:11.2f} {run().epsilon_lower_bound:21.3f}")
    for name, run in BROKEN.items():
        print(f"{'broken: ' + name:55s} {EPSILON:11.2f} {run().epsilon_lower_bound:21.3f}")
    for monotonic in (False, True):
        select, draws, candidates = noisy_max(monotonic)
        scores, neighbour = (s[:candidates] for s in NON_MONOTONE)
        bound = audit.epsilon_lower_bound(audit.outcome_counts(select(scores, 1), candidates),
                                          audit.outcome_counts(select(neighbour, 2), candidates), draws)
        label = "broken: noisy max, Lap(1/eps)" if monotonic else "correct: noisy max, Lap(2/eps)"
        print(f"{label + ' on non-monotone scores':55s} {EPSILON:11.2f} {bound.epsilon_lower_bound:21.3f}")

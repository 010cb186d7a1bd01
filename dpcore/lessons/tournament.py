r"""Lesson "Tournament selection": the page's hypothesis grids and its item- and user-level selection sweeps.

The contests, scores and private selection are :mod:`dpcore.estimators.selection` (Scheffé tournaments; the
user-level scores of Ghazi et al. 2023); this module runs them over the page's grids.
"""

from __future__ import annotations

import functools
import math

from ..core.validation import Array, Integer, Real, validated
from ..estimators.selection import (
    GaussianFamily,
    gaussian_grid,
    minimum_distance,
    scheffe_scores,
    tournament_winner,
    user_scheffe_scores,
)
from ..experiments import SweepResult, run_sweep
from ..mechanisms import exponential

__all__ = ["PRIVATE", "TOURNAMENT", "MINIMUM_DISTANCE", "METHODS", "USER_CLIPPED", "GROUP", "ONE_PER_USER",
           "ITEM_LEVEL", "USER_METHODS", "SPACING", "spaced_grid", "selection_sweep", "user_level_sweep"]

_ALPHA = Real(0, 0.25, low_open=True)


PRIVATE = "private selection (EM)"



TOURNAMENT = "Scheffé tournament (non-private)"



MINIMUM_DISTANCE = "minimum distance (non-private)"



METHODS = (PRIVATE, TOURNAMENT, MINIMUM_DISTANCE)



USER_CLIPPED = "user-level, clipped (τ = √m)"



GROUP = "group privacy (Δ = m)"



ONE_PER_USER = "one example per user"



ITEM_LEVEL = "item-level on all n·m (weaker)"



USER_METHODS = (USER_CLIPPED, GROUP, ONE_PER_USER, ITEM_LEVEL)



SPACING = 0.1



@validated(k=Integer(low=2, high=2001))
@functools.lru_cache(maxsize=32)
def spaced_grid(k: int) -> GaussianFamily:
    """k unit-variance Gaussians with means 0.1 apart, centred on 0: more hypotheses, same OPT for a truth inside.
    Cached: a family is immutable and its Scheffé quantities are computed once."""
    half = SPACING * (k - 1) / 2
    return gaussian_grid(k, -half, half)



def _cached_scores(data, key, compute):
    """Scores depend on the data and the family, not on ε: computed once per dataset (the data tuple's cache)."""
    cache = data[1]
    if key not in cache:
        cache[key] = compute()
    return cache[key]



def _selection_estimator(method: str, alpha: float, truth):
    distances = {}
    def errors(data, params, rng):
        x = data[0]
        family = spaced_grid(params["k"])
        if family.size not in distances:
            distances[family.size] = family.tv_from(truth)
        if method == PRIVATE:
            scores = _cached_scores(data, ("item", family.size), lambda: scheffe_scores(family, x, alpha))
            chosen = exponential(scores, params["epsilon"], 1.0, rng=rng)
        elif method == TOURNAMENT:
            chosen = _cached_scores(data, ("tournament", family.size), lambda: tournament_winner(family, x))
        else:
            chosen = _cached_scores(data, ("distance", family.size), lambda: minimum_distance(family, x))
        return distances[family.size][chosen]
    return errors



@validated(n_values=Array(ndim=(1,), low=2, min_size=1), ks=Array(ndim=(1,), low=21, high=2001, min_size=1),
           epsilons=Array(ndim=(1,), low=0, low_open=True, min_size=1), trials=Integer(low=1), seed=Integer(low=0),
           alpha=_ALPHA, truth_mean=Real(low=-0.5, high=0.5))
def selection_sweep(n_values, ks, epsilons, trials: int, seed: int, alpha: float = 0.05,
                    truth_mean: float = 0.33) -> SweepResult:
    r"""TV error :math:`d_{TV}(P, \hat H)` of the private selection and the two non-private tournaments over n × k × ε.

    Hypotheses: :func:`spaced_grid` (k unit Gaussians 0.1 apart around 0), so adding hypotheses adds far-away
    candidates while OPT stays :math:`2\Phi(0.015) - 1 \approx 0.012` for the default truth :math:`\mathcal N(0.33, 1)`.
    k >= 21: in a smaller grid (span <= 1) the central member is within :math:`\kappa = 4\alpha` of every other, ties
    all its contests, gets the cap score n and wins whatever the data. Data :math:`\mathcal N(\mu, 1)`, shared by
    every k, ε and method (common random numbers); scores are computed once per dataset and k.

    Returns
    -------
    SweepResult
        Axes ``("n", "k", "epsilon")``, methods :data:`METHODS`.
    """
    truth = (truth_mean, 1.0)
    def sample(params, count, rng):
        return rng.normal(truth_mean, 1.0, (count, params["n"])), {}
    grid = {"n": [int(n) for n in n_values], "k": [int(k) for k in ks], "epsilon": [float(e) for e in epsilons]}
    return run_sweep(sample, {m: _selection_estimator(m, alpha, truth) for m in METHODS}, grid,
                     data_parameters=("n",), trials=trials, seed=seed)



def _user_estimator(method: str, alpha: float, truth, hypotheses: int):
    family = spaced_grid(hypotheses)
    distance = family.tv_from(truth)
    def errors(data, params, rng):
        x, m = data[0], params["m"]
        if method in (USER_CLIPPED, GROUP):
            tau = math.sqrt(m) if method == USER_CLIPPED else math.inf
            scores, sensitivity = _cached_scores(data, method, lambda: user_scheffe_scores(family, x, alpha, tau))
        else:
            items = x[..., 0] if method == ONE_PER_USER else x.reshape(x.shape[0], -1)
            scores, sensitivity = _cached_scores(data, method, lambda: (scheffe_scores(family, items, alpha), 1.0))
        return distance[exponential(scores, params["epsilon"], sensitivity, rng=rng)]
    return errors



@validated(user_counts=Array(ndim=(1,), low=2, min_size=1), per_user=Array(ndim=(1,), low=1, min_size=1),
           epsilons=Array(ndim=(1,), low=0, low_open=True, min_size=1), trials=Integer(low=1), seed=Integer(low=0),
           alpha=_ALPHA, hypotheses=Integer(low=21, high=401), truth_mean=Real(low=-0.5, high=0.5))
def user_level_sweep(user_counts, per_user, epsilons, trials: int, seed: int, alpha: float = 0.05,
                     hypotheses: int = 41, truth_mean: float = 0.33) -> SweepResult:
    r"""TV error of user-level selection over users n × examples per user m × ε (algorithms.md §4.3).

    Methods: clipped user-level scores with :math:`\tau = \sqrt m` (:math:`\Delta_u = \min(m, 2\sqrt m)`), group privacy
    (:math:`\tau = \infty`, :math:`\Delta = m`), item-level selection on one example per user (user-level ε-DP), and
    item-level selection on all :math:`nm` examples (only item-level ε-DP: the weaker guarantee, for contrast).
    Hypotheses: :func:`spaced_grid` (``hypotheses`` unit Gaussians 0.1 apart; 41 = [−2, 2]); truth
    :math:`\mathcal N(0.33, 1)`.

    Returns
    -------
    SweepResult
        Axes ``("n", "m", "epsilon")``, methods :data:`USER_METHODS`.
    """
    truth = (truth_mean, 1.0)
    def sample(params, count, rng):
        return rng.normal(truth_mean, 1.0, (count, params["n"], params["m"])), {}
    grid = {"n": [int(n) for n in user_counts], "m": [int(m) for m in per_user],
            "epsilon": [float(e) for e in epsilons]}
    return run_sweep(sample, {m: _user_estimator(m, alpha, truth, hypotheses) for m in USER_METHODS}, grid,
                     data_parameters=("n", "m"), trials=trials, seed=seed)


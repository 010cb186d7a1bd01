"""Lesson "Exponential mechanism": the page's sweeps (private median error, selection loss, user-level thresholds).

The mechanisms live in :mod:`dpcore.mechanisms` (exponential, report-noisy-max, permute-and-flip, quantile) and the
user-level scores in :mod:`dpcore.estimators.user_level`; this module runs them over the page's grids.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

from .. import mechanisms
from ..core.validation import Array, Choice, Integer, Real, validated
from ..estimators.user_level import THRESHOLD, select_threshold, threshold_data
from ..experiments import SweepResult, run_sweep
from ..mechanisms import permute_and_flip, private_quantile

__all__ = ["quantile_error_sweep", "SELECTION_METHODS", "selection_loss_sweep", "USER_SWEEP_METHODS",
           "user_level_sweep", "ITERATIVE_DEFAULTS", "ITERATIVE_DEFAULT_ERROR"]

_POSITIVE = Real(low=0, low_open=True)
_LOCATION, _SCALE = 0.3, 0.1  # the private-median data: N(0.3, 0.1^2) clipped to [0, 1]


@validated(n_values=Array(ndim=(1,), low=1), epsilons=Array(ndim=(1,), low=0, low_open=True),
           trials=Integer(low=1, high=100_000), seed=Integer(low=0), q=Real(0, 1), lower=Real(), upper=Real())
def quantile_error_sweep(n_values, epsilons, trials: int, seed: int, q: float = 0.5, lower: float = 0.0,
                         upper: float = 1.0) -> SweepResult:
    r"""|error| of :func:`private_quantile` and of the sample quantile over :math:`n \times \varepsilon`.

    Data :math:`\mathcal N(0.3, 0.1^2)` clipped to :math:`[0, 1]`; the target is the population
    :math:`q`-quantile of that law, ``clip(norm.ppf(q, 0.3, 0.1), 0, 1)``. Runs
    :func:`dpcore.experiments.run_sweep` with data axis ``n`` (common random numbers across
    :math:`\varepsilon` and methods). Each private release is :math:`\varepsilon`-DP (replace-one) with public
    range ``[lower, upper]``.

    Returns
    -------
    SweepResult
        Axes ``("n", "epsilon")``; methods ``"exponential mechanism"``, ``"non-private"``.
    """
    if not upper > lower:
        raise ValueError(f"upper must be greater than lower={lower:g}; got {upper!r}")
    target = float(np.clip(stats.norm.ppf(q, _LOCATION, _SCALE), 0.0, 1.0))

    def sample(params: dict, count: int, rng: np.random.Generator) -> np.ndarray:
        return np.clip(rng.normal(_LOCATION, _SCALE, (count, params["n"])), 0.0, 1.0)

    estimators = {
        "exponential mechanism": lambda x, p, rng: np.abs(private_quantile(x, q, p["epsilon"], lower, upper, rng)
                                                          - target),
        "non-private": lambda x, p, rng: np.abs(np.quantile(x, q, axis=1) - target),
    }
    grid = {"n": [int(n) for n in n_values], "epsilon": [float(e) for e in epsilons]}
    return run_sweep(sample, estimators, grid, data_parameters=("n",), trials=trials, seed=seed)



SELECTION_METHODS = ("exponential mechanism", "report noisy max", "permute-and-flip")



@validated(candidate_counts=Array(ndim=(1,), low=1), epsilons=Array(ndim=(1,), low=0, low_open=True),
           draws=Integer(low=1, high=100_000), seed=Integer(low=0), design=Choice(("random", "one good", "adversarial")),
           gap=_POSITIVE)
def selection_loss_sweep(candidate_counts, epsilons, draws: int, seed: int, design: str = "random",
                         gap: float = 50.0) -> SweepResult:
    r"""Score loss :math:`\mathrm{OPT} - u(\hat h)` of three :math:`\varepsilon`-DP selectors versus the number k.

    For each :math:`k` one public score vector is drawn (data axis ``k``): ``design="random"`` gives i.i.d.
    integer scores uniform on :math:`\{0, \dots, \lfloor g\rfloor\}` (algorithms.md §5.6.2 with :math:`g = 50`);
    ``"one good"`` gives :math:`k - 1` candidates at 0 and one at :math:`g` = ``gap`` (§5.2, "many mediocre
    vs one good": :math:`P(\text{best}) = e^{\varepsilon g/2}/(e^{\varepsilon g/2} + k - 1)` for the EM);
    ``"adversarial"`` is "one good" with the gap :math:`g = (2/\varepsilon)\ln k` that makes the good candidate
    exactly as likely as all the others together, so the EM's expected loss is
    :math:`g(k-1)/(2k-1) \approx \ln k/\varepsilon`: the :math:`\ln k` price made visible (``gap`` unused). Each
    selector then runs ``draws`` times on it (sensitivity 1, standard convention): the exponential mechanism
    (Gumbel-max), report-noisy-max (Laplace scale :math:`2/\varepsilon`) and :func:`permute_and_flip`, all
    :math:`\varepsilon`-DP per draw. Compare with
    :func:`dpcore.theory.exponential_mechanism_loss_bound`, :math:`\tfrac{2}{\varepsilon}(\ln k + t)`.

    Returns
    -------
    SweepResult
        Axes ``("k", "epsilon")``; methods :data:`SELECTION_METHODS`; ``errors`` are the per-draw losses.
    """
    if np.any(candidate_counts != np.round(candidate_counts)):
        raise ValueError(f"candidate_counts must hold integers; got {candidate_counts}")

    def sample(params: dict, count: int, rng: np.random.Generator) -> np.ndarray:
        if design == "random":
            return rng.integers(0, math.floor(gap) + 1, params["k"]).astype(float)
        return np.r_[gap, np.zeros(params["k"] - 1)]

    def scores(u: np.ndarray, params: dict) -> np.ndarray:
        if design != "adversarial":
            return u
        return np.r_[2.0 * math.log(params["k"]) / params["epsilon"], u[1:]]

    selectors = {
        "exponential mechanism": lambda u, e, rng, count: mechanisms.exponential(u, e, rng=rng, size=count,
                                                                                 method="gumbel"),
        "report noisy max": lambda u, e, rng, count: mechanisms.report_noisy_max(u, e, rng=rng, size=count),
        "permute-and-flip": lambda u, e, rng, count: permute_and_flip(u, e, rng=rng, size=count),
    }

    def loss_of(select):
        def losses(u: np.ndarray, p: dict, rng: np.random.Generator) -> np.ndarray:
            u = scores(u, p)
            return u.max() - u[select(u, p["epsilon"], rng, draws)]
        return losses

    grid = {"k": [int(k) for k in candidate_counts], "epsilon": [float(e) for e in epsilons]}
    return run_sweep(sample, {name: loss_of(selectors[name]) for name in SELECTION_METHODS}, grid,
                     data_parameters=("k",), trials=draws, seed=seed)


#: Sweep method name -> (loss, one example per user).
USER_SWEEP_METHODS = {"clipped (user-level)": ("clipped", False), "group privacy": ("group", False),
                 "one example per user": ("clipped", True)}



def _threshold_sample(params: dict, trials: int, rng: np.random.Generator):
    return threshold_data(params["users"], params["per_user"], rng=rng, trials=trials)



@validated(per_user_values=Array(ndim=(1,), low=1), users=Array(ndim=(0, 1), low=1), epsilon=_POSITIVE,
           trials=Integer(low=1), seed=Integer(low=0))
def user_level_sweep(per_user_values, users, epsilon: float, trials: int, seed: int) -> SweepResult:
    r""":math:`|\hat t - \theta^*|` of the clipped, group-privacy and one-example-per-user EMs over m (and users).

    Runs :func:`dpcore.experiments.run_sweep` with data axes ``("per_user", "users")``: every method sees the
    same datasets (common random numbers), one vectorised :func:`select_threshold` call per grid point.
    Each method is :math:`\varepsilon`-user-level DP. ``users`` may be one number (the "error vs m" figure) or
    several (read off "users needed vs m" as the smallest ``users`` whose error quantile is below α).

    Returns
    -------
    SweepResult
        Axes ``("per_user", "users")``; methods :data:`USER_SWEEP_METHODS`.
    """
    levels = {"per_user": per_user_values, "users": np.atleast_1d(users)}
    for name, values in levels.items():
        if np.any(values != np.round(values)):
            raise ValueError(f"{'users' if name == 'users' else 'per_user_values'} must hold integers; "
                             f"got {values.tolist()}")

    def estimator(kind: str, one_per_user: bool):
        def error(data, params, rng):
            x, y = data
            selected = select_threshold(x, y, epsilon, kind, rng=rng, one_per_user=one_per_user)
            return np.round(np.abs(selected - THRESHOLD), 12)  # grid steps, without float dust (0.020000000000000018)
        return error

    grid = {name: [int(v) for v in values] for name, values in levels.items()}
    return run_sweep(_threshold_sample, {name: estimator(*spec) for name, spec in USER_SWEEP_METHODS.items()}, grid,
                     data_parameters=("per_user", "users"), trials=trials, seed=seed)


ITERATIVE_DEFAULTS = dict(n=2000, true_offset=(2.0, 1.0), epsilon=10.0, buckets=20, steps=3, radius=2.0, max_step=4.0)
r"""The page's defaults for :func:`iterative_mean_2d`: data :math:`\mathcal N(\mu, I_2)` with
:math:`\mu - \tilde\mu_1` = ``true_offset``."""
ITERATIVE_DEFAULT_ERROR = 0.5
r"""The stated error at ``ITERATIVE_DEFAULTS``: :math:`\|\hat\mu - \mu\| \le 0.5` in about 90% of runs (from 2.24 at the
start). Calibrated over 32 seeds (SCS, 2-core VM, ≈6 s a run): median 0.14, 90th percentile 0.46–0.49 (two batches
of 16), max 2.08; the failures are bad direction draws. At ε = 5 the median is 0.87; at ε = 1 the estimate is no
better than the start (median 2.4 over 8 seeds):
the scores range over :math:`B = 20`, so the total :math:`\varepsilon` must be several units for :math:`2T` mechanisms."""

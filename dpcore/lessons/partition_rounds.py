"""Lesson "Partitioning rounds": the sweeps, rate shapes and fitted constants behind the page.

The estimators themselves are :mod:`dpcore.estimators.partition_rounds`; this module runs them over the page's grids
(fast mode: exact binomial block counts, one Monte Carlo TV sample shared by every method and trial).
"""

from __future__ import annotations

import math

import numpy as np

from ..core.validation import Array, Choice, Integer, Real, validated
from ..distributions import binary_product as products
from ..estimators import partition_rounds as rounds
from ..experiments import SweepResult, run_sweep

__all__ = ["error_sweep", "rate_curve", "fit_rate_constant", "SAMPLING_CONSTANT"]


def _sample(mc_samples: int, beta: float):
    def sample(params: dict, trials: int, rng: np.random.Generator):
        p = products.marginal_profile(params["profile"], params["dimension"])
        layout = rounds.block_layout(params["n"], p.size, beta)
        counts = rounds.draw_block_counts(p, layout, trials, rng)
        tv = products.TVMonteCarlo(p, mc_samples, rng) if mc_samples else None
        return p, layout, counts, tv
    return sample



def _distance(metric: str, p, q, tv, n):
    if metric == "kl":
        return products.kl_divergence(p, np.maximum(q, 1.0 / (2 * n)))
    return tv(q)



def _sweep_estimator(method: str, metric: str, delta: float, beta: float):
    def errors(data, params, rng):
        p, layout, counts, tv = data
        estimate = rounds.estimate_from_counts(method, counts, layout, p, params["epsilon"], rng, delta, beta)
        estimate = estimate.estimate if isinstance(estimate, rounds.PartitionResult) else estimate
        return _distance(metric, p, estimate, tv, layout.total)
    return errors



@validated(n_values=Array(ndim=(1,), low=3, min_size=1), dimensions=Array(ndim=(1,), low=2, min_size=1),
           epsilons=Array(ndim=(1,), low=0, low_open=True, min_size=1), trials=Integer(low=1), seed=Integer(low=0),
           metric=Choice(rounds.METRICS), delta=Real(0, 1, low_open=True, high_open=True), beta=Real(0, 1, low_open=True, high_open=True),
           mc_samples=Integer(low=2))
def error_sweep(n_values, dimensions, epsilons, profiles, trials: int, seed: int, metric: str = "tv",
                delta: float = 1e-6, beta: float = 0.1, methods=rounds.METHODS, mc_samples: int = 2000) -> SweepResult:
    r"""Distance between the truth and every estimator's output over profile × dimension × n × ε (fast mode).

    ``metric="tv"``: Monte Carlo :math:`d_{TV}` over ``mc_samples`` points from P, shared by every method, trial
    and ε (common random numbers; standard error :math:`\le 1/(2\sqrt m)`, typically far smaller).
    ``metric="kl"``: exact :math:`\mathrm{KL}(P\|\hat Q)` with :math:`\hat q` floored at :math:`1/(2n)`
    (post-processing: KL is infinite for an estimate of exactly 0). Data axes ``("profile", "dimension", "n")``
    share the block counts across methods and ε; ``"one-shot Gaussian"`` is :math:`(\varepsilon, \delta)`-DP at
    ``delta``.

    Returns
    -------
    SweepResult
        Axes ``("profile", "dimension", "n", "epsilon")``, methods ``methods``.
    """
    unknown = sorted(set(profiles) - set(products.PROFILES)) + sorted(set(methods) - set(rounds.METHODS))
    if unknown or not len(profiles) or not len(methods):
        raise ValueError(f"profiles must be among {products.PROFILES} and methods among {rounds.METHODS}; got {unknown}")
    grid = {"profile": list(profiles), "dimension": [int(d) for d in dimensions], "n": [int(n) for n in n_values],
            "epsilon": [float(e) for e in epsilons]}
    estimators = {method: _sweep_estimator(method, metric, delta, beta) for method in methods}
    sample = _sample(mc_samples if metric == "tv" else 0, beta)
    return run_sweep(sample, estimators, grid, data_parameters=("profile", "dimension", "n"), trials=trials,
                     seed=seed)



SAMPLING_CONSTANT = 1.0 / math.sqrt(2.0 * math.pi)



@validated(dimension=Integer(low=1), n_values=Array(ndim=(0, 1), low=1), epsilon=Real(low=0, low_open=True, allow_inf=True),
           noise_power=Real(low=0), constant=Real(low=0))
def rate_curve(dimension: int, n_values, epsilon: float, noise_power: float = 1.0, constant: float = 1.0):
    r"""The shape of a TV error rate, capped at 1 (algorithms.md §3.4 overlays, polylogs dropped):

    .. math:: \min\Big\{1,\ \tfrac{1}{\sqrt{2\pi}}\sqrt{d/n} + c\,\frac{d^{\,a}}{\varepsilon n}\Big\}

    :math:`\tfrac{1}{\sqrt{2\pi}}\sqrt{d/n} \approx 0.40\sqrt{d/n}` is the non-private TV of the empirical marginals
    (:math:`d_{TV} \approx \sqrt{\chi^2/(2\pi)}`, :math:`\chi^2 \approx d/n`). Noise terms: :math:`a = 1`, :math:`c = 1` is
    seed 000's rate with DPSGLearner (Thm 3.1, :math:`n = \tilde O(d/\alpha^2 + d/(\alpha\varepsilon))`); :math:`a = 1.5`
    the Laplace substitute (P1-L); :math:`a = 2` naive Laplace. ``epsilon=inf`` gives the non-private curve.
    """
    d, n = dimension, np.asarray(n_values, dtype=float)
    noise = 0.0 if math.isinf(epsilon) else constant * d ** noise_power / (epsilon * n)
    return np.minimum(1.0, SAMPLING_CONSTANT * np.sqrt(d / n) + noise)



@validated(dimension=Integer(low=1), n_values=Array(ndim=(1,), low=1, min_size=1), epsilon=Real(low=0, low_open=True),
           errors=Array(ndim=(1,), low=0, min_size=1), noise_power=Real(low=0))
def fit_rate_constant(dimension: int, n_values, epsilon: float, errors, noise_power: float) -> float:
    r"""Least-squares :math:`c \ge 0` in :func:`rate_curve` for simulated ``errors`` (points above 0.8 — saturated
    TV — are left out; display only, as in algorithms.md §3.4). ``nan`` when no point is below 0.8."""
    if errors.shape != n_values.shape:
        raise ValueError(f"errors must have one value per n; got shapes {errors.shape} and {n_values.shape}")
    keep = errors < 0.8
    if not keep.any():
        return math.nan
    n = n_values[keep]
    shape = dimension ** noise_power / (epsilon * n)
    residual = errors[keep] - SAMPLING_CONSTANT * np.sqrt(dimension / n)
    return float(max(0.0, shape @ residual / (shape @ shape)))


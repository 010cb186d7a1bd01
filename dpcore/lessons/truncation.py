"""Lesson "Truncation bias": the page's sweeps over n, the moment order k and ε.

Error versus n for KSU20's private mean, the naive window and the best clipping window (Kamath, Singhal & Ullman
2020), and the bias correction by truncated maximum likelihood (seed 003). The estimators live in
:mod:`dpcore.estimators.heavy_tailed_mean` and :mod:`dpcore.estimators.truncated_mle`.
"""

from __future__ import annotations

import math

import numpy as np

from ..core.validation import DELTA as _DELTA
from ..core.validation import Array, Choice, Integer, Real, validated
from ..distributions import heavy_tailed as distributions
from ..estimators.heavy_tailed_mean import clipped_laplace_mean, private_mean_1d
from ..estimators.truncated_mle import naive_truncated_mean, truncated_dpgd_mean, truncated_mle_mean
from ..experiments import SweepResult, run_sweep, trials_for_budget

__all__ = ["SWEEP_METHODS", "error_sweep", "BIAS_CORRECTION_METHODS", "bias_correction_sweep"]

_POSITIVE = Real(low=0, low_open=True)


#: The estimators of the error-vs-n sweep, by legend name (see :func:`error_sweep`).
SWEEP_METHODS = ("non-private", "KSU20 estimator", "naive", "private part (bias + noise)")



def _sweep_law(family: str, moment_k: float) -> distributions.HeavyTailed:
    """The family at moment order k (only the Gaussian has k = inf)."""
    return distributions.heavy_tailed("gaussian" if math.isinf(moment_k) else family, moment_k)



@validated(family=Choice(distributions.FAMILIES),
           moments=Array(ndim=(1,), low=1, low_open=True, finite=False), n_values=Array(ndim=(1,), low=10),
           epsilon=Real(low=0, low_open=True), budget=Integer(low=1000), seed=Integer(low=0),
           mean_range=Real(low=0, low_open=True))
def error_sweep(family: str, moments, n_values, epsilon: float, budget: int, seed: int,
                mean_range: float = 1000.0) -> SweepResult:
    r"""|error| of the private means of heavy-tailed data over moment order k × n (the truncation page's sweep).

    Data: :func:`dpcore.distributions.heavy_tailed` ``(family, k)`` (the Gaussian for k = inf), mean 0,
    :math:`\mathbb E|X - \mu|^k = 1`. Methods (all :math:`\varepsilon`-DP except the first):

    * ``"non-private"``: the sample mean;
    * ``"KSU20 estimator"``: :func:`private_mean_1d` (private range, then clipped Laplace mean), knowing only
      :math:`|\mu| \le R` = ``mean_range``;
    * ``"naive"``: the Laplace mean with the worst-case window :math:`[-R, R]`;
    * ``"private part (bias + noise)"``: T1 with the window :math:`\mu \pm t^*` (:math:`t^*` the bias–noise optimal
      radius for this distribution, :func:`dpcore.distributions.heavy_tailed.optimal_window`), measured as
      :math:`|\hat\mu - \overline{\mathrm{clip}(X)}| + |b(t^*)|`: the part of the error that privacy causes, whose
      log–log slope is :math:`-(k-1)/k` in the worst case over the class (KSU20 Thm 3.5; lower bound Thm 3.8).
      Not an estimator: its window is centred on the unknown true mean.

    Trials per point: ``budget // n`` (at least 20, at most 1000) via
    :func:`dpcore.experiments.trials_for_budget`; common random numbers across methods.
    """
    if np.any(np.isnan(moments)):
        raise ValueError(f"moments must be real numbers > 1 or inf; got {moments.tolist()}")

    def sample(params: dict, count: int, rng: np.random.Generator) -> np.ndarray:
        return _sweep_law(family, params["moment_k"]).sample((count, params["n"]), rng)

    def private_part(x: np.ndarray, params: dict, rng: np.random.Generator) -> np.ndarray:
        law = _sweep_law(family, params["moment_k"])
        radius, _ = distributions.optimal_window(law, params["n"], params["epsilon"], include_sampling=False)
        low, high = law.mean - radius, law.mean + radius
        released = np.asarray(clipped_laplace_mean(x, params["epsilon"], low, high, rng).estimate)
        return np.abs(released - np.clip(x, low, high).mean(axis=1)) + abs(law.clipping_bias(law.mean, radius))

    def ksu20(x, params, rng):
        return np.abs(np.asarray(private_mean_1d(x, params["epsilon"], params["moment_k"], mean_range, rng).estimate))

    def naive(x, params, rng):
        return np.abs(np.asarray(clipped_laplace_mean(x, params["epsilon"], -mean_range, mean_range, rng).estimate))

    estimators = {"non-private": lambda x, params, rng: np.abs(x.mean(axis=1)), "KSU20 estimator": ksu20,
                  "naive": naive, "private part (bias + noise)": private_part}
    grid = {"moment_k": [float(k) for k in moments], "n": [int(n) for n in n_values], "epsilon": [float(epsilon)]}
    return run_sweep(sample, estimators, grid, data_parameters=("moment_k", "n"),
                     trials=trials_for_budget(budget, max_trials=1000, min_trials=20), seed=seed)


#: The estimators compared on the truncation page, by legend name.
BIAS_CORRECTION_METHODS = {
    "naive truncated mean": naive_truncated_mean,
    "truncated MLE (moment matching)": truncated_mle_mean,
    "truncated MLE (DP gradient descent)": truncated_dpgd_mean,
}



@validated(n_values=Array(ndim=(1,), low=10), epsilons=Array(ndim=(1,), low=0, low_open=True), delta=_DELTA,
           true_mean=Real(), warm_start=Real(), survival_radius=_POSITIVE, trials=Integer(low=2, high=100_000),
           seed=Integer(low=0))
def bias_correction_sweep(n_values, epsilons, delta: float, true_mean: float, warm_start: float,
                          survival_radius: float, trials: int, seed: int) -> SweepResult:
    r"""|error| of the naive truncated mean and both bias-corrected estimators, over n × ε (1-D Gaussian).

    Data :math:`\mathcal N(\mu^*, 1)` with :math:`\mu^*` = ``true_mean``, warm start ``warm_start`` and
    projection radius :math:`D_K = \max(1, |\mu^* - c|)`. Every estimator is :math:`(\varepsilon, \delta)`-DP on
    the same data (common random numbers across ε and across estimators), so the figure compares equal
    privacy spending. Runs :func:`dpcore.experiments.run_sweep` with data axis ``n``.
    """
    bound = max(1.0, abs(true_mean - warm_start))

    def sample(params: dict, count: int, rng: np.random.Generator) -> np.ndarray:
        return true_mean + rng.standard_normal((count, params["n"]))

    def error_of(estimator):
        def errors(x: np.ndarray, params: dict, rng: np.random.Generator) -> np.ndarray:
            result = estimator(x, params["epsilon"], delta, warm_start, survival_radius, rng,
                               mean_offset_bound=bound)
            return np.abs(np.asarray(result.estimate) - true_mean)
        return errors

    grid = {"n": [int(n) for n in n_values], "epsilon": [float(e) for e in epsilons]}
    return run_sweep(sample, {name: error_of(f) for name, f in BIAS_CORRECTION_METHODS.items()}, grid,
                     data_parameters=("n",), trials=trials, seed=seed)


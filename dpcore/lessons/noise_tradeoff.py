r"""Lesson "Pure vs approximate DP": the page's sweeps, crossovers, privacy profiles, compositions and sample sizes.

The release itself (clip to an ℓ2 ball, add calibrated Laplace / Gaussian / zCDP-Gaussian noise) is
:mod:`dpcore.estimators.mean_release`; the cover mechanism is :mod:`dpcore.estimators.cover`. Here: the numbers the
page plots and quotes (Hopkins, Kamath & Majid 2022's table; algorithms.md §2).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .. import accounting, mechanisms
from ..core.validation import DELTA as _DELTA
from ..core.validation import EPSILON as _EPSILON
from ..core.validation import Array, Choice, Integer, Real, validated
from ..estimators import cover as expmech
from ..estimators.mean_release import MECHANISMS, NON_PRIVATE, calibrate, clip_radius, expected_error, release_means
from ..experiments import SweepResult, run_sweep

__all__ = ["error_sweep", "crossover_dimension", "privacy_profiles", "composition_epsilons",
           "advanced_beats_basic_from", "samples_needed", "ComplexityRow", "COVER_RADIUS", "cover_samples_needed",
           "sample_complexity_table"]

_DIMENSION = Integer(low=1, high=100_000)
_BETA = Real(0, 1, low_open=True, high_open=True)


def _sample_mean_errors(params: dict, trials: int, rng: np.random.Generator) -> np.ndarray:
    """The sufficient statistic: sample mean minus the true mean, exactly N(0, I_d / n), per trial."""
    return rng.standard_normal((trials, params["dimension"])) / math.sqrt(params["n"])



def _estimator(mechanism: str, delta: float, beta: float):
    """Per-trial ℓ2 error of ``mechanism`` applied to the (unclipped, w.p. ≥ 1 − β) sample means."""
    def errors(mean_errors: np.ndarray, params: dict, rng: np.random.Generator) -> np.ndarray:
        if mechanism == NON_PRIVATE:
            return np.linalg.norm(mean_errors, axis=1)
        dimension, n_samples, epsilon = params["dimension"], params["n"], params["epsilon"]
        calibration = calibrate(mechanism, dimension, n_samples, epsilon, delta,
                                clip_radius(dimension, n_samples, beta))
        return np.linalg.norm(release_means(mechanism, mean_errors, calibration, epsilon, delta, rng), axis=1)
    return errors



@validated(n_values=Array(ndim=(1,), low=2), dimensions=Array(ndim=(1,), low=1), epsilons=Array(ndim=(1,), low=0,
           low_open=True), delta=_DELTA, trials=Integer(low=1, high=100_000), seed=Integer(low=0), beta=_BETA)
def error_sweep(n_values, dimensions, epsilons, delta: float, trials: int, seed: int,
                mechanisms_used=MECHANISMS, beta: float = 0.1) -> SweepResult:
    r""":math:`\ell_2` error of every mechanism (and the non-private mean) over dimension × n × ε.

    Runs :func:`dpcore.experiments.run_sweep` with the data axes (dimension, n): the same sample means
    and the same standard noise draws serve every ε (common random numbers). Mechanisms not defined
    at some grid point (the classical Gaussian above ε = 1) must be left out of ``mechanisms_used``.

    Returns
    -------
    SweepResult
        Axes ``("dimension", "n", "epsilon")``; methods ``mechanisms_used`` then ``"non-private"``.
    """
    unknown = set(mechanisms_used) - set(MECHANISMS)
    if unknown:
        raise ValueError(f"mechanisms_used must be a subset of {MECHANISMS}; got {sorted(unknown)}")
    if "Gaussian (classical)" in mechanisms_used and epsilons.max() > 1.0:
        raise ValueError(f"epsilons must be <= 1 when 'Gaussian (classical)' is used; got max {epsilons.max():g}")
    estimators = {name: _estimator(name, delta, beta) for name in (*mechanisms_used, NON_PRIVATE)}
    grid = {"dimension": [int(d) for d in dimensions], "n": [int(n) for n in n_values],
            "epsilon": [float(e) for e in epsilons]}
    return run_sweep(_sample_mean_errors, estimators, grid, data_parameters=("dimension", "n"),
                     trials=trials, seed=seed)



@validated(epsilon=_EPSILON, delta=_DELTA, calibration=Choice(("analytic", "classical")))
def crossover_dimension(epsilon: float, delta: float, calibration: str = "analytic") -> float:
    r"""The dimension :math:`d^* = (\varepsilon\sigma_1)^2/2` above which the Gaussian's noise is smaller than Laplace's.

    From the ratio of the exact noise RMSEs, :math:`\mathrm{RMSE}_{\mathrm{Lap}}/\mathrm{RMSE}_{\mathcal N} =
    \sqrt{2d}/(\varepsilon\sigma_1)`, with :math:`\sigma_1` = ``gaussian_sigma(1, epsilon, delta, calibration)``
    (algorithms.md §2.2: classical at δ = 1e-5 gives :math:`\ln(1.25\cdot10^5) = 11.74`).
    """
    return (epsilon * mechanisms.gaussian_sigma(1.0, epsilon, delta, calibration)) ** 2 / 2.0



@validated(epsilons=Array(ndim=(1,), low=0), noise_epsilon=_EPSILON)
def privacy_profiles(epsilons, noise_epsilon: float) -> dict[str, np.ndarray]:
    r"""δ(ε) of the Laplace mechanism with :math:`b = \Delta/\varepsilon_0` and of the Gaussian with :math:`\mu = \varepsilon_0`.

    Both have the same zCDP, :math:`\varepsilon_0^2/2` (§2.3): Laplace's profile reaches 0 at
    :math:`\varepsilon_0` (pure DP), the Gaussian's never does.
    """
    return {
        "Laplace": np.array([accounting.laplace_delta(e, scale=1.0 / noise_epsilon) for e in epsilons]),
        "Gaussian": np.array([accounting.gaussian_delta(e, sigma=1.0 / noise_epsilon) for e in epsilons]),
    }



@validated(releases=Array(ndim=(1,), low=1), release_epsilon=_EPSILON, delta=_DELTA)
def composition_epsilons(releases, release_epsilon: float, delta: float) -> dict[str, np.ndarray]:
    r"""Total ε at total failure probability δ after :math:`k` releases, by four accountings (§2.4).

    Per release: Laplace with :math:`\varepsilon_0` (pure), or the Gaussian with :math:`\mu_0 = \varepsilon_0` (same zCDP).

    * ``"basic"``: :math:`k\varepsilon_0` (δ unused: pure DP composes exactly like this);
    * ``"advanced"``: :math:`\varepsilon_0\sqrt{2k\ln(1/\delta)} + k\varepsilon_0(e^{\varepsilon_0}-1)` with :math:`\delta' = \delta`;
    * ``"zCDP"``: :math:`\rho = k\varepsilon_0^2/2`, then :math:`\rho + 2\sqrt{\rho\ln(1/\delta)}`;
    * ``"exact Gaussian"``: one Gaussian with :math:`\mu = \sqrt k\,\varepsilon_0`, inverted exactly.

    Check (k = 100, ε0 = 0.1, δ = 1e-6): 10.000, 6.308, 5.757, 4.887.
    """
    ks = releases.astype(int)
    return {
        "basic": np.array([accounting.basic_composition(release_epsilon, 0.0, k)[0] for k in ks]),
        "advanced": np.array([accounting.advanced_composition(release_epsilon, 0.0, k, delta)[0] for k in ks]),
        "zCDP": np.array([accounting.zcdp_to_approx(accounting.zcdp_composition(
            accounting.pure_to_zcdp(release_epsilon), k), delta) for k in ks]),
        "exact Gaussian": np.array([accounting.gaussian_epsilon(accounting.gaussian_composition(
            release_epsilon, k), delta) for k in ks]),
    }



@validated(release_epsilon=_EPSILON, delta=_DELTA)
def advanced_beats_basic_from(release_epsilon: float, delta: float) -> int | None:
    r"""The smallest number of releases :math:`k` for which advanced composition gives a smaller ε than basic.

    :math:`\varepsilon_0\sqrt{2k\ln(1/\delta)} + k\varepsilon_0(e^{\varepsilon_0}-1) < k\varepsilon_0 \iff
    k > 2\ln(1/\delta)/(2 - e^{\varepsilon_0})^2`; ``None`` when :math:`e^{\varepsilon_0} \ge 2` (never).
    """
    margin = 2.0 - math.exp(release_epsilon)
    if margin <= 0:
        return None
    return math.floor(2.0 * math.log(1.0 / delta) / margin**2) + 1



@validated(mechanism=Choice((*MECHANISMS, NON_PRIVATE)), dimension=_DIMENSION, target_error=_EPSILON,
           epsilon=_EPSILON, delta=_DELTA, beta=_BETA)
def samples_needed(mechanism: str, dimension: int, target_error: float, epsilon: float, delta: float,
                   beta: float = 0.1) -> int:
    r"""The smallest :math:`n` with :func:`expected_error` :math:`\le` ``target_error`` (bisection on :math:`\log n`).

    The sample complexities of seed 001's table, computed exactly for this model rather than up to
    constants: the empirical mean needs :math:`\lceil d/\alpha^2\rceil`; with :math:`C \approx \sqrt d` Laplace needs
    :math:`\Theta(d/\alpha^2 + d^{1.5}/(\alpha\varepsilon))` and the Gaussian
    :math:`\Theta(d/\alpha^2 + d\sqrt{\log(1/\delta)}/(\alpha\varepsilon))` (up to the :math:`\log n` in :math:`C`).
    """
    def error(n: int) -> float:
        return expected_error(mechanism, dimension, n, epsilon, delta, beta)

    if error(2) <= target_error:
        return 2
    low, high = 2, 4
    while error(high) > target_error:
        low, high = high, high * 2
        if high > 10**15:
            raise ValueError(f"target_error {target_error:g} needs more than 1e15 samples for {mechanism}")
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if error(middle) > target_error else (low, middle)
    return high



@dataclass(frozen=True)
class ComplexityRow:
    """One row of seed 001's table: a mean estimator, its guarantee, cost, and the n it needs here.

    ``samples`` is None where the estimator is not run; ``how`` says how ``samples`` was obtained
    (``"exact"``: from the exact RMSE of the simulation model; ``"Monte Carlo"``: measured).
    """

    method: str
    guarantee: str
    sample_complexity: str
    running_time: str
    samples: int | None
    how: str



COVER_RADIUS = 2.0  #: public box [-R, R]^d known to contain the mean, for the cover mechanism



@validated(dimension=Integer(low=1, high=2), target_error=_EPSILON, epsilon=_EPSILON, trials=Integer(low=2),
           seed=Integer(low=0))
def cover_samples_needed(dimension: int, target_error: float, epsilon: float, trials: int = 20,
                         seed: int = 0) -> int:
    r"""Measured n at which :func:`dpcore.estimators.cover.cover_mean` reaches RMSE :math:`\le` ``target_error``.

    Data :math:`\mathcal N(\mu, I_d)` with :math:`\mu = (0.3, -0.2)_{1..d}`; cover of
    :math:`[-2, 2]^d` with spacing ``target_error / 3``; :math:`n = 25\cdot 2^{j/2}`, :math:`j = 0, 1, \dots`, until the
    Monte Carlo RMSE over ``trials`` datasets is at most the target (cap :math:`2^{16}`): the answer is
    resolved to a factor :math:`\sqrt2`.
    """
    mean = np.array([0.3, -0.2])[:dimension]
    rng = np.random.default_rng(seed)
    for step in range(2 * 12 + 1):
        n = round(25 * 2 ** (step / 2))
        data = mean + rng.standard_normal((trials, n, dimension))
        estimates = expmech.cover_mean(data, epsilon, COVER_RADIUS, target_error / 3.0, rng=rng)
        if math.sqrt(np.mean(np.sum((estimates - mean) ** 2, axis=1))) <= target_error:
            return n
    raise ValueError(f"target_error {target_error:g} needs more than 2^16 samples for the cover mechanism")



@validated(dimension=_DIMENSION, target_error=_EPSILON, epsilon=_EPSILON, delta=_DELTA)
def sample_complexity_table(dimension: int, target_error: float, epsilon: float, delta: float,
                            cover_samples: int | None = None) -> list[ComplexityRow]:
    r"""Seed 001's comparison of mean estimators (Kamath's slides on HKM22), with the n each needs here.

    Rates are for constant failure probability and covariance :math:`\preceq I` (:math:`\tilde O` hides logs).
    The first three rows are computed exactly with :func:`samples_needed`; pass ``cover_samples`` (from
    :func:`cover_samples_needed`, only feasible for :math:`d \le 2`) to fill the cover row.
    """
    points_per_axis = round(2 * COVER_RADIUS / (target_error / 3.0)) + 1
    exact = "exact"
    return [
        ComplexityRow("Empirical mean", "none (not private)", "O(d/α²)", "O(nd)",
                      samples_needed(NON_PRIVATE, dimension, target_error, epsilon, delta), exact),
        ComplexityRow("Laplace", "ε-DP (pure)", "O(d/α² + d^1.5/(αε))", "O(nd)",
                      samples_needed("Laplace", dimension, target_error, epsilon, delta), exact),
        ComplexityRow("Gaussian (analytic)", "(ε, δ)-DP", "O(d/α² + d·√log(1/δ)/(αε))", "O(nd)",
                      samples_needed("Gaussian (analytic)", dimension, target_error, epsilon, delta), exact),
        ComplexityRow("Exponential mechanism over a cover", "ε-DP (pure)", "Õ(d/α² + d/(αε))",
                      f"exponential in d ({points_per_axis}^{dimension} candidates)", cover_samples,
                      "Monte Carlo" if cover_samples else "not run (d > 2)"),
        ComplexityRow("SoS exponential mechanism (HKM22)", "ε-DP (pure)", "Õ(d/α² + d/(αε))",
                      "polynomial (SDP scores)", None, "not run here"),
    ]


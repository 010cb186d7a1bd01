r"""Pure versus approximate DP for a d-dimensional mean: what :math:`\delta > 0` buys (docs/algorithms.md §2).

Release the mean of :math:`n` points in :math:`\mathbb R^d` after clipping each to the :math:`\ell_2` ball of
radius :math:`C` around a public centre, so one replaced point moves the mean by
:math:`\Delta_2 = 2C/n` in :math:`\ell_2` and by at most :math:`\Delta_1 = 2C\sqrt d/n` in :math:`\ell_1`.

* **Laplace** calibrates to :math:`\Delta_1` and is pure :math:`\varepsilon`-DP: noise RMSE
  :math:`\sqrt{2d}\,\Delta_1/\varepsilon = 2\sqrt2\,Cd/(\varepsilon n)`.
* **Gaussian** calibrates to :math:`\Delta_2` and needs :math:`\delta > 0`: noise RMSE
  :math:`\sigma_1 \Delta_2 \sqrt d = 2C\sqrt d\,\sigma_1/n`, with :math:`\sigma_1` the noise for unit sensitivity
  (classical :math:`\sqrt{2\ln(1.25/\delta)}/\varepsilon` or the exact analytic value).
* **zCDP Gaussian** at :math:`\rho = \varepsilon^2/2` (the zCDP that :math:`\varepsilon`-DP implies):
  :math:`\sigma = \Delta_2/\varepsilon`.

With Gaussian-like data :math:`C \approx \sqrt d`, so Laplace's error grows like :math:`d^{1.5}` and the
Gaussian's like :math:`d` (the table of Hopkins, Kamath & Majid 2022; Kamath, Singhal & Ullman 2020, Thms 1.3/1.4): the
ratio is :math:`\sqrt{2d}/(\varepsilon\sigma_1)`, a :math:`\sqrt d` gap that overtakes at the crossover dimension
:math:`d^* = (\varepsilon\sigma_1)^2/2`. Under composition of :math:`k` releases, zCDP / exact Gaussian
accounting grows like :math:`\sqrt k`, pure accounting like :math:`k` (Singhal 2023 explains why pure DP
cannot use advanced composition's :math:`\delta'`).

Simulation model for sweeps (documented on the page): data :math:`\mathcal N(\mu, I_d)` with the public
centre :math:`\mu` and :math:`C = \sqrt d + \sqrt{2\ln(n/\beta)}`, so that with probability
:math:`\ge 1-\beta` no point is clipped and the clipped mean *is* the sample mean, whose error is exactly
:math:`\mathcal N(0, I_d/n)`. Sweeps draw that sufficient statistic and privatise it with the audited
mechanisms of :mod:`dpcore.mechanisms`; :func:`private_mean` runs the full clip-then-noise pipeline on
raw points (used for the one-run picture).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .. import accounting, mechanisms
from ..core.guarantees import public
from ..core.randomness import RngLike
from ..core.validation import (
    DELTA,
    EPSILON,
    Array,
    Choice,
    InstanceOf,
    Integer,
    InvalidParameterError,
    Real,
    Seed,
    validated,
)
from .clipping import clip_to_ball

__all__ = ["MECHANISMS", "NON_PRIVATE", "NoiseCalibration", "clip_radius", "calibrate", "release_means",
           "private_mean", "repeated_releases", "expected_error"]

#: The mechanisms, by their method ids (:data:`dpcore.lessons.methods.LABELS` holds their labels): Laplace (pure
#: ε-DP), the Gaussian with the classical and the analytic calibration ((ε, δ)-DP), and the zCDP Gaussian.
MECHANISMS = ("laplace", "gaussian_classical", "gaussian_analytic", "zcdp_gaussian")
#: The id of the non-private sample mean (:func:`expected_error` only).
NON_PRIVATE = "non_private"

_DIMENSION = Integer(low=1, high=100_000)
_SAMPLES = Integer(low=2)
_BETA = Real(0, 1, low_open=True, high_open=True)
_MECHANISM = Choice(MECHANISMS)


@dataclass(frozen=True)
class NoiseCalibration:
    r"""How a mechanism privatises the clipped mean, and what it costs.

    Every field is public: a calibration depends only on the parameters, never on the data
    (:func:`dpcore.core.guarantees.privacy_roles`).

    Attributes
    ----------
    mechanism : str, public
        The mechanism's id (one of :data:`MECHANISMS`).
    guarantee : str, public
        The privacy statement, e.g. ``"1-DP (pure)"``.
    sensitivity : float, public
        The sensitivity it is calibrated to (:math:`\Delta_1` for Laplace, :math:`\Delta_2` otherwise).
    coordinate_sd : float, public
        Standard deviation of the noise in each coordinate.
    rmse : float, public
        Exact :math:`\sqrt{\mathbb E\|\text{noise}\|_2^2} = \sqrt d \cdot` ``coordinate_sd``.
    """

    mechanism: str = public()
    guarantee: str = public()
    sensitivity: float = public()
    coordinate_sd: float = public()
    rmse: float = public()


@validated(dimension=_DIMENSION, n=_SAMPLES, beta=_BETA)
def clip_radius(dimension: int, n: int, beta: float = 0.1) -> float:
    r"""The clipping radius :math:`C = \sqrt d + \sqrt{2\ln(n/\beta)}` of the simulation model.

    All :math:`n` points of :math:`\mathcal N(\mu, I_d)` lie within :math:`C` of :math:`\mu` with probability
    :math:`\ge 1-\beta` (Gaussian concentration of the 1-Lipschitz norm, union bound).

    Parameters
    ----------
    dimension : int
        :math:`d`, in :math:`[1, 100000]`.
    n : int
        :math:`n \ge 2`.
    beta : float, default 0.1
        The failure probability :math:`0 < \beta < 1`.

    Returns
    -------
    float
        :math:`C`.

    Examples
    --------
    >>> round(clip_radius(16, 1000, beta=0.1), 4)  # 4 + sqrt(2 ln 10^4)
    8.2919
    """
    return math.sqrt(dimension) + math.sqrt(2.0 * math.log(n / beta))


@validated(mechanism=_MECHANISM, dimension=_DIMENSION, n=_SAMPLES, epsilon=EPSILON, delta=DELTA,
           radius=Real(low=0, low_open=True))
def calibrate(mechanism: str, dimension: int, n: int, epsilon: float, delta: float,
              radius: float) -> NoiseCalibration:
    r"""The noise a mechanism adds to the mean of ``n`` points clipped to radius ``radius``.

    See docs/algorithms.md §2.2. With :math:`\Delta_2 = 2C/n` and :math:`\Delta_1 = \sqrt d\,\Delta_2`:
    ``"laplace"`` adds :math:`\mathrm{Lap}(\Delta_1/\varepsilon)` per coordinate (ε-DP, Dwork et al. 2006);
    ``"gaussian_classical"`` adds :math:`\mathcal N(0, \sigma^2)` with
    :math:`\sigma = \Delta_2\sqrt{2\ln(1.25/\delta)}/\varepsilon`
    ((ε, δ)-DP for :math:`\varepsilon \le 1`, Dwork & Roth 2014 Thm A.1; an ``InvalidParameterError`` above);
    ``"gaussian_analytic"`` the smallest σ with :math:`\delta_{\mathcal N}(\varepsilon; \Delta_2/\sigma) \le \delta`
    (Balle & Wang 2018); ``"zcdp_gaussian"`` :math:`\sigma = \Delta_2/\varepsilon`, i.e.
    :math:`\rho = \varepsilon^2/2`-zCDP (Bun & Steinke 2016). ``delta`` is used by the (ε, δ) Gaussians only.

    Parameters
    ----------
    mechanism : {"laplace", "gaussian_classical", "gaussian_analytic", "zcdp_gaussian"}
        The mechanism (:data:`MECHANISMS`).
    dimension : int
        :math:`d`, in :math:`[1, 100000]`.
    n : int
        :math:`n \ge 2`.
    epsilon : float
        Privacy parameter :math:`\varepsilon > 0` (at most 1 for ``"gaussian_classical"``).
    delta : float
        Privacy parameter :math:`0 < \delta < 1`.
    radius : float
        The clipping radius :math:`C > 0`.

    Returns
    -------
    NoiseCalibration
        The guarantee, sensitivity, per-coordinate noise sd and noise RMSE.

    Examples
    --------
    >>> laplace = calibrate("laplace", dimension=4, n=100, epsilon=1.0, delta=1e-6, radius=5.0)
    >>> laplace.guarantee, round(laplace.rmse, 6)  # 2·sqrt(2)·C·d / (ε n)
    ('1-DP (pure)', 0.565685)
    >>> calibrate("zcdp_gaussian", 4, 100, 1.0, 1e-6, 5.0).coordinate_sd  # Δ2 / ε = 2C/n
    0.1
    """
    l2_sensitivity = 2.0 * radius / n
    if mechanism == "laplace":
        l1_sensitivity = l2_sensitivity * math.sqrt(dimension)
        sd = math.sqrt(2.0) * l1_sensitivity / epsilon
        return NoiseCalibration(mechanism, f"{epsilon:g}-DP (pure)", l1_sensitivity, sd, sd * math.sqrt(dimension))
    if mechanism == "zcdp_gaussian":
        rho = accounting.pure_to_zcdp(epsilon)
        sd = l2_sensitivity / math.sqrt(2.0 * rho)
        return NoiseCalibration(mechanism, f"ρ = ε²/2 = {rho:g}-zCDP", l2_sensitivity, sd, sd * math.sqrt(dimension))
    calibration = "classical" if mechanism == "gaussian_classical" else "analytic"
    sd = mechanisms.gaussian_sigma(l2_sensitivity, epsilon, delta, calibration)
    return NoiseCalibration(mechanism, f"({epsilon:g}, {delta:g})-DP", l2_sensitivity, sd, sd * math.sqrt(dimension))


@validated(mechanism=_MECHANISM, means=Array(ndim=(1, 2), min_size=1),
           calibration=InstanceOf(NoiseCalibration, "a NoiseCalibration from calibrate()"), epsilon=EPSILON,
           delta=DELTA, rng=Seed())
def release_means(mechanism: str, means, calibration: NoiseCalibration, epsilon: float, delta: float,
                  rng: RngLike = None) -> np.ndarray:
    r"""Release ``means`` (one row per dataset) with the audited mechanism that ``mechanism`` names.

    The mechanism of :mod:`dpcore.mechanisms`, calibrated by ``calibration`` (its guarantee is that of
    :func:`calibrate`).

    Parameters
    ----------
    mechanism : {"laplace", "gaussian_classical", "gaussian_analytic", "zcdp_gaussian"}
        The mechanism; must be the one ``calibration`` was made for.
    means : array of shape (d,) or (datasets, d)
        The clipped means, finite.
    calibration : NoiseCalibration
        :func:`calibrate`'s output for ``mechanism``.
    epsilon : float
        Privacy parameter :math:`\varepsilon > 0`, the one ``calibration`` was made with.
    delta : float
        Privacy parameter :math:`0 < \delta < 1`, the one ``calibration`` was made with (used by the (ε, δ)
        Gaussians only).
    rng : None, int or numpy.random.Generator, optional
        Source of the noise: ``None`` (fresh OS entropy), a non-negative integer seed or a Generator
        (:func:`dpcore.core.randomness.as_generator`).

    Returns
    -------
    numpy.ndarray
        The releases, of ``means``' shape.

    Examples
    --------
    >>> calibration = calibrate("laplace", 2, 100, 1.0, 1e-6, 3.0)
    >>> release_means("laplace", np.zeros((5, 2)), calibration, 1.0, 1e-6, rng=0).shape
    (5, 2)
    """
    if mechanism != calibration.mechanism:
        raise InvalidParameterError(f"calibration must be calibrate()'s for mechanism {mechanism!r}; "
                                    f"got one for {calibration.mechanism!r}")
    if mechanism == "laplace":
        released = mechanisms.laplace(means, calibration.sensitivity, epsilon, rng)
    elif mechanism == "zcdp_gaussian":
        released = mechanisms.zcdp_gaussian(means, calibration.sensitivity, accounting.pure_to_zcdp(epsilon), rng)
    else:
        calibration_kind = "classical" if mechanism == "gaussian_classical" else "analytic"
        released = mechanisms.gaussian(means, calibration.sensitivity, epsilon, delta, rng, calibration_kind)
    return np.asarray(released)  # means is an array (1-D or 2-D), so the release is one


@validated(points=Array(ndim=(2, 3), min_size=1), epsilon=EPSILON, delta=DELTA, mechanism=_MECHANISM,
           radius=Real(low=0, low_open=True), rng=Seed())
def private_mean(points, epsilon: float, delta: float, mechanism: str, radius: float, center=None,
                 rng: RngLike = None) -> np.ndarray:
    r"""Clip every point to the :math:`\ell_2` ball of radius ``radius`` around ``center``, average, add noise.

    Guarantee (replace-one neighbours, public ``center`` and ``radius``): ``"laplace"`` is
    :math:`\varepsilon`-DP; ``"gaussian_classical"`` and ``"gaussian_analytic"`` are
    :math:`(\varepsilon, \delta)`-DP; ``"zcdp_gaussian"`` is :math:`\varepsilon^2/2`-zCDP. The clipped mean has
    :math:`\Delta_2 = 2C/n` and :math:`\Delta_1 \le 2C\sqrt d/n`.

    Parameters
    ----------
    points : array of shape (n, d) or (trials, n, d)
        One dataset, or one per trial (vectorised); finite, at least 2 rows per dataset.
    epsilon : float
        Privacy parameter :math:`\varepsilon > 0` (at most 1 for ``"gaussian_classical"``).
    delta : float
        Privacy parameter :math:`0 < \delta < 1` (used by the (ε, δ) Gaussians only).
    mechanism : {"laplace", "gaussian_classical", "gaussian_analytic", "zcdp_gaussian"}
        The mechanism (:data:`MECHANISMS`).
    radius : float
        The public clipping radius :math:`C > 0`.
    center : array of shape (d,), optional
        The public centre of the ball (default the origin).
    rng : None, int or numpy.random.Generator, optional
        Source of the noise: ``None`` (fresh OS entropy), a non-negative integer seed or a Generator
        (:func:`dpcore.core.randomness.as_generator`).

    Returns
    -------
    numpy.ndarray
        Shape (d,) or (trials, d).

    Examples
    --------
    >>> points = np.random.default_rng(0).normal(size=(1000, 3))
    >>> release = private_mean(points, 1.0, 1e-6, "gaussian_analytic", radius=6.0, rng=1)
    >>> release.shape, bool(np.linalg.norm(release) < 0.5)
    ((3,), True)
    """
    n, dimension = points.shape[-2], points.shape[-1]
    if n < 2:
        raise InvalidParameterError(f"points must hold at least 2 rows per dataset; got {n}")
    means = clip_to_ball(points, radius, center).mean(axis=-2)
    calibration = calibrate(mechanism, dimension, n, epsilon, delta, radius)
    return release_means(mechanism, means, calibration, epsilon, delta, rng)


@validated(points=Array(ndim=(2,), min_size=1), epsilon=EPSILON, delta=DELTA, mechanism=_MECHANISM,
           radius=Real(low=0, low_open=True), releases=Integer(low=1, high=100_000), rng=Seed())
def repeated_releases(points, epsilon: float, delta: float, mechanism: str, radius: float, releases: int,
                      center=None, rng: RngLike = None) -> np.ndarray:
    r"""``releases`` independent runs of :func:`private_mean` on one dataset, shape (releases, d).

    The clipped mean is computed once and privatised ``releases`` times with fresh noise: the spread
    of the result is exactly the mechanism's noise distribution. (Each release alone has the guarantee
    of :func:`private_mean`; publishing all of them would compose.)

    Parameters
    ----------
    points : array of shape (n, d)
        One dataset, finite, at least 2 rows.
    epsilon : float
        Privacy parameter :math:`\varepsilon > 0` (at most 1 for ``"gaussian_classical"``).
    delta : float
        Privacy parameter :math:`0 < \delta < 1` (used by the (ε, δ) Gaussians only).
    mechanism : {"laplace", "gaussian_classical", "gaussian_analytic", "zcdp_gaussian"}
        The mechanism (:data:`MECHANISMS`).
    radius : float
        The public clipping radius :math:`C > 0`.
    releases : int
        Number of releases, in :math:`[1, 100000]`.
    center : array of shape (d,), optional
        The public centre of the ball (default the origin).
    rng : None, int or numpy.random.Generator, optional
        Source of the noise: ``None`` (fresh OS entropy), a non-negative integer seed or a Generator
        (:func:`dpcore.core.randomness.as_generator`).

    Returns
    -------
    numpy.ndarray
        Shape ``(releases, d)``.

    Examples
    --------
    >>> points = np.random.default_rng(0).normal(size=(200, 2))
    >>> repeated_releases(points, 1.0, 1e-6, "laplace", radius=4.0, releases=400, rng=2).shape
    (400, 2)
    """
    if points.shape[0] < 2:
        raise InvalidParameterError(f"points must hold at least 2 rows; got {points.shape[0]}")
    mean = clip_to_ball(points, radius, center).mean(axis=0)
    calibration = calibrate(mechanism, points.shape[1], points.shape[0], epsilon, delta, radius)
    return release_means(mechanism, np.tile(mean, (releases, 1)), calibration, epsilon, delta, rng)


@validated(mechanism=Choice((*MECHANISMS, NON_PRIVATE)), dimension=_DIMENSION, n=_SAMPLES,
           epsilon=EPSILON, delta=DELTA, beta=_BETA)
def expected_error(mechanism: str, dimension: int, n: int, epsilon: float, delta: float,
                   beta: float = 0.1) -> float:
    r"""Root mean squared :math:`\ell_2` error of the released mean under the simulation model (module docstring).

    .. math:: \sqrt{\mathbb E\|\hat\mu - \mu\|_2^2} = \sqrt{d/n + \mathrm{RMSE}_{\text{noise}}^2}

    (sampling and noise are independent); ``"non_private"`` gives :math:`\sqrt{d/n}`. Exact for the
    simulated quantity; the theory curve of every sweep.

    Parameters
    ----------
    mechanism : {"laplace", "gaussian_classical", "gaussian_analytic", "zcdp_gaussian", "non_private"}
        A mechanism of :data:`MECHANISMS`, or :data:`NON_PRIVATE`.
    dimension : int
        :math:`d`, in :math:`[1, 100000]`.
    n : int
        :math:`n \ge 2`.
    epsilon : float
        Privacy parameter :math:`\varepsilon > 0` (at most 1 for ``"gaussian_classical"``).
    delta : float
        Privacy parameter :math:`0 < \delta < 1` (used by the (ε, δ) Gaussians only).
    beta : float, default 0.1
        The :math:`\beta` of :func:`clip_radius`, :math:`0 < \beta < 1`.

    Returns
    -------
    float
        The RMSE.

    Examples
    --------
    >>> expected_error("non_private", dimension=64, n=10_000, epsilon=1.0, delta=1e-6)
    0.08
    >>> round(expected_error("laplace", 64, 10_000, 1.0, 1e-6), 3)
    0.245
    """
    sampling = dimension / n
    if mechanism == NON_PRIVATE:
        return math.sqrt(sampling)
    radius = clip_radius(dimension, n, beta)
    return math.sqrt(sampling + calibrate(mechanism, dimension, n, epsilon, delta, radius).rmse ** 2)

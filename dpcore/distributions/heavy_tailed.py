r"""Heavy-tailed test distributions with mean :math:`\mu` and :math:`\mathbb E|X-\mu|^k = 1` exactly.

The truncation page's setting (docs/algorithms.md §1.1): data with a bounded :math:`k`-th central moment, normalised
as in Kamath, Singhal & Ullman (2020) to :math:`M_k = 1`. Every family is a location–scale law
:math:`X = \mu + s\,Z` around a base law :math:`Z` with mean 0, and :math:`s = (\mathbb E|Z|^k)^{-1/k}` comes from
the base moment in closed form (no Monte Carlo, no guessed constants):

* ``"lomax"`` — centred Lomax (Pareto II), shape :math:`a > k` (default :math:`\max(4, k+1)`):
  :math:`Z = Y - \tfrac{1}{a-1}`, :math:`P(Y > y) = (1+y)^{-a}`. Right-skewed: clipping biases it down.
* ``"two-point"`` — the lower-bound adversary of Kamath, Singhal & Ullman (2020, Claim 3.9): :math:`\mu - pg` w.p.
  :math:`1-p`, :math:`\mu + (1-p)g` w.p. :math:`p` (default :math:`p = 0.01`), gap :math:`g` solving
  :math:`\mathbb E|X-\mu|^k = p(1-p)g^k\big((1-p)^{k-1} + p^{k-1}\big) = 1` (the paper prints :math:`p^k` for
  :math:`p^{k-1}`, a typo: the atom :math:`-pg` has weight :math:`1-p`). A rare far atom: the worst case of the
  tail bound.
* ``"student-t"`` — Student-t with :math:`\nu > k` degrees of freedom (default :math:`\max(k+1, 3)`), scaled.
* ``"gaussian"`` — :math:`\mathbb E|Z|^k = 2^{k/2}\Gamma(\tfrac{k+1}2)/\sqrt\pi`; ``moment_k=inf`` means sd 1.

Clipped means and variances are exact and vectorised: with :math:`F(z) = P(Z \le z)` and antiderivatives
:math:`m_j` of :math:`z^j f(z)` (closed forms per family),

.. math:: \mathbb E\,\mathrm{clip}_{[l,h]}(Z)^j = l^j F(l) + h^j (1 - F(h)) + m_j(h) - m_j(l), \qquad j = 1, 2.

The analysis functions follow docs/algorithms.md §1.2–§1.3: the window of Kamath, Singhal & Ullman's (2020)
Lemma 3.1, the tight tail bound
:math:`A_k M_k t^{-(k-1)}`, and the bias–noise tradeoff of the clipped Laplace mean for the actual law.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
from scipy import optimize, special

from ..core.randomness import RngLike, as_generator
from ..core.validation import (
    Array,
    Choice,
    Constraint,
    InstanceOf,
    Integer,
    InvalidParameterError,
    Real,
    Seed,
    float_if_scalar,
    validated,
)

__all__ = ["FAMILIES", "HeavyTailed", "heavy_tailed", "bulk_radius", "lemma31_bias_bound", "tail_bias_bound",
           "optimal_window", "bias_noise_curve"]

FAMILIES = ("lomax", "two-point", "student-t", "gaussian")


# --- base laws Z (mean 0): exact |moments|, sampler, and P(Z <= z), m_1(z), m_2(z) -----------------------------

class _Gaussian:
    def __init__(self, shape):
        pass

    def moment(self, r):
        return math.exp(r / 2 * math.log(2.0) + special.gammaln((r + 1) / 2)) / math.sqrt(math.pi)

    def log_moment(self, r):
        """ln E|Z|^r: finite where the moment itself overflows (r above ~250)."""
        return r / 2 * math.log(2.0) + special.gammaln((r + 1) / 2) - 0.5 * math.log(math.pi)

    def draw(self, gen, size):
        return gen.standard_normal(size)

    def pieces(self, z):
        density = np.exp(-z * z / 2) / math.sqrt(2 * math.pi)
        cdf = special.ndtr(z)
        return cdf, special.ndtr(-z), -density, cdf - z * density


class _StudentT:
    def __init__(self, df):
        self.df = df
        self.const = math.exp(special.gammaln((df + 1) / 2) - special.gammaln(df / 2)) / math.sqrt(df * math.pi)

    def moment(self, r):
        v = self.df
        if r >= v:
            return math.inf
        log = r / 2 * math.log(v) + special.gammaln((r + 1) / 2) + special.gammaln((v - r) / 2) - special.gammaln(v / 2)
        return math.exp(log) / math.sqrt(math.pi)

    def log_moment(self, r):
        """ln E|Z|^r (r < v): finite where the moment itself overflows (r above ~250)."""
        v = self.df
        return (r / 2 * math.log(v) + special.gammaln((r + 1) / 2) + special.gammaln((v - r) / 2)
                - special.gammaln(v / 2) - 0.5 * math.log(math.pi))

    def draw(self, gen, size):
        return gen.standard_t(self.df, size)

    def pieces(self, z):
        # (v + z^2) f(z) = v c (1 + z^2/v)^{-(v-1)/2}: its antiderivative is -(v-1) m_1 and v c J(z) = m_2 + v F, with
        # J(z) = int_0^z (1 + t^2/v)^{-(v-1)/2} dt = sqrt(v)/2 B_x(1/2, b), x = z^2/(v + z^2), b = (v-2)/2
        # (substitute t^2 = v u/(1-u)). Not z 2F1(1/2, (v-1)/2; 3/2; -z^2/v): scipy's hyp2f1 is NaN or wrong at large
        # z (NaN from z = 100 at v = 1002 and from z = 1e6 at v = 102, inf at v = 2, z = 1e10, 0 at v = 6, z = 1e109).
        v, c = self.df, self.const
        z = np.asarray(z, dtype=float)
        cdf = special.stdtr(v, z)
        size = np.abs(z)
        small = size < 1e100  # beyond, z^2/v may overflow: ln(1 + z^2/v) = 2 ln|z| - ln v to double precision
        bounded = np.where(small, size, 1e100)
        log_term = np.where(small, np.log1p(bounded * bounded / v),
                            2.0 * np.log(np.where(small, 1.0, size)) - math.log(v))
        m1 = np.where(small, -v * c * (1 + bounded * bounded / v) ** ((1 - v) / 2) / (v - 1),
                      -v * c * np.exp((1 - v) / 2 * log_term) / (v - 1))
        # x and 1 - x = 1/(1 + z^2/v), each to full relative precision: for b near 0, B_x(1/2, b) still moves when 1 - x
        # is far below the rounding of x (at v = 2.01, z = 3e8: 1 - x = 2e-17, yet (1 - x)^b = 0.82)
        x, y, b = bounded * bounded / (v + bounded * bounded), np.exp(-log_term), (v - 2.0) / 2.0

        def incomplete(q):  # B_x(1/2, q) for q > 0, as 1 - I_{1-x}(q, 1/2) once x >= 1/2 (scipy's betaincc rounds
            # that complement: 1.0 instead of 1 - 1.1e-12 at q = 1/2, 1 - x = 3e-24)
            lower, complement = special.betainc(0.5, q, x), 1.0 - special.betainc(q, 0.5, y)
            return special.beta(0.5, q) * np.where(x < 0.5, lower, complement)

        if b > 0:
            integral = math.sqrt(v) / 2 * incomplete(b)
        elif b == 0:  # v = 2: J = sqrt(2) asinh(z/sqrt(2))
            integral = math.sqrt(v) * np.arcsinh(size / math.sqrt(v))
        else:  # B_x(1/2, b) = ((1/2 + b) B_x(1/2, b + 1) - x^(1/2) (1 - x)^b) / b, with b + 1 in (1/2, 1)
            integral = math.sqrt(v) / 2 * ((0.5 + b) * incomplete(b + 1) - np.sqrt(x) * np.exp(-b * log_term)) / b
        m2 = v * c * np.sign(z) * integral - v * cdf
        return cdf, special.stdtr(v, -z), m1, m2


class _Lomax:
    def __init__(self, a):
        self.a, self.shift = a, 1.0 / (a - 1)  # Z = Y - E Y

    def moment(self, r):
        # E|Y - m|^r = a c^{r-a} B(r+1, a-r) + a c^{-a-1} m^{r+1}/(r+1) 2F1(a+1, r+1; r+2; m/c), c = 1 + m, m/c = 1/a
        a, m = self.a, self.shift
        if r >= a:
            return math.inf
        c = 1 + m
        upper = a * c ** (r - a) * special.beta(r + 1, a - r)
        lower = a * c ** (-a - 1) * m ** (r + 1) / (r + 1) * special.hyp2f1(a + 1, r + 1, r + 2, 1 / a)
        return float(upper + lower)

    def draw(self, gen, size):
        return gen.pareto(self.a, size) - self.shift  # numpy's pareto is Lomax (Pareto II)

    def pieces(self, z):
        a, m = self.a, self.shift
        u = 1 + np.maximum(z + m, 0.0)  # 1 + y, frozen at 1 below the support
        sf = u ** -a
        m1y = sf - a * u ** (1 - a) / (a - 1)
        m2y = a * special.boxcox(u, 2 - a) + 2 * a * u ** (1 - a) / (a - 1) - sf  # boxcox: log u at a = 2
        cdf = 1 - sf
        return cdf, sf, m1y - m * cdf, m2y - 2 * m * m1y + m * m * cdf


class _TwoPoint:
    def __init__(self, p):
        self.p = p  # values -p (w.p. 1-p) and 1-p (w.p. p): gap 1, mean 0

    def moment(self, r):
        p = self.p
        return p * (1 - p) ** r + (1 - p) * p ** r

    def draw(self, gen, size):
        return (gen.random(size) < self.p) - self.p

    def pieces(self, z):
        p = self.p
        low, high = (z >= -p).astype(float), (z >= 1 - p).astype(float)
        cdf = (1 - p) * low + p * high
        return cdf, (1 - p) * (1 - low) + p * (1 - high), p * (1 - p) * (high - low), \
            p * (1 - p) * (p * low + (1 - p) * high)


@functools.lru_cache(maxsize=64)
def _law(family: str, shape: float | None):
    return {"gaussian": _Gaussian, "student-t": _StudentT, "lomax": _Lomax, "two-point": _TwoPoint}[family](shape)


def _clip_moments(law, low, high):
    """``(E clip(Z), E clip(Z)^2)`` for the window ``[low, high]`` (arrays, base coordinates)."""
    cdf_l, _, m1_l, m2_l = law.pieces(low)
    _, sf_h, m1_h, m2_h = law.pieces(high)
    first = low * cdf_l + high * sf_h + (m1_h - m1_l)
    second = low * low * cdf_l + high * high * sf_h + (m2_h - m2_l)
    return first, second


# --- constraints this module needs beyond dpcore.core.validation -----------------------------------------------------

class _Size(Constraint):
    def describe(self):
        return "a non-negative integer or a tuple of them"

    def check(self, name, value):
        dims = value if isinstance(value, tuple) else (value,)
        checked = tuple(Integer(low=0).check(name, d) for d in dims)
        return checked if isinstance(value, tuple) else checked[0]

    def bad_values(self):
        return [-1, 2.5, "3", None, (2, -1)]


def _check_window(low, high):
    if np.any(low > high):
        raise InvalidParameterError(f"high must be >= low; got low={float_if_scalar(low)!r}, "
                                    f"high={float_if_scalar(high)!r}")


def _check_shape(family: str, moment_k: float, shape):
    if family == "gaussian":
        ok, rule = shape is None, "None"
    elif family == "two-point":
        ok, rule = shape is not None and 0 < shape < 0.5, "a probability p in (0, 0.5)"
    else:
        what = "Lomax shape a" if family == "lomax" else "degrees of freedom"
        ok, rule = shape is not None and shape > moment_k, f"the {what} > moment_k = {moment_k:g}"
    if not ok:
        raise InvalidParameterError(f"shape must be {rule} for family {family!r}; got {shape!r}")


# --- the distribution -------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class HeavyTailed:
    r"""The law :math:`X = \mathrm{mean} + \mathrm{scale}\cdot Z` of one family; build it with :func:`heavy_tailed`.

    ``shape`` is the Lomax :math:`a`, the Student-t :math:`\nu`, the two-point :math:`p` (``None`` for the
    Gaussian); ``scale`` the Lomax/Student-t multiplier, the two-point gap, the Gaussian sd.
    """

    family: str
    moment_k: float
    mean: float
    scale: float
    shape: float | None

    def __post_init__(self):
        Choice(FAMILIES).check("family", self.family)
        Real(low=0, low_open=True).check("scale", self.scale)
        _check_shape(self.family, self.moment_k, self.shape)

    @property
    def _law(self):
        return _law(self.family, self.shape)

    def _clip_stats(self, low, high):
        """Bias ``E clip(X) - mean`` and ``Var clip(X)`` for the window ``mean + [low, high]`` (arrays)."""
        first, second = _clip_moments(self._law, np.asarray(low) / self.scale, np.asarray(high) / self.scale)
        return self.scale * first, self.scale ** 2 * np.maximum(second - first * first, 0.0)

    @validated(size=_Size(), rng=Seed())
    def sample(self, size, rng: RngLike = None) -> np.ndarray:
        """``size`` independent draws (an int or any shape tuple, e.g. ``(trials, n)``), vectorised."""
        return self.mean + self.scale * self._law.draw(as_generator(rng), size)

    @validated(order=Real(low=0))
    def central_moment(self, order: float) -> float:
        r""":math:`\mathbb E|X-\mu|^r`, closed form (``inf`` when it diverges: :math:`r \ge a` or :math:`r \ge \nu`)."""
        return self.scale ** order * self._law.moment(order)

    @validated(low=Array(min_size=0), high=Array(min_size=0))
    def clipped_mean(self, low, high) -> float | np.ndarray:
        r""":math:`\mathbb E\,\mathrm{clip}_{[l,h]}(X)`, exact (closed form); arrays broadcast."""
        _check_window(low, high)
        return float_if_scalar(self.mean + self._clip_stats(low - self.mean, high - self.mean)[0])

    @validated(center=Array(min_size=0), radius=Array(min_size=0, low=0))
    def clipping_bias(self, center, radius) -> float | np.ndarray:
        r"""Bias of clipping to the window :math:`c \pm t`: :math:`\mathbb E\,\mathrm{clip}_{[c-t,c+t]}(X) - \mu`.

        Exactly 0 for the symmetric families (Gaussian, Student-t) when :math:`c = \mu`; negative for
        the right-skewed Lomax and two-point laws (the clipped-off mass is on the right).
        """
        offset = center - self.mean
        return float_if_scalar(self._clip_stats(offset - radius, offset + radius)[0])

    def sd(self) -> float:
        """The standard deviation (``inf`` for Lomax with :math:`a \\le 2` or Student-t with :math:`\\nu \\le 2`)."""
        return math.sqrt(self.central_moment(2.0))


_DEFAULT_SHAPE = {"lomax": lambda k: max(4.0, k + 1.0), "student-t": lambda k: max(k + 1.0, 3.0),
                  "two-point": lambda k: 0.01, "gaussian": lambda k: None}


@validated(family=Choice(FAMILIES), moment_k=Real(low=1, low_open=True, allow_inf=True), mean=Real(),
           shape=Real(low=0, low_open=True))
def heavy_tailed(family: str, moment_k: float, mean: float = 0.0, shape: float | None = None) -> HeavyTailed:
    r"""A member of ``family`` with mean ``mean`` and :math:`\mathbb E|X-\mu|^k = 1` (docs/algorithms.md §1.1).

    Parameters
    ----------
    family : {"lomax", "two-point", "student-t", "gaussian"}
    moment_k : float
        :math:`k > 1`; ``inf`` only for ``"gaussian"`` (then normalised to sd 1: the page's "k = ∞").
    mean : float
        :math:`\mu`.
    shape : float, optional
        Lomax :math:`a > k` (default :math:`\max(4, k+1)`), Student-t :math:`\nu > k` (default
        :math:`\max(k+1, 3)`), two-point :math:`p \in (0, 1/2)` (default 0.01); ``None`` for the Gaussian.

    Notes
    -----
    The scale is :math:`(\mathbb E|Z|^k)^{-1/k}` for the base law :math:`Z`, its moment in closed form (module
    docstring). Unscaled Lomax(4) has :math:`M_3 = 0.759259`, so its scale at :math:`k = 3` is 1.096150
    (docs/algorithms.md §1.9.1). The two-point gap solves
    :math:`\mathbb E|X-\mu|^k = p(1-p)g^k((1-p)^{k-1}+p^{k-1}) = 1` (Kamath, Singhal & Ullman 2020, Claim 3.9, with
    equality instead of :math:`\le`; the paper's :math:`p^k` is a typo for :math:`p^{k-1}`).

    Examples
    --------
    >>> dist = heavy_tailed("lomax", 3)
    >>> dist.shape, round(dist.scale, 5), round(dist.central_moment(3), 12)
    (4.0, 1.09615, 1.0)
    """
    if math.isinf(moment_k) and family != "gaussian":
        raise InvalidParameterError(f"moment_k must be finite for family {family!r} (inf only for 'gaussian'); got "
                                    f"{moment_k!r}")
    shape = _DEFAULT_SHAPE[family](moment_k) if shape is None and family != "gaussian" else shape
    _check_shape(family, moment_k, shape)
    law = _law(family, shape)
    try:
        scale = law.moment(moment_k) ** (-1.0 / moment_k) if math.isfinite(moment_k) else law.moment(2.0) ** -0.5
    except OverflowError:  # E|Z|^k beyond a float (Gaussian, Student-t for k above ~250): the same scale, in logs
        scale = math.exp(-law.log_moment(moment_k) / moment_k)
    return HeavyTailed(family, moment_k, mean, float(scale), shape)


# --- truncation-bias bounds (docs/algorithms.md §1.2) -----------------------------------------------------------

_MOMENT = Real(low=1, low_open=True)


def _a_k(moment_k: float) -> float:
    """:math:`A_k = (k-1)^{k-1}/k^k` (in logs)."""
    return math.exp((moment_k - 1.0) * math.log(moment_k - 1.0) - moment_k * math.log(moment_k))


@validated(moment_k=_MOMENT, tau=Real(0, 1 / 16, low_open=True, high_open=True), constant=Real(low=6))
def lemma31_bias_bound(moment_k: float, tau: float, constant: float = 6.0) -> tuple[float, float]:
    r"""Kamath, Singhal & Ullman (2020), Lemma 3.1: the window half-width :math:`\xi` that keeps the clipping bias
    below :math:`\tau`.

    .. math:: \xi = C\,\tau^{-1/(k-1)}, \qquad 0 < \tau < 1/16,\ C \ge 6:\quad
              |\mu-\rho| \le \xi/2 \;\Rightarrow\; |\mu - \mathbb E\,\mathrm{clip}_{[\rho-\xi,\rho+\xi]}(X)| \le \tau

    for every law with :math:`\mathbb E|X-\mu|^k \le 1`. (Both window ends are then :math:`\ge \xi/2` from
    :math:`\mu`, and :func:`tail_bias_bound` gives :math:`\tau A_k (2/C)^{k-1} \le \tau`; docs/algorithms.md §1.2.)

    Returns
    -------
    (xi, tau) : the half-width and the bias bound it guarantees.

    Examples
    --------
    >>> lemma31_bias_bound(3, 0.04)
    (30.0, 0.04)
    """
    return constant * tau ** (-1.0 / (moment_k - 1.0)), tau


@validated(moment_k=_MOMENT, distance=Array(min_size=0, low=0, low_open=True), moment_bound=Real(low=0, low_open=True))
def tail_bias_bound(moment_k: float, distance, moment_bound: float = 1.0) -> float | np.ndarray:
    r"""Tight truncation bound (docs/algorithms.md §1.2): bias when both clip ends are :math:`\ge t` from :math:`\mu`.

    .. math:: |\mathbb E\,\mathrm{clip}(X) - \mu| \le \mathbb E(|X-\mu| - t)_+ \le A_k M_k\,t^{-(k-1)},
              \qquad A_k = \frac{(k-1)^{k-1}}{k^k}\ (A_2 = 1/4,\ A_3 = 4/27),

    for every law with :math:`\mathbb E|X-\mu|^k \le M_k`, since :math:`(x - t)_+ \le A_k x^k / t^{k-1}`
    (equality at :math:`x = kt/(k-1)`: a two-point law there attains it).

    Examples
    --------
    >>> round(tail_bias_bound(3, 2.0), 6)  # 4 / (27 * 4)
    0.037037
    """
    return float_if_scalar(_a_k(moment_k) * moment_bound * distance ** (1.0 - moment_k))


# --- the bias–noise tradeoff for the actual law (docs/algorithms.md §1.3) ---------------------------------------

def _worst_case_radius(n: int, epsilon: float, moment_k: float) -> float:
    r""":math:`t^* = ((k-1)A_k/B)^{1/k}`, :math:`B = 2\sqrt2/(\varepsilon n)`: the bias-bound + noise optimum of the
    class (the same value as :func:`dpcore.theory.clipped_mean_optimal_radius` with :math:`M_k = 1`)."""
    return ((moment_k - 1.0) * _a_k(moment_k) * epsilon * n / (2.0 * math.sqrt(2.0))) ** (1.0 / moment_k)


_DIST = InstanceOf(HeavyTailed, "a HeavyTailed distribution (from heavy_tailed)")
_RADII = Array(ndim=(1,), low=0, low_open=True)


@validated(moment_k=Real(low=1, low_open=True, allow_inf=True))
def bulk_radius(moment_k: float) -> float:
    r"""The smallest meaningful clipping radius :math:`t_0 = A_k^{1/k}` (1 for :math:`k = \infty`), where the tail bound
    :math:`A_k t^{-(k-1)}` meets the trivial :math:`|b(t)| \le t`: smaller windows cut into the bulk of the law.
    :func:`optimal_window` searches :math:`t \ge t_0`."""
    return _a_k(moment_k) ** (1.0 / moment_k) if math.isfinite(moment_k) else 1.0


def _curve(dist, n, epsilon, radii, center):
    offset = 0.0 if center is None else center - dist.mean
    bias, variance = dist._clip_stats(offset - radii, offset + radii)
    curve = {"radius": radii, "bias_squared": bias * bias, "noise_variance": 2.0 * (2.0 * radii / (epsilon * n)) ** 2,
             "sampling_variance": variance / n}
    curve["mse"] = curve["bias_squared"] + curve["noise_variance"] + curve["sampling_variance"]
    return curve


@validated(dist=_DIST, n=Integer(low=1), epsilon=Real(low=0, low_open=True), radii=_RADII, center=Real())
def bias_noise_curve(dist: HeavyTailed, n: int, epsilon: float, radii, center: float | None = None
                     ) -> dict[str, np.ndarray]:
    r"""Exact error decomposition of the clipped Laplace mean (docs/algorithms.md §1.3) per radius.

    For the window :math:`c \pm t` (``center`` :math:`c`, default the true mean) and
    :math:`\hat\mu = \frac1n\sum_i \mathrm{clip}(X_i) + \mathrm{Lap}(2t/(\varepsilon n))`:

    .. math:: \mathrm{MSE}(t) = \underbrace{b(t)^2}_{\texttt{bias\_squared}}
              + \underbrace{2\Big(\frac{2t}{\varepsilon n}\Big)^2}_{\texttt{noise\_variance}}
              + \underbrace{\mathrm{Var}(\mathrm{clip}\,X)/n}_{\texttt{sampling\_variance}}, \qquad
              b(t) = \mathbb E\,\mathrm{clip}_{[c-t,c+t]}(X) - \mu,

    all exact (closed forms, vectorised over ``radii``). With :math:`c = \mu` every term vanishes as
    :math:`t \to 0` (clipping to a point returns the oracle's centre); the tradeoff lives at
    :math:`t \gtrsim A_k^{1/k}` — see :func:`optimal_window`.

    Returns
    -------
    dict with keys ``"radius"``, ``"bias_squared"``, ``"noise_variance"``, ``"sampling_variance"``, ``"mse"``.
    """
    return _curve(dist, n, epsilon, radii, center)


@validated(dist=_DIST, n=Integer(low=1), epsilon=Real(low=0, low_open=True), center=Real(),
           radii=_RADII)
def optimal_window(dist: HeavyTailed, n: int, epsilon: float, center: float | None = None, radii=None,
                   include_sampling: bool = True) -> tuple[float, float]:
    r"""Oracle MSE-optimal window radius for the actual law (docs/algorithms.md §1.3, step 4).

    Minimises the exact :math:`\mathrm{MSE}(t)` of :func:`bias_noise_curve` (without the sampling term when
    ``include_sampling=False``: bias² + noise variance, the private error) over radii
    :math:`t \ge t_0 = A_k^{1/k}` (1 for :math:`k = \infty`): below :math:`t_0` the tail bound
    :math:`A_k t^{-(k-1)}` is weaker than the trivial :math:`|b(t)| \le t`, the window cuts into the bulk,
    and with the oracle centre the error tends to 0 as :math:`t \to 0` — a degenerate optimum that uses
    the knowledge of :math:`\mu` rather than the bias–noise tradeoff. Symmetric laws with :math:`c = \mu`
    have no bias at all, so their optimum is :math:`t_0` itself.

    Without ``radii``: a 256-point log grid on :math:`[t_0, t_1]`, refined by bounded Brent in :math:`\log t`;
    :math:`t_1 = \sqrt{\mathrm{MSE}(t_{\mathrm{ref}})}/B` (:math:`B = 2\sqrt2/(\varepsilon n)`, since
    :math:`\mathrm{MSE}(t) \ge B^2t^2`) with :math:`t_{\mathrm{ref}}` the worst-case optimum of
    :func:`dpcore.theory.clipped_mean_optimal_radius` (computed here by :func:`_worst_case_radius`). With
    ``radii``: the best of those :math:`\ge t_0`.

    The optimal private error falls like :math:`(\varepsilon n)^{-(k-1)/k}` for the worst law of the class
    (the two-point adversary); a lighter actual tail falls faster (Lomax(:math:`a`): bias
    :math:`\propto t^{-(a-1)}`, error :math:`\propto (\varepsilon n)^{-(a-1)/a}` asymptotically).

    Returns
    -------
    (radius, mse)
    """
    floor = bulk_radius(dist.moment_k)

    def mse(t):
        curve = _curve(dist, n, epsilon, np.atleast_1d(np.asarray(t, dtype=float)), center)
        return curve["mse"] if include_sampling else curve["bias_squared"] + curve["noise_variance"]

    if radii is not None:
        radii = radii[radii >= floor]
        if radii.size == 0:
            raise InvalidParameterError(f"radii must contain a radius >= {floor:g} (A_k^(1/k) for k = "
                                        f"{dist.moment_k:g})")
        values = mse(radii)
        best = int(np.argmin(values))
        return float(radii[best]), float(values[best])
    reference = max(floor, _worst_case_radius(n, epsilon, dist.moment_k)) if math.isfinite(dist.moment_k) \
        else floor
    upper = max(math.sqrt(mse(reference)[0]) * epsilon * n / (2.0 * math.sqrt(2.0)), floor * 1.01)
    grid = np.geomspace(floor, upper, 256)
    values = mse(grid)
    best = int(np.argmin(values))
    if best in (0, grid.size - 1):
        return float(grid[best]), float(values[best])
    result = optimize.minimize_scalar(lambda s: mse(math.exp(s))[0], method="bounded",
                                      bounds=(math.log(grid[best - 1]), math.log(grid[best + 1])),
                                      options={"xatol": 1e-8})
    return (float(math.exp(result.x)), float(result.fun)) if result.fun <= values[best] \
        else (float(grid[best]), float(values[best]))

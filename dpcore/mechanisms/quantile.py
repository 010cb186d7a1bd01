r"""Private quantiles by the exact continuous exponential mechanism (Smith 2011), and the law it samples."""

from __future__ import annotations

import numpy as np

from ..core.randomness import RngLike, as_generator
from ..core.validation import EPSILON, Array, InstanceOf, Integer, InvalidParameterError, Real, Seed, validated

__all__ = ["private_quantile", "quantile_density", "quantile_densities", "sample_quantile_density"]


def _quantile_intervals(x: np.ndarray, q: float, lower: float, upper: float):
    """Edges (..., n+2), rank scores (n+1,) and log-lengths (..., n+1) of the sampler's intervals: no ε in them.

    See docs/algorithms.md §5.3.
    """
    if not upper > lower:
        raise InvalidParameterError(f"upper must be greater than lower={lower:g}; got {upper!r}")
    ordered = np.clip(x, lower, upper)
    if ordered.ndim > 1 or np.any(ordered[1:] < ordered[:-1]):  # a sorted dataset (one row) needs no sort: O(n)
        ordered = np.sort(ordered, axis=-1)
    n = ordered.shape[-1]
    ends = np.ones(ordered.shape[:-1] + (1,))
    edges = np.concatenate([lower * ends, ordered, upper * ends], axis=-1)
    scores = -np.abs(np.arange(n + 1) - q * n)
    with np.errstate(divide="ignore"):
        log_lengths = np.log(np.diff(edges, axis=-1))
    return edges, scores, log_lengths


def _logits(scores: np.ndarray, log_lengths: np.ndarray, epsilon: float) -> np.ndarray:
    r"""The intervals' log-weights :math:`\ln(x_{(i+1)} - x_{(i)}) + \varepsilon u_i / 2`."""
    return log_lengths + epsilon * scores / 2.0


_QUANTILE = dict(q=Real(0, 1), epsilon=EPSILON, lower=Real(), upper=Real())


@validated(x=Array(ndim=(1, 2), min_size=1), **_QUANTILE, rng=Seed())
def private_quantile(x, q: float, epsilon: float, lower: float, upper: float,
                     rng: RngLike = None) -> float | np.ndarray:
    r"""Private :math:`q`-quantile by the exact continuous exponential mechanism (Smith 2011).

    The algorithm of docs/algorithms.md §5.3. Clip the data to the public interval :math:`[a, b]` =
    ``[lower, upper]``, sort, and set :math:`x_{(0)} = a`, :math:`x_{(n+1)} = b`. On :math:`[x_{(i)}, x_{(i+1)})`
    the score is the rank error :math:`u_i = -|i - qn|`; choose interval :math:`i` with probability

    .. math:: P(i) \propto (x_{(i+1)} - x_{(i)})\, \exp(\varepsilon u_i / 2)

    (Gumbel-max in log space; zero-length intervals get probability 0), then output a uniform point in it.
    The output has density :math:`\propto \exp(\varepsilon\,u(y)/2)` on :math:`[a, b]` with
    :math:`u(y) = -|\#\{x_j \le y\} - qn|`.

    Guarantee: :math:`\varepsilon`-DP under replace-one: :math:`u(y)` has sensitivity 1 for every :math:`y`
    and the base measure (Lebesgue on :math:`[a, b]`) is public (McSherry & Talwar 2007). The rank score is
    not monotone (replacing a point raises some scores and lowers others), so the factor 2 is needed.
    Utility: with probability :math:`\ge 1 - e^{-t}` the output's rank error is at most
    :math:`\tfrac{2}{\varepsilon}(\ln\tfrac{b - a}{\mathrm{len}(G)} + t)` for any set :math:`G` of near-optimal rank.

    Parameters
    ----------
    x : array of shape (n,) or (trials, n)
        One dataset, or one per trial (vectorised, one independent release per row); finite, at least one point
        per row.
    q : float
        Quantile level in :math:`[0, 1]` (1/2: the median).
    epsilon : float
        Privacy parameter :math:`\varepsilon > 0`.
    lower, upper : float
        Public range, finite, ``lower < upper``; data outside it are clipped.
    rng : None, int or numpy.random.Generator, optional
        Source of the randomness: ``None`` (fresh OS entropy), a non-negative integer seed or a Generator
        (:func:`dpcore.core.randomness.as_generator`).

    Returns
    -------
    float or numpy.ndarray
        One release, or shape ``(trials,)``.

    Examples
    --------
    At large :math:`\varepsilon` the median lands between the order statistics around rank :math:`n/2`:

    >>> y = private_quantile([0.1, 0.2, 0.4, 0.8, 0.9], 0.5, 200.0, 0.0, 1.0, rng=0)
    >>> bool(0.2 <= y <= 0.8)
    True
    """
    edges, scores, log_lengths = _quantile_intervals(x, q, lower, upper)
    logits = _logits(scores, log_lengths, epsilon)
    generator = as_generator(rng)
    index = np.argmax(logits + generator.gumbel(size=logits.shape), axis=-1)[..., None]
    left = np.take_along_axis(edges, index, axis=-1)[..., 0]
    right = np.take_along_axis(edges, index + 1, axis=-1)[..., 0]
    release = left + generator.random(left.shape) * (right - left)
    return float(release) if x.ndim == 1 else release


@validated(x=Array(ndim=(1,), min_size=1), **_QUANTILE)
def quantile_density(x, q: float, epsilon: float, lower: float, upper: float) -> dict[str, np.ndarray]:
    r"""The exact law of :func:`private_quantile` on one dataset, for the page's step-function plot.

    Parameters
    ----------
    x : array of shape (n,)
        One dataset, finite, at least one point.
    q : float
        Quantile level in :math:`[0, 1]`.
    epsilon : float
        Privacy parameter :math:`\varepsilon > 0`.
    lower, upper : float
        Public range, finite, ``lower < upper``; data outside it are clipped.

    Returns
    -------
    dict
        ``"edges"`` (n+2,): :math:`a, x_{(1)}, \dots, x_{(n)}, b` (clipped, sorted); ``"scores"`` (n+1,): the
        rank scores :math:`-|i - qn|`; ``"probabilities"`` (n+1,): the probability of each interval (sums
        to 1); ``"density"`` (n+1,): probability / length, the constant output density on each interval
        (0 on zero-length intervals).

    Examples
    --------
    >>> law = quantile_density([0.2, 0.4, 0.6], 0.5, 1.0, 0.0, 1.0)
    >>> law["scores"].tolist(), round(float(law["probabilities"].sum()), 12)
    ([-1.5, -0.5, -0.5, -1.5], 1.0)
    """
    edges, scores, log_lengths = _quantile_intervals(x, q, lower, upper)
    return _law(edges, scores, log_lengths, np.diff(edges), epsilon)


@validated(x=Array(ndim=(1,), min_size=1), q=Real(0, 1), epsilons=Array(ndim=(1,), low=0, low_open=True),
           lower=Real(), upper=Real())
def quantile_densities(x, q: float, epsilons, lower: float, upper: float) -> list[dict[str, np.ndarray]]:
    r"""The laws of :func:`private_quantile` on one dataset at each :math:`\varepsilon` of ``epsilons`` (a sweep).

    Each is :func:`quantile_density`'s dict at that :math:`\varepsilon`, value for value; the part that does not
    depend on :math:`\varepsilon` (clipping, sorting, the intervals and their lengths, the rank scores) is computed
    once, and the dicts share their ``"edges"`` and ``"scores"`` arrays (read them, do not write them). Cost
    :math:`O(n \log n + m n)` for :math:`m` values of :math:`\varepsilon`.

    Parameters
    ----------
    x : array of shape (n,)
        One dataset, finite, at least one point.
    q : float
        Quantile level in :math:`[0, 1]`.
    epsilons : array of shape (m,)
        Privacy parameters, each :math:`\varepsilon > 0`.
    lower, upper : float
        Public range, finite, ``lower < upper``; data outside it are clipped.

    Returns
    -------
    list of dict
        :func:`quantile_density`'s dict at each :math:`\varepsilon` of ``epsilons``, in order.

    Examples
    --------
    >>> laws = quantile_densities([0.2, 0.4, 0.6], 0.5, [0.5, 1.0], 0.0, 1.0)
    >>> law = quantile_density([0.2, 0.4, 0.6], 0.5, 1.0, 0.0, 1.0)
    >>> len(laws), bool(np.array_equal(laws[1]["probabilities"], law["probabilities"]))
    (2, True)
    """
    edges, scores, log_lengths = _quantile_intervals(x, q, lower, upper)
    lengths = np.diff(edges)
    return [_law(edges, scores, log_lengths, lengths, float(epsilon)) for epsilon in epsilons]


def _law(edges: np.ndarray, scores: np.ndarray, log_lengths: np.ndarray, lengths: np.ndarray,
         epsilon: float) -> dict[str, np.ndarray]:
    """:func:`quantile_density`'s dict from the intervals of :func:`_quantile_intervals` at ``epsilon``."""
    logits = _logits(scores, log_lengths, epsilon)
    weights = np.exp(logits - logits.max())  # the log-sum-exp normalisation, in one pass
    probabilities = weights / weights.sum()
    density = np.divide(probabilities, lengths, out=np.zeros_like(lengths), where=lengths > 0)
    return {"edges": edges, "scores": scores, "probabilities": probabilities, "density": density}


@validated(law=InstanceOf(dict, "a dict returned by quantile_density"), size=Integer(low=1), rng=Seed())
def sample_quantile_density(law: dict, size: int, rng: RngLike = None) -> np.ndarray:
    r"""``size`` independent releases of :func:`private_quantile` on one dataset, from its law.

    The law is :func:`quantile_density`'s: the same distribution, without the (size, n) arrays of a vectorised call.

    Each release chooses interval :math:`i` with probability :math:`p_i` (inverse CDF: the first :math:`i` with
    :math:`\sum_{j \le i} p_j > U`, :math:`U` uniform on :math:`[0, 1)`; an interval of probability 0 is never
    chosen), then a uniform point in it: exactly the exponential mechanism of :func:`private_quantile`
    (McSherry & Talwar 2007; Smith 2011), so each release is :math:`\varepsilon`-DP under replace-one. The data
    enter only through ``law``, computed once; the releases differ only in their randomness. Cost
    :math:`O(n + \mathrm{size}\cdot\log n)` against :math:`O(\mathrm{size}\cdot n)`.

    Parameters
    ----------
    law : dict
        :func:`quantile_density` of the dataset (its ``"edges"`` and ``"probabilities"``).
    size : int
        How many independent releases, at least 1.
    rng : None, int or numpy.random.Generator, optional
        Source of the randomness: ``None`` (fresh OS entropy), a non-negative integer seed or a Generator
        (:func:`dpcore.core.randomness.as_generator`).

    Returns
    -------
    numpy.ndarray
        Shape ``(size,)``.

    Examples
    --------
    >>> law = quantile_density([0.1, 0.2, 0.4, 0.8, 0.9], 0.5, 200.0, 0.0, 1.0)
    >>> draws = sample_quantile_density(law, 1000, rng=0)
    >>> draws.shape, bool(np.all((0.2 <= draws) & (draws <= 0.8)))
    ((1000,), True)
    """
    if "edges" not in law or "probabilities" not in law:
        raise InvalidParameterError(f"law must be a dict returned by quantile_density; got keys {sorted(law)}")
    edges, cumulative = np.asarray(law["edges"]), np.cumsum(law["probabilities"])
    generator = as_generator(rng)
    index = np.searchsorted(cumulative, generator.random(size) * cumulative[-1], side="right")
    index = np.minimum(index, cumulative.size - 1)
    left, right = edges[index], edges[index + 1]
    return left + generator.random(size) * (right - left)

r"""The exponential mechanism over a public grid cover (pure-DP mean in dimension 1 or 2), its samplers and sweeps.

Score every point of a public grid :math:`\{-R, \dots, R\}^d` by its halfspace (Tukey) depth in the data
and select one by the exponential mechanism (McSherry & Talwar 2007). The depth has sensitivity 1 whatever
the data, so the release is :math:`\varepsilon`-DP with no clipping; the sample complexity is linear in
:math:`d`, but the grid has :math:`(2R/s)^d` points: exponential time. This is the seed 001 table's "EM over
a cover, :math:`\tilde O(d)` samples, pure, exponential time" (algorithms.md §2.2, §0.6, §5.3), run here only
for :math:`d \le 2`.

Also: permute-and-flip (McKenna & Sheldon 2020), the exact continuous-EM sampler for a private quantile
(algorithms.md §5.3 E2) with its density, and the two page-5 sweeps (quantile error versus :math:`n, \varepsilon`;
selection loss versus the number of candidates :math:`k`).
"""

from __future__ import annotations

import math

import numpy as np

from scipy import special, stats

from . import mechanisms
from .sdp import sdp_direction_score  # the public entry point lives in dpcore.sdp
from .experiments import SweepResult, run_sweep
from .randomness import RngLike, as_generator
from .validation import Array, Choice, Integer, Real, Seed, validated

__all__ = [
    "sdp_direction_score","MAX_COVER_SIZE", "halfspace_depth", "grid_cover", "cover_mean", "permute_and_flip", "private_quantile",
           "quantile_density", "quantile_error_sweep", "selection_loss_sweep"]

MAX_COVER_SIZE = 200_000
_POSITIVE = Real(low=0, low_open=True)
_DIRECTIONS = Integer(low=3)  # equally spaced directions positively span the plane from 3 on


def _check_dimension(name: str, array: np.ndarray) -> None:
    if array.shape[-1] not in (1, 2):
        raise ValueError(f"{name} must hold points of dimension 1 or 2 (last axis); got shape {array.shape}")


def _unit_vectors(dimension: int, directions: int) -> np.ndarray:
    if dimension == 1:
        return np.array([[1.0], [-1.0]])
    theta = 2.0 * np.pi * np.arange(directions) / directions
    return np.column_stack([np.cos(theta), np.sin(theta)])


@validated(points=Array(ndim=(2, 3)), candidates=Array(ndim=(2,)), directions=_DIRECTIONS)
def halfspace_depth(points, candidates, directions: int = 64) -> np.ndarray:
    r"""Discretised halfspace (Tukey) depth of each candidate in the data.

    .. math:: D(c; X) = \min_j \#\{i : \langle x_i - c, v_j\rangle \ge 0\},

    with :math:`v_j = (\cos\theta_j, \sin\theta_j)`, :math:`\theta_j = 2\pi j/\mathrm{directions}` in
    :math:`d = 2`, and :math:`v \in \{+1, -1\}` in :math:`d = 1`, where the depth is exactly
    :math:`\min(\#\{x_i \le c\}, \#\{x_i \ge c\})` (``directions`` is then unused).

    Sensitivity 1 under replace-one: each halfspace count moves by at most 1 when one point is
    replaced, and a minimum of sensitivity-1 functions has sensitivity 1. The data enter only through
    these counts, so the bound holds for every input, however far out. Under add/remove-one the depth
    is moreover monotone (adding a point never lowers a count); under replace-one it is not.

    Parameters
    ----------
    points : array of shape (n, d) or (trials, n, d)
        One dataset, or one per trial (vectorised), :math:`d \in \{1, 2\}`.
    candidates : array of shape (m, d)
    directions : int
        Number of equally spaced directions in :math:`d = 2`.

    Returns
    -------
    numpy.ndarray
        Integer depths, shape ``(m,)`` or ``(trials, m)``.

    Notes
    -----
    Per direction the candidates' projections are sorted once and every point is located among them
    with one ``searchsorted``; a point lying above exactly ``k`` sorted candidates is in the halfspace
    of each of those ``k``, so a per-trial histogram of ``k`` and a cumulative sum give all counts
    exactly, in :math:`O(\mathrm{trials}\cdot(n \log m + m))` per direction.
    """
    _check_dimension("points", points)
    if candidates.shape[-1] != points.shape[-1]:
        raise ValueError(f"candidates must have the dimension of points ({points.shape[-1]}); "
                         f"got shape {candidates.shape}")
    rows = points.reshape(-1, *points.shape[-2:])
    trials, n = rows.shape[:2]
    m = candidates.shape[0]
    offsets = (m + 1) * np.arange(trials)[:, None]
    depth = np.full((trials, m), n)
    for v in _unit_vectors(points.shape[-1], directions):
        projected = candidates @ v
        order = np.argsort(projected)
        above = np.searchsorted(projected[order], rows @ v, side="right")  # sorted candidates each point is above
        histogram = np.bincount((above + offsets).ravel(), minlength=trials * (m + 1)).reshape(trials, m + 1)
        counts = n - np.cumsum(histogram, axis=1)[:, :m]  # #{i : above_i > j}, j-th smallest candidate
        depth[:, order] = np.minimum(depth[:, order], counts)
    return depth if points.ndim == 3 else depth[0]


@validated(radius=_POSITIVE, spacing=_POSITIVE, dimension=Integer(low=1))
def grid_cover(radius: float, spacing: float, dimension: int) -> np.ndarray:
    r"""The public grid :math:`\{-R, -R+s, \dots, R\}^d` as an array of shape ``(m, d)``.

    Each axis has :math:`k = \lceil 2R/s\rceil + 1` equally spaced points from :math:`-R` to :math:`R`
    (spacing :math:`2R/(k-1) \le s`, equal to :math:`s` when :math:`2R/s` is an integer), so
    :math:`m = k^d`. Rows are in lexicographic order (first coordinate slowest).

    Raises ``ValueError`` when :math:`m` exceeds ``MAX_COVER_SIZE`` (200,000). That is the exponential-time
    wall of the cover mechanism: its cost grows like :math:`(2R/s)^d`, e.g. 61 points per axis give
    3,721 candidates in :math:`d = 2` but 226,981 in :math:`d = 3`.
    """
    per_axis = max(1, math.ceil(min(2.0 * radius / spacing, MAX_COVER_SIZE) - 1e-9)) + 1
    # per_axis >= 2, so no dimension of MAX_COVER_SIZE.bit_length() or more can fit
    if dimension >= MAX_COVER_SIZE.bit_length() or per_axis ** dimension > MAX_COVER_SIZE:
        raise ValueError(f"the grid cover is too large: radius={radius:g}, spacing={spacing:g}, dimension="
                         f"{dimension} give {per_axis}^{dimension} points, above {MAX_COVER_SIZE:,}. This is the "
                         "exponential-time wall of the exponential mechanism over a cover ((2R/s)^d candidates): "
                         "increase spacing, shrink radius or lower the dimension.")
    axis = np.linspace(-radius, radius, per_axis)
    return np.stack(np.meshgrid(*[axis] * dimension, indexing="ij"), axis=-1).reshape(-1, dimension)


@validated(x=Array(ndim=(2, 3)), epsilon=_POSITIVE, radius=_POSITIVE, spacing=_POSITIVE, directions=_DIRECTIONS,
           rng=Seed())
def cover_mean(x, epsilon: float, radius: float, spacing: float, directions: int = 64,
               rng: RngLike = None) -> np.ndarray:
    r"""Pure-DP mean (Tukey-median) estimate: the exponential mechanism over a public grid cover.

    Select a point of ``grid_cover(radius, spacing, d)`` with probability

    .. math:: P(c) \propto \exp\!\big(\varepsilon\, D(c; X) / 2\big),

    :math:`D` the :func:`halfspace_depth` (sensitivity :math:`\Delta = 1`), by Gumbel-max:
    :math:`\arg\max_c [\varepsilon D(c; X)/2 + G_c]`, :math:`G_c` i.i.d. standard Gumbel.

    Guarantee: :math:`\varepsilon`-DP under replace-one (McSherry & Talwar 2007; algorithms.md §0.6, standard
    convention: the depth is not monotone under replace-one, so the factor 2 is needed). The cover is
    public and the depth has sensitivity 1 for every input, so data far outside :math:`[-R, R]^d` need no
    clipping: they only lower the cover's depths (at worst the output is near-uniform on the cover, a
    utility failure, never a privacy one).

    Utility: with :math:`m` candidates, :math:`P[D(\hat c) \le \max_c D(c) - \tfrac{2}{\varepsilon}(\ln m + t)] \le e^{-t}`.
    For :math:`\mathcal N(\mu, I_d)` data the depth of :math:`c` is about :math:`n\,\Phi(-\|c - \mu\|)`, so a
    depth loss :math:`L \ll n` costs about :math:`\sqrt{2\pi}\,L/n` in distance, on top of the grid spacing and
    the sampling error of the Tukey median. Since :math:`\ln m = d \ln(2R/s + 1)`, the sample
    complexity is linear in :math:`d`, :math:`\tilde O(d)` (seed 001 slides: exponential mechanism over a
    cover, :math:`\tilde O(d)` samples, pure DP, exponential time), while the time is :math:`(2R/s)^d`.

    Parameters
    ----------
    x : array of shape (n, d) or (trials, n, d)
        One dataset, or one per trial (vectorised), :math:`d \in \{1, 2\}`.
    epsilon : float
        Privacy parameter :math:`\varepsilon > 0`.
    radius, spacing : float
        The public cover :math:`\{-R, \dots, R\}^d` (see :func:`grid_cover`).
    directions : int
        Directions of the depth in :math:`d = 2`.
    rng : None, int or numpy.random.Generator

    Returns
    -------
    numpy.ndarray
        The selected cover point(s), shape ``(d,)`` or ``(trials, d)``; each trial is an independent
        :math:`\varepsilon`-DP release.
    """
    _check_dimension("x", x)
    cover = grid_cover(radius, spacing, x.shape[-1])
    depth = halfspace_depth(x, cover, directions)
    return cover[mechanisms.exponential(depth, epsilon, sensitivity=1.0, rng=rng, method="gumbel")]


@validated(scores=Array(ndim=(1,), min_size=1), epsilon=_POSITIVE, sensitivity=_POSITIVE, rng=Seed(),
           size=Integer(low=1))
def permute_and_flip(scores, epsilon: float, sensitivity: float = 1.0, rng: RngLike = None,
                     size: int | None = None) -> int | np.ndarray:
    r"""Permute-and-flip selection (McKenna & Sheldon 2020).

    Visit the candidates in a uniformly random order and accept candidate :math:`h` with probability

    .. math:: p_h = \exp\!\big(\varepsilon\,(u_h - \mathrm{OPT}) / (2\Delta)\big), \qquad \mathrm{OPT} = \max_h u_h;

    the first accepted candidate is released (a best one has :math:`p_h = 1`, so one always is).

    Guarantee: :math:`\varepsilon`-DP for scores of sensitivity :math:`\le \Delta` (any neighbouring relation,
    monotone or not). It satisfies the exponential mechanism's tail bound and its expected loss
    :math:`\mathrm{OPT} - \mathbb E\,u(\hat h)` is never larger than the exponential mechanism's at the same
    :math:`\varepsilon` (McKenna & Sheldon 2020, Thm 2 and Prop. 4). Its law equals report-noisy-max with
    exponential noise of scale :math:`2\Delta/\varepsilon` (Ding et al. 2021).

    Parameters
    ----------
    scores : array of shape (k,)
    epsilon, sensitivity : float
    rng : None, int or numpy.random.Generator
    size : int, optional
        Number of independent draws (each alone :math:`\varepsilon`-DP).

    Returns
    -------
    int or numpy.ndarray
        One index if ``size`` is None, else ``size`` indices.

    Notes
    -----
    Vectorised over draws: one permutation per draw (argsort of uniforms), one acceptance uniform per
    position, and the first accepted position by ``argmax``; :math:`O(\mathrm{size}\cdot k\log k)`.
    """
    generator = as_generator(rng)
    count = 1 if size is None else size
    accept = np.exp(epsilon / (2.0 * sensitivity) * (scores - scores.max()))
    order = np.argsort(generator.random((count, scores.size)), axis=1)
    first = np.argmax(generator.random(order.shape) < accept[order], axis=1)
    choice = order[np.arange(count), first]
    return int(choice[0]) if size is None else choice


def _quantile_intervals(x: np.ndarray, q: float, epsilon: float, lower: float, upper: float):
    """Edges (..., n+2), rank scores (n+1,) and interval log-weights (..., n+1) of the E2 sampler."""
    if not upper > lower:
        raise ValueError(f"upper must be greater than lower={lower:g}; got {upper!r}")
    ordered = np.sort(np.clip(x, lower, upper), axis=-1)
    n = ordered.shape[-1]
    ends = np.ones(ordered.shape[:-1] + (1,))
    edges = np.concatenate([lower * ends, ordered, upper * ends], axis=-1)
    scores = -np.abs(np.arange(n + 1) - q * n)
    with np.errstate(divide="ignore"):
        logits = np.log(np.diff(edges, axis=-1)) + epsilon * scores / 2.0
    return edges, scores, logits


_QUANTILE = dict(q=Real(0, 1), epsilon=_POSITIVE, lower=Real(), upper=Real())


@validated(x=Array(ndim=(1, 2), min_size=1), **_QUANTILE, rng=Seed())
def private_quantile(x, q: float, epsilon: float, lower: float, upper: float,
                     rng: RngLike = None) -> float | np.ndarray:
    r"""Private :math:`q`-quantile by the exact continuous exponential mechanism (Smith 2011; algorithms.md §5.3 E2).

    Clip the data to the public interval :math:`[a, b]` = ``[lower, upper]``, sort, and set
    :math:`x_{(0)} = a`, :math:`x_{(n+1)} = b`. On :math:`[x_{(i)}, x_{(i+1)})` the score is the rank error
    :math:`u_i = -|i - qn|`; choose interval :math:`i` with probability

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
        One dataset, or one per trial (vectorised, one independent release per row).
    q : float
        Quantile level in :math:`[0, 1]` (1/2: the median).
    epsilon : float
    lower, upper : float
        Public range, ``lower < upper``; data outside it are clipped.
    rng : None, int or numpy.random.Generator

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
    edges, _, logits = _quantile_intervals(x, q, epsilon, lower, upper)
    generator = as_generator(rng)
    index = np.argmax(logits + generator.gumbel(size=logits.shape), axis=-1)[..., None]
    left = np.take_along_axis(edges, index, axis=-1)[..., 0]
    right = np.take_along_axis(edges, index + 1, axis=-1)[..., 0]
    release = left + generator.random(left.shape) * (right - left)
    return float(release) if x.ndim == 1 else release


@validated(x=Array(ndim=(1,), min_size=1), **_QUANTILE)
def quantile_density(x, q: float, epsilon: float, lower: float, upper: float) -> dict[str, np.ndarray]:
    r"""The exact law of :func:`private_quantile` on one dataset, for the page's step-function plot.

    Returns
    -------
    dict
        ``"edges"`` (n+2,): :math:`a, x_{(1)}, \dots, x_{(n)}, b` (clipped, sorted); ``"scores"`` (n+1,): the
        rank scores :math:`-|i - qn|`; ``"probabilities"`` (n+1,): the probability of each interval (sums
        to 1); ``"density"`` (n+1,): probability / length, the constant output density on each interval
        (0 on zero-length intervals).
    """
    edges, scores, logits = _quantile_intervals(x, q, epsilon, lower, upper)
    probabilities = np.exp(logits - special.logsumexp(logits))
    lengths = np.diff(edges)
    density = np.divide(probabilities, lengths, out=np.zeros_like(lengths), where=lengths > 0)
    return {"edges": edges, "scores": scores, "probabilities": probabilities, "density": density}


_LOCATION, _SCALE = 0.3, 0.1  # page 5's data: N(0.3, 0.1^2) clipped to [0, 1]


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

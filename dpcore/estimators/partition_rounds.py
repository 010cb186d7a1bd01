r"""Pure-DP estimation of a binary product distribution by partitioning rounds (Singhal 2023).

See docs/algorithms.md §3.2–§3.4.

**Idea.** Total variation needs each marginal :math:`p_j` to accuracy about :math:`\sqrt{p_j}` times a common factor
(:mod:`dpcore.distributions.binary_product`), so one noise scale for every coordinate wastes samples. The estimator
finds the heavy marginals in rounds. Round :math:`r` assumes the remaining marginals are :math:`\le u_r`
(:math:`u_1 = 1/2`), :math:`\ell_1`-clips the rows restricted to the remaining coordinates :math:`S_r` to a
Bernstein bound :math:`T_r` on their norm, adds :math:`\mathrm{Lap}(2T_r/(\varepsilon n_P))` to each mean, moves
the coordinates whose noisy mean is at least :math:`\tfrac38 u_r` into group :math:`H_r` and halves :math:`u`. The
heavy coordinates are rescaled by :math:`1/\sqrt{s_j}` (:math:`s_j` = the bound of the round that found them) so
they have comparable variance and are estimated together; the light ones get one cheap final round.

**Privacy (pure ε-DP, replace-one neighbours on rows).** Rows are split into disjoint blocks fixed in advance
(a data-independent shuffle, then ``rounds`` blocks of :math:`n_P` rows, a heavy block of :math:`n_H`, a final block
of :math:`n_F`). Each block's release is :math:`\varepsilon`-DP given the earlier (private) outputs: replacing a
row moves its block's clipped mean by at most :math:`2T/n_{\text{block}}` in :math:`\ell_1`, and the Laplace scale is
:math:`2T/(\varepsilon n_{\text{block}})`. A row lies in one block only, so the whole algorithm is
:math:`\varepsilon`-DP by parallel composition (Singhal 2023, Prop 3.2) — no composition over rounds is paid.

**The substitute.** Singhal (2023) estimates the rescaled heavy block with the pure-DP sub-Gaussian learner of
Hopkins, Kamath, Majid & Narayanan (2023) (DPSGLearner), polynomial but impractical. ``heavy="laplace"`` (the
Laplace heavy step, default) replaces it by an :math:`\ell_1`-clipped Laplace mean: still pure ε-DP, but its
heavy-block error grows like :math:`|H|^{1.5}` instead of :math:`|H|`. ``heavy="gaussian"`` (the Gaussian heavy step,
as in Kamath, Li, Singhal & Ullman 2019) uses an :math:`\ell_2` clip and Gaussian noise: the whole algorithm is then
:math:`\max(\varepsilon^2/2, \rho)`-zCDP, *not* pure.

**Simulation.** :func:`partition_rounds` runs the mechanism on rows and always clips. The sweeps use the same
code on block column counts drawn as :math:`\mathrm{Binomial}(n_{\text{block}}, p_j)` ("fast mode",
docs/algorithms.md §3.1): clipping is skipped there because the radii are chosen so that it is inactive with probability
:math:`\ge 1 - \beta`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from ..core.guarantees import public, released
from ..core.randomness import RngLike, as_generator
from ..core.validation import EPSILON, Array, Choice, Integer, InvalidParameterError, Real, Seed, validated
from ..distributions import binary_product as products
from ..mechanisms import gaussian, laplace, zcdp_gaussian
from .clipping import clip_to_ball

__all__ = ["METHODS", "METRICS", "BlockLayout", "block_layout", "bernstein_bound", "clipped_laplace_means",
           "PartitionRound", "BlockRelease", "PartitionResult", "partition_rounds", "simulate_partition_rounds",
           "simulate_estimators", "noiseless_partition", "baseline_estimates"]


# The estimators, by method id (their labels live in dpcore.lessons.methods).
PARTITION_PURE = "partition_pure"  #: partition rounds with the Laplace heavy step: ε-DP
PARTITION_ZCDP = "partition_zcdp"  #: partition rounds with the Gaussian heavy step: zCDP
NON_PRIVATE = "non_private"  #: the empirical marginals
NAIVE = "naive_laplace"  #: Lap(d/(εn)) on every coordinate: ε-DP
ORACLE = "oracle_laplace"  #: one ℓ1 clip radius from the true Σp, then Laplace: ε-DP
ONE_SHOT_GAUSSIAN = "one_shot_gaussian"  #: ℓ2 clip, analytic Gaussian: (ε, δ)-DP

#: Every estimator the simulations compare, in a fixed order (it orders the noise streams of a single run).
METHODS = (PARTITION_PURE, NAIVE, PARTITION_ZCDP, ONE_SHOT_GAUSSIAN, ORACLE, NON_PRIVATE)


METRICS = ("tv", "kl")


_BETA = Real(0, 1, low_open=True, high_open=True)


_FRACTIONS = Array(ndim=(1,), low=0, low_open=True, min_size=3)


_HEAVY = Choice(("laplace", "gaussian"))


_ROWS = Array(ndim=(2, 3), low=0, high=1, min_size=1)


_ROUNDS = Integer(low=1, high=64)


DEFAULT_FRACTIONS = (0.3, 0.4, 0.3)


@validated(mean=Array(), variance=Array(low=0), width=Array(low=0), log_term=Array(low=0))
def bernstein_bound(mean, variance, width, log_term):
    r"""Bernstein upper bound :math:`\mathrm{Bern}(\mu, V, w, L) = \mu + \sqrt{2VL} + \tfrac23 wL`.

    For a sum of independent terms in :math:`[0, w]` with mean :math:`\mu` and variance :math:`\le V`: exceeded with
    probability :math:`\le e^{-L}` (docs/algorithms.md §3.3). Vectorised over its arguments.

    Parameters
    ----------
    mean : float or array
        :math:`\mu`, finite.
    variance : float or array
        :math:`V \ge 0`.
    width : float or array
        :math:`w \ge 0`.
    log_term : float or array
        :math:`L \ge 0`.

    Returns
    -------
    float or numpy.ndarray
        The bound, broadcast over the arguments (a NumPy float for scalar arguments).

    Examples
    --------
    >>> round(float(bernstein_bound(10.0, 10.0, 1.0, 3.0)), 4)  # 10 + sqrt(60) + 2
    19.746
    """
    return mean + np.sqrt(2.0 * variance * log_term) + 2.0 / 3.0 * width * log_term


@dataclass(frozen=True)
class BlockLayout:
    r"""The disjoint row blocks, fixed before looking at the data (docs/algorithms.md §3.3, step 1).

    ``rounds`` partition blocks of ``round_size`` rows, then the heavy block (``heavy_size``) and the final block
    (``final_size``); ``log_term`` is :math:`L_0 = \ln(2d/\beta)` of the stopping rule. Every field is public: the
    layout depends only on n, d and β.
    """

    rounds: int = public()
    round_size: int = public()
    heavy_size: int = public()
    final_size: int = public()
    log_term: float = public()

    @property
    def total(self) -> int:
        """Number of rows in all blocks."""
        return self.rounds * self.round_size + self.heavy_size + self.final_size

    def slices(self) -> dict:
        """Row ranges of every block: keys 0..rounds-1, ``"heavy"``, ``"final"``."""
        starts = np.cumsum([0] + [self.round_size] * self.rounds + [self.heavy_size, self.final_size])
        names = [*range(self.rounds), "heavy", "final"]
        return {name: slice(int(a), int(b)) for name, a, b in zip(names, starts[:-1], starts[1:])}

    def size(self, block) -> int:
        """Number of rows of ``block``: a round's index, ``"heavy"`` or ``"final"``."""
        return {"heavy": self.heavy_size, "final": self.final_size}.get(block, self.round_size)


@validated(n=Integer(low=3), dimension=Integer(low=1), beta=_BETA, fractions=_FRACTIONS, rounds=_ROUNDS)
def block_layout(n: int, dimension: int, beta: float = 0.1, fractions=DEFAULT_FRACTIONS,
                 rounds: int | None = None) -> BlockLayout:
    r"""The blocks of :func:`partition_rounds` for ``n`` rows of dimension ``dimension``.

    Block sizes: :math:`R_{\max} = \max(1, \lceil\log_2(d/L_0)\rceil)` rounds (``rounds`` overrides),
    :math:`n_P = \lfloor f_P n/R_{\max}\rfloor`, :math:`n_H = \lfloor f_H n\rfloor`, :math:`n_F` = the rest.

    Raises ``InvalidParameterError`` when some block would be empty (``n`` too small for that many rounds).

    Parameters
    ----------
    n : int
        Number of rows, at least 3.
    dimension : int
        :math:`d \ge 1`.
    beta : float, default 0.1
        :math:`0 < \beta < 1`, in :math:`L_0 = \ln(2d/\beta)`.
    fractions : (f_P, f_H, f_F), default (0.3, 0.4, 0.3)
        Three positive shares of the rows (partition rounds, heavy block, final block) summing to 1.
    rounds : int, optional
        :math:`R_{\max}` in :math:`[1, 64]` instead of the default above.

    Returns
    -------
    BlockLayout
        The block sizes and :math:`L_0`.

    Examples
    --------
    >>> layout = block_layout(10_000, 1024)
    >>> layout.rounds, layout.round_size, layout.heavy_size, layout.final_size, layout.total
    (7, 428, 4000, 3004, 10000)
    """
    fractions = np.asarray(fractions, dtype=float)
    if fractions.size != 3 or abs(fractions.sum() - 1.0) > 1e-9:
        raise InvalidParameterError(f"fractions must be three positive numbers (partition, heavy, final) summing to 1; "
                                    f"got {tuple(fractions)}")
    log_term = math.log(2 * dimension / beta)
    count = rounds if rounds is not None else max(1, math.ceil(math.log2(dimension / log_term)))
    round_size = math.floor(fractions[0] * n / count)
    heavy_size = math.floor(fractions[1] * n)
    final_size = n - count * round_size - heavy_size
    if min(round_size, heavy_size, final_size) < 1:
        raise InvalidParameterError(f"n must be large enough for {count} partition rounds, a heavy and a final block "
                                    f"(at least {math.ceil(count / fractions[0])} rows); got n={n}")
    return BlockLayout(count, round_size, heavy_size, final_size, log_term)


class _RowBlocks:
    """Clipped means of the rows of each block, restricted to ``columns`` and rescaled by ``weights``."""

    def __init__(self, rows, layout: BlockLayout):
        self.rows, self.slices = rows, layout.slices()

    def means(self, block, columns, weights, radius, order):
        values = self.rows[:, self.slices[block], :] * np.where(columns, weights, 0.0)[:, None, :]
        return clip_to_ball(values, radius, order=order).mean(axis=1)


class _CountBlocks:
    """Block means from Binomial column counts; clipping inactive (w.p. >= 1 - β by the choice of radii)."""

    def __init__(self, counts: dict, layout: BlockLayout):
        self.counts, self.layout = counts, layout

    def means(self, block, columns, weights, radius, order):
        return np.where(columns, self.counts[block] / self.layout.size(block) * weights, 0.0)


class _ExactMeans:
    """The true marginals in every block (noiseless sanity check, docs/algorithms.md §3.6.1)."""

    def __init__(self, p):
        self.p = p[None, :]

    def means(self, block, columns, weights, radius, order):
        return np.where(columns, self.p * weights, 0.0)


@dataclass(frozen=True)
class PartitionRound:
    r"""One partition round of :func:`partition_rounds`.

    Its bound :math:`u_r`, threshold :math:`\tfrac38u_r`, rows used, and per trial the
    candidate set :math:`S_r`, clip radius :math:`T_r`, Laplace scale, noisy means (NaN outside :math:`S_r`) and
    the selected group :math:`H_r`. Per-trial arrays have a leading trial axis unless the input had none.

    Privacy roles (:func:`dpcore.core.guarantees.privacy_roles`): ``bound``, ``threshold`` and ``samples`` are
    public; every per-trial field is released (the noisy means, or computed from earlier rounds' releases only).
    """

    bound: float = public()
    threshold: float = public()
    samples: int = public()
    candidates: np.ndarray = released()
    radius: np.ndarray = released()
    noise_scale: np.ndarray = released()
    noisy_means: np.ndarray = released()
    selected: np.ndarray = released()


@dataclass(frozen=True)
class BlockRelease:
    """The heavy or the final block's release: coordinates, rows used, clip radius, noise scale, estimates.

    Privacy roles: ``samples`` is public; the rest is released (the noisy estimates, and the coordinates, radii
    and scales computed from the rounds' releases only).
    """

    coordinates: np.ndarray = released()
    samples: int = public()
    radius: np.ndarray = released()
    noise_scale: np.ndarray = released()
    estimates: np.ndarray = released()


@dataclass(frozen=True)
class PartitionResult:
    r"""Output of :func:`partition_rounds`: the estimate :math:`\hat q \in [0, 1/2]^d` and the trace of every step.

    ``scales`` holds :math:`s_j` (the bound of the round that selected :math:`j`, 0 for light coordinates).

    Privacy roles: ``layout`` and ``guarantee`` are public; everything else is released (the whole trace is
    covered by the guarantee: no field is a non-private diagnostic).
    """

    estimate: np.ndarray = released()
    rounds: tuple[PartitionRound, ...] = released()
    heavy: BlockRelease = released()
    final: BlockRelease = released()
    scales: np.ndarray = released()
    layout: BlockLayout = public()
    guarantee: str = public()


def _laplace_release(means, columns, radius, samples, epsilon, rng):
    """Means + Lap(2T/(ε n_block)) on ``columns`` (NaN elsewhere); ε = inf is the noiseless reference."""
    if math.isinf(epsilon):
        return np.where(columns, means, np.nan), np.zeros_like(radius)
    sensitivity = 2.0 * radius / samples
    return np.where(columns, laplace(means, sensitivity[:, None], epsilon, rng), np.nan), sensitivity / epsilon


def _partition(blocks, layout: BlockLayout, trials: int, d: int, epsilon: float, beta: float, heavy: str,
               rho: float, stop_early: bool, rng) -> PartitionResult:
    remaining = np.ones((trials, d), dtype=bool)
    scales = np.zeros((trials, d))
    bound = np.full(trials, 0.5)          # u per trial: frozen once a trial stops
    rounds = []
    for r in range(layout.rounds):
        u = 0.5 ** (r + 1)
        size = remaining.sum(axis=1)
        active = (u * size > layout.log_term) if stop_early else np.ones(trials, dtype=bool)
        if not active.any():
            break
        candidates = remaining & active[:, None]
        log_term = math.log(2 * layout.round_size * layout.rounds / beta)
        radius = bernstein_bound(u * size, u * size, 1.0, log_term)
        means = blocks.means(r, candidates, 1.0, radius, 1)
        noisy, scale = _laplace_release(means, candidates, radius, layout.round_size, epsilon, rng)
        threshold = 3.0 / 8.0 * u
        selected = candidates & (noisy >= threshold)
        scales[selected] = u
        remaining &= ~selected
        bound = np.where(active, u / 2, bound)
        rounds.append(PartitionRound(u, threshold, layout.round_size, candidates, radius, np.where(active, scale, 0.0),
                                     noisy, selected))
    heavy_release = _heavy_block(blocks, layout, scales, epsilon, beta, heavy, rho, rng)
    final = _final_block(blocks, layout, remaining, bound, epsilon, beta, rng)
    estimate = np.clip(np.where(scales > 0, heavy_release.estimates, final.estimates), 0.0, 0.5)
    guarantee = (f"{epsilon:g}-DP (pure)" if heavy == "laplace" else
                 f"{max(epsilon ** 2 / 2, rho):g}-zCDP (not pure)")
    return PartitionResult(estimate, tuple(rounds), heavy_release, final, scales, layout, guarantee)


def _heavy_block(blocks, layout, scales, epsilon, beta, heavy, rho, rng) -> BlockRelease:
    """Rescale y_j = x_j/√s_j on the heavy block and release its mean.

    The Laplace heavy step: ℓ1 + Laplace; the Gaussian one: ℓ2 + Gaussian.
    """
    coordinates = scales > 0
    safe = np.where(coordinates, scales, 1.0)
    weights = 1.0 / np.sqrt(safe)
    count = coordinates.sum(axis=1)
    smallest = np.where(coordinates, safe, np.inf).min(axis=1)
    smallest = np.where(np.isfinite(smallest), smallest, 1.0)
    log_term = math.log(2 * layout.heavy_size / beta)
    size = layout.heavy_size
    if heavy == "laplace":
        radius = bernstein_bound(np.sum(np.where(coordinates, np.sqrt(safe), 0.0), axis=1), count,
                                 1.0 / np.sqrt(smallest), log_term)
        means = blocks.means("heavy", coordinates, weights, radius, 1)
        noisy, scale = _laplace_release(means, coordinates, radius, size, epsilon, rng)
    else:
        radius = np.sqrt(bernstein_bound(count, np.sum(np.where(coordinates, 1.0 / safe, 0.0), axis=1),
                                         1.0 / smallest, log_term))
        means = blocks.means("heavy", coordinates, weights, radius, 2)
        sensitivity = 2.0 * radius / size
        noisy = np.where(coordinates, zcdp_gaussian(means, sensitivity[:, None], rho, rng), np.nan)
        scale = sensitivity / math.sqrt(2 * rho)
    return BlockRelease(coordinates, size, radius, scale, noisy / weights)


def _final_block(blocks, layout, remaining, bound, epsilon, beta, rng) -> BlockRelease:
    """One Laplace round on the final block for the coordinates no round selected."""
    mass = bound * remaining.sum(axis=1)
    radius = bernstein_bound(mass, mass, 1.0, math.log(2 * layout.final_size / beta))
    means = blocks.means("final", remaining, 1.0, radius, 1)
    noisy, scale = _laplace_release(means, remaining, radius, layout.final_size, epsilon, rng)
    return BlockRelease(remaining, layout.final_size, radius, scale, noisy)


def _squeeze(result: PartitionResult) -> PartitionResult:
    """Drop the trial axis of a single-dataset run."""
    def one(record):
        return replace(record, **{f: getattr(record, f)[0] for f in record.__dataclass_fields__
                                  if isinstance(getattr(record, f), np.ndarray)})
    return replace(one(result), rounds=tuple(one(r) for r in result.rounds), heavy=one(result.heavy),
                   final=one(result.final))


def _check_heavy(heavy: str, rho: float | None, epsilon: float) -> float:
    return (epsilon ** 2 / 2 if rho is None else rho) if heavy == "gaussian" else math.inf


@validated(x=_ROWS, epsilon=EPSILON, rng=Seed(), beta=_BETA, fractions=_FRACTIONS, heavy=_HEAVY,
           rho=Real(low=0, low_open=True), rounds=_ROUNDS)
def partition_rounds(x, epsilon: float, rng: RngLike = None, beta: float = 0.1, fractions=DEFAULT_FRACTIONS,
                     heavy: str = "laplace", rho: float | None = None, rounds: int | None = None,
                     stop_early: bool = True) -> PartitionResult:
    r"""Estimate the marginals of a binary product distribution from rows ``x`` by partitioning rounds (Singhal 2023).

    Guarantee: with ``heavy="laplace"`` (default) **ε-DP (pure)** for replace-one neighbouring datasets of rows
    in :math:`\{0,1\}^d`: every block's release adds :math:`\mathrm{Lap}(2T/(\varepsilon n_{\text{block}}))` to an
    :math:`\ell_1`-clipped mean (:math:`\ell_1` sensitivity :math:`2T/n_{\text{block}}`), and blocks are disjoint
    (parallel composition, Singhal 2023, Prop 3.2). With ``heavy="gaussian"``: :math:`\max(\varepsilon^2/2, \rho)`-zCDP
    (Gaussian noise with :math:`\sigma = \Delta_2/\sqrt{2\rho}`, :math:`\Delta_2 = 2C_H/n_H`, on the heavy block).

    Algorithm (docs/algorithms.md §3.3): with :math:`L_0 = \ln(2d/\beta)`, while :math:`u|S| > L_0` (``stop_early``)
    and rounds remain: :math:`T_r = \mathrm{Bern}(u|S|, u|S|, 1, \ln(2n_PR/\beta))`,
    :math:`\tilde q_j = \overline{\Pi^1_{T_r}(x_S)}_j + \mathrm{Lap}(2T_r/(\varepsilon n_P))`,
    :math:`H_r = \{j : \tilde q_j \ge \tfrac38 u\}`, :math:`s_j = u` on :math:`H_r`, :math:`u \leftarrow u/2`.
    Heavy block: :math:`y_j = x_j/\sqrt{s_j}`,
    :math:`T_H = \mathrm{Bern}(\sum_H\sqrt{s_j}, |H|, 1/\min\sqrt{s_j}, \ln(2n_H/\beta))`,
    :math:`q_j = \sqrt{s_j}\,(\overline{\Pi^1_{T_H}(y)}_j + \mathrm{Lap}(2T_H/(\varepsilon n_H)))`. Final block:
    :math:`T_F = \mathrm{Bern}(u|S|, u|S|, 1, \ln(2n_F/\beta))` and one Laplace round. Output
    :math:`\mathrm{clip}_{[0,1/2]}(q)`. Theory (Singhal 2023, Thm 3.1, with DPSGLearner in place of the Laplace heavy
    step): :math:`n = \tilde O(d/\alpha^2 + d/(\alpha\varepsilon))` for :math:`d_{TV} \le \alpha`.

    Parameters
    ----------
    x : array of shape (n, d), or (trials, n, d) for many independent datasets at once
        Rows in :math:`\{0, 1\}^d` (booleans or 0/1). Marginals are assumed :math:`\le 1/2` (flip a coordinate
        otherwise; the guarantee does not depend on it).
    epsilon : float
        Privacy parameter of every block (and of the whole algorithm), :math:`\varepsilon > 0`.
    rng : None, int or numpy.random.Generator, optional
        Drives the shuffle and the noise: ``None`` (fresh OS entropy), a non-negative integer seed or a Generator.
    beta : float, default 0.1
        Failure probability the clip radii are sized for, :math:`0 < \beta < 1`.
    fractions : (f_P, f_H, f_F), default (0.3, 0.4, 0.3)
        Shares of the rows for the partition rounds, the heavy block and the final block: three positive numbers
        summing to 1.
    heavy : {"laplace", "gaussian"}, default "laplace"
        The heavy-block learner: the Laplace heavy step (pure substitute for DPSGLearner) or the Gaussian one (zCDP).
    rho : float, optional
        zCDP parameter :math:`\rho > 0` of the Gaussian heavy step (default :math:`\varepsilon^2/2`); unused with
        ``heavy="laplace"``.
    rounds : int, optional
        Number of partition blocks, in :math:`[1, 64]` (default :math:`\max(1, \lceil\log_2(d/L_0)\rceil)`).
    stop_early : bool, default True
        Apply the stopping rule :math:`u|S| \le L_0`.

    Returns
    -------
    PartitionResult
        ``estimate`` (shape (d,) or (trials, d)) and the per-round trace.

    Examples
    --------
    >>> from dpcore.distributions import binary_product as products
    >>> p = products.marginal_profile("log-uniform", 64)
    >>> result = partition_rounds(products.sample_rows(p, 200_000, rng=0), epsilon=1.0, rng=1)
    >>> result.guarantee, result.estimate.shape, len(result.rounds) <= result.layout.rounds
    ('1-DP (pure)', (64,), True)
    >>> bool(products.tv_distance(p, result.estimate, rng=2).value < 0.05)
    True
    """
    rows = np.asarray(x, dtype=float)
    single = rows.ndim == 2
    rows = rows[None] if single else rows
    if np.any((rows != 0) & (rows != 1)):
        raise InvalidParameterError("x must contain only 0/1 (or boolean) entries")
    trials, n, d = rows.shape
    layout = block_layout(n, d, beta, fractions, rounds)
    generator = as_generator(rng)
    shuffled = rows[:, generator.permutation(n), :]
    result = _partition(_RowBlocks(shuffled, layout), layout, trials, d, epsilon, beta, heavy,
                        _check_heavy(heavy, rho, epsilon), stop_early, generator)
    return _squeeze(result) if single else result


def draw_block_counts(p, layout: BlockLayout, trials: int, rng) -> dict:
    """Binomial column counts of every block (fast mode): keys 0..rounds-1, "heavy", "final"."""
    return {block: products.column_counts(p, layout.size(block), rng, trials) for block in layout.slices()}


_MARGINALS = Array(ndim=(1,), low=0, high=0.5, min_size=1)


@validated(p=_MARGINALS, n=Integer(low=3), epsilon=EPSILON, trials=Integer(low=1), rng=Seed(), beta=_BETA,
           fractions=_FRACTIONS, heavy=_HEAVY, rho=Real(low=0, low_open=True), rounds=_ROUNDS)
def simulate_partition_rounds(p, n: int, epsilon: float, trials: int | None = None, rng: RngLike = None,
                              beta: float = 0.1,
                              fractions=DEFAULT_FRACTIONS, heavy: str = "laplace", rho: float | None = None,
                              rounds: int | None = None, stop_early: bool = True) -> PartitionResult:
    r""":func:`partition_rounds` on ``trials`` simulated datasets, without materialising rows.

    Datasets of ``n`` rows from :math:`\bigotimes_j\mathrm{Ber}(p_j)` ("fast mode", docs/algorithms.md §3.1).
    Each block's column sums are drawn exactly as :math:`\mathrm{Binomial}(n_{\text{block}}, p_j)`; the clipping
    steps are skipped, which changes nothing unless a row exceeds its Bernstein radius (probability
    :math:`\le\beta` per block by construction). The noise, thresholds and trace are those of
    :func:`partition_rounds` (same code), so the guarantee of the mechanism it simulates is unchanged.
    Costs :math:`O(\text{trials}\cdot d\cdot R)` instead of :math:`O(\text{trials}\cdot n\cdot d)`.

    Parameters
    ----------
    p : array of shape (d,)
        The marginals :math:`p_j`, each in :math:`[0, 1/2]`.
    n : int
        Rows per dataset, at least 3.
    epsilon : float
        Privacy parameter :math:`\varepsilon > 0`, as in :func:`partition_rounds`.
    trials : int, optional
        Number of independent datasets, at least 1; None for one dataset without a trial axis.
    rng : None, int or numpy.random.Generator, optional
        Drives the simulated counts and the noise: ``None`` (fresh OS entropy), a non-negative integer seed or a
        Generator.
    beta : float, default 0.1
        Failure probability the clip radii are sized for, :math:`0 < \beta < 1`.
    fractions : (f_P, f_H, f_F), default (0.3, 0.4, 0.3)
        Shares of the rows for the partition rounds, the heavy block and the final block: three positive numbers
        summing to 1.
    heavy : {"laplace", "gaussian"}, default "laplace"
        The heavy-block learner, as in :func:`partition_rounds`.
    rho : float, optional
        zCDP parameter :math:`\rho > 0` of the Gaussian heavy step (default :math:`\varepsilon^2/2`).
    rounds : int, optional
        Number of partition blocks, in :math:`[1, 64]` (default as in :func:`partition_rounds`).
    stop_early : bool, default True
        Apply the stopping rule :math:`u|S| \le L_0`.

    Returns
    -------
    PartitionResult
        Per-trial arrays with a leading axis of length ``trials``; none when ``trials`` is None (one dataset).

    Examples
    --------
    >>> from dpcore.distributions import binary_product as products
    >>> p = products.marginal_profile("log-uniform", 64)
    >>> runs = simulate_partition_rounds(p, 200_000, 1.0, trials=5, rng=1)
    >>> runs.estimate.shape, runs.guarantee
    ((5, 64), '1-DP (pure)')
    """
    generator = as_generator(rng)
    layout = block_layout(n, p.size, beta, fractions, rounds)
    counts = draw_block_counts(p, layout, trials or 1, generator)
    result = _partition(_CountBlocks(counts, layout), layout, trials or 1, p.size, epsilon, beta, heavy,
                        _check_heavy(heavy, rho, epsilon), stop_early, generator)
    return _squeeze(result) if trials is None else result


def estimate_from_counts(method: str, counts: dict, layout: BlockLayout, p: np.ndarray, epsilon: float,
                         rng: np.random.Generator, delta: float = 1e-6, beta: float = 0.1):
    """One estimator of :data:`METHODS` on ``trials`` simulated datasets given by their block column counts.

    The counts come from :func:`draw_block_counts`: the partition methods return their :class:`PartitionResult`
    (estimate of shape ``(trials, d)``), the one-shot methods their estimates ``(trials, d)`` from the sum of all
    blocks' counts. The guarantee is that of the method simulated (see :data:`METHODS`).
    """
    if method in (PARTITION_PURE, PARTITION_ZCDP):
        heavy = "laplace" if method == PARTITION_PURE else "gaussian"
        trials = counts["final"].shape[0]
        return _partition(_CountBlocks(counts, layout), layout, trials, p.size, epsilon, beta, heavy,
                          _check_heavy(heavy, None, epsilon), True, rng)
    means = sum(counts.values()) / layout.total
    return _one_shot_release(method, means, layout.total, p.size, epsilon, delta, beta, float(p.sum()), rng)


@validated(p=_MARGINALS, n=Integer(low=3), epsilon=EPSILON, rng=Seed(), delta=Real(0, 1, low_open=True,
                                                                                  high_open=True), beta=_BETA)
def simulate_estimators(p, n: int, epsilon: float, rng: RngLike = None, delta: float = 1e-6,
                        beta: float = 0.1) -> tuple[PartitionResult, dict[str, np.ndarray]]:
    r"""One simulated dataset (fast mode) and every estimator of :data:`METHODS` on it.

    Returns the pure partition's full trace, and ``{method: estimate}`` (the one-shot methods see the same rows, i.e.
    the sum of the block counts; each method draws its own noise). Each estimate has the guarantee of its method
    (:data:`METHODS`).

    Parameters
    ----------
    p : array of shape (d,)
        The marginals :math:`p_j`, each in :math:`[0, 1/2]`.
    n : int
        Rows of the dataset, at least 3.
    epsilon : float
        Privacy parameter :math:`\varepsilon > 0` of every private method.
    rng : None, int or numpy.random.Generator, optional
        Drives the data and, through spawned child streams, each method's noise: ``None`` (fresh OS entropy), a
        non-negative integer seed or a Generator.
    delta : float, default 1e-6
        :math:`0 < \delta < 1`, used by the one-shot Gaussian only.
    beta : float, default 0.1
        Failure probability the clip radii are sized for, :math:`0 < \beta < 1`.

    Returns
    -------
    (PartitionResult, dict of str to numpy.ndarray)
        The pure partition's trace, and every method's estimate of shape ``(d,)``, keyed by method id in the
        order of :data:`METHODS`.

    Examples
    --------
    >>> from dpcore.distributions import binary_product as products
    >>> p = products.marginal_profile("log-uniform", 64)
    >>> trace, estimates = simulate_estimators(p, 200_000, 1.0, rng=1)
    >>> list(estimates) == list(METHODS), bool((trace.estimate == estimates["partition_pure"]).all())
    (True, True)
    """
    generator = as_generator(rng)
    data_rng, *noise_rngs = generator.spawn(1 + len(METHODS))
    layout = block_layout(n, p.size, beta)
    counts = draw_block_counts(p, layout, 1, data_rng)
    estimates: dict[str, np.ndarray] = {}
    trace: PartitionResult | None = None
    for method, noise in zip(METHODS, noise_rngs):
        result = estimate_from_counts(method, counts, layout, p, epsilon, noise, delta, beta)
        if method == PARTITION_PURE:
            trace = _squeeze(result)
        estimates[method] = result.estimate[0] if isinstance(result, PartitionResult) else result[0]
    assert trace is not None  # PARTITION_PURE is one of METHODS
    return trace, estimates


@validated(p=_MARGINALS, rounds=_ROUNDS)
def noiseless_partition(p, rounds: int) -> list[np.ndarray]:
    r"""The groups :math:`H_1, \dots, H_R` the rounds form with exact means, no noise and no stopping rule.

    With :math:`\varepsilon = \infty` (docs/algorithms.md §3.6.1): coordinate :math:`j` joins the first round with
    :math:`p_j \ge \tfrac38 2^{-r}`. Returns the 0-based indices of each group.

    Parameters
    ----------
    p : array of shape (d,)
        The marginals :math:`p_j`, each in :math:`[0, 1/2]`.
    rounds : int
        :math:`R`, in :math:`[1, 64]`.

    Returns
    -------
    list of numpy.ndarray
        ``rounds`` arrays of coordinate indices, one per round (empty where the round selects nothing).

    Examples
    --------
    >>> [group.tolist() for group in noiseless_partition(np.array([0.5, 0.3, 0.1, 0.04, 0.01]), 6)]
    [[0, 1], [2], [], [3], [], [4]]
    """
    layout = BlockLayout(rounds, 1, 1, 1, 0.0)
    result = _partition(_ExactMeans(p), layout, 1, p.size, math.inf, 0.5, "laplace", math.inf, False, None)
    return [np.flatnonzero(r.selected[0]) for r in result.rounds]


@validated(rows=Array(ndim=(2,), low=0, high=1, min_size=1), epsilon=EPSILON, radius=Real(low=0, low_open=True),
           rng=Seed())
def clipped_laplace_means(rows, epsilon: float, radius: float, rng: RngLike = None) -> np.ndarray:
    r"""One partition round's release: :math:`\frac1n\sum_i\Pi^1_T(x_i) + \mathrm{Lap}(2T/(\varepsilon n))^{\otimes d}`.

    Guarantee: **ε-DP** for replace-one neighbours (any rows): clipped rows lie in the :math:`\ell_1` ball of
    radius :math:`T`, so replacing one moves the mean by at most :math:`2T/n` in :math:`\ell_1`.

    Parameters
    ----------
    rows : array of shape (n, d)
        The round's rows, entries in :math:`[0, 1]` (at least one column).
    epsilon : float
        Privacy parameter :math:`\varepsilon > 0`.
    radius : float
        The :math:`\ell_1` clip radius :math:`T > 0`, public.
    rng : None, int or numpy.random.Generator, optional
        Source of the noise: ``None`` (fresh OS entropy), a non-negative integer seed or a Generator
        (:func:`dpcore.core.randomness.as_generator`).

    Returns
    -------
    numpy.ndarray
        The noisy means, shape ``(d,)``.

    Examples
    --------
    >>> rows = np.array([[1.0, 0.0, 0.0]] * 500 + [[1.0, 1.0, 0.0]] * 500)
    >>> released = clipped_laplace_means(rows, epsilon=1.0, radius=2.0, rng=1)  # noise scale 2T/(εn) = 0.004
    >>> bool(np.all(np.abs(released - [1.0, 0.5, 0.0]) < 0.05))
    True
    """
    n = rows.shape[0]
    return np.asarray(laplace(clip_to_ball(rows, radius, order=1).mean(axis=0), 2.0 * radius / n, epsilon, rng))


def _one_shot_release(method, means, n, d, epsilon, delta, beta, total_mass, rng):
    """The private one-shot baselines on the (clipped) mean of all n rows (docs/algorithms.md §3.4).

    The non-private one returns the mean.
    """
    log_term = math.log(2 * n / beta)
    if method == NAIVE:
        noisy = laplace(means, d / n, epsilon, rng)
    elif method == ORACLE:
        noisy = laplace(means, 2.0 * bernstein_bound(total_mass, total_mass, 1.0, log_term) / n, epsilon, rng)
    elif method == ONE_SHOT_GAUSSIAN:
        radius = math.sqrt(bernstein_bound(d / 2, d / 2, 1.0, log_term))
        noisy = gaussian(means, 2.0 * radius / n, epsilon, delta, rng)
    else:
        noisy = means
    return np.clip(noisy, 0.0, 0.5)


def _one_shot_radius(method, n, d, beta, total_mass):
    """The clip radius and norm of a one-shot baseline (None: no clipping needed)."""
    log_term = math.log(2 * n / beta)
    if method == ORACLE:
        return bernstein_bound(total_mass, total_mass, 1.0, log_term), 1
    if method == ONE_SHOT_GAUSSIAN:
        return math.sqrt(bernstein_bound(d / 2, d / 2, 1.0, log_term)), 2
    return None, None


@validated(x=Array(ndim=(2,), low=0, high=1, min_size=1), epsilon=EPSILON,
           method=Choice((NAIVE, ORACLE, ONE_SHOT_GAUSSIAN, NON_PRIVATE)), rng=Seed(), delta=Real(0, 1, low_open=True,
                                                                                                 high_open=True),
           beta=_BETA, total_mass=Real(low=0))
def baseline_estimates(x, epsilon: float, method: str, rng: RngLike = None, delta: float = 1e-6, beta: float = 0.1,
                       total_mass: float | None = None) -> np.ndarray:
    r"""The page's one-shot baselines on rows ``x`` (docs/algorithms.md §3.4), clipped to :math:`[0, 1/2]`.

    * ``"naive_laplace"``: :math:`\bar x + \mathrm{Lap}(d/(\varepsilon n))` — **ε-DP**: two rows of
      :math:`\{0,1\}^d` differ by at most :math:`d` in :math:`\ell_1`, so :math:`\Delta_1 = d/n`. Same noise on every
      coordinate, whatever its size: the estimator Singhal (2023, §1.1) warns about.
    * ``"oracle_laplace"``: :math:`\ell_1`-clip to
      :math:`T = \mathrm{Bern}(\sum p, \sum p, 1, \ln(2n/\beta))`, add :math:`\mathrm{Lap}(2T/(\varepsilon n))` —
      **ε-DP** for any ``total_mass`` fixed in advance, but the radius uses the unknown :math:`\sum_j p_j`
      (``total_mass``): the best a single radius can do, not a usable estimator.
    * ``"one_shot_gaussian"``: :math:`\ell_2`-clip to :math:`C = \sqrt{\mathrm{Bern}(d/2, d/2, 1,
      \ln(2n/\beta))}`, analytic Gaussian for :math:`\Delta_2 = 2C/n` — **(ε, δ)-DP**.
    * ``"non_private"``: the empirical marginals.

    Parameters
    ----------
    x : array of shape (n, d)
        Rows with entries in :math:`[0, 1]` (0/1 for the binary product), at least one column.
    epsilon : float
        Privacy parameter :math:`\varepsilon > 0` (unused by ``"non_private"``).
    method : {"naive_laplace", "oracle_laplace", "one_shot_gaussian", "non_private"}
        The baseline (above).
    rng : None, int or numpy.random.Generator, optional
        Source of the noise: ``None`` (fresh OS entropy), a non-negative integer seed or a Generator
        (:func:`dpcore.core.randomness.as_generator`).
    delta : float, default 1e-6
        :math:`0 < \delta < 1`, used by ``"one_shot_gaussian"`` only.
    beta : float, default 0.1
        :math:`0 < \beta < 1`, the failure probability the clip radii are sized for.
    total_mass : float, optional
        :math:`\sum_j p_j \ge 0`, fixed in advance; required by ``"oracle_laplace"``, unused by the others.

    Returns
    -------
    numpy.ndarray
        The estimates, shape ``(d,)``, clipped to :math:`[0, 1/2]`.

    Examples
    --------
    >>> x = np.tile([[1.0, 0.0], [0.0, 0.0]], (500, 1))  # marginals 1/2 and 0, n = 1000
    >>> baseline_estimates(x, 1.0, "non_private")
    array([0.5, 0. ])
    >>> noisy = baseline_estimates(x, 1.0, "naive_laplace", rng=0)  # Lap(d/(εn)) = Lap(0.002), clipped to [0, 1/2]
    >>> bool(np.all(np.abs(noisy - [0.5, 0.0]) < 0.05))
    True
    """
    n, d = x.shape
    if method == ORACLE and total_mass is None:
        raise InvalidParameterError("total_mass (the oracle's sum of the true marginals) is required for the oracle "
                                    "baseline")
    radius, order = _one_shot_radius(method, n, d, beta, total_mass)
    rows = x if radius is None else clip_to_ball(x, radius, order=order)
    return _one_shot_release(method, rows.mean(axis=0), n, d, epsilon, delta, beta, total_mass, rng)


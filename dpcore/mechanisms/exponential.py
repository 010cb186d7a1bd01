"""Private selection: the exponential mechanism, report-noisy-max and permute-and-flip.

Each picks one of k candidates whose scores have sensitivity Δ; each is ε-DP (the docstrings state the exact
conditions, e.g. the factor 2 for non-monotone scores). Checked by statistical audits (``tests/test_privacy_audit.py``).
"""

from __future__ import annotations

import numpy as np
from scipy import special

from ..core.randomness import RngLike, as_generator
from ..core.validation import EPSILON, SENSITIVITY, Array, Choice, Integer, InvalidParameterError, Seed, validated

__all__ = ["exponential_probabilities", "exponential", "report_noisy_max", "permute_and_flip"]

_SCORES = Array(ndim=(1,), min_size=1)
_BLOCK_CELLS = 1 << 22  #: noise values drawn at once (32 MB of float64), so many draws among many candidates stay small


def _exponent_scale(epsilon: float, sensitivity: float, monotonic: bool) -> float:
    return epsilon / sensitivity if monotonic else epsilon / (2.0 * sensitivity)


def _row_blocks(rows: int, width: int) -> list[slice]:
    """Consecutive row ranges of ``rows`` holding at most :data:`_BLOCK_CELLS` values of ``width`` each.

    Each range holds one row at least.
    """
    step = max(1, _BLOCK_CELLS // width)
    return [slice(start, min(start + step, rows)) for start in range(0, rows, step)]


def _noisy_argmax(values: np.ndarray, noise) -> np.ndarray:
    """``argmax(values + noise(shape), axis=1)`` over row blocks (:func:`_row_blocks`).

    NumPy draws i.i.d. noise as one stream, so the blocks give the same numbers as one draw of the whole table, in
    bounded memory.
    """
    rows, width = values.shape
    return np.concatenate([np.argmax(values[block] + noise((block.stop - block.start, width)), axis=1)
                           for block in _row_blocks(rows, width)])


@validated(scores=Array(ndim=(1, 2), min_size=1), epsilon=EPSILON, sensitivity=SENSITIVITY)
def exponential_probabilities(scores, epsilon: float, sensitivity: float = 1.0, monotonic: bool = False) -> np.ndarray:
    r"""Selection probabilities of the exponential mechanism (McSherry & Talwar 2007).

    .. math:: P(h) \propto \exp\!\big(\varepsilon\,u(X, h) / (2\Delta)\big) \quad (\text{monotonic=False}),
              \qquad P(h) \propto \exp\!\big(\varepsilon\,u(X, h) / \Delta\big) \quad (\text{monotonic=True}).

    Guarantee: :math:`\varepsilon`-DP when every score has sensitivity :math:`\le \Delta` under the
    neighbouring relation in use. ``monotonic=True`` is valid only if, between any two neighbours,
    all scores move in the same direction (e.g. vote counts under add/remove-one); otherwise that
    choice is only :math:`2\varepsilon`-DP. Utility (finite candidates; Dwork & Roth 2014, Thm 3.11):
    :math:`P[u(\hat h) \le \mathrm{OPT} - \tfrac{2\Delta}{\varepsilon}(\ln k + t)] \le e^{-t}`.

    Computed in log space (log-sum-exp), so scores in the millions and :math:`10^6` candidates
    neither overflow nor underflow to all-zero.

    Parameters
    ----------
    scores : array of shape (k,) or (trials, k)
        The scores :math:`u(X, h)` of the :math:`k` candidates (finite, at least one), or one score vector per
        row.
    epsilon : float
        Privacy parameter :math:`\varepsilon > 0`.
    sensitivity : float, default 1.0
        :math:`\Delta > 0`, a bound on every score's sensitivity.
    monotonic : bool, default False
        Use :math:`\exp(\varepsilon u/\Delta)`; valid only for monotone scores (above).

    Returns
    -------
    numpy.ndarray
        The probabilities, of ``scores``' shape; each row sums to 1.

    Examples
    --------
    The election of Kamath's slides on Hopkins, Kamath & Majid (2022), scores (15, 19, 20), :math:`\varepsilon = 0.1`,
    :math:`\propto e^{\varepsilon u}`:

    >>> exponential_probabilities([15, 19, 20], 0.1, monotonic=True).round(4)
    array([0.2415, 0.3603, 0.3982])
    """
    logits = _exponent_scale(epsilon, sensitivity, monotonic) * scores
    return np.exp(logits - special.logsumexp(logits, axis=-1, keepdims=True))


@validated(scores=Array(ndim=(1, 2), min_size=1), epsilon=EPSILON, sensitivity=SENSITIVITY, rng=Seed(),
           size=Integer(low=1), method=Choice(("inverse_cdf", "gumbel")))
def exponential(scores, epsilon: float, sensitivity: float = 1.0, monotonic: bool = False, rng: RngLike = None,
                size: int | None = None, method: str = "inverse_cdf") -> int | np.ndarray:
    r"""Sample candidate indices from the exponential mechanism.

    Same law and guarantee as :func:`exponential_probabilities`; ``size`` independent draws share
    nothing but the scores (each draw alone is :math:`\varepsilon`-DP; ``size`` draws together are
    :math:`\mathrm{size}\cdot\varepsilon`-DP by composition).

    Parameters
    ----------
    scores : array of shape (k,) or (trials, k)
        One score vector, or one per independent dataset (vectorised Monte Carlo): a 2-D array gives
        one draw per row (``size`` must then be None). Finite, at least one candidate.
    epsilon : float
        Privacy parameter :math:`\varepsilon > 0`.
    sensitivity : float, default 1.0
        :math:`\Delta > 0`, a bound on every score's sensitivity.
    monotonic : bool, default False
        Use :math:`\exp(\varepsilon u/\Delta)`; valid only for monotone scores (:func:`exponential_probabilities`).
    rng : None, int or numpy.random.Generator, optional
        Source of the randomness: ``None`` (fresh OS entropy), a non-negative integer seed or a Generator
        (:func:`dpcore.core.randomness.as_generator`).
    size : int, optional
        Number of independent draws, at least 1; None for a single index.
    method : {"inverse_cdf", "gumbel"}, default "inverse_cdf"
        ``"inverse_cdf"``: normalise in log space, then invert the CDF with uniforms.
        ``"gumbel"``: Gumbel-max, :math:`\arg\max_h [\varepsilon u_h/(2\Delta) + G_h]` with i.i.d. standard
        Gumbel :math:`G_h` — exact and never exponentiates a score. Both give the same law.

    Returns
    -------
    int or numpy.ndarray
        One index if ``size`` is None and ``scores`` is 1-D; an array of ``size`` indices; or one
        index per row of a 2-D ``scores``.

    Examples
    --------
    Draw frequencies follow :func:`exponential_probabilities` (0.090, 0.245, 0.665 here):

    >>> draws = exponential([0.0, 1.0, 2.0], 2.0, rng=0, size=10_000)
    >>> (np.bincount(draws, minlength=3) / 10_000).round(2).tolist()
    [0.09, 0.24, 0.66]
    """
    if scores.ndim == 2 and size is not None:
        raise InvalidParameterError(f"size must be None when scores has one row per dataset; got size={size}")
    generator = as_generator(rng)
    count = 1 if size is None else size
    logits = _exponent_scale(epsilon, sensitivity, monotonic) * scores
    if method == "gumbel":
        table = logits if scores.ndim == 2 else np.broadcast_to(logits, (count, scores.size))
        choice = _noisy_argmax(table, lambda shape: generator.gumbel(size=shape))
    else:
        # Unnormalised CDF of exp(logits - max): the same law, no overflow, one exp and one cumsum.
        cdf = np.cumsum(np.exp(logits - logits.max(axis=-1, keepdims=True)), axis=-1)
        if scores.ndim == 1:
            choice = np.searchsorted(cdf, generator.random(count) * cdf[-1], side="right")
        else:
            choice = (cdf <= generator.random((cdf.shape[0], 1)) * cdf[:, -1:]).sum(axis=1)
        choice = np.minimum(choice, scores.shape[-1] - 1)
    return int(choice[0]) if scores.ndim == 1 and size is None else choice


@validated(scores=_SCORES, epsilon=EPSILON, sensitivity=SENSITIVITY, rng=Seed(), size=Integer(low=1))
def report_noisy_max(scores, epsilon: float, sensitivity: float = 1.0, monotonic: bool = False,
                     rng: RngLike = None, size: int | None = None) -> int | np.ndarray:
    r"""Report noisy max: :math:`\arg\max_h\, u_h + \mathrm{Lap}(b)`, releasing only the index.

    :math:`b = 2\Delta/\varepsilon` in general; :math:`b = \Delta/\varepsilon` when ``monotonic`` (all scores move in
    the same direction between neighbours, e.g. counts under add/remove-one; Dwork & Roth 2014, Claim 3.9).
    Guarantee: :math:`\varepsilon`-DP for scores of sensitivity :math:`\le \Delta`. ``size`` independent
    draws are returned as an array (each alone :math:`\varepsilon`-DP).

    Parameters
    ----------
    scores : array of shape (k,)
        The candidates' scores :math:`u_h`, finite, at least one.
    epsilon : float
        Privacy parameter :math:`\varepsilon > 0`.
    sensitivity : float, default 1.0
        :math:`\Delta > 0`, a bound on every score's sensitivity.
    monotonic : bool, default False
        Use :math:`b = \Delta/\varepsilon`; valid only for monotone scores (above).
    rng : None, int or numpy.random.Generator, optional
        Source of the noise: ``None`` (fresh OS entropy), a non-negative integer seed or a Generator
        (:func:`dpcore.core.randomness.as_generator`).
    size : int, optional
        Number of independent draws, at least 1; None for a single index.

    Returns
    -------
    int or numpy.ndarray
        One index if ``size`` is None, else ``size`` indices.

    Examples
    --------
    A score far above the others wins whatever the noise:

    >>> report_noisy_max([0.0, 0.0, 100.0], 1.0, rng=0)
    2
    """
    generator = as_generator(rng)
    scale = sensitivity / epsilon if monotonic else 2.0 * sensitivity / epsilon
    count = 1 if size is None else size
    table = np.broadcast_to(scores, (count, scores.size))
    choice = _noisy_argmax(table, lambda shape: generator.laplace(0.0, scale, size=shape))
    return int(choice[0]) if size is None else choice


@validated(scores=Array(ndim=(1,), min_size=1), epsilon=EPSILON, sensitivity=SENSITIVITY, rng=Seed(),
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
        The candidates' scores :math:`u_h`, finite, at least one.
    epsilon : float
        Privacy parameter :math:`\varepsilon > 0`.
    sensitivity : float, default 1.0
        :math:`\Delta > 0`, a bound on every score's sensitivity.
    rng : None, int or numpy.random.Generator, optional
        Source of the randomness: ``None`` (fresh OS entropy), a non-negative integer seed or a Generator
        (:func:`dpcore.core.randomness.as_generator`).
    size : int, optional
        Number of independent draws (each alone :math:`\varepsilon`-DP), at least 1; None for a single index.

    Returns
    -------
    int or numpy.ndarray
        One index if ``size`` is None, else ``size`` indices.

    Notes
    -----
    Vectorised over draws: one permutation per draw (argsort of uniforms), one acceptance uniform per
    position, and the first accepted position by ``argmax``; :math:`O(\mathrm{size}\cdot k\log k)`. The draws are
    made in blocks of at most :math:`2^{22}/k` (each block's permutations, then its acceptance uniforms), so memory
    stays bounded; up to one block, the numbers are those of a single block.

    Examples
    --------
    >>> permute_and_flip([0.0, 0.0, 100.0], 1.0, rng=0)
    2
    """
    generator = as_generator(rng)
    count = 1 if size is None else size
    accept = np.exp(epsilon / (2.0 * sensitivity) * (scores - scores.max()))
    choice = np.concatenate([_permute_and_flip_block(accept, block.stop - block.start, generator)
                             for block in _row_blocks(count, scores.size)])
    return int(choice[0]) if size is None else choice


def _permute_and_flip_block(accept: np.ndarray, count: int, generator: np.random.Generator) -> np.ndarray:
    """``count`` permute-and-flip draws with acceptance probabilities ``accept``."""
    order = np.argsort(generator.random((count, accept.size)), axis=1)
    first = np.argmax(generator.random(order.shape) < accept[order], axis=1)
    return order[np.arange(count), first]


r"""A class poll's vote counts released with the Laplace or the two-sided geometric mechanism (ε-DP).

Each student casts one vote among the question's choices; the released object is the vector of vote counts. The
neighbouring relation is explicit (``neighbours``): ``"change"`` (one student's vote changed: :math:`\ell_1`
sensitivity 2, the library's replace-one convention, docs/algorithms.md §0.1) or ``"add-remove"`` (one student's vote
added or removed: sensitivity 1). The geometric mechanism is that of Ghosh, Roughgarden & Sundararajan (2009).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..core.guarantees import public, released
from ..core.randomness import RngLike, as_generator
from ..core.validation import EPSILON, Array, Choice, InvalidParameterError, Seed, validated

__all__ = ["PollRelease", "poll_histogram", "NOISES", "NEIGHBOURS", "SENSITIVITY", "MAX_SCALE"]

NOISES = ("geometric", "laplace")  #: the noise options of :func:`poll_histogram`
NEIGHBOURS = ("change", "add-remove")  #: the neighbouring relations of :func:`poll_histogram`
SENSITIVITY = {"change": 2, "add-remove": 1}  #: the count vector's ℓ1 sensitivity under each relation
MAX_SCALE = 1e15  #: the largest noise scale Δ/ε drawn (beyond it integers are no longer exact in a float)


@dataclass(frozen=True)
class PollRelease:
    r"""The released vote counts of a poll.

    Attributes
    ----------
    noisy : numpy.ndarray, released
        The counts plus noise, before any post-processing (integers for ``"geometric"``, reals for ``"laplace"``).
    counts : numpy.ndarray, released
        ``noisy`` post-processed: rounded to the nearest integer and clamped at 0 (post-processing of a private output
        keeps its guarantee). What a class is shown.
    scale : float, public
        The noise scale :math:`b = \Delta_1/\varepsilon` (Laplace scale; for the geometric mechanism
        :math:`P(Z = z) \propto e^{-|z|/b}`).
    sensitivity : int, public
        :math:`\Delta_1` of the count vector under ``neighbours``.
    noise, neighbours : str, public
        The mechanism and the neighbouring relation.
    epsilon : float, public
        The guarantee's :math:`\varepsilon`.
    guarantee : str, public
        The privacy statement.
    """

    noisy: np.ndarray = released()
    counts: np.ndarray = released()
    scale: float = public()
    sensitivity: int = public()
    noise: str = public()
    neighbours: str = public()
    epsilon: float = public()
    guarantee: str = public()


def _two_sided_geometric(generator: np.random.Generator, scale: float, shape: tuple[int, ...]) -> np.ndarray:
    r"""Two-sided geometric noise of scale ``scale`` (:math:`b`), as integers of shape ``shape``.

    :math:`P(Z = z) = \frac{1 - \alpha}{1 + \alpha}\alpha^{|z|}`, :math:`\alpha = e^{-1/b}`: the difference of two
    i.i.d. geometric variables with success probability :math:`1 - \alpha`.
    """
    success = -math.expm1(-1.0 / scale)  # 1 - α, exact for a tiny 1/b
    if success >= 1.0:  # α underflows to 0: no noise can be drawn (and none is needed)
        return np.zeros(shape, dtype=np.int64)
    return generator.geometric(success, size=shape) - generator.geometric(success, size=shape)


@validated(counts=Array(ndim=(1, 2), min_size=1, low=0), epsilon=EPSILON, noise=Choice(NOISES),
           neighbours=Choice(NEIGHBOURS), rng=Seed())
def poll_histogram(counts, epsilon: float, noise: str = "geometric", neighbours: str = "change",
                   rng: RngLike = None) -> PollRelease:
    r"""Release a poll's vote counts with :math:`\varepsilon`-DP, rounded and clamped at 0.

    Every count gets independent noise of scale :math:`\Delta_1/\varepsilon`.

    Guarantee: :math:`\varepsilon`-DP (pure) for the vector of counts under ``neighbours``:

    * ``"change"`` (the default; replace-one, docs/algorithms.md §0.1): one student's vote changed, which moves one
      count down by 1 and another up by 1, :math:`\Delta_1 = 2`. The number of votes is the same on both sides, so it
      may be shown exactly: the guarantee hides *what* each student voted, not *whether* they voted.
    * ``"add-remove"``: one student's vote added or removed, one count moves by 1, :math:`\Delta_1 = 1`. This hides
      whether a student voted only if the number of votes is not shown exactly; a changed vote is then
      :math:`2\varepsilon`-DP (group privacy).

    ``noise="laplace"`` adds :math:`\mathrm{Lap}(\Delta_1/\varepsilon)` to each count (Dwork, McSherry, Nissim &
    Smith 2006; Dwork & Roth 2014, Thm 3.6). ``noise="geometric"`` adds the two-sided geometric noise
    :math:`P(Z = z) \propto \alpha^{|z|}`, :math:`\alpha = e^{-\varepsilon/\Delta_1}`, integer-valued, which is
    :math:`\varepsilon`-DP for integer queries of :math:`\ell_1` sensitivity :math:`\Delta_1` since a shift by one
    changes each probability by at most :math:`e^{\varepsilon/\Delta_1}` (Ghosh, Roughgarden & Sundararajan 2009,
    the :math:`\alpha`-geometric mechanism, their Definition 2.1; universally utility-maximising for a single count,
    their Thm 1.1). Rounding to the nearest integer and clamping at 0 are post-processing: they keep the guarantee.

    Parameters
    ----------
    counts : array of shape (choices,) or (trials, choices)
        The true vote counts: whole numbers >= 0, at least one choice. A 2-d array releases each row independently
        (vectorised Monte Carlo).
    epsilon : float
        Privacy parameter :math:`\varepsilon > 0`; the noise scale :math:`\Delta_1/\varepsilon` may be at most
        :data:`MAX_SCALE`.
    noise : {"geometric", "laplace"}, default "geometric"
        The mechanism.
    neighbours : {"change", "add-remove"}, default "change"
        The neighbouring relation the guarantee is for (sets :math:`\Delta_1` to 2 or 1).
    rng : None, int or numpy.random.Generator, optional
        Source of the noise: ``None`` (fresh OS entropy), a non-negative integer seed or a Generator
        (:func:`dpcore.core.randomness.as_generator`).

    Returns
    -------
    PollRelease
        The noisy counts, the post-processed counts (integers >= 0, of ``counts``' shape), the scale, the sensitivity
        and the statement of the guarantee.

    Raises
    ------
    InvalidParameterError
        If a count is not a whole number, or ``epsilon`` is so small that the noise scale exceeds :data:`MAX_SCALE`.

    Examples
    --------
    At a large ε the released counts are the true ones:

    >>> poll_histogram([12, 7, 0], 1000.0, rng=0).counts.tolist()
    [12, 7, 0]
    >>> poll_histogram([12, 7, 0], 1.0, noise="laplace", rng=0).scale  # Δ1 / ε = 2 under "change"
    2.0
    """
    if np.any(counts != np.round(counts)):
        raise InvalidParameterError(f"counts must be whole numbers of votes; got {counts.tolist()!r}"[:200])
    sensitivity = SENSITIVITY[neighbours]
    scale = sensitivity / epsilon
    if scale > MAX_SCALE:
        raise InvalidParameterError(f"epsilon must be at least {sensitivity / MAX_SCALE:g} (a noise scale "
                                    f"Δ1/ε up to {MAX_SCALE:g}); got epsilon={epsilon!r}")
    generator = as_generator(rng)
    if noise == "laplace":
        noisy = counts + generator.laplace(0.0, scale, size=counts.shape)
    else:
        noisy = counts.astype(np.int64) + _two_sided_geometric(generator, scale, counts.shape)
    shown = np.maximum(np.round(noisy), 0).astype(np.int64)
    relation = {"change": "one student's vote changed", "add-remove": "one student's vote added or removed"}
    guarantee = (f"{epsilon:g}-DP for the vote counts ({noise} noise of scale {scale:g}; neighbours: "
                 f"{relation[neighbours]}, L1 sensitivity {sensitivity}); rounding and clamping at 0 are "
                 "post-processing")
    return PollRelease(noisy=noisy, counts=shown, scale=scale, sensitivity=sensitivity, noise=noise,
                       neighbours=neighbours, epsilon=epsilon, guarantee=guarantee)

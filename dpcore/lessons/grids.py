"""The lessons' grids: log-spaced "nice" values, and the grid value nearest a control's value.

A page's sliders and its animations' frames live on these grids, so a value chosen in the sidebar opens the frame
nearest to it (on a log scale: 0.3 is as far from 0.1 as 3 is from 1).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..core.validation import POSITIVE, Array, Choice, InvalidParameterError, validated

__all__ = ["NICE_MANTISSAS", "log_grid", "nearest"]

NICE_MANTISSAS = (1, 1.5, 2, 3, 5, 7)  #: the steps of a decade: 1, 1.5, 2, 3, 5, 7, 10, …


@validated(low=POSITIVE, high=POSITIVE, mantissas=Array(ndim=(1,), low=1, high=10, min_size=1),
           integer=Choice((False, True)))
def log_grid(low: float, high: float, *, mantissas: Sequence[float] = NICE_MANTISSAS,
             integer: bool = False) -> tuple:
    """Log-spaced "nice" values ``m * 10**e`` (``m`` in ``mantissas``) within ``[low, high]``.

    >>> log_grid(0.5, 3)
    (0.5, 0.7, 1.0, 1.5, 2.0, 3.0)
    >>> log_grid(1, 100, mantissas=(1,), integer=True)
    (1, 10, 100)
    """
    exponents = range(math.floor(math.log10(low)), math.ceil(math.log10(high)) + 1)
    values = [float(f"{m:g}e{e}") for e in exponents for m in mantissas]
    inside = [v for v in values if low * (1 - 1e-9) <= v <= high * (1 + 1e-9)]
    return tuple(int(v) for v in inside if v == int(v)) if integer else tuple(inside)


@validated(value=POSITIVE)
def nearest(frames: Sequence[float], value: float):
    """The value of ``frames`` (positive numbers) closest to ``value`` on a log scale (e.g. the animation frame for
    the sidebar's ε), returned as given in ``frames`` (an int stays an int: it names a frame).

    >>> nearest((0.1, 0.3, 1.0), 0.5)
    0.3
    >>> nearest((1000, 10_000), 5000)
    10000
    """
    if not len(frames) or min(frames) <= 0:
        raise InvalidParameterError(f"frames must be a non-empty sequence of positive numbers; got {frames!r}")
    return min(frames, key=lambda frame: abs(math.log(frame / value)))

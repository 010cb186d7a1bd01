r"""Clipping rows to a norm ball: how an unbounded statistic gets a bounded sensitivity.

If every row is projected into a ball of radius :math:`C` around a public centre, the mean of :math:`n`
rows moves by at most :math:`2C/n` (in that norm) when one row is replaced: :math:`\Delta_2 = 2C/n` for the
:math:`\ell_2` ball, :math:`\Delta_1 = 2C/n` for the :math:`\ell_1` ball, and :math:`\Delta_1 \le 2C\sqrt d/n` for
the :math:`\ell_2` ball (docs/algorithms.md §0.1). Clipping is where privacy starts to cost bias: rows outside
the ball are pulled in.
"""

from __future__ import annotations

import numpy as np

from ..core.validation import Array, Choice, InvalidParameterError, Real, validated

__all__ = ["clip_to_ball", "clipped_fraction"]


@validated(rows=Array(ndim=(2, 3), min_size=1), radius=Array(ndim=(0, 1), low=0, low_open=True), order=Choice((1, 2)))
def clip_to_ball(rows, radius, center=None, order: int = 2) -> np.ndarray:
    r"""Project each row into the :math:`\ell_p` ball of radius ``radius`` around ``center``.

    .. math:: \Pi^p_C(x) = c + (x - c)\,\min\!\left(1, \frac{C}{\|x - c\|_p}\right)

    (radial scaling; for :math:`p = 2` this is the Euclidean projection). Rows already inside are
    unchanged.

    Parameters
    ----------
    rows : array of shape (n, d) or (trials, n, d)
        One dataset of :math:`n` rows, or one per trial; finite, :math:`d \ge 1`.
    radius : float, or array of shape (trials,) for rows of shape (trials, n, d)
        :math:`C > 0` (finite); an array gives each dataset its own radius (e.g. an already private one).
    center : array of shape (d,), optional
        Public centre (default the origin). Must not depend on the data, or the sensitivity bound fails.
    order : {1, 2}, default 2
        The norm :math:`p`.

    Returns
    -------
    numpy.ndarray
        The projected rows, of ``rows``' shape.

    Examples
    --------
    >>> clip_to_ball(np.array([[3.0, 4.0], [0.3, 0.4]]), 1.0)  # the first row (norm 5) lands on the unit circle
    array([[0.6, 0.8],
           [0.3, 0.4]])
    """
    center = np.zeros(rows.shape[-1]) if center is None else np.asarray(center, dtype=float)
    offsets = rows - center
    norms = np.linalg.norm(offsets, ord=order, axis=-1, keepdims=True)
    if np.ndim(radius) == 1 and (rows.ndim != 3 or radius.size != rows.shape[0]):
        raise InvalidParameterError(f"radius must be a number, or one per dataset (shape ({rows.shape[0]},)) for rows "
                                    "of shape "
                                    f"(trials, n, d); got shape {radius.shape} for rows of shape {rows.shape}")
    radius = np.reshape(radius, np.shape(radius) + (1,) * (rows.ndim - np.ndim(radius)))
    scale = np.where(norms > radius, radius / np.where(norms > radius, norms, 1.0), 1.0)
    return center + offsets * scale


@validated(rows=Array(ndim=(2, 3), min_size=1), radius=Real(low=0, low_open=True), order=Choice((1, 2)))
def clipped_fraction(rows, radius: float, center=None, order: int = 2) -> np.ndarray | float:
    r"""Fraction of rows outside the ball (the rows :func:`clip_to_ball` moves), per dataset.

    Parameters
    ----------
    rows : array of shape (n, d) or (trials, n, d)
        One dataset of :math:`n` rows, or one per trial; finite, :math:`d \ge 1`.
    radius : float
        The ball's radius :math:`C > 0`.
    center : array of shape (d,), optional
        The ball's centre (default the origin).
    order : {1, 2}, default 2
        The norm :math:`p`.

    Returns
    -------
    float or numpy.ndarray
        A float for one dataset, shape ``(trials,)`` otherwise. Computed from the data without noise: not private.

    Examples
    --------
    >>> clipped_fraction(np.array([[3.0, 4.0], [0.3, 0.4]]), 1.0)
    0.5
    """
    center = np.zeros(rows.shape[-1]) if center is None else np.asarray(center, dtype=float)
    outside = np.linalg.norm(rows - center, ord=order, axis=-1) > radius
    fraction = outside.mean(axis=-1)
    return float(fraction) if np.ndim(fraction) == 0 else fraction

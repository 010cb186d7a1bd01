"""The Laplace mechanism (Dwork, McSherry, Nissim & Smith 2006).

Guarantee stated in the docstring; checked by a statistical audit (``tests/test_privacy_audit.py``). Neighbouring
datasets are replace-one unless a docstring says otherwise; the caller passes a correct sensitivity.
"""

from __future__ import annotations

import numpy as np

from ..core.randomness import RngLike, as_generator
from ..core.validation import EPSILON, Array, Seed, float_if_scalar, validated

__all__ = ["laplace"]


@validated(value=Array(min_size=0), sensitivity=Array(low=0, low_open=True), epsilon=EPSILON, rng=Seed())
def laplace(value, sensitivity, epsilon: float, rng: RngLike = None) -> float | np.ndarray:
    r"""The Laplace mechanism: ``value + Lap(sensitivity / epsilon)`` in every coordinate.

    Guarantee: :math:`\varepsilon`-DP (pure) when ``sensitivity`` bounds the :math:`\ell_1` distance
    :math:`\|f(X) - f(X')\|_1` between the query's values on neighbouring datasets
    (Dwork, McSherry, Nissim & Smith 2006; Dwork & Roth 2014, Thm 3.6; used by Singhal 2023, Hopkins, Kamath &
    Majid 2022 and Kamath, Singhal & Ullman 2020).

    Parameters
    ----------
    value : float or array
        The exact query value(s), finite, of any shape. An array of shape ``(trials,)`` privatises many independent
        releases at once (one per trial, vectorised Monte Carlo).
    sensitivity : float or array
        :math:`\Delta_1 > 0` (every entry finite and positive); an array broadcast against ``value`` gives each
        release its own sensitivity (e.g. a data-dependent but already private clipping window).
    epsilon : float
        Privacy parameter :math:`\varepsilon > 0`.
    rng : None, int or numpy.random.Generator, optional
        Source of the noise: ``None`` (fresh OS entropy), a non-negative integer seed or a Generator
        (:func:`dpcore.core.randomness.as_generator`).

    Returns
    -------
    float or numpy.ndarray
        A float for a scalar ``value``, otherwise an array of ``value``'s shape.

    Notes
    -----
    Noise :math:`\mathrm{Lap}(b)`, :math:`b = \Delta_1/\varepsilon`: density :math:`e^{-|z|/b}/(2b)`,
    variance :math:`2b^2`.

    Examples
    --------
    The noise is Lap(Δ/ε): its mean absolute value is Δ/ε (here 1/0.5 = 2).

    >>> draws = laplace(np.zeros(100_000), 1.0, 0.5, rng=0)
    >>> round(float(np.mean(np.abs(draws))), 2)
    2.0
    """
    generator = as_generator(rng)
    scale = np.broadcast_to(sensitivity / epsilon, np.broadcast_shapes(np.shape(value), np.shape(sensitivity)))
    return float_if_scalar(value + generator.laplace(0.0, scale))


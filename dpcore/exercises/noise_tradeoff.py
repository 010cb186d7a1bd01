"""Check yourself, "Pure vs approximate DP": the Laplace mechanism's scale, (to be extended to three kinds)."""

from __future__ import annotations

import numpy as np

from .base import Exercise, Variant

__all__ = ["EXERCISES"]


def _laplace_scale(rng: np.random.Generator) -> Variant:
    """The Laplace mechanism's noise scale :math:`b = \\Delta_1 / \\varepsilon` (Dwork, McSherry, Nissim & Smith
    2006; Dwork & Roth 2014, Thm 3.6), for a sum of values in :math:`[0, w]` (sensitivity :math:`\\Delta_1 = w`)."""
    width = float(rng.choice([1, 2, 5, 10]))
    epsilon = float(rng.choice([0.1, 0.2, 0.25, 0.5, 1.0, 2.0]))
    scale = width / epsilon
    return Variant(
        prompt=(f"Each person's value lies in $[0, {width:g}]$ and the Laplace mechanism releases their **sum** with "
                f"$\\varepsilon = {epsilon:g}$. What is the noise scale $b$ it adds? (to within 0.01)"),
        hints=("One person changes the sum by at most the width of the range: that is the sensitivity Δ.",
               "The Laplace mechanism's scale is b = Δ / ε."),
        solution=f"Δ = {width:g} (one value moves the sum by at most {width:g}), so b = Δ / ε = {width:g} / "
                 f"{epsilon:g} = {scale:g}.",
        why=f"b = Δ / ε = {width:g} / {epsilon:g} = {scale:g}.",
        answer=scale, tolerance=0.01)


EXERCISES = (Exercise("laplace_scale", "numeric", "The Laplace scale", _laplace_scale),)

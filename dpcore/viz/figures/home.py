"""Figures of the lesson "Home": the Laplace mechanism's densities on neighbouring datasets, animated over ε."""

from __future__ import annotations

import plotly.graph_objects as go

from ...core.validation import validated
from ...lessons import home
from ..animation import FrameData, Series, animated_sweep
from ..constraints import FLAG
from ..style import METHOD_COLORS, OKABE_ITO

__all__ = ["neighbouring_densities"]


@validated(presentation=FLAG)
def neighbouring_densities(start: str | None = None, presentation: bool = False) -> go.Figure:
    """The two output densities of :func:`dpcore.lessons.home.neighbouring_densities`, one frame per ε of
    :data:`~dpcore.lessons.home.EPSILONS`, opening on frame ``start``."""
    count = home.COUNT
    frames = []
    for epsilon in home.EPSILONS:
        curves = home.neighbouring_densities(epsilon)
        frames.append(FrameData(f"{epsilon:g}", [
            Series(f"on X (count {count})", curves["z"], curves["on_x"], kind="curve", color=OKABE_ITO["blue"]),
            Series(f"on X′ (count {count + 1})", curves["z"], curves["on_x_prime"], kind="curve",
                   color=OKABE_ITO["vermillion"]),
            Series("e<sup>−ε</sup> × on X", curves["z"], curves["floor"], kind="theory", color=METHOD_COLORS["theory"]),
        ]))
    return animated_sweep(frames, x_title="released count z", y_title="likelihood of z (peak = 1)", frame_title="ε",
                          title="Laplace mechanism on neighbours X, X′", log_x=False, log_y=False,
                          presentation=presentation, start=start)

"""Figures of the lesson "Partitioning rounds": the rounds as an animation."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ...core.validation import Array, validated
from ..animation import FrameData, Series, animated_sweep
from ..style import _DARK_GREY, _DARK_YELLOW, _FLAG, _GREY, _TITLE, OKABE_ITO

__all__ = ["partition_rounds_figure"]

# --------------------------------------------------------------------------------------- one run



_GROUP_COLORS = [OKABE_ITO["vermillion"], OKABE_ITO["orange"], _DARK_YELLOW, OKABE_ITO["bluish green"],
                 OKABE_ITO["sky blue"], OKABE_ITO["blue"], OKABE_ITO["reddish purple"]]



def _points(name, x, y, color, fallback_x):
    """A scatter series; an empty one is a single invisible point (every frame keeps every series)."""
    if len(x) == 0:
        return Series(name, [fallback_x], [np.nan], kind="points", color=color)
    return Series(name, x, y, kind="points", color=color)



@validated(truth=Array(ndim=(1,), low=0, low_open=True, min_size=1), title=_TITLE, presentation=_FLAG)
def partition_rounds_figure(truth, result, *, title: str = "", presentation: bool = False) -> go.Figure:
    r"""The partitioning rounds of :func:`dpcore.estimators.partition_rounds.partition_rounds` as an animation, one frame per round,
    then a last frame with the final estimates.

    x: each coordinate's true marginal :math:`p_j` (log); y: its noisy round mean (log; values at or below
    :math:`\min_j p_j/4`, negative ones included, are drawn on that floor). Round frames show the coordinates
    still to place (grey), each group :math:`H_r` in its colour at the value that selected it, the round's
    threshold :math:`\tfrac38u_r` (dotted) and bound :math:`u_r` (dashed); the last frame shows every
    coordinate's final estimate :math:`\hat q_j`, coloured by its group. The diagonal is the truth.

    Parameters
    ----------
    truth : array of shape (d,)
        The true marginals.
    result : dpcore.estimators.partition_rounds.PartitionResult
        A single-dataset run (no trial axis).
    """
    floor = float(truth.min()) / 4
    low, high = float(truth.min()), float(truth.max())
    def shown(values):
        return np.maximum(values, floor)
    group = np.full(truth.size, -1)
    for r, step in enumerate(result.rounds):
        group[step.selected] = r
    names = [f"H{r + 1} (u = 1/{2 ** (r + 1)})" for r in range(len(result.rounds))]
    colors = [_GROUP_COLORS[r % len(_GROUP_COLORS)] for r in range(len(result.rounds))]
    truth_line = Series("truth (q = p)", [low, high], [low, high], kind="curve", color=OKABE_ITO["black"])
    selection_value = np.full(truth.size, np.nan)
    frames = []
    for r, step in enumerate(result.rounds):
        selection_value[step.selected] = step.noisy_means[step.selected]
        waiting = step.candidates & ~step.selected
        series = [_points("still to place", truth[waiting], shown(step.noisy_means[waiting]), _GREY, high)]
        series += [_points(names[g], truth[(group == g) & (g <= r)], shown(selection_value[(group == g) & (g <= r)]),
                           colors[g], high) for g in range(len(names))]
        series += [_points("light (final round)", [], [], OKABE_ITO["black"], high),
                   Series("threshold 3u/8", [low, high], [step.threshold] * 2, kind="baseline", color=_DARK_GREY),
                   Series("bound u", [low, high], [step.bound] * 2, kind="theory", color=_GREY), truth_line]
        frames.append(FrameData(f"round {r + 1}", series))
    estimate = result.estimate
    series = [_points("still to place", [], [], _GREY, high)]
    series += [_points(names[g], truth[group == g], shown(estimate[group == g]), colors[g], high)
               for g in range(len(names))]
    light = group < 0
    series += [_points("light (final round)", truth[light], shown(estimate[light]), OKABE_ITO["black"], high),
               Series("threshold 3u/8", [high], [np.nan], kind="baseline", color=_DARK_GREY),
               Series("bound u", [high], [np.nan], kind="theory", color=_GREY), truth_line]
    frames.append(FrameData("final estimates", series))
    fig = animated_sweep(frames, x_title="true marginal pⱼ", y_title="noisy mean or estimate (floor: min p/4)",
                         frame_title="step", title=title, presentation=presentation)
    fig.update_layout(hovermode="closest")
    return fig


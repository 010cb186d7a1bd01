"""Figures of the lesson "Choosing ε": the ε each release needs by its noise, its simulated releases against its
target, ε against the target, and the attacker's ROC curve animated over the targets.

The page-level builders take only primitive arguments (the plan as its URL text, δ, the seed), so the app caches them
and a notebook rebuilds them with the same call; they draw the numbers of :mod:`dpcore.lessons.choosing_epsilon`.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ...core.validation import DELTA, SEED, Choice, validated
from ...lessons import choosing_epsilon as lesson
from ...lessons.methods import LABELS
from ..animation import FrameData, Series, animated_sweep, figure_height, line_figure
from ..constraints import FLAG
from ..plotly_dict import figure
from ..style import DARK_GREY, METHOD_COLORS, OKABE_ITO, figure_title, template_dict

__all__ = ["RELEASE_COLORS", "mechanisms", "coverage", "epsilon_vs_target", "attacker_roc"]

#: One colour per release of a plan, in order (at most 8), told apart from each other and from the reference lines'
#: dark grey by every vision (:func:`dpcore.viz.style.colour_clashes`)
RELEASE_COLORS = (OKABE_ITO["blue"], OKABE_ITO["vermillion"], "#117733", OKABE_ITO["reddish purple"],
                  OKABE_ITO["black"], "#332288", "#A2932C", "#EE3377")
_PLAN = dict(plan=lesson.PLAN, delta=DELTA, presentation=FLAG)
_BAR_METHODS = ("laplace", "gaussian_analytic", "exponential_mechanism")


@validated(**_PLAN)
def mechanisms(plan: str, delta: float, presentation: bool = False) -> go.Figure:
    """Grouped bars: the smallest ε of each release with Laplace noise (pure), with Gaussian noise at its share of
    δ, and a median's with the exponential mechanism (:func:`dpcore.lessons.choosing_epsilon.mechanism_bars`)."""
    bars = lesson.mechanism_bars(plan, delta)
    categories = np.array(bars["categories"])
    data = []
    for method in _BAR_METHODS:
        values = bars[method]
        shown = np.isfinite(values)
        if not shown.any():
            continue
        data.append(dict(type="bar", name=LABELS[method], x=categories[shown].tolist(), y=values[shown],
                         text=[lesson.epsilon_text(value) for value in values[shown]], textposition="outside",
                         marker=dict(color=METHOD_COLORS[method]), hovertemplate="ε = %{y:.3g}"))
    top = float(np.nanmax([np.nanmax(bars[method]) for method in _BAR_METHODS if np.isfinite(bars[method]).any()]))
    return figure(data, dict(template=template_dict(presentation), title=figure_title("The ε each release needs, by "
                                                                                      "its noise"),
                             uirevision="dplab", barmode="group", hovermode="closest",
                             height=figure_height(presentation, animated=False),
                             xaxis=dict(title=dict(text="release")),
                             yaxis=dict(title=dict(text="smallest ε"), range=[0, 1.18 * top]),
                             uniformtext=dict(mode="hide")))


@validated(**_PLAN, seed=SEED)
def coverage(plan: str, delta: float, seed: int, presentation: bool = False) -> go.Figure:
    """The simulated releases of every release at its smallest ε (seed ``seed``): the share within ±x·t against x,
    with the target ±t (x = 1) and the confidence each asked (:func:`dpcore.lessons.choosing_epsilon.coverage_curves`).
    """
    curves = lesson.coverage_curves(plan, delta, seed)
    ratio, asked = curves["ratio"], sorted(set(curves["confidences"]))
    series = [Series(name, ratio, share, kind="curve", color=colour)
              for name, share, colour in zip(curves["names"], curves["shares"], RELEASE_COLORS)]
    series += [Series("your target ±t", [1.0, 1.0], [0.0, 1.0], kind="baseline", color=DARK_GREY),
               Series("the confidence c asked", [1.0] * len(asked), asked, kind="points", color=DARK_GREY)]
    return line_figure(series, x_title="error as a multiple of the target, x", y_title="share within ±x·t",
                       title=f"{lesson.TRIALS:,} simulated releases of each: how far they land",
                       presentation=presentation)


@validated(**_PLAN)
def epsilon_vs_target(plan: str, delta: float, presentation: bool = False) -> go.Figure:
    """The smallest ε of each release against its target, multiplied by ×0.25 to ×4 (log–log), with marks at your
    targets and at half of them (:func:`dpcore.lessons.choosing_epsilon.epsilon_vs_target`)."""
    curves = lesson.epsilon_vs_target(plan, delta)
    scale = curves["scale"]
    series = [Series(name, scale, epsilons, kind="curve", color=colour)
              for name, epsilons, colour in zip(curves["names"], curves["epsilons"], RELEASE_COLORS)]
    finite = np.concatenate([values[np.isfinite(values)] for values in curves["epsilons"]])
    low, high = float(finite.min()), float(finite.max())
    series += [Series("your targets (×1)", [1.0, 1.0], [low, high], kind="baseline", color=DARK_GREY),
               Series("twice as accurate (×0.5)", [0.5, 0.5], [low, high], kind="baseline", color=OKABE_ITO["orange"])]
    return line_figure(series, x_title="target ±t as a multiple of yours", y_title="smallest ε",
                       title="Twice as accurate, twice the ε", log_x=True, log_y=True, presentation=presentation)


@validated(**_PLAN, start=Choice(tuple(f"×{scale:g}" for scale in lesson.SCALES)))
def attacker_roc(plan: str, delta: float, start: str = "×1", presentation: bool = False) -> go.Figure:
    """The best membership attacker's ROC curve against the whole plan (its true-positive rate at each
    false-positive rate, both on log scales), one frame per target scale of
    :data:`dpcore.lessons.choosing_epsilon.SCALES` (every target multiplied by it), the total ε in each frame's title
    (:func:`dpcore.lessons.choosing_epsilon.roc_frames`), opening on ``start``."""
    frames = []
    for frame in lesson.roc_frames(plan, delta):
        fpr = frame["fpr"]
        title = (f"Targets {frame['label']}: total ε = {lesson.epsilon_text(frame['epsilon'])} "
                 f"({frame['method']})")
        frames.append(FrameData(frame["label"], [
            Series("the best attacker", fpr, frame["tpr"], kind="curve", color=OKABE_ITO["vermillion"]),
            Series("guessing", fpr, fpr, kind="baseline", color=DARK_GREY),
            Series("at 1 % and 5 % false positives", [0.01, 0.05], [frame["tpr_1"], frame["tpr_5"]],
                   kind="points", color=OKABE_ITO["black"]),
        ], title=title))
    return animated_sweep(frames, x_title="false-positive rate", y_title="true-positive rate", frame_title="targets",
                          title="The best attacker against the plan", log_x=True, log_y=True,
                          presentation=presentation, start=start)

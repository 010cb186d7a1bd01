"""Figures of the lesson "Audit studio": the one-run bound against the number of guesses (animated over the number of
canaries), the same audit repeated over seeds as a band, the empirical trade-off curve in confidence boxes over the
claim's curve, and the three ways of choosing a threshold against the claimed ε.

The builders take only primitive arguments, so the app caches them and a notebook rebuilds them with the same call;
they draw the numbers of :mod:`dpcore.lessons.audit_studio`.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ...core.validation import EPSILON, SEED, Choice, Integer, Real, validated
from ...lessons import audit_studio as lesson
from ..animation import FrameData, Series, animated_sweep, line_figure
from ..constraints import FLAG
from ..style import METHOD_COLORS, OKABE_ITO

__all__ = ["MODE_COLORS", "HONESTY_COLORS", "bound_vs_guesses", "seed_band", "tradeoff", "honesty"]

_MODE = Choice(lesson.MODES)
_M = Choice(lesson.CANARIES)
_GUESSES = Integer(low=0, high=10_000)
_DELTA = Choice(lesson.DELTAS)
_CONFIDENCE = Real(0.5, 1, high_open=True)
_BUG = Choice(lesson.BUGS)
_DRAWS = Choice(lesson.DRAW_OPTIONS)
_MANY = Choice(lesson.MANY)
#: One colour per one-run mechanism
MODE_COLORS = {"randomized-response": OKABE_ITO["blue"], "laplace": OKABE_ITO["bluish green"],
               "aggregate": OKABE_ITO["vermillion"]}
#: One colour per way of choosing the threshold
HONESTY_COLORS = {"naive": OKABE_ITO["vermillion"], "bonferroni": OKABE_ITO["blue"], "split": OKABE_ITO["bluish green"]}
_SHORT = {"randomized-response": "isolated canaries, randomized response",
          "laplace": "isolated canaries, Laplace noise", "aggregate": "one noisy sum of all canaries"}


def _claimed(epsilon: float, x) -> Series:
    return Series(f"claimed ε = {epsilon:g}", [x[0], x[-1]], [epsilon, epsilon], kind="baseline",
                  color=METHOD_COLORS["theory"])


@validated(mode=_MODE, guesses_in=_GUESSES, guesses_out=_GUESSES, epsilon=EPSILON, delta=_DELTA,
           confidence=_CONFIDENCE, bug=_BUG, seed=SEED, m=_M, presentation=FLAG)
def bound_vs_guesses(mode: str, guesses_in: int, guesses_out: int, epsilon: float, delta: float, confidence: float,
                     bug: str, seed: int, m: int = 1000, presentation: bool = False) -> go.Figure:
    """One audit's lower bound on ε against the number of guesses r (shared between "in" and "out" as
    :math:`k_+ : k_-`), the chosen guesses marked, and the claimed ε; one frame per number of canaries m
    (:func:`~dpcore.lessons.audit_studio.bound_frames`), opening on ``m``."""
    frames = []
    for frame in lesson.bound_frames(mode, guesses_in, guesses_out, epsilon, delta, confidence, bug, seed):
        guesses = frame["guesses"].astype(float)
        frames.append(FrameData(frame["label"], [
            Series("lower bound on ε, one run", guesses, frame["bounds"], kind="simulation", color=MODE_COLORS[mode]),
            Series("your guesses, k₊ + k₋", [float(max(frame["chosen"], 1))], [frame["chosen_bound"]],
                   kind="points", color=OKABE_ITO["black"]),
            _claimed(epsilon, np.array([10.0, float(lesson.CANARIES[-1])])),
        ], title=f"{_SHORT[mode][0].upper()}{_SHORT[mode][1:]}: m = {frame['label']}"))
    return animated_sweep(frames, x_title="guesses r = k₊ + k₋ (log scale)", y_title="lower bound on ε",
                          frame_title="canaries m", title="The bound against the guesses", log_x=True, log_y=False,
                          presentation=presentation, start=f"{m:,}")


@validated(mode=_MODE, m=_M, guesses_in=_GUESSES, guesses_out=_GUESSES, epsilon=EPSILON, delta=_DELTA,
           confidence=_CONFIDENCE, bug=_BUG, presentation=FLAG)
def seed_band(mode: str, m: int, guesses_in: int, guesses_out: int, epsilon: float, delta: float, confidence: float,
              bug: str, presentation: bool = False) -> go.Figure:
    """The audit repeated over seeds (:func:`~dpcore.lessons.audit_studio.seed_band`): the median bound and its
    10–90 % band against the guesses, for isolated canaries and for one noisy sum, with the claimed ε."""
    band = lesson.seed_band(mode, m, guesses_in, guesses_out, epsilon, delta, confidence, bug)
    guesses = band["guesses"].astype(float)
    series = [Series(_SHORT[kind], guesses, values["median"], lower=values["low"],
                     upper=values["high"], kind="simulation", color=MODE_COLORS[kind])
              for kind, values in band["bands"].items()]
    return line_figure([*series, _claimed(epsilon, guesses)], x_title="guesses r = k₊ + k₋ (log scale)",
                       y_title="lower bound on ε", title=f"{lesson.SEEDS} audits of m = {m:,} canaries", log_x=True,
                       presentation=presentation)


def _boxes(points, chosen: np.ndarray) -> tuple[list[float], list[float]]:
    """The outlines of the chosen boxes as one path, each closed and cut from the next by a gap."""
    xs: list[float] = []
    ys: list[float] = []
    for index in np.flatnonzero(chosen):
        x0, x1 = float(points.fpr_low[index]), float(points.fpr_high[index])
        y0, y1 = float(points.fnr_low[index]), float(points.fnr_high[index])
        xs += [x0, x1, x1, x0, x0, x0]
        ys += [y0, y0, y1, y1, y0, float("nan")]
    return xs, ys


@validated(mechanism=_MANY, epsilon=EPSILON, draws=_DRAWS, confidence=_CONFIDENCE, bug=_BUG, seed=SEED,
           presentation=FLAG)
def tradeoff(mechanism: str, epsilon: float, draws: int, confidence: float, bug: str, seed: int,
             presentation: bool = False) -> go.Figure:
    """The empirical trade-off curve (:func:`~dpcore.lessons.audit_studio.tradeoff_curves`): each threshold's
    (false-positive, false-negative) rate in its simultaneous confidence box, over the claim's trade-off curve and
    the correct mechanism's exact one; the boxes wholly below the claim apart, in their own colour."""
    curves = lesson.tradeoff_curves(mechanism, epsilon, draws, confidence, bug, seed)
    points, caught = curves["points"], curves["caught"]
    series = [Series(f"the claim's curve, {curves['claim']}", curves["alpha"], curves["claimed"], kind="theory",
                     color=METHOD_COLORS["theory"]),
              Series("exact curve of the correct mechanism", curves["alpha"], curves["exact"], kind="curve",
                     color=OKABE_ITO["bluish green"])]
    for name, chosen, colour in (("thresholds' tests, boxes on or above the claim", ~caught, OKABE_ITO["blue"]),
                                 ("tests wholly below the claim (caught)", caught, OKABE_ITO["vermillion"])):
        if chosen.any():
            series.append(Series(name, points.fpr[chosen], points.fnr[chosen], kind="points", color=colour))
            xs, ys = _boxes(points, chosen)
            series.append(Series(f"{name}: confidence boxes", xs, ys, kind="curve", color=colour, group=name))
    state = "planted bug" if bug == "bug" else "correct"
    return line_figure(series, x_title="false-positive rate (said X′ on X)",
                       y_title="false-negative rate (said X on X′)",
                       title=f"{curves['title']} ({state}): {draws:,} draws each", presentation=presentation)


@validated(epsilon=EPSILON, confidence=_CONFIDENCE, bug=_BUG, seed=SEED, presentation=FLAG)
def honesty(epsilon: float, confidence: float, bug: str, seed: int, presentation: bool = False) -> go.Figure:
    """Each way of choosing the threshold (:func:`~dpcore.lessons.audit_studio.honesty`): its bounds over the
    repeated audits, sorted (the share of audits at or below each bound), against the claimed ε: where a curve
    crosses the claim, the share to its right is how often that way exceeded it."""
    result = lesson.honesty(epsilon, confidence, bug, seed)
    share = (np.arange(lesson.HONESTY_REPETITIONS) + 0.5) / lesson.HONESTY_REPETITIONS
    series = [Series(lesson.METHOD_WORDS[name][0], share, np.sort(bounds), kind="curve", color=HONESTY_COLORS[name])
              for name, bounds in result["bounds"].items()]
    series.append(_claimed(epsilon, np.array([0.0, 1.0])))
    state = "with the planted bug" if bug == "bug" else "of a correct mechanism"
    return line_figure(series, x_title="share of audits with a smaller bound", y_title="lower bound on ε",
                       title=f"{lesson.HONESTY_REPETITIONS} audits {state}", presentation=presentation)

"""Figures of the lesson "Privacy audit lab": the two output histograms as draws accumulate, the lower bound on ε
against the number of draws, and the attacker's rates against the ε-DP bound."""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go

from ...core.validation import EPSILON, SEED, Choice, Integer, Real, validated
from ...lessons import audit_lab as lesson
from ..animation import FrameData, Series, animated_sweep, line_figure
from ..constraints import FLAG
from ..style import METHOD_COLORS, OKABE_ITO

__all__ = ["audit_histograms", "bound_vs_draws", "attacker_plane"]

_MECHANISM = Choice(tuple(lesson.MECHANISMS))
_LETTER = Choice(("A", "B"))
_DRAWS = Integer(low=100, high=2_000_000)
_CONFIDENCE = Real(0.5, 1, high_open=True)
ON_X, ON_NEIGHBOUR = OKABE_ITO["blue"], OKABE_ITO["vermillion"]
RANGE = f"{100 * lesson.CONFIDENCE:g} %"  # the confidence of the players' ranges (the game's intervals)


def _bins(events) -> tuple[int, float, float]:
    """The histogram's evenly spaced bins, as their number and outer edges: one bin per outcome, or 60 bins over the
    event grid's range."""
    if isinstance(events, int):
        return events, -0.5, events - 0.5
    return 60, float(events[0]), float(events[-1])


def _running_histograms(outputs: np.ndarray, bins: tuple[int, float, float], counts: list[int]) -> np.ndarray:
    """The histogram of ``outputs[:c]`` (clipped to the outer edges) for each ``c`` of the increasing ``counts``: the
    histograms of the pieces between them, summed. Given as a number of bins and a range, NumPy bins by arithmetic
    (checked against the same edges, ``np.linspace`` of that range) instead of sorting every piece."""
    number, low, high = bins
    pieces = np.split(np.clip(outputs[:counts[-1]], low, high), counts[:-1])
    return np.cumsum([np.histogram(piece, number, (low, high))[0] for piece in pieces], axis=0)


@validated(mechanism=_MECHANISM, letter=_LETTER, epsilon=EPSILON, draws=_DRAWS, confidence=_CONFIDENCE, seed=SEED,
           presentation=FLAG, revealed=FLAG)
def audit_histograms(mechanism: str, letter: str, epsilon: float, draws: int, confidence: float, seed: int,
                     start: str | None = None, presentation: bool = False, revealed: bool = True) -> go.Figure:
    """The outputs of variant ``letter`` on X and X′ as histograms (share of the draws per bin), one frame per draw
    count of :func:`~dpcore.lessons.audit_lab.audit_path`, with the best event's threshold and, in each frame's
    title, the lower bound it gives against the claimed ε (opening on frame ``start``, default the last).
    ``revealed=False`` leaves the bound and the verdict out of the titles, for a student who has not guessed yet
    (the answer of :func:`~dpcore.lessons.audit_lab.broken_question` waits for the guess)."""
    path = lesson.audit_path(mechanism, letter, epsilon, draws, confidence, seed)
    bins = _bins(path["events"])
    edges = np.linspace(bins[1], bins[2], bins[0] + 1)
    centres = (edges[:-1] + edges[1:]) / 2
    counts = path["draws"]
    running = [_running_histograms(outputs, bins, counts) for outputs in (path["x"], path["neighbour"])]
    frames = []
    for index, (count, bound, event) in enumerate(zip(counts, path["best"], path["event"])):
        shares = [histogram[index] / count for histogram in running]
        top = max(float(max(share.max() for share in shares)), 1e-3)
        marker = event if math.isfinite(event) else float(centres[0])
        said = "caught" if bound > epsilon else "not caught"
        title = (f"{count:,} draws each: ε ≥ {bound:.2f}, claim {epsilon:g}: {said}" if revealed
                 else f"{count:,} draws each of variant {letter}")
        frames.append(FrameData(f"{count:,}", [
            Series("outputs on X", centres, shares[0], kind="curve", color=ON_X),
            Series("outputs on X′", centres, shares[1], kind="curve", color=ON_NEIGHBOUR),
            Series("best event's edge", [marker, marker], [0.0, top], kind="baseline",
                   color=METHOD_COLORS["theory"]),
        ], title=title))
    title = lesson.MECHANISMS[mechanism].title
    return animated_sweep(frames, x_title="output (bins)", y_title="share of the draws", frame_title="draws",
                          title=title, log_x=False, log_y=False, presentation=presentation,
                          start=start or frames[-1].label)


@validated(mechanism=_MECHANISM, letter=_LETTER, epsilon=EPSILON, draws=_DRAWS, confidence=_CONFIDENCE, seed=SEED,
           presentation=FLAG)
def bound_vs_draws(mechanism: str, letter: str, epsilon: float, draws: int, confidence: float, seed: int,
                   presentation: bool = False) -> go.Figure:
    """The lower bound on ε against the number of draws: over the whole event grid, and from one weak event alone,
    with the claimed ε (the audit catches the variant where a curve crosses it)."""
    path = lesson.audit_path(mechanism, letter, epsilon, draws, confidence, seed)
    counts = np.asarray(path["draws"], float)
    return line_figure([
        Series("best event of the grid", counts, path["best"], kind="simulation", color=OKABE_ITO["blue"]),
        Series("one weak event", counts, path["weak"], kind="simulation", color=OKABE_ITO["orange"]),
        Series(f"claimed ε = {epsilon:g}", counts[[0, -1]], [epsilon, epsilon], kind="baseline",
               color=METHOD_COLORS["theory"]),
    ], x_title="draws per dataset", y_title="lower bound on ε", title=f"Variant {letter}: the bound as draws grow",
        log_x=True, presentation=presentation)


@validated(epsilon=EPSILON, presentation=FLAG)
def attacker_plane(epsilon: float, players: dict[str, list[float]] | None = None,
                   presentation: bool = False) -> go.Figure:
    """Attackers' (false-positive, true-positive) rates, ``players``: name -> [FPR, TPR] (NaN when undefined), or
    [FPR, TPR, FPR low, FPR high, TPR low, TPR high] to draw each rate's confidence interval as a cross through the
    point (a few rounds give a wide cross: a point beyond the bound may be luck), against what ε-DP allows
    (TPR ≤ e^ε·FPR and 1 − FPR ≥ e^ε·(1 − TPR)), guessing (the diagonal) and the best attacker's exact point."""
    grid = np.linspace(0.0, 1.0, 201)
    ceiling = np.minimum(np.minimum(math.exp(epsilon) * grid, 1 - math.exp(-epsilon) * (1 - grid)), 1.0)
    best = lesson.likelihood_ratio_rates(epsilon)
    series = [
        Series(f"the most a {epsilon:g}-DP attacker can reach", grid, np.maximum(ceiling, grid), kind="theory",
               color=METHOD_COLORS["theory"]),
        Series("guessing", grid, grid, kind="baseline", color=METHOD_COLORS["lower_bound"]),
        Series("likelihood-ratio attacker (exact)", [best["fpr"]], [best["tpr"]], kind="points",
               color=OKABE_ITO["vermillion"]),
    ]
    colours = (OKABE_ITO["blue"], OKABE_ITO["bluish green"])
    for (name, rates), colour in zip((players or {}).items(), colours):
        fpr, tpr = rates[0], rates[1]
        if not (math.isfinite(fpr) and math.isfinite(tpr)):
            continue
        series.append(Series(name, [fpr], [tpr], kind="points", color=colour))
        if len(rates) == 6 and all(math.isfinite(end) for end in rates[2:]):
            series += [Series(f"{name}: {RANGE} range of the false-positive rate", rates[2:4], [tpr, tpr], kind="curve",
                              color=colour, group=name),
                       Series(f"{name}: {RANGE} range of the true-positive rate", [fpr, fpr], rates[4:6], kind="curve",
                              color=colour, group=name)]
    return line_figure(series, x_title="false-positive rate (said 'in' when out)", y_title="true-positive rate",
                       title=f"The attacker against ε = {epsilon:g}", presentation=presentation)

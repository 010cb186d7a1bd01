"""Figures of the lesson "Exponential mechanism": the election, user-level thresholds, the ln k price of selection, the
private median, and the sum-of-squares score over directions with the iterative estimator's path.

The page-level builders take primitive arguments only (numbers, strings) and call
:mod:`dpcore.lessons.exponential_mechanism`; the one-run views are drawn with :func:`dpcore.viz.charts.direction_disk`,
:func:`~dpcore.viz.charts.trajectory_figure` and :func:`~dpcore.viz.charts.bar_figure`.
"""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go

from ...core.validation import EPSILON, SEED, Integer, validated
from ...experiments import run_now
from ...lessons import exponential_mechanism as lesson
from ...lessons.methods import label
from ..animation import FrameData, Series, animated_sweep, line_figure, sweep_frames, theory_series
from ..charts import bar_figure, direction_disk, trajectory_figure
from ..constraints import FLAG
from ..style import GREY, METHOD_COLORS, OKABE_ITO, method_color

__all__ = ["CONVENTIONS", "election_bars", "election_sweep", "user_level_errors", "selection_loss", "median_score",
           "median_density", "median_error", "sdp_disk", "sdp_path"]

#: The two conventions of the election: legend name -> monotone (exp(εu/Δ)) or not (exp(εu/2Δ)), and their colours.
CONVENTIONS = {"factor 2: exp(εu/2Δ)": False, "monotone: exp(εu/Δ)": True}
_CONVENTION_COLORS = (OKABE_ITO["blue"], OKABE_ITO["orange"])
_TRIALS = Integer(low=1, high=10_000)
_N = Integer(low=1)


# --------------------------------------------------------------------------------------- the page

@validated(epsilon=EPSILON, seed=SEED, presentation=FLAG)
def election_bars(epsilon: float, seed: int, presentation: bool = False) -> go.Figure:
    """The election of Kamath's slides (Hopkins, Kamath & Majid 2022) at ``epsilon``: the vote shares, the exact
    probabilities under both conventions and the frequencies of
    :data:`~dpcore.lessons.exponential_mechanism.ELECTION_DRAWS` draws (factor 2), as grouped bars."""
    votes = np.array(lesson.VOTES)
    result = lesson.election(epsilon, seed)
    exact = dict(zip(CONVENTIONS, (result["standard"], result["monotone"])))
    return bar_figure(list(lesson.CANDIDATES), {"votes ÷ total": votes / votes.sum(), **exact,
                                                f"{lesson.ELECTION_DRAWS:,} draws (factor 2)": result["sampled"]},
                      colors=(GREY, *_CONVENTION_COLORS, OKABE_ITO["bluish green"]),
                      x_title="candidate (A: 15 votes, B: 19, C: 20)", y_title="P(announced)",
                      title=f"Who wins a private election at ε = {epsilon:g}?", presentation=presentation)


@validated(presentation=FLAG)
def election_sweep(start: str | None = None, presentation: bool = False) -> go.Figure:
    """The election's exact selection probabilities under both conventions, one frame per ε of
    :data:`~dpcore.lessons.exponential_mechanism.ELECTION_EPSILONS`, opening on frame ``start``."""
    votes = np.array(lesson.VOTES)
    frames = [FrameData(f"{epsilon:g}", [
        Series(name, votes, lesson.election_probabilities(epsilon)["monotone" if monotone else "standard"],
               color=color)
        for (name, monotone), color in zip(CONVENTIONS.items(), _CONVENTION_COLORS)])
        for epsilon in lesson.ELECTION_EPSILONS]
    return animated_sweep(frames, x_title="votes u(h)", y_title="P(h announced)", frame_title="ε",
                          title="Selection probabilities as ε grows", log_x=False, log_y=False,
                          presentation=presentation, start=start)


@validated(trials=_TRIALS, seed=SEED, presentation=FLAG)
def user_level_errors(trials: int, seed: int, start: str | None = None, presentation: bool = False,
                      run=run_now) -> go.Figure:
    """|t̂ − θ*| of the clipped, group-privacy and one-example-per-user exponential mechanisms against m (mean and
    10–90 % band), one frame per user-level ε of :data:`~dpcore.lessons.exponential_mechanism.USER_EPSILONS`."""
    frames = []
    for epsilon in lesson.USER_EPSILONS:
        result = lesson.user_level_vs_m(epsilon, trials, seed, run=run)
        curves = {method: result.curve(method, "per_user") for method in result.methods}
        frames.append(FrameData(f"{epsilon:g}", [
            Series(label(method), np.array(lesson.PER_USER, dtype=float), curve["mean"], curve["lower"],
                   curve["upper"], color=method_color(method))
            for method, curve in curves.items()]))
    return animated_sweep(frames, x_title="examples per user m", y_title="|t̂ − θ*| (mean, 10–90 % band)",
                          frame_title="ε (user-level)", title=f"Choosing a threshold from {lesson.USERS} users",
                          log_y=False, presentation=presentation, start=start)


@validated(trials=_TRIALS, seed=SEED, presentation=FLAG)
def selection_loss(trials: int, seed: int, start: str | None = None, presentation: bool = False,
                   run=run_now) -> go.Figure:
    """The score lost by three ε-DP selectors against the number of candidates k (mean, 10–90 %), with the exponential
    mechanism's exact expected loss and the 90 % bound, one frame per ε of
    :data:`~dpcore.lessons.exponential_mechanism.SELECTION_EPSILONS`."""
    def companions(epsilon: float) -> list[Series]:
        curves = lesson.loss_theory(epsilon)
        return [theory_series("exponential_mechanism", curves["k"], curves["exact"]),
                Series("90 % bound (2/ε)(ln k + ln 10)", curves["k"], curves["bound"], kind="baseline",
                       color=METHOD_COLORS["lower_bound"])]
    frames = sweep_frames(lesson.loss_vs_k(trials, seed, run=run), x="k", frame="epsilon", statistic="mean",
                          theory=companions)
    return animated_sweep(frames, x_title="number of candidates k", y_title="score lost OPT − u(ĥ) (mean, 10–90 %)",
                          frame_title="ε", title="The price of choosing among k candidates", log_y=False,
                          presentation=presentation, start=start)


def _steps(edges: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A piecewise-constant function (``values`` on the intervals between ``edges``) as the corners of its steps."""
    return np.repeat(edges, 2)[1:-1], np.repeat(values, 2)


@validated(n=_N, epsilon=EPSILON, seed=SEED, presentation=FLAG)
def median_score(n: int, epsilon: float, seed: int, presentation: bool = False) -> go.Figure:
    """The rank score −|i − n/2| of every released value, on the dataset of
    :func:`~dpcore.lessons.exponential_mechanism.median_run`."""
    run = lesson.median_run(n, epsilon, seed)
    x, y = _steps(run["edges"], run["scores"])
    return line_figure([Series("rank score −|i − n/2|", x, y, kind="curve", color=OKABE_ITO["blue"])],
                       x_title="released value", y_title="score of its interval", title="The rank score",
                       presentation=presentation)


@validated(n=_N, epsilon=EPSILON, seed=SEED, presentation=FLAG)
def median_density(n: int, epsilon: float, seed: int, presentation: bool = False) -> go.Figure:
    """The private median's exact sampling density on one dataset and the histogram of its draws
    (:func:`~dpcore.lessons.exponential_mechanism.median_run`)."""
    run = lesson.median_run(n, epsilon, seed)
    x, y = _steps(run["edges"], run["density"])
    return line_figure([
        Series("exact sampling density", x, y, kind="curve", color=method_color("exponential_mechanism")),
        Series(f"{lesson.ELECTION_DRAWS:,} draws (histogram)", run["centres"], run["histogram"], kind="baseline",
               color=OKABE_ITO["black"]),
    ], x_title="released value", y_title="density", title=f"Private median of n = {n} points, ε = {epsilon:g}",
        presentation=presentation)


@validated(trials=_TRIALS, seed=SEED, presentation=FLAG)
def median_error(trials: int, seed: int, start: str | None = None, presentation: bool = False,
                 run=run_now) -> go.Figure:
    """|private median − median| and the sample median's error against n (median, 10–90 %) with their theory
    companions, one frame per ε of :data:`~dpcore.lessons.exponential_mechanism.MEDIAN_EPSILONS`."""
    def companions(epsilon: float) -> list[Series]:
        curves = lesson.median_theory(epsilon)
        return [theory_series("exponential_mechanism", curves["n"], curves["private"]),
                theory_series("non_private", curves["n"], curves["non_private"])]
    frames = sweep_frames(lesson.median_vs_n(trials, seed, run=run), x="n", frame="epsilon", theory=companions)
    return animated_sweep(frames, x_title="sample size n", y_title="|private median − median|",
                          frame_title="ε", title="The private median", presentation=presentation, start=start)


@validated(seed=SEED, presentation=FLAG)
def sdp_disk(seed: int, presentation: bool = False) -> go.Figure:
    """Round 1 of :func:`~dpcore.lessons.exponential_mechanism.sum_of_squares`: the SDP score of every direction, the
    direction to the true mean and the sampled one."""
    run = lesson.sum_of_squares(seed)
    start, first = run["result"].trajectory[0], run["result"].directions[0]
    towards = run["true_mean"] - start
    return direction_disk(run["grid"]["radius"], run["grid"]["angle"], run["result"].scores[0],
                          {"direction to the true mean": math.atan2(towards[1], towards[0]),
                           "sampled direction (round 1)": math.atan2(first[1], first[0])},
                          title="SDP score of each direction y (|y| ≤ 1), round 1", presentation=presentation)


@validated(seed=SEED, presentation=FLAG)
def sdp_path(seed: int, presentation: bool = False) -> go.Figure:
    """The bucket means and the path of :func:`~dpcore.lessons.exponential_mechanism.sum_of_squares` to the mean."""
    run = lesson.sum_of_squares(seed)
    return trajectory_figure(run["bucket_means"], run["result"].trajectory, run["true_mean"],
                             title=f"Find a direction, take a step: error {run['error']:.2f}",
                             presentation=presentation)


# --------------------------------------------------------------------------------------- one run








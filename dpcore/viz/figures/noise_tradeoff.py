"""Figures of the lesson "Pure vs approximate DP" (:mod:`dpcore.lessons.noise_tradeoff`): the one-run release clouds,
error versus n (one frame per dimension) and versus d (one frame per ε) with their exact RMSE, the privacy profiles
and the composition of k releases, each built from primitive arguments (the page's controls)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import plotly.graph_objects as go

from ...core.validation import DELTA, EPSILON, SEED, TRIALS, Choice, Integer, validated
from ...experiments import SweepResult, run_now
from ...lessons import noise_tradeoff as lesson
from ...lessons.methods import LABELS
from ..animation import FrameData, Series, animated_sweep, sweep_frames, theory_series
from ..charts import release_clouds
from ..constraints import FLAG
from ..style import METHOD_COLORS, OKABE_ITO

__all__ = ["clouds", "error_vs_n", "error_vs_dimension", "tradeoff_curves", "privacy_profiles", "composition"]

#: The composition curves (accountings, not methods) of :func:`dpcore.lessons.noise_tradeoff.composition_epsilons`:
#: key -> (legend name, colour: the method each accounting belongs to; advanced composition, of the same Laplace
#: releases as basic, in a colour of its own: sky blue beside basic's blue read as one, viz.style.colour_clashes).
COMPOSITION_CURVES = {"basic": ("basic (pure)", METHOD_COLORS["laplace"]),
                      "advanced": ("advanced", OKABE_ITO["bluish green"]),
                      "zCDP": ("zCDP", METHOD_COLORS["zcdp_gaussian"]),
                      "exact Gaussian": ("exact Gaussian", METHOD_COLORS["gaussian_analytic"])}

_RUN = Callable[..., SweepResult]


@validated(n=Integer(low=2), epsilon=EPSILON, delta=DELTA, seed=SEED, presentation=FLAG)
def clouds(n: int, epsilon: float, delta: float, seed: int, presentation: bool = False) -> go.Figure:
    """One run: :func:`dpcore.lessons.noise_tradeoff.release_cloud` drawn by :func:`release_clouds` (Laplace's
    diamond, the Gaussian's disc)."""
    cloud = lesson.release_cloud(n, epsilon, delta, seed)
    return release_clouds(cloud["points"], cloud["center"], cloud["radius"], cloud["releases"],
                          title=f"n = {cloud['n']:,}, ε = {epsilon:g}, δ = {delta:g}", presentation=presentation)


# --------------------------------------------------------------------------------------- sweeps
def _sweep_figure(result: SweepResult, *, x: str, frame: str, fixed: dict, theory: Callable[[str, float], np.ndarray],
                  frame_title: str, title: str, presentation: bool, start: str) -> go.Figure:
    """Simulated RMSE (markers, 10–90 % band) of every method along ``x`` and its exact RMSE (dashed,
    ``theory(method, frame value)`` at the grid's x), one frame per value of ``frame``."""
    x_values = result.grid[x]

    def exact(frame_value: float) -> list[Series]:
        return [theory_series(method, x_values, theory(method, frame_value)) for method in result.methods]

    frames = sweep_frames(result, x=x, frame=frame, fixed=fixed, statistic="rmse", theory=exact)
    return animated_sweep(frames, x_title="sample size n" if x == "n" else "dimension d",
                          y_title="ℓ2 error ‖μ̂ − μ‖", frame_title=frame_title, title=title,
                          presentation=presentation, start=start)


@validated(epsilon=EPSILON, delta=DELTA, trials=TRIALS, seed=SEED, dimension=Choice(lesson.DIMENSIONS),
           presentation=FLAG)
def error_vs_n(epsilon: float, delta: float, trials: int, seed: int, dimension: int = 64, presentation: bool = False,
               run: _RUN = run_now) -> go.Figure:
    """Error vs n at one ε, one frame per dimension (opening on ``dimension``): the Monte Carlo RMSE of
    :func:`dpcore.lessons.noise_tradeoff.error_vs_n` and the exact RMSE
    (:func:`~dpcore.lessons.noise_tradeoff.theory_vs_n`)."""
    return _sweep_figure(lesson.error_vs_n(epsilon, delta, trials, seed, run=run), x="n", frame="dimension",
                         fixed={"epsilon": epsilon},
                         theory=lambda method, d: lesson.theory_vs_n(method, int(d), epsilon, delta),
                         frame_title="dimension d", title=f"Error vs n at ε = {epsilon:g}, δ = {delta:g}",
                         presentation=presentation, start=str(dimension))


@validated(n=Integer(low=2), delta=DELTA, trials=TRIALS, seed=SEED, epsilon=EPSILON, presentation=FLAG)
def error_vs_dimension(n: int, delta: float, trials: int, seed: int, epsilon: float = 1.0, presentation: bool = False,
                       run: _RUN = run_now) -> go.Figure:
    """Error vs d at one n, one frame per ε of :data:`~dpcore.lessons.noise_tradeoff.EPSILON_FRAMES` (opening on the
    frame nearest ``epsilon``): :func:`dpcore.lessons.noise_tradeoff.error_vs_dimension` and its exact RMSE."""
    return _sweep_figure(lesson.error_vs_dimension(n, delta, trials, seed, run=run), x="dimension", frame="epsilon",
                         fixed={"n": n}, theory=lambda method, eps: lesson.theory_vs_dimension(method, n, eps, delta),
                         frame_title="ε", title=f"Error vs d at n = {n:,}, δ = {delta:g}",
                         presentation=presentation, start=f"{lesson.nearest_frame(epsilon):g}")


# --------------------------------------------------------------------------------------- exact curves
@validated(delta=DELTA, presentation=FLAG)
def tradeoff_curves(delta: float, start: str | None = None, presentation: bool = False) -> go.Figure:
    """Privacy as a hypothesis test (f-DP): the trade-off curves of Laplace (ε-DP) and of the analytic Gaussian
    calibrated to (ε, δ), with the least type-II error ε-DP and (ε, δ)-DP allow, one frame per ε of
    :data:`~dpcore.lessons.noise_tradeoff.TRADEOFF_FRAMES` (:func:`dpcore.lessons.noise_tradeoff.tradeoff_curves`),
    opening on ``start``."""
    frames = []
    for epsilon in lesson.TRADEOFF_FRAMES:
        curves = lesson.tradeoff_curves(epsilon, delta)
        alpha = curves["alpha"]
        frames.append(FrameData(f"{epsilon:g}", [
            Series(LABELS["laplace"], alpha, curves["laplace"], kind="curve", color=METHOD_COLORS["laplace"]),
            Series(LABELS["gaussian_analytic"], alpha, curves["gaussian"], kind="curve",
                   color=METHOD_COLORS["gaussian_analytic"]),
            Series("least β ε-DP allows", alpha, curves["pure"], kind="theory", color=METHOD_COLORS["theory"]),
            Series("least β (ε, δ)-DP allows", alpha, curves["approximate"], kind="baseline",
                   color=METHOD_COLORS["lower_bound"]),
            Series("no better than guessing: β = 1 − α", alpha, 1.0 - alpha, kind="baseline", color=OKABE_ITO["black"]),
        ]))
    return animated_sweep(frames, x_title="type-I error α (says X′ when the data are X)",
                          y_title="type-II error β (says X when X′)", frame_title="ε",
                          title=f"Privacy as a test between X and X′, δ = {delta:.0e}", log_x=False, log_y=False,
                          presentation=presentation, start=start)


@validated(presentation=FLAG)
def privacy_profiles(presentation: bool = False) -> go.Figure:
    """δ(ε) of Laplace and the Gaussian at matched zCDP, one frame per noise level ε₀ of
    :data:`~dpcore.lessons.noise_tradeoff.NOISE_FRAMES` (:func:`dpcore.lessons.noise_tradeoff.profile_curves`), with
    the ε₀ where Laplace's profile reaches δ = 0."""
    frames = []
    for noise_epsilon in lesson.NOISE_FRAMES:
        curves = lesson.profile_curves(noise_epsilon)
        frames.append(FrameData(f"{noise_epsilon:g}", [
            *(Series(LABELS[method], curves["epsilon"], curves[method], color=METHOD_COLORS[method])
              for method in lesson.CLOUD_MECHANISMS),
            Series("Laplace reaches δ = 0", [noise_epsilon, noise_epsilon], [lesson.PROFILE_FLOOR, 1.0],
                   kind="baseline", color=METHOD_COLORS["laplace"]),
        ]))
    return animated_sweep(frames, x_title="ε", y_title="δ(ε)", frame_title="noise ε₀",
                          title="Privacy profiles at matched zCDP ρ = ε₀²/2 (b = σ = Δ/ε₀)", log_x=False,
                          presentation=presentation, start="1")


@validated(delta=DELTA, releases=Integer(low=1), presentation=FLAG)
def composition(delta: float, releases: int | None = None, presentation: bool = False) -> go.Figure:
    """Total ε at δ after k releases by four accountings, one frame per per-release ε₀ of
    :data:`~dpcore.lessons.noise_tradeoff.RELEASE_EPSILON_FRAMES`
    (:func:`dpcore.lessons.noise_tradeoff.composition_curves`), with a dotted line at k = ``releases`` if given."""
    counts = np.array(lesson.RELEASES, dtype=float)
    frames = []
    for release_epsilon in lesson.RELEASE_EPSILON_FRAMES:
        totals = lesson.composition_curves(release_epsilon, delta)
        frames.append(FrameData(f"{release_epsilon:g}", [
            Series(COMPOSITION_CURVES[key][0], counts, values, color=COMPOSITION_CURVES[key][1])
            for key, values in totals.items()]))
    marked = [dict(type="line", x0=releases, x1=releases, xref="x", y0=0, y1=1, yref="y domain",
                   line=dict(color="#555555", dash="dot", width=2),
                   label=dict(text=f"k = {releases:,}", textposition="end", yanchor="top", xanchor="right"))]
    return animated_sweep(frames, x_title="number of releases k", y_title=f"total ε at δ = {delta:g}",
                          frame_title="per-release ε₀", title="Composition: total ε after k releases",
                          presentation=presentation, start="0.1",
                          layout=dict(shapes=marked) if releases is not None else None)

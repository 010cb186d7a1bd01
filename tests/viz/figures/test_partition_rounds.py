"""The partitioning-rounds page's figures (dpcore.viz.figures.partition_rounds)."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from dpcore import viz
from dpcore.lessons.methods import label
from tests.examples import stored

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "partition_rounds_figure": dict(
        truth=np.array([0.4, 0.1, 0.01]),
        result=importlib.import_module("dpcore.estimators.partition_rounds").simulate_partition_rounds(
            np.array([0.4, 0.1, 0.01]), 30, 1.0, rng=0, rounds=1
        ),
        title="t",
        presentation=False,
    ),
    "rounds": dict(
        profile="two-level", dimension=16, n=10_000, epsilon=1.0, delta=1e-6, seed=0, presentation=False
    ),
    "error_vs_n": dict(
        profile="two-level", dimension=16, delta=1e-6, trials=2, seed=0, metric="tv", epsilon=0.5, presentation=False
    ),
    "error_vs_dimension": dict(
        profile="log-uniform",
        epsilon=1.0,
        delta=1e-6,
        trials=30,
        seed=0,
        n=15_000,
        presentation=False,
        run=stored,
    ),
    "error_by_profile": dict(
        dimension=16, epsilon=1.0, delta=1e-6, trials=2, seed=0, profile="all tiny", presentation=False
    ),
}


def test_partition_rounds_figure_replays_every_round_then_the_estimates():
    """One frame per round plus the estimates; groups hold the selected coordinates at their selecting values, the
    floor min p/4 replaces values below it, and the final frame places every coordinate exactly once."""
    from dpcore.distributions import binary_product as products
    from dpcore.estimators import partition_rounds as product
    p = products.marginal_profile("log-uniform", 256)
    run = product.simulate_partition_rounds(p, 100_000, 1.0, rng=3)
    fig = viz.figures.partition_rounds.partition_rounds_figure(p, run)
    assert [f.name for f in fig.frames] == [f"round {r + 1}" for r in range(len(run.rounds))] + ["final estimates"]
    floor = p.min() / 4
    for r, step in enumerate(run.rounds):
        traces = {t.name: t for t in fig.frames[r].data}
        assert traces["still to place"].mode == "markers"
        waiting = step.candidates & ~step.selected
        np.testing.assert_allclose(np.asarray(traces["still to place"].y, dtype=float),
                                   np.maximum(step.noisy_means[waiting], floor))
        assert np.asarray(traces["threshold 3u/8"].y, dtype=float)[0] == pytest.approx(3 / 8 * 0.5 ** (r + 1))
    final = {t.name: np.asarray(t.y, dtype=float) for t in fig.frames[-1].data}
    placed = sum(np.isfinite(y).sum() for name, y in final.items() if name.startswith(("H", "light")))
    assert placed == p.size
    np.testing.assert_allclose(np.sort(np.concatenate([y[np.isfinite(y)] for name, y in final.items()
                                                       if name.startswith(("H", "light"))])),
                               np.sort(np.maximum(run.estimate, floor)))


def test_partition_rounds_sweep_figures_name_methods_by_label_with_their_theory():
    """TV vs n: every method of the lesson by its label and registry colour, then the rate shapes (the non-private
    rate joins the non-private entry, each fitted law its method's); KL vs n has no theory; one frame per ε."""
    from dpcore.estimators.partition_rounds import METHODS
    fig = viz.figures.partition_rounds.error_vs_n("log-uniform", 64, 1e-6, 3, 0, epsilon=2.0)
    lines = [trace for trace in fig.data if "(band" not in trace.name]
    assert [trace.name for trace in lines[:6]] == [label(method) for method in METHODS]
    assert [trace.line.color for trace in lines[:6]] == [viz.METHOD_COLORS[method] for method in METHODS]
    assert [(trace.name, trace.legendgroup, trace.line.dash) for trace in lines[6:]] == [
        ("non-private rate 0.40√(d/n)", "non-private", "dash"),
        ("Singhal (2023) rate", "Singhal (2023) rate", "dash"),
        ("partition rounds (pure): fitted c·d^1.5/(εn)", "partition rounds (pure)", "dash"),
        ("naive Laplace: fitted c·d^2/(εn)", "naive Laplace", "dash")]
    assert [frame.name for frame in fig.frames] == ["0.1", "0.2", "0.5", "1", "2", "5"]
    assert fig.layout.sliders[0].active == 4
    assert fig.layout.title.text.replace("<br>", " ") == "TV error vs n (log-uniform, d = 64)"
    kl = viz.figures.partition_rounds.error_vs_n("log-uniform", 64, 1e-6, 3, 0, metric="kl")
    assert [trace.name for trace in kl.data if "(band" not in trace.name] == [label(method) for method in METHODS]

"""The partitioning-rounds page's figures (dpcore.viz.figures.partition_rounds)."""

from __future__ import annotations

from dpcore import viz
from dpcore.lessons.methods import label
from tests.examples import stored

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
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
        ("partition rounds (pure): fitted c·d√d/(εn)", "partition rounds (pure)", "dash"),
        ("naive Laplace: fitted c·d²/(εn)", "naive Laplace", "dash")]
    assert [frame.name for frame in fig.frames] == ["0.1", "0.2", "0.5", "1", "2", "5"]
    assert fig.layout.sliders[0].active == 4
    assert fig.layout.title.text.replace("<br>", " ") == "TV error vs n (log-uniform, d = 64)"
    kl = viz.figures.partition_rounds.error_vs_n("log-uniform", 64, 1e-6, 3, 0, metric="kl")
    assert [trace.name for trace in kl.data if "(band" not in trace.name] == [label(method) for method in METHODS]

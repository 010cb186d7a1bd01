"""The exponential-mechanism page's figures (dpcore.viz.figures.exponential_mechanism)."""

from __future__ import annotations

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "election_bars": dict(epsilon=0.1, seed=0, presentation=False),
    "election_sweep": dict(start="0.1", presentation=False),
    "user_level_errors": dict(trials=2, seed=0, start="0.1", presentation=False),
    "selection_loss": dict(trials=1, seed=0, start="1", presentation=False),
    "median_score": dict(n=10, epsilon=1.0, seed=0, presentation=False),
    "median_density": dict(n=10, epsilon=1.0, seed=0, presentation=False),
    "median_error": dict(trials=2, seed=0, start="0.1", presentation=False),
    "sdp_disk": dict(seed=0, presentation=False),
    "sdp_path": dict(seed=0, presentation=False),
}


def test_the_user_level_curves_and_bands_are_told_apart():
    """Group privacy and one example per user err alike (their lines run together near 0.09, over bands that blended
    into one brown): each method has a colour of its own on every vision, a marker symbol of its own, and the three
    bands are lighter fills outlined in their colour."""
    from dpcore.viz.figures import exponential_mechanism
    from dpcore.viz.style import colour_clashes

    figure = exponential_mechanism.user_level_errors(trials=2, seed=0, start="0.1")
    lines = [trace for trace in figure.data if "(band" not in trace.name]
    assert colour_clashes({trace.name: trace.line.color for trace in lines}) == []
    symbols = [trace.marker.symbol or "circle" for trace in lines]
    assert len(set(symbols)) == len(lines) == 3, symbols
    bands = [trace for trace in figure.data if trace.name.endswith("(band upper)")]
    assert len(bands) == 3 and all(band.fillcolor.endswith(", 0.12)") for band in bands)
    assert all(trace.line.width == 1 for trace in figure.data if "(band" in trace.name)

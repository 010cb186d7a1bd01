"""The pure-vs-approximate page's figures (dpcore.viz.figures.noise_tradeoff)."""


# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "tradeoff_curves": dict(delta=1e-6, start="1", presentation=False),
    "clouds": dict(n=50, epsilon=1.0, delta=1e-6, seed=0, presentation=False),
    "error_vs_n": dict(
        epsilon=1.0, delta=1e-6, trials=2, seed=0, dimension=8, presentation=False
    ),
    "error_vs_dimension": dict(
        n=1000, delta=1e-6, trials=2, seed=0, epsilon=0.3, presentation=False
    ),
    "privacy_profiles": dict(presentation=False),
    "composition": dict(delta=1e-6, releases=100, presentation=False),
}


def test_the_composition_curves_are_told_apart():
    """Basic and advanced composition were two blues (15 apart): each accounting now has a colour no other curve of
    the chart comes near, for typical vision and the colour-vision deficiencies (viz.style.colour_clashes)."""
    from dpcore.viz.figures import noise_tradeoff
    from dpcore.viz.style import colour_clashes

    figure = noise_tradeoff.composition(delta=1e-6, releases=100)
    colours = {trace.name: trace.line.color for trace in figure.data}
    assert set(colours) == {name for name, _ in noise_tradeoff.COMPOSITION_CURVES.values()}
    assert colour_clashes(colours) == []

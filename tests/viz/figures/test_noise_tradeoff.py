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

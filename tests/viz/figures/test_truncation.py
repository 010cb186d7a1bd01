"""The truncation page's figures (dpcore.viz.figures.truncation)."""

from __future__ import annotations

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "clipping_window": dict(
        family="lomax", moment_k=3, n=100, radius=2.0, epsilon=1.0, seed=0, presentation=False
    ),
    "bias_noise_tradeoff": dict(
        family="lomax", moment_k=3, n=100, radius=2.0, epsilon=1.0, presentation=False
    ),
    "error_vs_n": dict(
        family="lomax", epsilon=1.0, trials=2, seed=0, start="3", presentation=False
    ),
    "bias_correction": dict(trials=2, seed=0, start="1", presentation=False),
}



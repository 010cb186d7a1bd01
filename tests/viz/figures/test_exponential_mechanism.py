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



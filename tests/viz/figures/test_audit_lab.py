"""The audit lab's figures (dpcore.viz.figures.audit_lab)."""

from tests.examples import AUDIT

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "audit_histograms": dict(AUDIT, start=None, presentation=False, verdict=False),
    "bound_vs_draws": dict(AUDIT, presentation=False),
    "attacker_plane": dict(epsilon=1.0, players={"you (2 rounds)": [0.5, 1.0]}, presentation=False),
}

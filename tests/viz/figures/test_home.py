"""The home page's figures (dpcore.viz.figures.home)."""


# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "neighbouring_densities": dict(start="1", presentation=False),
}

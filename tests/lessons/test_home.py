"""The home page's lesson (dpcore.lessons.home)."""


# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "deployment_table": dict(),
    "neighbouring_densities": dict(epsilon=1.0, count=42),
    "takeaways": dict(epsilon=1.0),
}

"""Method ids and their labels (dpcore.lessons.methods)."""


# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "label": dict(method="ksu20"),
}

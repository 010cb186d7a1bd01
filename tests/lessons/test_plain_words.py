"""Privacy in plain words (dpcore.lessons.plain_words)."""


# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "belief_after": dict(epsilon=1.0, prior=0.25),
    "epsilon_in_words": dict(epsilon=1.0, delta=1e-6),
    "exp_text": dict(exponent=1.0, spec=".2g"),
}

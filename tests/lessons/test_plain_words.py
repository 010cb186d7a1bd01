"""Privacy in plain words (dpcore.lessons.plain_words)."""

from dpcore.lessons import plain_words

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "belief_after": dict(epsilon=1.0, prior=0.25),
    "epsilon_in_words": dict(epsilon=1.0, delta=1e-6),
    "exp_text": dict(exponent=1.0, spec=".2g"),
    "number_text": dict(value=41.237),
    "superscript": dict(value=-0.72, spec=".2f"),
}


def test_number_text_rounds_to_three_digits_with_separators_and_a_true_minus():
    assert [plain_words.number_text(v) for v in (41.237, -2689.2, 1_234_567.0, 0.000827, -0.0, 1e-9)] == [
        "41.2", "−2,690", "1,230,000", "0.000827", "0", "1e−09"]


def test_superscript_writes_every_digit_sign_and_point_raised():
    assert plain_words.superscript(-1234567890.5, ".1f") == "⁻¹²³⁴⁵⁶⁷⁸⁹⁰·⁵"
    assert plain_words.superscript(2.5) == "²·⁵" and plain_words.superscript(1e-7) == "¹ᵉ⁻⁰⁷"
    assert "^" not in plain_words.superscript(-0.667, ".2f")

"""Check yourself on "Scheffé tournament", from each prompt's own numbers: the privacy term 2 ln(k/β)/(εα), a clipped
user's sensitivity, and the pair of hypotheses set just apart in TV on the mean controls' own values."""

import math
import re

import numpy as np
import pytest
from scipy import stats

from dpcore.exercises.base import grade
from tests.exercises.checks_of_kinds import check_choice, check_numeric, check_words, over_seeds, page, read

EXERCISE, SPECS, _ = page("scheffe-tournament")


@over_seeds
def test_the_privacy_term_is_two_ln_k_over_beta_over_epsilon_alpha(seed):
    made = EXERCISE["privacy_term"].variant(seed)
    k, epsilon, alpha, beta = (read(pattern, made.prompt) for pattern in (
        r"\$k = {}\$", r"\$\\varepsilon = {}\$", r"\$\\alpha = [0-9.]+/5 = {}\$", r"\$\\beta = {}\$"))
    assert alpha == read(r"at most {} between", made.prompt) / 5
    needed = 2 * math.log(k / beta) / (epsilon * alpha)
    assert made.answer == pytest.approx(needed, rel=1e-12)
    assert made.tolerance == read(r"to within {} samples", made.prompt) and made.unit == "samples"
    check_numeric(made, {"the statistical term's ln(k²/β)": 2 * math.log(k * k / beta) / (epsilon * alpha),
                         "α = TV, not TV/5": 2 * math.log(k / beta) / (epsilon * 5 * alpha),
                         "the 2 forgotten": math.log(k / beta) / (epsilon * alpha),
                         "log base 10": 2 * math.log10(k / beta) / (epsilon * alpha)})
    check_words(made)


@over_seeds
def test_a_clipped_user_moves_a_score_by_twice_the_clipping_level(seed):
    made = EXERCISE["user_sensitivity"].variant(seed)
    m = read(r"\$m = {}\$", made.prompt)
    tau = read(r"\\tau = \\sqrt m = {}\$", made.prompt)
    assert tau == pytest.approx(math.sqrt(m))
    assert made.choices[int(made.answer)] == f"Δ = {min(m, 2 * tau):g}"
    assert {f"Δ = {m:g}", f"Δ = {tau:g}", "Δ = 1"} <= set(made.choices)  # group privacy, one end, item level
    check_choice(made)
    check_words(made)


def tv(distance: float) -> float:
    """The TV between N(a, 1) and N(b, 1) at |a − b| = distance: 2Φ(D/2) − 1."""
    return 2 * stats.norm.cdf(distance / 2) - 1


@over_seeds
def test_the_apart_pair_is_the_nearest_mean_beyond_the_tv(seed):
    made = EXERCISE["apart_pair"].variant(seed)
    assert made.controls == ("a", "b")
    mean = read(r"mean to \*\*{}\*\*", made.prompt)
    apart = read(r"more than {} apart", made.prompt)
    means = np.array(SPECS["b"].options)
    assert SPECS["a"].options == SPECS["b"].options and any(math.isclose(mean, a) for a in SPECS["a"].options)
    distances = np.abs(means - mean)
    far_enough = tv(distances) > apart
    nearest = distances[far_enough].min()
    expected = [float(b) for b in means[far_enough & np.isclose(distances, nearest)]]
    assert expected  # every variant is solvable with the control's own values
    for b in expected:
        assert grade("on_page", made, {"a": mean, "b": b}).right
        assert grade("on_page", made, {"a": mean, "b": b}).said == made.why
    closer = means[np.isclose(distances, round(nearest - 0.1, 1))]
    farther = means[np.isclose(distances, round(nearest + 0.1, 1))]
    for b in (*closer, *farther, mean):
        assert not made.accepts({"a": mean, "b": float(b)})
    other = next(a for a in SPECS["a"].options if not math.isclose(a, mean))
    assert not made.accepts({"a": other, "b": expected[0]})
    assert not made.accepts({})
    assert tv(nearest) > apart + 0.002 and tv(nearest - 0.1) < apart - 0.002  # clear on the figure's 3 decimals
    check_words(made)


def test_the_mean_is_written_with_a_minus_sign():
    made = next(made for made in map(EXERCISE["apart_pair"].variant, range(200)) if "**−" in made.prompt)
    assert re.search(r"mean to \*\*−[0-9.]+\*\*", made.prompt)

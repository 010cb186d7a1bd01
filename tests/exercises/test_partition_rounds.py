"""Check yourself on "Partitioning rounds", from each prompt's own numbers: naive Laplace's standard deviation
√2·d/(εn), the round a marginal joins, and the smallest n of the slider giving every round its rows."""

import math
import re

import pytest

from dpcore.exercises.base import grade
from tests.exercises.checks_of_kinds import check_choice, check_numeric, check_words, over_seeds, page, read

EXERCISE, SPECS, _ = page("partitioning-rounds")


@over_seeds
def test_naive_noise_is_root_two_d_over_epsilon_n(seed):
    made = EXERCISE["naive_noise"].variant(seed)
    n, d, epsilon = (read(pattern, made.prompt) for pattern in (r"\$n = {}\$", r"\$d = {}\$",
                                                                 r"with \$\\varepsilon = {}\$"))
    sd = math.sqrt(2) * d / (epsilon * n)
    assert made.answer == pytest.approx(sd, rel=1e-12)
    assert made.tolerance == read(r"to within {}\)", made.prompt)
    check_numeric(made, {"the scale, not the standard deviation": d / (epsilon * n),
                         "one bit's sensitivity 1/n": math.sqrt(2) / (epsilon * n),
                         "the sum, not the average": math.sqrt(2) * d / epsilon})
    check_words(made)


@over_seeds
def test_a_marginal_joins_the_first_round_whose_threshold_it_reaches(seed):
    made = EXERCISE["joining_round"].variant(seed)
    p = read(r"\$p_j = {}\$", made.prompt)
    joins = next(r for r in range(1, 64) if p >= 3 / 8 * 2.0**-r)
    assert 3 / 8 * 2.0**-joins <= p / 1.1 and 3 / 8 * 2.0 ** -(joins - 1) >= p * 1.1  # clear of both thresholds
    assert made.choices[int(made.answer)] == f"Round {joins}"
    offered = [int(re.fullmatch(r"Round (\d+)", choice).group(1)) for choice in made.choices[:3]]
    assert offered == list(range(offered[0], offered[0] + 3)) and made.choices[3].startswith("Never")
    check_choice(made)
    check_words(made)


def rows_per_round(n: int, d: int, beta: float = 0.1) -> int:
    """⌊0.3n/R⌋ with R = max(1, ⌈log₂(d/L₀)⌉), L₀ = ln(2d/β): each partition round's block (Singhal 2023)."""
    rounds = max(1, math.ceil(math.log2(d / math.log(2 * d / beta))))
    return 3 * n // (10 * rounds)


@over_seeds
def test_the_round_rows_are_reached_at_the_smallest_n_of_the_slider(seed):
    made = EXERCISE["round_rows"].variant(seed)
    assert made.controls == ("d", "n")
    d = int(read(r"dimension \$d\$ to \*\*{}\*\*", made.prompt))
    wanted = read(r"at least \*\*{}\*\* rows", made.prompt)
    assert d in SPECS["d"].options
    sizes = SPECS["n"].options
    enough = [n for n in sizes if rows_per_round(n, d) >= wanted]
    assert enough and enough[0] != sizes[0]  # solvable, and not at the slider's first value
    n = enough[0]
    assert grade("on_page", made, {"d": d, "n": n}).right
    assert grade("on_page", made, {"d": d, "n": n}).said == made.why
    position = sizes.index(n)
    for other in sizes[position - 1:position] + sizes[position + 1:position + 2]:
        assert not made.accepts({"d": d, "n": other})
    other_d = next(other for other in SPECS["d"].options if other != d)
    assert not made.accepts({"d": other_d, "n": n})
    assert not made.accepts({})
    check_words(made)

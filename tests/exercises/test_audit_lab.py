"""Check yourself on "Privacy audit lab", from each prompt's own counts: the ε an event's Clopper–Pearson ends prove,
an attacker's record judged by its whole interval, and the smallest ε at which the best attacker reaches a share."""

import math
import re

import pytest
from scipy import stats

from dpcore.exercises.base import grade
from tests.exercises.checks_of_kinds import check_choice, check_numeric, check_words, over_seeds, page, read

EXERCISE, SPECS, _ = page("privacy-audit-lab")


def exact_interval(successes: int, trials: int, level: float) -> tuple[float, float]:
    """The two-sided Clopper–Pearson interval at ``level``, from the beta quantiles."""
    tail = (1 - level) / 2
    low = stats.beta.ppf(tail, successes, trials - successes + 1) if successes else 0.0
    high = stats.beta.ppf(1 - tail, successes + 1, trials - successes) if successes < trials else 1.0
    return float(low), float(high)


@over_seeds
def test_the_audit_bound_is_ln_of_the_lower_over_the_upper_end(seed):
    made = EXERCISE["audit_bound"].variant(seed)
    draws, count, neighbour = (int(read(pattern, made.prompt)) for pattern in (r"\$N = {}\$", r"\$c = {}\$",
                                                                                r"\$c' = {}\$"))
    confidence = read(r"together with {} % confidence", made.prompt) / 100
    assert confidence in SPECS["conf"].options
    level = 1 - 2 * (1 - confidence) / 4  # the event and its complement, in both directions: 4 one-sided tests
    p_low, p_high = exact_interval(count, draws, level)
    q_low, q_high = exact_interval(neighbour, draws, level)
    shown = re.findall(r"\\in \[([0-9.]+), ([0-9.]+)\]", made.prompt)
    assert [tuple(map(float, pair)) for pair in shown] == [
        (float(f"{p_low:.4g}"), float(f"{p_high:.4g}")), (float(f"{q_low:.4g}"), float(f"{q_high:.4g}"))]
    bound = math.log(p_low / q_high)
    assert made.answer == pytest.approx(bound, abs=1e-9)
    others = (math.log((1 - p_high) / (1 - q_low)), math.log(q_low / p_high), math.log((1 - q_high) / (1 - p_low)))
    assert bound > max(others)  # this event itself, not its complement or the other direction, proves the most
    from_shown = math.log(float(shown[0][0]) / float(shown[1][1]))
    assert abs(from_shown - made.answer) < made.tolerance / 5  # the rounded ends are enough
    check_numeric(made, {"the point estimates": math.log(count / neighbour),
                         "the optimistic ends": math.log(p_high / q_low), "no logarithm": p_low / q_high,
                         "log base 10": math.log10(p_low / q_high)})
    check_words(made)


@over_seeds
def test_the_attacker_record_is_judged_by_its_whole_interval(seed):
    made = EXERCISE["attacker_record"].variant(seed)
    epsilon = read(r"\$\\varepsilon = {}\$", made.prompt)
    right, rounds = (int(read(pattern, made.prompt)) for pattern in (r"right {} times", r"times in {} rounds"))
    shown = re.search(r"is \[([0-9.]+) %, ([0-9.]+) %\]", made.prompt).groups()
    exact_low, exact_high = exact_interval(right, rounds, 0.95)
    assert shown == (f"{100 * exact_low:.1f}", f"{100 * exact_high:.1f}")
    bound = math.exp(epsilon) / (1 + math.exp(epsilon))
    assert min(abs(exact_low - bound), abs(exact_high - bound)) >= 0.005  # clear at the shown decimal
    where = "above" if exact_low > bound else "below" if exact_high < bound else "contains"
    start = {"above": "Its interval lies wholly above", "contains": "Its interval contains",
             "below": "Its interval lies wholly below"}[where]
    assert made.choices[int(made.answer)].startswith(start)
    if where == "contains":
        assert right / rounds > bound  # beating the bound, perhaps by luck: the case the page's text is about
    check_choice(made)
    check_words(made)


def test_the_attacker_record_takes_each_answer():
    answers = {int(EXERCISE["attacker_record"].variant(seed).answer) for seed in range(60)}
    assert answers == {0, 1, 2}


@over_seeds
def test_the_best_attacker_reaches_the_share_at_the_smallest_epsilon(seed):
    made = EXERCISE["best_attacker_epsilon"].variant(seed)
    assert made.controls == ("eps",)
    wanted = read(r"at least \*\*{} %\*\*", made.prompt) / 100
    options = SPECS["eps"].options
    accuracy = [1 - math.exp(-epsilon / 2) / 2 for epsilon in options]  # "in" when the count is nearer 51 than 50
    first = next(i for i, share in enumerate(accuracy) if share >= wanted)
    assert first > 0 and accuracy[first] - wanted >= 0.003 and wanted - accuracy[first - 1] >= 0.003
    assert grade("on_page", made, {"eps": options[first]}).right
    assert grade("on_page", made, {"eps": options[first]}).said == made.why
    for other in options[first - 1:first] + options[first + 1:first + 2]:
        assert not made.accepts({"eps": other})
    assert not made.accepts({}) and not made.accepts({"eps": str(options[first])})
    check_words(made)

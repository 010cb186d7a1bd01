"""The lesson "Choosing ε" (dpcore.lessons.choosing_epsilon): the worked example's numbers, the plan as text and its
editor's steps, the tables against dpcore.planning, the simulated releases against planning.coverage, the question's
answer for every kind of release, and the takeaways that wait for the guess."""

import math

import numpy as np
import pytest

from dpcore import planning
from dpcore.core.validation import InvalidParameterError
from dpcore.lessons import choosing_epsilon as lesson
from dpcore.lessons import glossary
from dpcore.lessons.questions import HELD_BACK

WORKED = lesson.WORKED
MIXED = "count:t=10;mean:t=1,m=g,hi=120;histogram:t=5,bins=20;quantile:t=20,hi=100"

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "releases": dict(plan=WORKED),
    "read_plan": dict(raw=WORKED),
    "plan_words": dict(plan=WORKED),
    "edited": dict(plan=WORKED, index=0, kind="count", error=5.0, confidence=0.95, mechanism="laplace", lower=0.0,
                   upper=1.0, n=1000, bins=10, grid=1000),
    "added": dict(plan=WORKED),
    "removed": dict(plan=WORKED, index=1),
    "gaussian_delta": dict(plan=WORKED, delta=1e-6, index=0),
    "epsilon_text": dict(epsilon=0.3),
    "release_rows": dict(plan=WORKED, delta=1e-6, seed=0),
    "mechanism_bars": dict(plan=WORKED, delta=1e-6),
    "simulated_errors": dict(plan=WORKED, delta=1e-6, seed=0),
    "coverage_curves": dict(plan=WORKED, delta=1e-6, seed=0),
    "epsilon_vs_target": dict(plan=WORKED, delta=1e-6),
    "total_rows": dict(plan=WORKED, delta=1e-6),
    "total_caption": dict(plan=WORKED, delta=1e-6),
    "split_rows": dict(plan=WORKED, delta=1e-6, budget=1.0),
    "split_caption": dict(plan=WORKED, delta=1e-6, budget=1.0),
    "risk_rows": dict(plan=WORKED, delta=1e-6),
    "risk_caption": dict(plan=WORKED, delta=1e-6),
    "roc_frames": dict(plan=WORKED, delta=1e-6),
    "halving_question": dict(plan=WORKED, delta=1e-6),
    "takeaways": dict(plan=WORKED, delta=1e-6, budget=1.0, seed=0, revealed=True),
}


def test_the_worked_example_is_the_default_plan_and_its_numbers_are_the_closed_forms():
    assert lesson.releases(WORKED) == planning.WORKED_EXAMPLE
    rows = lesson.release_rows(WORKED, 1e-6, 0)
    assert [row["smallest ε, pure (Laplace)"] for row in rows] == ["0.300", "0.359"]
    assert f"{math.log(20) / 10:.3f}" == "0.300" and f"{0.12 * math.log(20):.3f}" == "0.359"
    totals = lesson.total_rows(WORKED, 1e-6)
    assert totals[0]["total ε"] == "0.659" and totals[0]["smallest"] == "smallest"
    assert [row["smallest"] for row in totals].count("smallest") == 1


def test_the_simulated_share_sits_next_to_the_confidence_asked():
    for row in lesson.release_rows(MIXED, 1e-6, 3):
        share, asked = row["within ±t in 10,000 simulated releases"].split(" (asked: ")
        share = float(share.removesuffix(" %")) / 100
        if row["release"].startswith("4. a median"):
            assert share >= 0.95  # a bound: the exponential mechanism does better
        else:
            assert share == pytest.approx(0.95, abs=0.01)  # 10,000 draws: sd of the share 0.0022
        assert asked == "95 %)"


def test_the_picture_draws_the_tables_simulated_releases():
    calibrated = planning.plan_for(lesson.releases(MIXED), 1e-6)
    for seed in (0, 7):
        errors = lesson.simulated_errors(MIXED, 1e-6, seed)
        assert [float(np.mean(ratio <= 1)) for ratio in errors] == [planning.coverage(item, seed=seed)
                                                                     for item in calibrated.items]
    curves = lesson.coverage_curves(MIXED, 1e-6, 0)
    assert all(np.all(np.diff(share) >= 0) and share[-1] <= 1 for share in curves["shares"])
    assert curves["confidences"] == [0.95] * 4


def test_a_gaussian_release_gets_its_share_of_delta():
    assert lesson.gaussian_delta(MIXED, 1e-6, 1) == 1e-6  # the only Gaussian release: all of δ
    assert lesson.gaussian_delta(MIXED, 1e-6, 0) == 5e-7  # a Laplace release as a Gaussian one: half
    rows = lesson.release_rows(MIXED, 1e-6, 0)
    assert rows[1]["ε with Gaussian noise"].endswith("at δ = 1e-06") and "Gaussian noise" in rows[1]["noise chosen"]
    assert rows[0]["ε with Gaussian noise"].endswith("at δ = 5e-07")
    assert rows[3]["ε with Gaussian noise"].startswith("—")
    bars = lesson.mechanism_bars(MIXED, 1e-6)
    assert bars["chosen"] == ["laplace", "gaussian_analytic", "laplace", "exponential_mechanism"]
    assert np.isnan(bars["laplace"][3]) and np.isnan(bars["gaussian_analytic"][3])
    assert np.isfinite(bars["exponential_mechanism"]).sum() == 1


# ------------------------------------------------------------------------------------------------ the plan as text
@pytest.mark.parametrize("raw, normal", [
    ("count:t=10;mean:t=1,hi=120", WORKED),
    ("mean:hi=120,t=1,c=0.95,m=l", "mean:t=1,hi=120"),
    ("quantile:t=5,hi=10,n=100,grid=50", "quantile:t=5,hi=10,n=100,grid=50"),
])
def test_a_plan_from_a_link_is_read_in_its_normal_form(raw, normal):
    assert lesson.read_plan(raw) == normal


@pytest.mark.parametrize("raw, why", [
    ("", "is not a plan this page can read (release 1 of 1)"),
    ("count:t=10;mean:t=0", "is not a plan this page can read (release 2 of 2)"),
    (";".join(["count:t=1"] * 9), "has more than 8 releases"),
    ("quantile:t=5,m=g", "is not a plan this page can read (release 1 of 1)"),
    ("[log in](https://evil.example)", "is not a plan this page can read (release 1 of 1)"),
])
def test_a_bad_plan_is_refused_in_words_that_never_repeat_it(raw, why):
    with pytest.raises(ValueError) as refused:
        lesson.read_plan(raw)
    assert str(refused.value) == why


def test_the_editor_changes_adds_and_removes_releases():
    edit = dict(kind="count", error=5.0, confidence=0.9, mechanism="gaussian", lower=0.0, upper=1.0, n=1000, bins=10,
                grid=1000)
    assert lesson.edited(WORKED, 0, **edit) == "count:t=5,c=0.9,m=g;mean:t=1,hi=120"
    histogram = lesson.edited(WORKED, 0, **{**edit, "kind": "histogram"})  # a new kind starts from its own
    assert histogram == "histogram:t=20,c=0.9,m=g;mean:t=1,hi=120"
    plan = WORKED
    for kind in ("histogram", "quantile", "count", "count"):
        plan = lesson.added(plan)
        assert lesson.releases(plan)[-1].kind == kind
    assert len(lesson.releases(plan)) == planning.MAX_RELEASES - 2
    plan = lesson.added(lesson.added(plan))
    with pytest.raises(InvalidParameterError, match="at most 8 releases"):
        lesson.added(plan)
    assert lesson.removed(WORKED, 1) == "count:t=10"
    with pytest.raises(InvalidParameterError, match="at least one release"):
        lesson.removed("count:t=10", 0)


@pytest.mark.parametrize("change, words", [
    (dict(kind="mean", lower=5.0, upper=1.0), "The highest value U must be greater than the lowest value L."),
    (dict(kind="quantile", error=500.0, lower=0.0, upper=10.0, n=100), "at most the number of people n"),
    (dict(kind="histogram", bins=1000), "the number of bins is out of its range"),
])
def test_a_change_that_makes_no_release_is_refused_in_words(change, words):
    plan = "mean:t=1;quantile:t=5,hi=10;histogram:t=3"
    index = ["mean", "quantile", "histogram"].index(change["kind"])
    current = lesson.releases(plan)[index]
    values = {field: getattr(current, field) for field in ("kind", "error", "confidence", "mechanism", "lower",
                                                            "upper", "n", "bins", "grid")}
    with pytest.raises(InvalidParameterError) as refused:
        lesson.edited(plan, index, **{**values, **change})
    assert words in str(refused.value) and "=" not in str(refused.value)


# ------------------------------------------------------------------------------------------------ the question
@pytest.mark.parametrize("plan", ["count:t=10", "mean:t=1,hi=120", "histogram:t=5,bins=20", "quantile:t=20,hi=100",
                                  "count:t=10,m=g", "mean:t=0.5,m=g,c=0.99,hi=120"])
def test_halving_the_target_about_doubles_epsilon_for_every_kind(plan):
    question = lesson.halving_question(plan, 1e-6)
    assert question.choices[question.answer].startswith("about twice")
    first = lesson.releases(plan)[0]
    item = planning.plan_for([first], 1e-6).items[0]
    halved = planning.calibrate(planning.Release(**{**first.__dict__, "error": first.error / 2}), item.delta)
    assert lesson.epsilon_text(halved.epsilon) in question.explanation
    assert "^" not in question.prompt + "".join(question.choices)


def test_the_curves_behind_the_question_answer_it():
    curves = lesson.epsilon_vs_target(WORKED, 1e-6)
    half, one = (int(np.argmin(np.abs(curves["scale"] - scale))) for scale in (0.5, 1.0))
    for epsilons in curves["epsilons"]:
        assert epsilons[half] / epsilons[one] == pytest.approx(2.0)
    question = lesson.halving_question(WORKED, 1e-6)
    assert question.choices[question.answer] == "about twice as much: ≈ 0.60"


def test_the_takeaways_wait_for_the_guess():
    waiting = lesson.takeaways(WORKED, 1e-6, 1.0, 0, revealed=False)
    answered = lesson.takeaways(WORKED, 1e-6, 1.0, 0, revealed=True)
    assert HELD_BACK in waiting[0] and "0.599" not in " ".join(waiting)
    assert "0.599" in answered[0] and "2.00 times" in answered[0]
    assert waiting[1:] == answered[1:]
    assert "0.659" in answered[2] and "1.9 %" in answered[3]


# ------------------------------------------------------------------------------------------------ totals, split, risk
def test_the_split_of_a_budget_gives_every_release_the_same_ratio():
    rows = lesson.split_rows(MIXED, 1e-6, 2.0)
    assert len({row["error ÷ target"] for row in rows}) == 1
    assert "zCDP" in lesson.split_caption(MIXED, 1e-6, 2.0)
    short = lesson.split_caption(WORKED, 1e-6, 0.2)
    assert "3.3 times its target, worse than its target" in short


def test_the_attacker_grows_with_the_total_and_the_frames_open_on_the_plan():
    frames = lesson.roc_frames(WORKED, 1e-6)
    assert [frame["scale"] for frame in frames] == list(lesson.SCALES)
    epsilons = [frame["epsilon"] for frame in frames]
    assert epsilons == sorted(epsilons, reverse=True)  # looser targets, smaller ε
    assert [frame["tpr_1"] for frame in frames] == sorted((frame["tpr_1"] for frame in frames), reverse=True)
    assert frames[2]["epsilon"] == pytest.approx(planning.plan_for(planning.WORKED_EXAMPLE).best.epsilon)
    for frame in frames:
        assert np.all(frame["tpr"] >= frame["fpr"] - 1e-12) and np.all(frame["tpr"] <= 1)
        # pure ε-DP: TPR ≤ e^ε·FPR (the numerical composition's grid rounds the losses up: within 0.1 %)
        assert np.all(frame["tpr"] <= 1.001 * np.exp(frame["epsilon"]) * frame["fpr"])
    rows = lesson.risk_rows(WORKED, 1e-6)
    assert [row["says “in” for a member (true positives, at most)"] for row in rows] == ["1.9 %", "9.7 %"]
    assert "now thinks at most 1.9 %" in lesson.risk_caption(WORKED, 1e-6)


def test_a_total_that_promises_nothing_is_said_in_words():
    plan = "count:t=0.01;count:t=0.01"  # ε = 300 each
    with pytest.raises(InvalidParameterError, match="far beyond 100"):
        lesson.risk_rows(plan, 1e-6)
    assert "far beyond 100" in lesson.takeaways(plan, 1e-6, 1.0, 0)[-1]
    middle = "count:t=0.2"  # ε ≈ 15 at ×1, 60 at ×0.25, 7.5 at ×2: every frame drawn
    assert len(lesson.roc_frames(middle, 1e-6)) == len(lesson.SCALES)
    edge = "count:t=0.05"  # ε ≈ 60 at ×1: ×0.25 (240) and ×0.5 (120) have no frame
    assert [frame["label"] for frame in lesson.roc_frames(edge, 1e-6)] == ["×1", "×2", "×4"]


def test_numbers_in_words_are_short():
    assert [lesson.epsilon_text(value) for value in (0.2996, 0.05, 3.0, 12.345, 0.999)] == [
        "0.300", "0.05", "3", "12.3", "0.999"]


def test_the_glossary_terms_are_the_glossarys():
    assert set(lesson.GLOSSARY) <= set(glossary.TERMS)

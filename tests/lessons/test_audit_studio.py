"""The lesson "Audit studio" (dpcore.lessons.audit_studio): the one-run audit as the library gives it, the guesses
fitted to the canaries, the frames and the band, the question's answer, the Gaussian-DP table and the trade-off boxes
on the audit lab's draws, the honest thresholds, a planted bug caught at a fixed seed in every section, and the
takeaways that wait for the guess."""

import numpy as np
import pytest

from dpcore import accounting
from dpcore.audit import gaussian_dp_fit, threshold_counts, tradeoff_points
from dpcore.lessons import audit_lab, glossary
from dpcore.lessons import audit_studio as lesson
from dpcore.lessons.questions import HELD_BACK
from dpcore.one_run_audit import one_run_audit, one_run_epsilon, threshold_honesty

CLAIM = dict(epsilon=1.0, delta=0.0, confidence=0.95, bug="correct")
GUESSES = dict(guesses_in=100, guesses_out=100)
MANY = dict(epsilon=1.0, draws=20_000, confidence=0.95, bug="correct", seed=0)
HONEST = dict(epsilon=1.0, confidence=0.95, bug="correct", seed=0)

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "fit_guesses": dict(m=1000, guesses_in=100, guesses_out=100),
    "guesses_warning": dict(m=100, guesses_in=100, guesses_out=100),
    "one_run": dict(mode="randomized-response", m=1000, **GUESSES, **CLAIM, seed=0),
    "one_run_text": dict(mode="aggregate", m=100, **GUESSES, **CLAIM, seed=0),
    "guess_grid": dict(m=100),
    "bound_frames": dict(mode="randomized-response", **GUESSES, **CLAIM, seed=0),
    "seed_band": dict(mode="laplace", m=100, **GUESSES, **CLAIM),
    "interference_question": dict(**CLAIM),
    "many_run": dict(mechanism="laplace-count", **MANY),
    "gdp_rows": dict(**MANY),
    "gdp_caption": dict(**MANY),
    "tradeoff_curves": dict(mechanism="gaussian-mean", **MANY),
    "tradeoff_caption": dict(mechanism="laplace-count", **MANY),
    "honesty": dict(**HONEST),
    "honesty_rows": dict(**HONEST),
    "honesty_caption": dict(**HONEST),
    "takeaways": dict(mode="randomized-response", m=1000, **GUESSES, **CLAIM, seed=0, draws=20_000, revealed=True),
}


def test_the_glossary_knows_every_term_the_page_declares():
    assert set(lesson.GLOSSARY) <= set(glossary.TERMS)
    assert {"canary", "abstain", "interference", "Gaussian differential privacy (μ-GDP)",
            "trade-off curve"} <= set(lesson.GLOSSARY)


@pytest.mark.parametrize("mode", lesson.MODES)
@pytest.mark.parametrize("bug", lesson.BUGS)
def test_one_run_is_the_librarys_audit(mode, bug):
    run = lesson.one_run(mode, 1000, 100, 50, 1.0, 0.0, 0.95, bug, 3)
    audit = one_run_audit(1000, 100, 50, 1.0, mode="aggregate" if mode == "aggregate" else "isolated",
                          bug=bug == "bug", seed=3, release="laplace" if mode == "laplace" else "randomized-response")
    assert (run["guesses"], run["correct"], run["bound"]) == (audit.guesses, audit.correct, audit.epsilon_lower_bound)
    assert run["caught"] == (audit.epsilon_lower_bound > 1.0)


def test_a_claimed_delta_is_the_librarys_bound_at_that_delta():
    run = lesson.one_run("randomized-response", 1000, 100, 100, 1.0, 1e-4, 0.95, "correct", 0)
    assert run["bound"] == one_run_epsilon(1000, run["guesses"], run["correct"], 1e-4, 0.95)
    assert run["bound"] <= lesson.one_run("randomized-response", 1000, 100, 100, 1.0, 0.0, 0.95, "correct",
                                          0)["bound"]


def test_the_defaults_numbers():
    run = lesson.one_run("randomized-response", 1000, 100, 100, **CLAIM, seed=0)
    assert (run["guesses"], run["correct"], round(run["bound"], 2), run["caught"]) == (200, 155, 0.95, False)
    text = lesson.one_run_text("randomized-response", 1000, 100, 100, **CLAIM, seed=0)
    assert "right 155 times of 200 (77.5 %)" in text and "ε ≥ 0.95" in text and "**Not caught.**" in text


def test_guesses_beyond_the_canaries_are_scaled_down_with_words():
    assert lesson.fit_guesses(1000, 300, 100) == (300, 100)
    assert lesson.fit_guesses(100, 300, 100) == (75, 25)
    assert sum(lesson.fit_guesses(300, 10_000, 10_000)) <= 300
    assert lesson.guesses_warning(1000, 300, 100) == ""
    assert "the page uses k₊ = 75 and k₋ = 25" in lesson.guesses_warning(100, 300, 100)
    assert lesson.one_run("laplace", 100, 300, 100, **CLAIM, seed=0)["guesses"] == 100


def test_the_frames_run_over_the_canaries_and_mark_the_chosen_audit():
    frames = lesson.bound_frames("randomized-response", 100, 100, **CLAIM, seed=0)
    assert [frame["m"] for frame in frames] == list(lesson.CANARIES)
    for frame in frames:
        assert frame["guesses"][0] == 10 and frame["guesses"][-1] == frame["m"]
        assert frame["bounds"].shape == frame["guesses"].shape and np.all(frame["bounds"] >= 0)
        run = lesson.one_run("randomized-response", frame["m"], 100, 100, **CLAIM, seed=0)
        assert (frame["chosen"], frame["chosen_bound"]) == (run["guesses"], run["bound"])
    last = frames[-1]  # at r = m every canary is guessed: the audit's bound at (m/2, m/2)
    assert last["bounds"][-1] == lesson.one_run("randomized-response", 10_000, 5000, 5000, **CLAIM,
                                                 seed=0)["bound"]


def test_the_band_isolated_approaches_the_claim_and_the_aggregate_stays_far_below():
    band = lesson.seed_band("randomized-response", 1000, 100, 100, **CLAIM)
    assert set(band["bands"]) == {"randomized-response", "aggregate"}
    isolated, aggregate = band["bands"]["randomized-response"], band["bands"]["aggregate"]
    assert np.all(isolated["low"] <= isolated["median"]) and np.all(isolated["median"] <= isolated["high"])
    assert 0.7 < isolated["median"].max() <= 1.0
    assert aggregate["median"].max() < 0.2
    assert set(lesson.seed_band("aggregate", 1000, 100, 100, **CLAIM)["bands"]) == {"randomized-response",
                                                                                   "aggregate"}


def test_the_question_is_answered_by_the_aggregates_median():
    question = lesson.interference_question(**CLAIM)
    assert question.key == lesson.QUESTION
    assert question.choices[question.answer] == "far below: under 30 % of 1"
    bounds = [lesson.one_run("aggregate", 1000, 100, 100, **CLAIM, seed=seed)["bound"] for seed in range(lesson.SEEDS)]
    assert f"ε ≥ {np.median(bounds):.2f}" in question.explanation


def many_run_by_hand(mechanism, bug, epsilon=1.0, draws=20_000, seed=0):
    broken = audit_lab.broken_letter(mechanism, seed)
    letter = broken if bug == "bug" else "B" if broken == "A" else "A"
    x, neighbour = audit_lab.audit_draws(mechanism, letter, epsilon, draws, seed)
    events = audit_lab.MECHANISMS[mechanism].events(epsilon)
    return threshold_counts(x, events), threshold_counts(neighbour, events)


@pytest.mark.parametrize("bug", lesson.BUGS)
def test_the_gaussian_table_is_the_librarys_fit_on_the_audit_labs_draws(bug):
    rows = lesson.gdp_rows(**{**MANY, "bug": bug})
    for row, mechanism in zip(rows, lesson.MANY):
        counts, counts_neighbour = many_run_by_hand(mechanism, bug)
        fit = gaussian_dp_fit(counts, counts_neighbour, 20_000, lesson.MANY_DELTA, 0.95)
        assert row["μ at least"] == f"{fit.mu_lower:.3f}"
        assert row["ε at δ = 10⁻⁵ from μ (assumes a Gaussian curve)"].startswith(f"{fit.epsilon:.3g} (")
        assert row["ε, Clopper–Pearson (assumes nothing)"].startswith(f"{fit.epsilon_clopper_pearson:.3g} (")


def test_the_gaussian_assumption_overstates_on_laplace_noise():
    laplace = lesson.many_run("laplace-count", **{**MANY, "draws": 200_000})["fit"]
    assert round(laplace.epsilon, 2) == 4.44 and laplace.epsilon_clopper_pearson < 1.0  # docs/algorithms.md §7.5
    caption = lesson.gdp_caption(**MANY)
    assert "far above the true ε = 1" in caption and "the assumption, not the data" in caption


def test_the_tradeoff_points_and_the_claims_curves():
    curves = lesson.tradeoff_curves("laplace-count", **MANY)
    counts, counts_neighbour = many_run_by_hand("laplace-count", "correct")
    points = tradeoff_points(counts, counts_neighbour, 20_000, 0.95)
    np.testing.assert_array_equal(curves["points"].fnr_high, points.fnr_high)
    np.testing.assert_allclose(curves["claimed"], accounting.dp_tradeoff(curves["alpha"], 1.0, 0.0))
    np.testing.assert_allclose(curves["exact"], accounting.laplace_tradeoff(curves["alpha"], 1.0))
    assert curves["caught_count"] == 0
    gaussian = lesson.tradeoff_curves("gaussian-mean", **MANY)
    np.testing.assert_allclose(gaussian["claimed"], accounting.dp_tradeoff(gaussian["alpha"], 1.0, 1e-5))
    assert np.all(gaussian["exact"] >= gaussian["claimed"] - 1e-9)  # the correct mechanism keeps its claim


@pytest.mark.parametrize("mechanism", lesson.MANY)
def test_a_planted_bug_is_caught_in_every_section_at_a_fixed_seed(mechanism):
    bugged = {**MANY, "bug": "bug"}
    assert lesson.one_run("randomized-response", 1000, 100, 100, 1.0, 0.0, 0.95, "bug", 0)["caught"]
    assert lesson.one_run("laplace", 1000, 100, 100, 1.0, 0.0, 0.95, "bug", 0)["caught"]
    assert not lesson.one_run("aggregate", 1000, 100, 100, 1.0, 0.0, 0.95, "bug", 0)["caught"]  # interference
    assert lesson.many_run(mechanism, **bugged)["fit"].epsilon_clopper_pearson > 1.0
    assert all("(above the claim)" in row["ε, Clopper–Pearson (assumes nothing)"] for row in lesson.gdp_rows(**bugged))
    assert lesson.tradeoff_curves(mechanism, **bugged)["caught_count"] > 0
    assert lesson.tradeoff_caption(mechanism, **bugged).endswith("Caught.")
    rates = lesson.honesty(1.0, 0.95, "bug", 0)["rates"]
    assert rates["bonferroni"] > 0.5 and rates["split"] > 0.5


def test_the_honest_thresholds_are_the_librarys():
    result = lesson.honesty(**HONEST)
    library = threshold_honesty(1.0, 500, 200, 30, 0.95, 0)
    assert result["rates"] == {"naive": library.naive_rate, "bonferroni": library.bonferroni_rate,
                               "split": library.split_rate}
    assert result["rates"]["naive"] > 0.05 >= max(result["rates"]["bonferroni"], result["rates"]["split"])
    rows = lesson.honesty_rows(**HONEST)
    assert [row["bound above the claimed ε"] for row in rows] == ["26 %", "0 %", "4 %"]
    assert {row["a valid audit"] for row in rows} == {"at most 5 %"}
    bugged = lesson.honesty(1.0, 0.95, "bug", 0)
    assert bugged["spent"] == 2.0
    np.testing.assert_array_equal(bugged["bounds"]["naive"], threshold_honesty(2.0, 500, 200, 30, 0.95, 0).naive)


def test_the_takeaways_hold_the_aggregates_bound_back_until_the_guess():
    call = dict(VALID_CALLS["takeaways"])
    shown = lesson.takeaways(**call)
    held = lesson.takeaways(**{**call, "revealed": False})
    assert len(shown) == len(held) == 4
    assert "one noisy sum of them only 0.00" in shown[1]
    assert HELD_BACK in held[1] and "0.00" not in held[1]
    assert shown[0] == held[0] and "ε ≥ 0.95" in shown[0]


def audit_by_hand(mode, m, guesses_in, guesses_out, epsilon, delta, confidence, bug, seed):
    """(r, v, bound) of the library's one_run_audit with these guesses, the bound at the claimed δ (the lesson's
    computation before the runs' rankings were shared)."""
    audit = one_run_audit(m, guesses_in, guesses_out, epsilon, mode="aggregate" if mode == "aggregate" else "isolated",
                          bug=bug == "bug", seed=seed, confidence=confidence,
                          release="laplace" if mode == "laplace" else "randomized-response")
    bound = audit.epsilon_lower_bound if delta == 0 else one_run_epsilon(m, audit.guesses, audit.correct, delta,
                                                                          confidence)
    return audit.guesses, audit.correct, bound


# The sidebar's extremes (app_pages/settings/audit_studio.py): guesses 0 and 10,000, ε 0.2 and 5, every δ and
# confidence, both mechanisms
SETTINGS = [("randomized-response", 100, 100, 1.0, 0.0, 0.95, "correct"), ("laplace", 0, 10_000, 0.2, 1e-4, 0.9, "bug"),
            ("aggregate", 10_000, 0, 5.0, 1e-8, 0.99, "correct"), ("randomized-response", 0, 0, 5.0, 1e-6, 0.99, "bug"),
            ("laplace", 5, 7000, 0.2, 0.0, 0.95, "correct"), ("aggregate", 10_000, 10_000, 0.2, 1e-4, 0.9, "bug")]


@pytest.mark.parametrize("setting", SETTINGS)
def test_the_frames_are_the_librarys_audits_for_every_m_and_seed(setting):
    """Every frame's curve and chosen audit are exactly the library's audits with those guesses (one ranking of each
    run now serves every number of guesses)."""
    mode, guesses_in, guesses_out, epsilon, delta, confidence, bug = setting
    for seed in (0, 1, 1000, 2**31 - 1):
        for frame in lesson.bound_frames(*setting, seed):
            m = frame["m"]
            expected = [audit_by_hand(mode, m, *lesson._split(int(total), guesses_in, guesses_out), epsilon, delta,
                                      confidence, bug, seed)[2] for total in frame["guesses"]]
            assert frame["bounds"].tolist() == expected
            chosen = audit_by_hand(mode, m, *lesson.fit_guesses(m, guesses_in, guesses_out), epsilon, delta,
                                   confidence, bug, seed)
            assert (frame["chosen"], frame["chosen_bound"]) == (chosen[0], chosen[2])
            run = lesson.one_run(mode, m, guesses_in, guesses_out, epsilon, delta, confidence, bug, seed)
            assert (run["guesses"], run["correct"], run["bound"]) == chosen


def test_the_guess_grid_is_computed_once_and_handed_out_as_a_copy():
    grid = lesson.guess_grid(1000)
    np.testing.assert_array_equal(grid, np.unique(np.round(np.geomspace(10, 1000, 8)).astype(int)))
    grid[0] = -1  # the caller's own copy
    assert lesson.guess_grid(1000)[0] == 10


@pytest.mark.parametrize("mechanism", lesson.MANY)
@pytest.mark.parametrize("epsilon", [0.2, 1.0, 5.0])
def test_the_claims_curves_are_computed_once_per_claim_and_read_only(mechanism, epsilon):
    curves = lesson.tradeoff_curves(mechanism, epsilon, 20_000, 0.95, "correct", 3)
    alpha = np.linspace(0.0, 1.0, 201)
    delta = audit_lab.MECHANISMS[mechanism].delta
    exact = (accounting.laplace_tradeoff(alpha, epsilon) if mechanism == "laplace-count"
             else accounting.gaussian_tradeoff(alpha, accounting.gaussian_mu(epsilon, lesson.MANY_DELTA)))
    for name, expected in (("alpha", alpha), ("claimed", accounting.dp_tradeoff(alpha, epsilon, delta)),
                           ("exact", exact)):
        np.testing.assert_array_equal(curves[name], expected)
        assert not curves[name].flags.writeable
    other = lesson.tradeoff_curves(mechanism, epsilon, 50_000, 0.9, "bug", 4)  # another seed and run, one claim
    assert other["exact"] is curves["exact"]
    caught = curves["points"].fnr_high < accounting.dp_tradeoff(curves["points"].fpr_high, epsilon, delta)
    np.testing.assert_array_equal(curves["caught"], caught)

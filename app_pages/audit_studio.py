"""Audit studio: a one-run audit with many canaries, Gaussian DP from error rates, the empirical trade-off curve, and
choosing a threshold honestly."""

import ui
from app_pages.settings import audit_studio as settings
from dpcore.lessons import audit_studio as lesson
from dpcore.viz.figures import audit_studio as figures

page = ui.Page(__file__, settings.SPECS)
m, epsilon, seed = page["m"], page["eps"], page["seed"]
claim = dict(epsilon=epsilon, delta=page["delta"], confidence=page["conf"], bug=page["bug"])
guesses = dict(guesses_in=page["k_in"], guesses_out=page["k_out"])
many = dict(epsilon=epsilon, draws=page["draws"], confidence=page["conf"], bug=page["bug"], seed=seed)
honest = dict(epsilon=epsilon, confidence=page["conf"], bug=page["bug"], seed=lesson.HONESTY_SEED)  # their own
revealed = page.revealed(lesson.QUESTION)  # how far one noisy sum gets, said after the guess
page.intro()
with page.section("one-run"):
    page.warning(lesson.guesses_warning, m, **guesses)
    page.caption(lesson.one_run_text, page["mode"], m, **guesses, **claim, seed=seed)
    page.figure("bound_vs_guesses", figures.bound_vs_guesses, animated=True, download=True, mode=page["mode"],
                **guesses, **claim, seed=seed, m=m)
    page.draw_again()
    if page.predict(lesson.interference_question, **claim):
        page.figure("seed_band", figures.seed_band, download=True, mode=page["mode"], m=m, **guesses, **claim)
with page.section("gaussian"):
    page.table(lesson.gdp_rows, **many)
    page.caption(lesson.gdp_caption, **many)
with page.section("tradeoff"):
    curve = page.control(settings.CURVE)
    page.figure("tradeoff", figures.tradeoff, download=True, mechanism=curve, **many)
    page.caption(lesson.tradeoff_caption, curve, **many)
with page.section("honesty"):
    page.figure("honesty", figures.honesty, download=True, **honest)
    page.table(lesson.honesty_rows, **honest)
    page.caption(lesson.honesty_caption, **honest)
page.takeaways(lesson.takeaways, page["mode"], m, **guesses, **claim, seed=seed, draws=page["draws"],
               revealed=revealed)
page.go_deeper()

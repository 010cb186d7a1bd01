"""Pure vs approximate DP: what δ buys, measured."""

import streamlit as st

import ui
from app_pages.settings import noise_tradeoff as settings
from dpcore.lessons import noise_tradeoff as lesson
from dpcore.viz.figures import noise_tradeoff as figures

page = ui.Page(__file__, settings.SPECS)
epsilon, delta, dimension, n = page["eps"], page["delta"], page["d"], page["n"]
trials, seed = page["trials"], page["seed"]
sweep = dict(delta=delta, trials=trials, seed=page["mc"])
revealed = page.revealed("crossover")  # the Gaussian against Laplace in d dimensions: said after the guess

page.intro()
page.caption(lesson.accuracy_caption, epsilon, delta, dimension, n, revealed=revealed)
with page.section("one-run"):
    page.figure("clouds", figures.clouds, n=n, epsilon=epsilon, delta=delta, seed=seed)
    page.draw_again()
with page.section("error-vs-n", epsilon=f"{epsilon:g}",
                  zcdp_epsilon=f"{lesson.zcdp_gaussian_epsilon(epsilon, delta):.3g}"):
    page.figure("error_vs_n", figures.error_vs_n, animated=True, download=True, epsilon=epsilon, dimension=dimension,
                **sweep)
with page.section("error-vs-d"):
    if page.predict(lesson.crossover_question, epsilon, delta):
        page.figure("error_vs_d", figures.error_vs_dimension, animated=True, download=True, n=n, epsilon=epsilon,
                    **sweep)
with page.section("profiles"):
    page.figure("profiles", figures.privacy_profiles, animated=True)
with page.section("tradeoff"):
    page.figure("tradeoff", figures.tradeoff_curves, animated=True, download=True, delta=delta,
                start=f"{ui.nearest(lesson.TRADEOFF_FRAMES, epsilon):g}")
    page.caption(lesson.tradeoff_caption, epsilon, delta)
with page.section("composition"):
    releases = page.control(settings.RELEASES)
    page.figure("composition", figures.composition, animated=True, delta=delta, releases=releases)
with page.section("delta"):
    page.table(lesson.delta_table, epsilon, dimension, n, revealed=revealed)
with page.section("complexity", target=f"{lesson.TARGET_ERROR:g}"):
    with st.spinner("Running the exponential mechanism over the cover…"):
        page.table(lesson.complexity_rows, dimension=dimension, epsilon=epsilon, delta=delta, seed=page["mc"],
                   revealed=revealed)
page.takeaways(lesson.takeaways, epsilon, delta, dimension, n, releases, trials, page["mc"], run=ui.sweep,
               revealed=revealed)
page.go_deeper()

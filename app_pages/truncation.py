"""Truncation bias: clip to bound sensitivity, pay in bias, and take the bias back."""

import streamlit as st

import ui
from app_pages.settings import truncation as settings
from dpcore.lessons import truncation
from dpcore.viz.figures import truncation as figures

page = ui.Page(__file__, settings.SPECS)
epsilon, family, radius, trials, seed = (page[key] for key in ("eps", "family", "t", "trials", "seed"))
moment_k = truncation.moment_order(page["moment"])  # the control's label ("3", "inf") as the order k
monte_carlo = page["mc"]  # the sweeps' seed: the one-run seed redraws the pictures only
law = dict(family=family, moment_k=moment_k, n=page["n"], epsilon=epsilon)
sweep = dict(family=family, epsilon=epsilon, trials=trials, seed=monte_carlo)
revealed = page.revealed("radius")  # the best radius, said after the guess
page.intro()
with page.section("one-run"):
    page.figure("clipping_histogram", figures.clipping_window, **law, radius=radius, seed=seed)
    st.caption(truncation.window_caption(**law, radius=radius, seed=seed))
    page.draw_again()
    if page.predict(truncation.radius_question, family, moment_k, page["n"], epsilon):
        page.figure("bias_noise_tradeoff", figures.bias_noise_tradeoff, **law, radius=radius)
with page.section("error-vs-n", mean_range=f"{truncation.MEAN_RANGE:g}"):
    page.figure("error_vs_n", figures.error_vs_n, animated=True, download=True, **sweep, start=page["moment"])
    st.markdown(truncation.slope_note(**sweep, moment_k=moment_k, run=ui.sweep))
with page.section("bias-correction", true_mean=f"{truncation.TRUE_MEAN:g}", radius=f"{truncation.SURVIVAL_RADIUS:g}",
                  warm_start=f"{truncation.WARM_START:g}", truncated_mean=f"{truncation.TRUNCATED_MEAN:.2f}"):
    page.figure("bias_correction", figures.bias_correction, animated=True, download=True, trials=trials,
                seed=monte_carlo, start=f"{truncation.bias_frame(epsilon):g}")
    page.prose("privacy-spent")
page.takeaways(truncation.takeaways, **law, radius=radius, seed=seed, trials=trials, run=ui.sweep,
               monte_carlo_seed=monte_carlo, revealed=revealed)
page.go_deeper()

"""Truncation bias: clip to bound sensitivity, pay in bias, and take the bias back."""

import streamlit as st

import ui
from dpcore.lessons import truncation
from dpcore.viz.figures import truncation as figures

SPECS = [
    ui.epsilon_spec(default=1.0, low=0.01, high=5.0),
    ui.ParamSpec(key="moment", label="Bounded moment order k", kind="choice", default="3",
                 options=truncation.MOMENTS, aliases=("k",),
                 help="The data have E|X − μ|^k = 1. Smaller k = heavier tails; inf = Gaussian."),
    ui.ParamSpec(key="family", label="Distribution", kind="choice", default="lomax", options=truncation.FAMILIES,
                 help="Lomax and the two-point law are asymmetric, so clipping them is biased."),
    ui.n_spec(default=10_000, low=10, high=1_000_000),
    ui.ParamSpec(key="t", label="Clipping radius t (one run)", kind="log", default=2.0,
                 options=tuple(ui.log_grid(0.1, 100.0)), help="The window is [μ − t, μ + t] in the one-run view."),
    ui.trials_spec(default=200, low=20, high=2000),
    ui.seed_spec(),
    ui.monte_carlo_spec(),
]

page = ui.Page(__file__, SPECS)
epsilon, moment, family, radius, trials, seed = (page[key]
                                                 for key in ("eps", "moment", "family", "t", "trials", "seed"))
monte_carlo = page["mc"]  # the sweeps' seed: the one-run seed redraws the pictures only
law = dict(family=family, moment=moment, n=page["n"], epsilon=epsilon)
sweep = dict(family=family, epsilon=epsilon, trials=trials, seed=monte_carlo)
page.intro()
with page.section("one-run"):
    page.figure("clipping_histogram", figures.clipping_window, **law, radius=radius, seed=seed)
    st.caption(truncation.window_caption(**law, radius=radius, seed=seed))
    page.draw_again()
    if page.predict(truncation.radius_question, family, moment, page["n"], epsilon):
        page.figure("bias_noise_tradeoff", figures.bias_noise_tradeoff, **law, radius=radius)
with page.section("error-vs-n", mean_range=f"{truncation.MEAN_RANGE:g}"):
    page.figure("error_vs_n", figures.error_vs_n, animated=True, download=True, **sweep, start=moment)
    st.markdown(truncation.slope_note(**sweep, moment=moment, run=ui.sweep))
with page.section("bias-correction", true_mean=f"{truncation.TRUE_MEAN:g}", radius=f"{truncation.SURVIVAL_RADIUS:g}",
                  warm_start=f"{truncation.WARM_START:g}", truncated_mean=f"{truncation.TRUNCATED_MEAN:.2f}"):
    page.figure("bias_correction", figures.bias_correction, animated=True, download=True, trials=trials,
                seed=monte_carlo, start=f"{truncation.bias_frame(epsilon):g}")
    page.prose("privacy-spent")
page.takeaways(truncation.takeaways, **law, radius=radius, seed=seed, trials=trials, run=ui.sweep,
               monte_carlo_seed=monte_carlo)
page.go_deeper()

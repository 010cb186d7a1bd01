"""Pure vs approximate DP: what δ buys, measured."""

import streamlit as st

import ui
from dpcore.lessons import noise_tradeoff as lesson
from dpcore.viz.figures import noise_tradeoff as figures

SPECS = [
    ui.epsilon_spec(default=1.0, low=0.05, high=10.0),
    ui.delta_spec(default=1e-6, low=1e-12, high=1e-3),
    ui.ParamSpec(key="d", label="Dimension d", kind="choice", default=64, options=lesson.DIMENSIONS,
                 help="Number of coordinates of each data point (and of the mean being released)."),
    ui.n_spec(default=10_000, low=100, high=1_000_000),
    ui.trials_spec(default=200, low=20, high=2000),
    ui.seed_spec(),
    ui.monte_carlo_spec(),
]

RELEASES = ui.ParamSpec(key="releases", label="Composed releases k", kind="log", default=100,
                        options=tuple(ui.log_grid(1, 1000, integer=True)), aliases=("k",),
                        help="How many private releases are made from the same data; the dotted line marks it.")

page = ui.Page(__file__, SPECS)
epsilon, delta, dimension, n = page["eps"], page["delta"], page["d"], page["n"]
trials, seed = page["trials"], page["seed"]
sweep = dict(delta=delta, trials=trials, seed=page["mc"])

page.intro()
page.caption(lesson.accuracy_caption, epsilon, delta, dimension, n)
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
    releases = page.control(RELEASES)
    page.figure("composition", figures.composition, animated=True, delta=delta, releases=releases)
with page.section("delta"):
    page.table(lesson.delta_table, epsilon, dimension, n)
with page.section("complexity", target=f"{lesson.TARGET_ERROR:g}"):
    with st.spinner("Running the exponential mechanism over the cover…"):
        page.table(lesson.complexity_rows, dimension=dimension, epsilon=epsilon, delta=delta, seed=page["mc"])
page.takeaways(lesson.takeaways, epsilon, delta, dimension, n, releases, trials, page["mc"], run=ui.sweep)
page.go_deeper()

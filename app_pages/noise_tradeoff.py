"""Pure vs approximate DP: what δ buys, measured (seeds 001, 004, 000; algorithms.md §2)."""

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
    ui.ParamSpec(key="k", label="Composed releases k", kind="log", default=100,
                 options=tuple(ui.log_grid(1, 1000, integer=True)),
                 help="How many private releases are made from the same data (composition)."),
    ui.trials_spec(default=200, low=20, high=2000),
    ui.seed_spec(),
    ui.monte_carlo_spec(),
]

page = ui.Page(__file__, SPECS)
epsilon, delta, dimension, n = page["eps"], page["delta"], page["d"], page["n"]
trials, seed = page["trials"], page["seed"]
sweep = dict(delta=delta, trials=trials, seed=page["mc"])

page.intro()
page.caption(lesson.accuracy_caption, epsilon, delta, dimension, n)
with page.section("one-run", crossover=f"{lesson.crossover_dimension(epsilon, delta):.1f}"):
    page.figure("clouds", figures.clouds, n=n, epsilon=epsilon, delta=delta, seed=seed)
with page.section("error-vs-n"):
    page.figure("error_vs_n", figures.error_vs_n, animated=True, download=True, epsilon=epsilon, dimension=dimension,
                **sweep)
with page.section("error-vs-d"):
    page.figure("error_vs_d", figures.error_vs_dimension, animated=True, download=True, n=n, epsilon=epsilon, **sweep)
with page.section("profiles"):
    page.figure("profiles", figures.privacy_profiles, animated=True)
with page.section("tradeoff"):
    page.figure("tradeoff", figures.tradeoff_curves, animated=True, download=True, delta=delta,
                start=f"{ui.nearest(lesson.TRADEOFF_FRAMES, epsilon):g}")
    page.caption(lesson.tradeoff_caption, epsilon, delta)
with page.section("composition"):
    page.figure("composition", figures.composition, animated=True, delta=delta)
with page.section("delta"):
    st.dataframe(lesson.delta_table(epsilon, dimension, n), hide_index=True, width="stretch")
with page.section("complexity", target=f"{lesson.TARGET_ERROR:g}"):
    with st.spinner("Running the exponential mechanism over the cover…"):
        rows = ui.cached(lesson.complexity_rows, dimension=dimension, epsilon=epsilon, delta=delta, seed=page["mc"])
    st.dataframe(rows, hide_index=True, width="stretch")
page.takeaways(lesson.takeaways, epsilon, delta, dimension, n, page["k"], trials, page["mc"], run=ui.sweep)
page.go_deeper()

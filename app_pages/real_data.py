"""Real data: the lab's releases on one real column, a bundled public-domain data set or the student's own CSV."""

import streamlit as st

import ui
from app_pages.settings import real_data as settings
from dpcore.lessons import real_data as lesson
from dpcore.viz.figures import real_data as figures

page = ui.Page(__file__, settings.SPECS)
data = page["data"]
unit = settings.PUBLIC[data].unit
revealed = page.revealed("real_data_cost")  # bias against noise, said after the guess
page.intro()
with page.section("data"):
    column = ui.column_of(None if data == settings.UPLOAD else data, page)  # a data set's key, or the upload's values
    public = settings.filled(page.controls_for(data, settings.public_specs(data)))  # None: an upload's range not typed
    if column is not None and public is None:
        st.info(settings.TYPE_RANGE, icon=":material/edit:")
        column = None  # nothing private is released until the public range is typed
    if column is not None:
        public_range = dict(public_low=public["low"], public_high=public["high"])
        bounds = dict(lower=public["lower"], upper=public["upper"])
        kept = dict(**public_range, **bounds, epsilon=page["eps"], delta=page["delta"], scale=public["scale"],
                    moment_k=settings.MOMENT_K)
        page.warning(lesson.coverage_warning, column, **public_range, **bounds)  # right under the bounds
        page.warning(lesson.bounds_warning, column, **public_range, **bounds)
        page.table(lesson.fact_rows, column)
if column is not None:  # each figure is given what it shows, so it is rebuilt only when that changes
    with page.section("clipped-mean"):
        if page.predict(lesson.cost_question, column, **bounds, epsilon=page["eps"]):
            page.figure("real_clipping", figures.clipping_bars, download=True, x=column, **bounds,
                        epsilon=page["eps"], unit=unit)
    with page.section("private-range"):
        page.table(lesson.release_rows, column, **kept, seed=page["seed"])
    with page.section("quantiles"):
        page.figure("real_quantiles", figures.quantiles, download=True, x=column, **public_range, epsilon=page["eps"],
                    seed=page["seed"], unit=unit)
    with page.section("histogram"):
        page.figure("real_histogram", figures.histogram, download=True, x=column, **public_range, epsilon=page["eps"],
                    seed=page["seed"], unit=unit)
    with page.section("laplace-gaussian"):
        page.figure("real_laplace_gaussian", figures.laplace_vs_gaussian, download=True, x=column, **bounds,
                    epsilon=page["eps"], delta=page["delta"], unit=unit)
    with page.section("error-vs-eps"):
        monte_carlo = dict(trials=page["trials"], seed=page["mc"], unit=unit)
        page.figure("real_error_means", figures.means_vs_epsilon, animated=True, download=True, x=column, **kept,
                    **monte_carlo)
        page.figure("real_error_quantiles", figures.quantiles_vs_epsilon, animated=True, download=True, x=column,
                    **public_range, epsilon=page["eps"], **monte_carlo)
    with page.section("plan"):  # the releases above as a plan for "Choosing ε": public values only in its link
        page.caption(lesson.plan_note, **public_range, **bounds, epsilon=page["eps"], delta=page["delta"],
                     data=None if data == settings.UPLOAD else data, unit=unit)
    page.takeaways(lesson.takeaways, column, **kept, trials=page["trials"], seed=page["mc"], unit=unit,
                   revealed=revealed)
page.go_deeper()

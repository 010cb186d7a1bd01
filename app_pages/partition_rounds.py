"""Binary product distributions: pure DP and total variation by partitioning rounds."""


import ui
from app_pages.settings import partition_rounds as settings
from dpcore.lessons import partition_rounds as lesson
from dpcore.viz.figures import partition_rounds as figures

page = ui.Page(__file__, settings.SPECS)
epsilon, dimension, n, profile = page["eps"], page["d"], page["n"], page["profile"]
sweep = dict(delta=page["delta"], trials=page["trials"], seed=page["mc"])
one_run = dict(profile=profile, dimension=dimension, n=n, epsilon=epsilon, delta=page["delta"], seed=page["seed"])

page.intro()
page.caption(lesson.one_run_caption, **one_run)

with page.section("one-run"):
    single = lesson.one_run(**one_run)
    page.figure("rounds", figures.rounds, animated=True, download=True, **one_run)
    page.draw_again()
    if page.predict(lesson.composition_question, single):
        page.prose("blocks")
        ui.show_table(lesson.block_table(single))
        page.prose("no-composition", **lesson.block_summary(single))
    ui.show_table(lesson.distance_table(single))

with page.section("tv-vs-n", trials=page["trials"]):
    page.figure("tv_vs_n", figures.error_vs_n, animated=True, download=True, profile=profile, dimension=dimension,
                **sweep, metric="tv", epsilon=epsilon)

with page.section("kl-vs-n"):
    page.figure("kl_vs_n", figures.error_vs_n, animated=True, download=True, profile=profile, dimension=dimension,
                **sweep, metric="kl", epsilon=epsilon)

with page.section("tv-vs-d"):
    page.figure("tv_vs_d", figures.error_vs_dimension, animated=True, download=True, profile=profile,
                epsilon=epsilon, **sweep, n=n)
    page.prose("samples-needed", target=f"{lesson.TARGET_TV:g}", profile=profile, epsilon=f"{epsilon:g}")
    page.table(lesson.complexity_table, profile, epsilon, **sweep, run=ui.sweep)

with page.section("profiles"):
    page.figure("profiles", figures.error_by_profile, animated=True, download=True, dimension=dimension,
                epsilon=epsilon, **sweep, profile=profile)

page.takeaways(lesson.takeaways, profile, n, epsilon, **sweep, run=ui.sweep)
page.go_deeper()

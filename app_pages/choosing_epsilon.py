"""Choosing ε: from the accuracy each release needs to its ε, the plan's total, a fixed budget, and what it risks."""

import ui
from app_pages.settings import choosing_epsilon as settings
from dpcore.lessons import choosing_epsilon as lesson
from dpcore.viz.figures import choosing_epsilon as figures

page = ui.Page(__file__, settings.SPECS)
plan, delta, seed = page["plan"], page["delta"], page["seed"]
chosen = dict(plan=plan, delta=delta)
revealed = page.revealed(lesson.QUESTION)  # what a target twice as tight costs, said after the guess
page.intro()
with page.section("accuracy"):
    settings.edit_plan(plan)
    page.table(lesson.release_rows, plan, delta, seed)
    page.figure("mechanisms", figures.mechanisms, download=True, **chosen)
    page.figure("coverage", figures.coverage, download=True, **chosen, seed=seed)
    page.draw_again()
    if page.predict(lesson.halving_question, plan, delta):
        page.figure("epsilon_vs_target", figures.epsilon_vs_target, download=True, **chosen)
with page.section("total"):
    page.table(lesson.total_rows, plan, delta)
    page.caption(lesson.total_caption, plan, delta)
with page.section("budget"):
    budget = page.control(settings.BUDGET)
    page.table(lesson.split_rows, plan, delta, budget)
    page.caption(lesson.split_caption, plan, delta, budget)
with page.section("risk"):
    page.table(lesson.risk_rows, plan, delta)
    page.caption(lesson.risk_caption, plan, delta)
    page.figure("attacker_roc", figures.attacker_roc, animated=True, download=True, **chosen)
page.takeaways(lesson.takeaways, plan, delta, budget, seed, revealed=revealed)
page.go_deeper()

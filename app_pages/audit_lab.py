"""Privacy audit lab: guess which variant is broken, let the audit decide, then play the membership-inference
attacker."""

import streamlit as st

import ui
from app_pages.settings import audit_lab as settings
from dpcore.lessons import audit_lab as lesson
from dpcore.viz.figures import audit_lab as figures

page = ui.Page(__file__, settings.SPECS)
epsilon, seed = page["eps"], page["seed"]
audit = dict(mechanism=page["mechanism"], letter=page["variant"], epsilon=epsilon, draws=page["draws"],
             confidence=page["conf"], seed=seed)
mechanism = lesson.MECHANISMS[audit["mechanism"]]
page.intro()
with page.section("catch", title=mechanism.title, claim=mechanism.claim, neighbours=mechanism.neighbours):
    revealed = page.predict(lesson.broken_question, audit["mechanism"], seed)  # the verdict only after a guess
    page.figure("audit_histograms", figures.audit_histograms, animated=True, download=True, revealed=revealed,
                **audit)
    if revealed:
        st.markdown(ui.shared(lesson.verdict, **audit))
with page.section("draws"):
    if revealed:
        page.figure("bound_vs_draws", figures.bound_vs_draws, download=True, answers=True, **audit)
    else:
        st.info("Make your guess above first: this figure shows the audit's verdict.", icon=":material/lock:")
with page.section("attacker"):
    players = ui.attacker_game(epsilon, seed)
    page.figure("attacker_plane", figures.attacker_plane, epsilon=epsilon, players=players)
page.takeaways(lesson.takeaways, **audit, revealed=revealed)
page.go_deeper()

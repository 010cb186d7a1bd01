"""Privacy audit lab: catch a broken mechanism from its outputs, then play the membership-inference attacker."""

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
    page.figure("audit_histograms", figures.audit_histograms, animated=True, download=True, **audit)
    st.markdown(ui.shared(lesson.verdict, **audit))
    if st.toggle("Reveal which variant is which", key="reveal"):
        st.markdown("\n".join(f"- {line}" for line in lesson.reveal(audit["mechanism"], seed)))
with page.section("draws"):
    page.figure("bound_vs_draws", figures.bound_vs_draws, download=True, **audit)
with page.section("attacker"):
    players = ui.attacker_game(epsilon, seed)
    page.figure("attacker_plane", figures.attacker_plane, epsilon=epsilon, players=players)
page.takeaways(lesson.takeaways, **audit)
page.go_deeper()

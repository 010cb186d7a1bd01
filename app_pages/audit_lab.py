"""Privacy audit lab: catch a broken mechanism from its outputs, then play the membership-inference attacker."""

import streamlit as st

import ui
from dpcore.lessons import audit_lab as lesson
from dpcore.viz.figures import audit_lab as figures

SPECS = [
    ui.ParamSpec(key="mechanism", label="Mechanism", kind="choice", default="laplace-count",
                 options=tuple(lesson.MECHANISMS), help="The mechanism under audit; each has a correct and a broken "
                 "variant."),
    ui.ParamSpec(key="variant", label="Variant", kind="choice", default="A", options=("A", "B"),
                 help="One of A and B is correct, the other has a planted bug; the seed shuffles the letters."),
    ui.epsilon_spec(default=1.0, low=0.1, high=5.0),
    ui.ParamSpec(key="draws", label="Draws per dataset (log scale)", kind="log", default=lesson.DRAWS,
                 options=tuple(ui.log_grid(1_000, 1_000_000, integer=True)), format="{:,}",
                 help="How many times the mechanism runs on X and on X′."),
    ui.ParamSpec(key="conf", label="Confidence", kind="choice", default=lesson.CONFIDENCE, options=(0.9, 0.95, 0.99),
                 help="The probability that the lower bound on ε is below the true ε, for every event at once."),
    ui.seed_spec(),
]

page = ui.Page(__file__, SPECS)
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

"""Exponential mechanism: choosing privately, from an election to the sum-of-squares score."""

import streamlit as st

import ui
from app_pages.settings import exponential_mechanism as settings
from dpcore.lessons import exponential_mechanism as lesson
from dpcore.viz.figures import exponential_mechanism as figures

ITERATIVE = lesson.ITERATIVE_DEFAULTS

page = ui.Page(__file__, settings.SPECS)
epsilon, n, trials, seed = page["eps"], page["n"], page["trials"], page["seed"]
revealed = page.revealed("election")  # the election's answer, said after the guess


def start(frames: tuple[float, ...]) -> str:
    """The frame an animated figure opens on: the one nearest to the sidebar's ε."""
    return f"{ui.nearest(frames, epsilon):g}"


page.intro()
with page.section("election"):
    if page.predict(lesson.election_question, epsilon):
        page.figure("election", figures.election_bars, epsilon=epsilon, seed=seed)
        page.figure("election_vs_epsilon", figures.election_sweep, animated=True,
                    start=start(lesson.ELECTION_EPSILONS))
with page.section("user-level", users=lesson.USERS):
    page.figure("user_level", figures.user_level_errors, animated=True, download=True, trials=trials, seed=page["mc"],
                start=start(lesson.USER_EPSILONS))
    st.caption(lesson.savings_note())
with page.section("selection"):
    page.figure("loss_vs_k", figures.selection_loss, animated=True, download=True, trials=trials, seed=page["mc"],
                start=start(lesson.SELECTION_EPSILONS))
with page.section("median"):
    page.figure("median_score", figures.median_score, n=n, epsilon=epsilon, seed=seed)
    page.figure("median_density", figures.median_density, n=n, epsilon=epsilon, seed=seed)
    st.caption(lesson.median_note(n, epsilon, seed))
    page.draw_again()
    page.figure("median_vs_n", figures.median_error, animated=True, download=True, trials=trials, seed=page["mc"],
                start=start(lesson.MEDIAN_EPSILONS))
with page.section("sum-of-squares", steps=ITERATIVE["steps"], epsilon=f"{ITERATIVE['epsilon']:g}",
                  choices=2 * ITERATIVE["steps"]):
    solved = st.session_state.setdefault("sdp_seeds", set())  # the seeds whose SDP scores this visitor asked for
    if seed not in solved and st.button(f"Solve the SDP scores for seed {seed} (≈ 120 semidefinite programs per "
                                        "round: about half a minute)", key="sdp_solve", icon=":material/calculate:"):
        solved.add(seed)
    if seed in solved:
        with st.spinner("Solving the sum-of-squares (SDP) scores… about half a minute the first time for this "
                        "seed, instant after", show_time=True):
            page.figure("sdp_disk", figures.sdp_disk, seed=seed)
            page.figure("sdp_path", figures.sdp_path, seed=seed)
            st.caption(lesson.sdp_note(seed))
page.takeaways(lesson.takeaways, epsilon, n, trials, seed, run=ui.sweep, monte_carlo_seed=page["mc"], revealed=revealed)
page.go_deeper()

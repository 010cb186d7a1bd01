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

GAME = "_attacker_game"  # session state: {"key": (ε, seed), "guesses": [...], "auto": rounds the attacker played}


def attacker_game(epsilon: float, seed: int) -> dict[str, list[float]]:
    """The membership-inference game: one round's release, the student's guess buttons and "play 1,000 rounds for
    me" (the likelihood-ratio attacker, on the rounds after the student's); returns each player's (FPR, TPR)."""
    game = st.session_state.get(GAME)
    if game is None or game["key"] != (epsilon, seed):  # a new ε or seed starts a new game
        game = st.session_state[GAME] = {"key": (epsilon, seed), "guesses": [], "auto": 0}
    played = len(game["guesses"])
    release = lesson.attack_rounds(epsilon, played, 1, seed)["release"][0]
    st.metric(f"Round {played + 1}: the released count", f"{release:.2f}")
    guess_in, guess_out, auto = st.columns(3)
    guess_in.button("Guess in", key="guess_in", on_click=game["guesses"].append, args=(True,))
    guess_out.button("Guess out", key="guess_out", on_click=game["guesses"].append, args=(False,))
    auto.button("Play 1,000 rounds for me", key="auto_play", on_click=game.update,
                kwargs=dict(auto=game["auto"] + 1000))
    players = {}
    you, attacker = lesson.PLAYERS
    for name, start, guesses in ((you, 0, game["guesses"]), (attacker, 10**6, None)):  # the attacker's own rounds
        rounds = len(guesses) if guesses is not None else game["auto"]
        if not rounds:
            continue
        played = lesson.attack_rounds(epsilon, start, rounds, seed)
        rates = lesson.attacker_rates(played["member"], lesson.likelihood_ratio_guess(played["release"])
                                      if guesses is None else guesses)
        st.markdown(lesson.rates_text(name, rates, epsilon))
        players[f"{name} ({rounds:,} rounds)"] = [rates["fpr"], rates["tpr"]]
    return players


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
    players = attacker_game(epsilon, seed)
    page.figure("attacker_plane", figures.attacker_plane, epsilon=epsilon, players=players)
page.takeaways(lesson.takeaways, **audit)
page.go_deeper()

"""The membership-inference game of the privacy audit lab: the student guesses "in" or "out" from one release at a
time, beside the likelihood-ratio attacker, and both are scored on the (FPR, TPR) plane (Kairouz, Oh & Viswanath
2015: an ε-DP release keeps every attacker's point under TPR = e^ε · FPR)."""

from __future__ import annotations

import streamlit as st

from dpcore.lessons import audit_lab as lesson

__all__ = ["attacker_game"]

_GAME = "_attacker_game"  #: session state: {"key": (ε, seed), "guesses": [...], "auto": rounds the attacker played}


def attacker_game(epsilon: float, seed: int) -> dict[str, list[float]]:
    """The membership-inference game: one round's release, the student's guess buttons and "play 1,000 rounds for
    me" (the likelihood-ratio attacker, on the rounds after the student's). After each guess the round says whether
    the target was in; each player's record gives its accuracy with a 95 % confidence interval and whether beating
    the ε-DP bound can still be luck (:func:`dpcore.lessons.audit_lab.rates_text`). Returns each player's
    [FPR, TPR, FPR low, FPR high, TPR low, TPR high] (the ends of 95 % confidence intervals), as
    :func:`dpcore.viz.figures.audit_lab.attacker_plane` takes them."""
    game = st.session_state.get(_GAME)
    if game is None or game["key"] != (epsilon, seed):  # a new ε or seed starts a new game
        game = st.session_state[_GAME] = {"key": (epsilon, seed), "guesses": [], "auto": 0}
    played = len(game["guesses"])
    if played:  # the round just guessed: was the target in?
        last = lesson.attack_rounds(epsilon, played - 1, 1, seed)["member"][0]
        guess = game["guesses"][-1]
        (st.success if last == guess else st.error)(lesson.round_text(epsilon, played - 1, guess, seed))
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
        attacks = lesson.attack_rounds(epsilon, start, rounds, seed)
        rates = lesson.attacker_rates(attacks["member"], lesson.likelihood_ratio_guess(attacks["release"])
                                      if guesses is None else guesses)
        st.markdown(lesson.rates_text(name, rates, epsilon))
        players[f"{name} ({rounds:,} rounds)"] = [rates["fpr"], rates["tpr"], *rates["fpr_interval"],
                                                   *rates["tpr_interval"]]
    return players

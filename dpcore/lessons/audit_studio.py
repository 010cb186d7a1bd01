r"""Lesson "Audit studio": one-run audits with many canaries, Gaussian DP from error rates, the empirical trade-off
curve, and choosing a threshold honestly.

**One run, many canaries.** :math:`m` canaries, each included with probability ½, go through the mechanism once
(:func:`dpcore.one_run_audit.one_run_audit`): *isolated*, a randomized-response or Laplace release per canary, or
*aggregate*, one noisy sum of all of them. The auditor guesses "in" for its :math:`k_+` highest scores and "out" for
its :math:`k_-` lowest and abstains on the rest; :math:`r = k_+ + k_-` guesses, :math:`v` right, give the lower bound
of Steinke, Nasr & Jagielski (2023) (:func:`dpcore.one_run_audit.one_run_epsilon`). Isolated canaries approach the
claim; in one sum the other canaries' bits are noise to each canary's score (interference; Keinan, Shenfeld & Ligett
2025) and the bound stays far below it.

**Gaussian DP from error rates.** On the audit lab's many-run draws (:func:`dpcore.lessons.audit_lab.audit_draws`,
the correct variant or its planted bug), :func:`dpcore.audit.gaussian_dp_fit` bounds :math:`\mu` **assuming** a
Gaussian trade-off curve, beside the assumption-free Clopper–Pearson bound of the same counts (Nasr et al. 2023).
On Laplace noise the assumption overstates ε.

**The empirical trade-off curve.** :func:`dpcore.audit.tradeoff_points`: every threshold's (FPR, FNR) in a
simultaneous confidence box, over the claim's trade-off curve; a box wholly below it is a caught violation.

**Honest thresholds.** :func:`dpcore.one_run_audit.threshold_honesty`: the best threshold chosen on the same data
that certify it overstates ε more often than the confidence allows; a Bonferroni correction or a split does not.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

from .. import accounting
from ..audit import gaussian_dp_fit, threshold_counts, tradeoff_points
from ..core.validation import EPSILON, SEED, Choice, Integer, Real, validated
from ..one_run_audit import one_run_epsilon, ranked_inclusion, threshold_honesty
from . import audit_lab
from .questions import HELD_BACK, Question, bucket

__all__ = ["GLOSSARY", "CANARIES", "GUESS_OPTIONS", "MODES", "MODE_NAMES", "BUGS", "BUG_NAMES", "DELTAS", "DRAWS",
           "DRAW_OPTIONS", "MANY", "MANY_DELTA", "SEEDS", "QUESTION", "METHOD_WORDS", "HONESTY_CANARIES",
           "HONESTY_REPETITIONS", "HONESTY_SEED", "fit_guesses", "guesses_warning", "one_run", "one_run_text",
           "guess_grid", "bound_frames", "seed_band", "interference_question", "many_run", "gdp_rows", "gdp_caption",
           "tradeoff_curves", "tradeoff_caption", "honesty", "honesty_rows", "honesty_caption", "takeaways"]

#: The glossary terms (:data:`dpcore.lessons.glossary.TERMS`) the page's words use
GLOSSARY = ("abstain", "audit", "canary", "Clopper–Pearson interval", "confidence interval",
            "differential privacy (DP)", "Gaussian differential privacy (μ-GDP)", "interference", "k (the letter)",
            "Laplace mechanism", "median", "neighbouring datasets", "pure and approximate DP", "score",
            "sensitivity (Δ)", "standard deviation (sd)", "trade-off curve", "δ (delta)", "ε (epsilon)")

CANARIES = (100, 300, 1000, 3000, 10_000)  #: the numbers m of canaries the page offers (the animated figure's frames)
#: The guesses k₊ (or k₋) the page offers
GUESS_OPTIONS = (0, 5, 10, 20, 30, 50, 70, 100, 150, 200, 300, 500, 700, 1000, 1500, 2000, 3000, 5000, 7000, 10_000)
#: The one-run mechanism: a release per canary (randomized response or Laplace noise), or one noisy sum of them
MODES = ("randomized-response", "laplace", "aggregate")
MODE_NAMES = {"randomized-response": "Isolated: randomized response for each canary",
              "laplace": "Isolated: Laplace noise for each canary",
              "aggregate": "Aggregate: one noisy sum of all canaries"}
BUGS = ("correct", "bug")
BUG_NAMES = {"correct": "Correct", "bug": "Planted bug: noise for half the sensitivity"}
DELTAS = (0.0, 1e-8, 1e-6, 1e-4)  #: the claimed δ of the one-run audit
DRAW_OPTIONS = (20_000, 50_000, 200_000)  #: draws per dataset of the many-run audit
DRAWS = 50_000  #: their default
MANY = ("laplace-count", "gaussian-mean")  #: the audit lab's mechanisms audited by error rates
MANY_DELTA = audit_lab.DELTA  #: the δ at which the many-run bounds are stated (the Gaussian mean's claim)
SEEDS = 10  #: audits repeated (seeds 0, 1, …) for the band
QUESTION = "interference"  #: the key of the page's predict-then-reveal question
HONESTY_CANARIES, HONESTY_REPETITIONS, HONESTY_THRESHOLDS = 500, 200, 30
#: The seed of the page's repeated audits of thresholds: like the band, they keep their own (a new one-run seed does
#: not redraw 200 audits)
HONESTY_SEED = 0
_QUESTION_M, _QUESTION_GUESSES = 1000, 100  # the question's audit: 1,000 canaries, 100 guessed each way

_M = Choice(CANARIES)
_MODE = Choice(MODES)
_BUG = Choice(BUGS)
_GUESSES = Integer(low=0, high=10_000)
_DELTA = Choice(DELTAS)
_CONFIDENCE = Real(0.5, 1, high_open=True)
_DRAWS = Choice(DRAW_OPTIONS)
_MANY = Choice(MANY)
_FLAG = Choice((False, True))


def _percent(share: float) -> str:
    return f"{100 * share:.1f} %".replace(".0 %", " %")


def _confidence(confidence: float) -> str:
    return f"{100 * confidence:g} %"


def _delta_text(delta: float) -> str:
    if delta == 0:
        return "0"
    mantissa, exponent = f"{delta:.0e}".split("e")
    power = "10" + str(int(exponent)).translate(str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"))
    return power if mantissa == "1" else f"{mantissa}·{power}"


# --------------------------------------------------------------------------------------------------- one run
@validated(m=_M, guesses_in=_GUESSES, guesses_out=_GUESSES)
def fit_guesses(m: int, guesses_in: int, guesses_out: int) -> tuple[int, int]:
    """The guesses :math:`(k_+, k_-)` as asked, or scaled down in proportion when together they exceed ``m``.

    >>> fit_guesses(1000, 100, 100), fit_guesses(100, 100, 100)
    ((100, 100), (50, 50))
    """
    total = guesses_in + guesses_out
    if total <= m:
        return guesses_in, guesses_out
    fitted_in = math.floor(guesses_in * m / total)
    return fitted_in, min(m - fitted_in, math.floor(guesses_out * m / total + 0.5))


@validated(m=_M, guesses_in=_GUESSES, guesses_out=_GUESSES)
def guesses_warning(m: int, guesses_in: int, guesses_out: int) -> str:
    """Why the guesses were scaled down (:func:`fit_guesses`), or "" when they fit.

    >>> guesses_warning(100, 100, 100)
    'k₊ + k₋ = 200 guesses are more than the m = 100 canaries: the page uses k₊ = 50 and k₋ = 50.'
    """
    fitted = fit_guesses(m, guesses_in, guesses_out)
    if fitted == (guesses_in, guesses_out):
        return ""
    return (f"k₊ + k₋ = {guesses_in + guesses_out:,} guesses are more than the m = {m:,} canaries: the page uses "
            f"k₊ = {fitted[0]:,} and k₋ = {fitted[1]:,}.")


@functools.lru_cache(maxsize=32)
def _ranked(mode: str, m: int, epsilon: float, bug: bool, seed: int) -> np.ndarray:
    """The canaries' inclusion ranked by score in the run of :func:`dpcore.one_run_audit.one_run_audit` (what any
    number of guesses of one m, seed and claim share); read-only."""
    ranked = ranked_inclusion(m, epsilon, mode="aggregate" if mode == "aggregate" else "isolated", bug=bug, seed=seed,
                              release="laplace" if mode == "laplace" else "randomized-response")
    ranked.flags.writeable = False
    return ranked


@functools.lru_cache(maxsize=4096)
def _bound(m: int, guesses: int, correct: int, delta: float, confidence: float) -> float:
    """:func:`dpcore.one_run_audit.one_run_epsilon` of ``correct`` right guesses of ``guesses``: the same counts give
    the same bound at any seed."""
    return one_run_epsilon(m, guesses, correct, delta, confidence)


@functools.lru_cache(maxsize=4096)
def _audit(mode: str, m: int, guesses_in: int, guesses_out: int, epsilon: float, delta: float, confidence: float,
           bug: bool, seed: int) -> tuple[int, int, float]:
    """(r, v, bound) of one simulated one-run audit, the bound at the claimed ``delta``: the counts of
    :func:`dpcore.one_run_audit.one_run_audit` from its run's ranking, which every number of guesses shares."""
    ranked = _ranked(mode, m, epsilon, bug, seed)
    correct = int(ranked[m - guesses_in:].sum() + (~ranked[:guesses_out]).sum())
    guesses = guesses_in + guesses_out
    return guesses, correct, _bound(m, guesses, correct, delta, confidence)


_ONE_RUN = dict(mode=_MODE, m=_M, guesses_in=_GUESSES, guesses_out=_GUESSES, epsilon=EPSILON, delta=_DELTA,
                confidence=_CONFIDENCE, bug=_BUG, seed=SEED)


@validated(**_ONE_RUN)
def one_run(mode: str, m: int, guesses_in: int, guesses_out: int, epsilon: float, delta: float, confidence: float,
            bug: str, seed: int) -> dict[str, Any]:
    """One simulated one-run audit (:func:`dpcore.one_run_audit.one_run_audit`, the guesses fitted to ``m``): its
    ``guesses_in``, ``guesses_out``, ``guesses`` r, ``correct`` v and ``bound``, the lower bound on ε at the claimed
    ``delta`` (:func:`dpcore.one_run_audit.one_run_epsilon`), and whether it ``caught`` the claim.

    >>> one_run("randomized-response", 1000, 100, 100, 1.0, 0.0, 0.95, "correct", 0)["correct"]
    155
    """
    fitted_in, fitted_out = fit_guesses(m, guesses_in, guesses_out)
    guesses, correct, bound = _audit(mode, m, fitted_in, fitted_out, epsilon, delta, confidence, bug == "bug", seed)
    return {"guesses_in": fitted_in, "guesses_out": fitted_out, "guesses": guesses, "correct": correct,
            "bound": bound, "caught": bound > epsilon}


@validated(**_ONE_RUN)
def one_run_text(mode: str, m: int, guesses_in: int, guesses_out: int, epsilon: float, delta: float,
                 confidence: float, bug: str, seed: int) -> str:
    """The audit of :func:`one_run` in words: the guesses, the right ones, the bound and the verdict."""
    run = one_run(mode, m, guesses_in, guesses_out, epsilon, delta, confidence, bug, seed)
    r, v = run["guesses"], run["correct"]
    share = f" ({_percent(v / r)})" if r else ""
    said = (f"**Caught.** ε ≥ {run['bound']:.2f} is above the claimed ε = {epsilon:g}: this mechanism does not keep "
            "its promise." if run["caught"] else
            f"**Not caught.** ε ≥ {run['bound']:.2f} stays at or below the claimed ε = {epsilon:g}, which proves "
            "nothing either way.")
    return (f"One run with m = {m:,} canaries: the auditor said \"in\" {run['guesses_in']:,} times and \"out\" "
            f"{run['guesses_out']:,} times, abstained on the other {m - r:,}, and was right {v:,} times of "
            f"{r:,}{share}. With {_confidence(confidence)} confidence: {said}")


@validated(m=_M)
def guess_grid(m: int) -> np.ndarray:
    """The numbers r of guesses the figures try: 8 values spaced evenly on a log scale from 10 to ``m``.

    >>> guess_grid(100).tolist()
    [10, 14, 19, 27, 37, 52, 72, 100]
    """
    return _guess_grid(m).copy()


@functools.lru_cache(maxsize=len(CANARIES))
def _guess_grid(m: int) -> np.ndarray:
    """:func:`guess_grid`, computed once per m (no seed in it); read-only."""
    grid = np.unique(np.round(np.geomspace(10, m, 8)).astype(int))
    grid.flags.writeable = False
    return grid


def _split(total: int, guesses_in: int, guesses_out: int) -> tuple[int, int]:
    """``total`` guesses shared between "in" and "out" as ``guesses_in : guesses_out`` (evenly when both are 0)."""
    share = 0.5 if guesses_in + guesses_out == 0 else guesses_in / (guesses_in + guesses_out)
    made_in = int(round(total * share))
    return made_in, total - made_in


def _curve(mode: str, m: int, guesses_in: int, guesses_out: int, epsilon: float, delta: float, confidence: float,
           bug: bool, seed: int) -> np.ndarray:
    grid = _guess_grid(m)
    return np.array([_audit(mode, m, *_split(int(total), guesses_in, guesses_out), epsilon, delta, confidence, bug,
                            seed)[2] for total in grid])


@validated(mode=_MODE, guesses_in=_GUESSES, guesses_out=_GUESSES, epsilon=EPSILON, delta=_DELTA,
           confidence=_CONFIDENCE, bug=_BUG, seed=SEED)
def bound_frames(mode: str, guesses_in: int, guesses_out: int, epsilon: float, delta: float, confidence: float,
                 bug: str, seed: int) -> list[dict[str, Any]]:
    """For each m of :data:`CANARIES`: the ``guesses`` r of :func:`guess_grid`, shared between "in" and "out" as
    :math:`k_+ : k_-`, the ``bounds`` of one audit (seed ``seed``) at each, and the audit with the chosen guesses
    (fitted to m): ``chosen`` r and ``chosen_bound``."""
    frames = []
    for m in CANARIES:
        run = one_run(mode, m, guesses_in, guesses_out, epsilon, delta, confidence, bug, seed)
        frames.append({"m": m, "label": f"{m:,}", "guesses": guess_grid(m),
                       "bounds": _curve(mode, m, guesses_in, guesses_out, epsilon, delta, confidence, bug == "bug",
                                        seed),
                       "chosen": run["guesses"], "chosen_bound": run["bound"]})
    return frames


def _band(mode: str, m: int, guesses_in: int, guesses_out: int, epsilon: float, delta: float, confidence: float,
          bug: bool) -> dict[str, np.ndarray]:
    bounds = np.array([_curve(mode, m, guesses_in, guesses_out, epsilon, delta, confidence, bug, seed)
                       for seed in range(SEEDS)])
    low, median, high = np.quantile(bounds, [0.1, 0.5, 0.9], axis=0)
    return {"low": low, "median": median, "high": high}


@validated(mode=_MODE, m=_M, guesses_in=_GUESSES, guesses_out=_GUESSES, epsilon=EPSILON, delta=_DELTA,
           confidence=_CONFIDENCE, bug=_BUG)
def seed_band(mode: str, m: int, guesses_in: int, guesses_out: int, epsilon: float, delta: float, confidence: float,
              bug: str) -> dict[str, Any]:
    """The audit repeated over :data:`SEEDS` seeds (0, 1, …, whatever the page's seed), at m canaries and each r of
    :func:`guess_grid`: the median and 10–90 % band of the bound for the isolated release (``mode``, or randomized
    response when ``mode`` is the aggregate) and for the aggregate, by mode (``"bands"``)."""
    isolated = "randomized-response" if mode == "aggregate" else mode
    return {"guesses": guess_grid(m), "bands": {kind: _band(kind, m, guesses_in, guesses_out, epsilon, delta,
                                                            confidence, bug == "bug")
                                                for kind in (isolated, "aggregate")}}


@validated(epsilon=EPSILON, delta=_DELTA, confidence=_CONFIDENCE, bug=_BUG)
def interference_question(epsilon: float, delta: float, confidence: float, bug: str) -> Question:
    """Predict, then reveal: with 1,000 canaries in one noisy sum, 100 guessed "in" and 100 "out", how close does
    the bound get to the claimed ε? The answer: the median over :data:`SEEDS` audits as a share of ε."""
    bounds = [_audit("aggregate", _QUESTION_M, _QUESTION_GUESSES, _QUESTION_GUESSES, epsilon, delta, confidence,
                     bug == "bug", seed)[2] for seed in range(SEEDS)]
    median = float(np.median(bounds))
    ratio = median / epsilon
    claim = f"the claimed ε = {epsilon:g}" + (" (with the planted bug the mechanism spends twice that)"
                                             if bug == "bug" else "")
    return Question(
        key=QUESTION,
        prompt=(f"A mechanism adds Laplace noise to one sum of 1,000 canaries, {claim}. The auditor says \"in\" for "
                "its 100 highest scores and \"out\" for its 100 lowest. How close does the lower bound on ε get to "
                f"{epsilon:g}, typically?"),
        choices=(f"far below: under 30 % of {epsilon:g}", f"about half: 30 % to 80 % of {epsilon:g}",
                 f"close: 80 % to 100 % of {epsilon:g}", f"above {epsilon:g}"),
        answer=bucket(ratio, (0.3, 0.8, 1.0)),
        explanation=(f"The median bound over {SEEDS} audits is ε ≥ {median:.2f}, {_percent(ratio)} of "
                     f"{epsilon:g}. Every canary's score is the same noisy sum seen through its own value, and the "
                     "other 999 canaries' bits are noise to it: the canaries interfere (Keinan, Shenfeld & Ligett "
                     "2025), so even the surest guesses are barely better than coin flips. An isolated canary's "
                     "release depends on its own bit alone: each guess is then right as often as ε allows, and the "
                     "bound approaches the claim."))


# --------------------------------------------------------------------------------------------------- many runs
def _letter(mechanism: str, bug: str, seed: int) -> str:
    broken = audit_lab.broken_letter(mechanism, seed)
    return broken if bug == "bug" else "B" if broken == "A" else "A"


@functools.lru_cache(maxsize=16)
def _many_run(mechanism: str, epsilon: float, draws: int, confidence: float, bug: str, seed: int) -> dict[str, Any]:
    spec = audit_lab.MECHANISMS[mechanism]
    x, neighbour = audit_lab.audit_draws(mechanism, _letter(mechanism, bug, seed), epsilon, draws, seed)
    events = spec.events(epsilon)
    counts, counts_neighbour = threshold_counts(x, events), threshold_counts(neighbour, events)
    return {"events": events, "counts": counts, "counts_neighbour": counts_neighbour, "claim_delta": spec.delta,
            "fit": gaussian_dp_fit(counts, counts_neighbour, draws, MANY_DELTA, confidence),
            "points": tradeoff_points(counts, counts_neighbour, draws, confidence)}


_MANY_RUN = dict(mechanism=_MANY, epsilon=EPSILON, draws=_DRAWS, confidence=_CONFIDENCE, bug=_BUG, seed=SEED)


@validated(**_MANY_RUN)
def many_run(mechanism: str, epsilon: float, draws: int, confidence: float, bug: str, seed: int) -> dict[str, Any]:
    """The audit lab's many-run audit of ``mechanism`` (its correct variant, or its planted bug), ``draws`` draws on X
    and X′ (seed ``seed``): the threshold ``events``, their ``counts`` on both, the claim's δ (``claim_delta``), the
    Gaussian-DP ``fit`` (:func:`dpcore.audit.gaussian_dp_fit` at δ = :data:`MANY_DELTA`) and the trade-off
    ``points`` (:func:`dpcore.audit.tradeoff_points`). Remembered for the last few calls; read-only."""
    return _many_run(mechanism, epsilon, draws, confidence, bug, seed)


_WHAT = {"laplace-count": "Laplace count", "gaussian-mean": "Gaussian mean"}


def _claim(mechanism: str, epsilon: float) -> str:
    if mechanism == "gaussian-mean":
        return f"ε = {epsilon:g}, δ = {_delta_text(MANY_DELTA)}"
    return f"pure ε = {epsilon:g}"


@validated(epsilon=EPSILON, draws=_DRAWS, confidence=_CONFIDENCE, bug=_BUG, seed=SEED)
def gdp_rows(epsilon: float, draws: int, confidence: float, bug: str, seed: int) -> list[dict[str, str]]:
    """One row per mechanism of :data:`MANY`: its claim, :math:`\\underline\\mu`, the ε it implies at
    δ = :data:`MANY_DELTA`, the Clopper–Pearson ε of the same draws, and what each says of the claim.

    >>> [row["ε at δ = 10⁻⁵ from μ (assumes a Gaussian curve)"] for row in gdp_rows(1.0, 50_000, 0.95, "correct", 0)]
    ['4.31 (above the claim)', '0.854 (within the claim)']
    """
    rows = []
    for mechanism in MANY:
        fit = many_run(mechanism, epsilon, draws, confidence, bug, seed)["fit"]

        def verdict(bound: float) -> str:
            return "above the claim" if bound > epsilon else "within the claim"
        rows.append({"mechanism": f"{_WHAT[mechanism]} ({'planted bug' if bug == 'bug' else 'correct'})",
                     "claim": _claim(mechanism, epsilon),
                     "μ at least": f"{fit.mu_lower:.3f}",
                     f"ε at δ = {_delta_text(MANY_DELTA)} from μ (assumes a Gaussian curve)":
                         f"{fit.epsilon:.3g} ({verdict(fit.epsilon)})",
                     "ε, Clopper–Pearson (assumes nothing)":
                         f"{fit.epsilon_clopper_pearson:.3g} ({verdict(fit.epsilon_clopper_pearson)})"})
    return rows


@validated(epsilon=EPSILON, draws=_DRAWS, confidence=_CONFIDENCE, bug=_BUG, seed=SEED)
def gdp_caption(epsilon: float, draws: int, confidence: float, bug: str, seed: int) -> str:
    """The two audits in one sentence each: where the Gaussian fit is tight, and where its assumption overstates."""
    laplace = many_run("laplace-count", epsilon, draws, confidence, bug, seed)["fit"]
    gauss = many_run("gaussian-mean", epsilon, draws, confidence, bug, seed)["fit"]
    text = (f"On the Gaussian mean the fit gives ε ≥ {gauss.epsilon:.2f} where Clopper–Pearson gives "
            f"{gauss.epsilon_clopper_pearson:.2f} ({draws:,} draws each): the assumption is true there, and it buys "
            "a tighter bound. ")
    if bug == "bug":
        return text + (f"On the Laplace count with its bug both are above ε = {epsilon:g} "
                       f"({laplace.epsilon:.2f} and {laplace.epsilon_clopper_pearson:.2f}): a real violation, which "
                       "Clopper–Pearson confirms without assuming anything."
                       if laplace.epsilon_clopper_pearson > epsilon else
                       f"On the Laplace count with its bug the fit says ε ≥ {laplace.epsilon:.2f}, Clopper–Pearson "
                       f"{laplace.epsilon_clopper_pearson:.2f}: only the second is evidence.")
    return text + (f"On the correct Laplace count the fit says ε ≥ {laplace.epsilon:.2f}, far above the true "
                   f"ε = {epsilon:g}, while Clopper–Pearson gives {laplace.epsilon_clopper_pearson:.2f}: the "
                   "Laplace trade-off curve is not Gaussian, and the assumption, not the data, made that number.")


@validated(**_MANY_RUN)
def tradeoff_curves(mechanism: str, epsilon: float, draws: int, confidence: float, bug: str, seed: int
                    ) -> dict[str, Any]:
    """The trade-off picture of ``mechanism``: ``alpha`` (type I errors), the ``claimed`` curve
    (:func:`dpcore.accounting.dp_tradeoff` at ε and the claim's δ), the ``exact`` curve of the correct mechanism
    (:func:`dpcore.accounting.laplace_tradeoff`, or :func:`dpcore.accounting.gaussian_tradeoff` at the analytic
    Gaussian's μ), the ``points`` (:class:`dpcore.audit.TradeoffPoints`), which boxes lie wholly below the claimed
    curve (``caught``: their upper-right corner below it) and their number (``caught_count``). The three curves are
    shared by every call with the same claim: read-only."""
    run = many_run(mechanism, epsilon, draws, confidence, bug, seed)
    points = run["points"]
    caught = points.fnr_high < accounting.dp_tradeoff(points.fpr_high, epsilon, run["claim_delta"])
    return _claim_curves(mechanism, epsilon, run["claim_delta"]) | {
        "points": points, "caught": caught, "caught_count": int(caught.sum()), "claim": _claim(mechanism, epsilon),
        "title": _WHAT[mechanism]}


@functools.lru_cache(maxsize=16)
def _claim_curves(mechanism: str, epsilon: float, delta: float) -> dict[str, np.ndarray]:
    """The curves of :func:`tradeoff_curves` that no draw enters (``alpha``, ``claimed``, ``exact``), computed once per
    claim; read-only."""
    alpha = np.linspace(0.0, 1.0, 201)
    exact = (accounting.laplace_tradeoff(alpha, epsilon) if mechanism == "laplace-count"
             else accounting.gaussian_tradeoff(alpha, accounting.gaussian_mu(epsilon, MANY_DELTA)))
    curves = {"alpha": alpha, "claimed": accounting.dp_tradeoff(alpha, epsilon, delta), "exact": exact}
    for curve in curves.values():
        curve.flags.writeable = False
    return curves


@validated(**_MANY_RUN)
def tradeoff_caption(mechanism: str, epsilon: float, draws: int, confidence: float, bug: str, seed: int) -> str:
    """The trade-off picture's verdict: how many boxes lie wholly below the claimed curve."""
    curves = tradeoff_curves(mechanism, epsilon, draws, confidence, bug, seed)
    count, total = curves["caught_count"], curves["points"].fpr.size
    if count:
        return (f"{count} of {total} boxes lie wholly below the curve of {curves['claim']}: with "
                f"{_confidence(confidence)} confidence for all boxes at once, some test errs less often than the "
                "claim allows. Caught.")
    return (f"None of the {total} boxes lies wholly below the curve of {curves['claim']}: no violation seen "
            f"({draws:,} draws each, {_confidence(confidence)} confidence for all boxes at once).")


# --------------------------------------------------------------------------------------------------- honesty
@functools.lru_cache(maxsize=16)
def _honesty(epsilon: float, confidence: float, bug: str, seed: int) -> dict[str, Any]:
    spent = 2 * epsilon if bug == "bug" else epsilon  # the planted bug: noise for half the sensitivity spends 2ε
    result = threshold_honesty(spent, HONESTY_CANARIES, HONESTY_REPETITIONS, HONESTY_THRESHOLDS, confidence, seed)
    bounds = {"naive": result.naive, "bonferroni": result.bonferroni, "split": result.split}
    return {"bounds": bounds, "rates": {name: float(np.mean(values > epsilon)) for name, values in bounds.items()},
            "thresholds": int(result.thresholds.size), "spent": spent}


@validated(epsilon=EPSILON, confidence=_CONFIDENCE, bug=_BUG, seed=SEED)
def honesty(epsilon: float, confidence: float, bug: str, seed: int) -> dict[str, Any]:
    """:data:`HONESTY_REPETITIONS` one-run audits of :data:`HONESTY_CANARIES` canaries, each released with Laplace
    noise (:func:`dpcore.one_run_audit.threshold_honesty`; with the planted bug the mechanism spends 2ε): each
    method's ``bounds`` (``"naive"``, ``"bonferroni"``, ``"split"``), the share of them above the claimed ε
    (``rates``), the number of ``thresholds`` tried and the ε the mechanism truly ``spent``."""
    return _honesty(epsilon, confidence, bug, seed)


#: Each way of choosing the threshold, in words
METHOD_WORDS = {"naive": ("best of the thresholds, same data", "the best bound of all thresholds, each at the "
                          "confidence of one"),
                "bonferroni": ("best of the thresholds, Bonferroni", "the best bound, each threshold at the confidence "
                               "divided among them"),
                "split": ("chosen on one half, certified on the other", "the best threshold on half of the canaries, "
                          "its bound from the other half")}


@validated(epsilon=EPSILON, confidence=_CONFIDENCE, bug=_BUG, seed=SEED)
def honesty_rows(epsilon: float, confidence: float, bug: str, seed: int) -> list[dict[str, str]]:
    """Per way of choosing the threshold: how it chooses, and how often its bound exceeded the claimed ε, against
    the 1 − confidence a valid audit of a correct mechanism allows (with the bug: how often it caught it).

    >>> [row["bound above the claimed ε"] for row in honesty_rows(1.0, 0.95, "correct", 0)]
    ['26 %', '0 %', '4 %']
    """
    result = honesty(epsilon, confidence, bug, seed)
    allowed = f"at most {_percent(1 - confidence)}" if bug == "correct" else "as often as possible (a real bug)"
    return [{"threshold": METHOD_WORDS[name][0], "how": METHOD_WORDS[name][1],
             "bound above the claimed ε": _percent(rate), "a valid audit": allowed}
            for name, rate in result["rates"].items()]


@validated(epsilon=EPSILON, confidence=_CONFIDENCE, bug=_BUG, seed=SEED)
def honesty_caption(epsilon: float, confidence: float, bug: str, seed: int) -> str:
    """The honesty table in one sentence."""
    result = honesty(epsilon, confidence, bug, seed)
    rates = result["rates"]
    if bug == "bug":
        return (f"With the planted bug the mechanism spends ε = {result['spent']:g}: the honest choices catch it in "
                f"{_percent(rates['bonferroni'])} (Bonferroni) and {_percent(rates['split'])} (split) of "
                f"{HONESTY_REPETITIONS} audits. Honesty costs some power, never validity.")
    return (f"The mechanism is correct, so a bound above ε = {epsilon:g} is a false alarm. Choosing the best of "
            f"{result['thresholds']} thresholds on the same data raised one in {_percent(rates['naive'])} of "
            f"{HONESTY_REPETITIONS} audits, though each bound claims {_confidence(confidence)} confidence; paying "
            f"for the choice (Bonferroni: {_percent(rates['bonferroni'])}) or choosing on other data (split: "
            f"{_percent(rates['split'])}) keeps within the {_percent(1 - confidence)} allowed.")


# --------------------------------------------------------------------------------------------------- takeaways
@validated(mode=_MODE, m=_M, guesses_in=_GUESSES, guesses_out=_GUESSES, epsilon=EPSILON, delta=_DELTA,
           confidence=_CONFIDENCE, bug=_BUG, seed=SEED, draws=_DRAWS, revealed=_FLAG)
def takeaways(mode: str, m: int, guesses_in: int, guesses_out: int, epsilon: float, delta: float, confidence: float,
              bug: str, seed: int, draws: int, revealed: bool = True) -> list[str]:
    """What to notice, from the numbers on the page; the aggregate's bound (the question's answer) only once
    ``revealed``."""
    run = one_run(mode, m, guesses_in, guesses_out, epsilon, delta, confidence, bug, seed)
    first = (f"One run of {m:,} canaries ({MODE_NAMES[mode].split(': ')[1]}) gives ε ≥ {run['bound']:.2f} against "
             f"the claimed {epsilon:g}, from {run['correct']:,} right guesses of {run['guesses']:,}.")
    if revealed:
        band = seed_band(mode, m, guesses_in, guesses_out, epsilon, delta, confidence, bug)
        isolated = next(kind for kind in band["bands"] if kind != "aggregate")
        best = {kind: float(np.max(values["median"])) for kind, values in band["bands"].items()}
        second = (f"Over {SEEDS} audits the isolated canaries reach a median bound of {best[isolated]:.2f} at best, "
                  f"one noisy sum of them only {best['aggregate']:.2f}: in one sum the canaries interfere.")
    else:
        second = f"How far one noisy sum of the canaries gets appears {HELD_BACK} (Predict first, above)."
    fit = many_run("laplace-count", epsilon, draws, confidence, bug, seed)["fit"]
    third = (f"Gaussian DP from error rates is only as true as its assumption: on the Laplace count it says "
             f"ε ≥ {fit.epsilon:.2f}, Clopper–Pearson {fit.epsilon_clopper_pearson:.2f}.")
    rates = honesty(epsilon, confidence, bug, HONESTY_SEED)["rates"]
    fourth = (f"Picking the best threshold on the same data exceeded the claim in {_percent(rates['naive'])} of "
              f"audits; Bonferroni {_percent(rates['bonferroni'])}, a split {_percent(rates['split'])}.")
    return [first, second, third, fourth]


r"""Check yourself, "Audit studio": one-run audits with many canaries, Gaussian DP from error rates, interference.

Five exercises: the lower bound on ε a one-run audit's counts prove (a number), the lower bound on μ one test's error
rates prove if the trade-off curve is Gaussian (a number), why one noisy sum of canaries proves so little (a choice),
what reporting the best of many thresholds does (a choice), and a planted bug caught in one run with as few guesses as
possible (a task on the page's controls). Every number
comes from the library: the one-run audit of :mod:`dpcore.one_run_audit` (Steinke, Nasr & Jagielski 2023), the
Gaussian-DP bound of :func:`dpcore.audit.gaussian_dp_lower_bound` (Nasr et al. 2023; Dong, Roth & Su 2022), and the
page's simulated audits of :mod:`dpcore.lessons.audit_studio` (interference: Keinan, Shenfeld & Ligett 2025).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
from scipy import special, stats

from ..audit import gaussian_dp_lower_bound
from ..lessons import audit_studio as lesson
from ..one_run_audit import one_run_audit, one_run_epsilon, threshold_honesty
from ._numbers import in_math, same, shuffled
from .base import Exercise, Variant

__all__ = ["EXERCISES", "CONFIDENCES", "GUESS_STEPS", "TASK_EPSILONS", "TASK_CANARIES", "MARGIN",
           "HONEST_CANARIES", "HONEST_REPETITIONS"]

CONFIDENCES = (0.9, 0.95, 0.99)  #: the page's confidence levels (app_pages/settings/audit_studio.py)
#: The task's guesses k₊ = k₋ = k, tried in this order: its answer is the first that catches the bug (values of the
#: page's guesses controls)
GUESS_STEPS = (10, 20, 30, 50, 70, 100, 150, 200)
TASK_EPSILONS = (0.3, 0.5, 0.7, 1.0, 1.5, 2.0)  #: the task's claimed ε: values of the page's ε control
TASK_CANARIES = (1000, 3000, 10_000)  #: the task's m: values of the page's canaries control
MARGIN = 0.005  #: the task's bounds up to its answer are at least this far from the claimed ε
#: The honest-threshold exercise's audits: as the page's last section (dpcore.lessons.audit_studio)
HONEST_CANARIES, HONEST_REPETITIONS = lesson.HONESTY_CANARIES, lesson.HONESTY_REPETITIONS
_ISOLATED = ("randomized-response", "laplace")  #: the page's isolated releases (its "Canaries" control)
_RELEASE_WORDS = {"randomized-response": "each canary's bit kept with a probability meant to be "
                                         "$e^{\\varepsilon}/(1+e^{\\varepsilon})$, else flipped",
                  "laplace": "each canary's bit plus Laplace noise meant to be of scale $1/\\varepsilon$"}


def _percent(confidence: float) -> str:
    return f"{100 * confidence:g} %"


def _signed(value: float) -> str:
    """``value`` to four decimals with a minus sign (−) for prose."""
    return f"{value:.4f}".replace("-", "−")


def _bracketed(value: float) -> str:
    """``value`` as :func:`_signed`, in brackets when negative (after a minus sign)."""
    return f"({_signed(value)})" if value < 0 else _signed(value)


def _logit(q: float) -> float:
    return math.log(q / (1 - q))


def _one_run_bound(rng: np.random.Generator) -> Variant:
    r"""The lower bound on ε of a one-run audit with :math:`r` guesses, :math:`v` right, pure DP.

    ε is rejected when :math:`P[\mathrm{Binomial}(r, e^{\varepsilon}/(1+e^{\varepsilon})) \ge v] < 1 - c`; the tail
    grows with the success probability, so the largest rejected ε is the logit of the success probability
    :math:`\underline q` at which the tail is exactly :math:`1 - c` (a one-sided Clopper–Pearson lower bound on the
    accuracy), given in the prompt: :func:`dpcore.one_run_audit.one_run_epsilon` (Steinke, Nasr & Jagielski 2023).
    """
    while True:
        m = int(rng.choice([1000, 3000, 10_000, 100_000]))
        guesses = int(rng.choice([100, 200, 300, 500, 1000]))
        true = float(rng.choice([0.5, 0.7, 1.0, 1.5, 2.0, 3.0]))
        correct = int(round(guesses * special.expit(true) * rng.uniform(0.96, 1.02)))
        confidence = float(rng.choice(CONFIDENCES))
        if not (guesses <= m and correct < guesses):
            continue
        bound = one_run_epsilon(m, guesses, correct, 0.0, confidence)
        low = float(special.betaincinv(correct, guesses - correct + 1, 1 - confidence))
        shown = float(f"{low:.5g}")
        point = _logit(correct / guesses)
        if bound > 0.1 and abs(_logit(shown) - bound) < 0.002 and point - bound > 0.05:
            break
    q = f"{shown:.5g}"
    return Variant(
        prompt=(f"A one-run audit (Steinke, Nasr & Jagielski 2023) puts $m = {in_math(f'{m:,}')}$ canaries (records "
                "planted by the auditor, each included with probability ½ by a coin flip the auditor keeps) through "
                "a mechanism once. From the one output the auditor guesses \"in\" or \"out\" for some canaries and "
                f"abstains on the rest: of its $r = {guesses}$ guesses, $v = {correct}$ are right. If the mechanism "
                "is $\\varepsilon$-differentially private for each canary (pure DP: $\\delta = 0$), the number right "
                "is no larger, in distribution, than a binomial count $B$ of $r$ trials with success probability "
                "$q = e^{\\varepsilon}/(1+e^{\\varepsilon})$. So the audit rejects every $\\varepsilon$ for which "
                f"$P[B \\ge v] < 1 - c$, at confidence $c = {confidence:g}$, and the largest rejected "
                "$\\varepsilon$ is a lower bound on the mechanism's $\\varepsilon$. The tail $P[B \\ge v]$ grows "
                f"with $q$, and equals $1 - c = {1 - confidence:.2g}$ exactly at $q = {q}$. What is the largest "
                "rejected $\\varepsilon$? (to within 0.01)"),
        hints=("The tail P[B ≥ v] grows with q, and q = e^ε/(1 + e^ε) grows with ε: ε is rejected exactly while its q "
               f"is below {q}. The bound is the ε whose q is {q}.",
               f"Solve e^ε/(1 + e^ε) = {q} for ε: ε = ln(q/(1 − q))."),
        solution=(f"ε is rejected while e^ε/(1 + e^ε) < {q}, so the largest rejected ε solves e^ε/(1 + e^ε) = {q}: "
                  f"ε = ln({q}/(1 − {q})) = ln({shown / (1 - shown):.5g}) = {bound:.3f}."),
        why=(f"ε ≥ ln(q/(1 − q)) = ln({q}/{1 - shown:.5g}) = {bound:.3f}, with {_percent(confidence)} confidence. "
             f"The point estimate ln(v/(r − v)) = ln({correct}/{guesses - correct}) = {point:.3f} would claim more "
             f"than {guesses} guesses show, and with δ = 0 the number of canaries m = {m:,} does not enter."),
        answer=bound, tolerance=0.01)


def _gaussian_mu(rng: np.random.Generator) -> Variant:
    r"""The lower bound on μ of one threshold test's error counts, assuming a Gaussian trade-off curve.

    With one-sided Clopper–Pearson upper bounds :math:`\overline{\mathrm{FPR}}, \overline{\mathrm{FNR}}` at level
    :math:`(1 - c)/2` each (they hold together with confidence :math:`c`), :math:`\underline\mu =
    \Phi^{-1}(1 - \overline{\mathrm{FPR}}) - \Phi^{-1}(\overline{\mathrm{FNR}})` (Nasr et al. 2023):
    :func:`dpcore.audit.gaussian_dp_lower_bound` of the one test.
    """
    while True:
        draws = int(rng.choice([10_000, 20_000, 50_000, 100_000]))
        mu = float(rng.choice([0.5, 0.75, 1.0, 1.5, 2.0]))
        threshold = float(rng.uniform(0.3, 0.7) * mu + rng.uniform(0.5, 1.5))
        confidence = float(rng.choice(CONFIDENCES))
        false_positives = int(round(draws * stats.norm.sf(threshold) * rng.uniform(0.95, 1.05)))
        false_negatives = int(round(draws * stats.norm.cdf(threshold - mu) * rng.uniform(0.95, 1.05)))
        if min(false_positives, false_negatives) < 20:
            continue
        bound = gaussian_dp_lower_bound([false_positives], draws, [false_negatives], draws, confidence)
        level = (1 - confidence) / 2
        fpr = float(stats.beta.ppf(1 - level, false_positives + 1, draws - false_positives))
        fnr = float(stats.beta.ppf(1 - level, false_negatives + 1, draws - false_negatives))
        fpr_shown, fnr_shown = float(f"{fpr:.4g}"), float(f"{fnr:.4g}")
        from_shown = float(stats.norm.ppf(1 - fpr_shown) - stats.norm.ppf(fnr_shown))
        point = float(stats.norm.isf(false_positives / draws) - stats.norm.ppf(false_negatives / draws))
        if bound > 0.1 and abs(from_shown - bound) < 0.002 and point - bound > 0.03:
            break
    z_fpr, z_fnr = float(stats.norm.isf(fpr_shown)), float(stats.norm.ppf(fnr_shown))
    n = in_math(f"{draws:,}")
    return Variant(
        prompt=(f"A mechanism is run $N = {n}$ times on a dataset $X$ and $N$ times on a neighbouring dataset $X'$ "
                "(one person's record changed). A test says \"$X'$\" when the output is above a threshold fixed in "
                f"advance: it said \"$X'$\" on {false_positives:,} of the runs on $X$ (false positives) and \"$X$\" "
                f"on {false_negatives:,} of the runs on $X'$ (false negatives). Exact one-sided upper confidence "
                "bounds on the two error rates (Clopper & Pearson 1934, from the binomial law), holding together "
                f"with {_percent(confidence)} confidence, give false-positive rate "
                f"$\\mathrm{{FPR}} \\le {fpr_shown:.4g}$ and false-negative rate "
                f"$\\mathrm{{FNR}} \\le {fnr_shown:.4g}$. If the mechanism is $\\mu$-Gaussian differentially "
                "private (Dong, Roth & Su 2022: telling $X$ from $X'$ is as hard as telling a normal distribution "
                "of mean 0 from one of mean $\\mu$, both with standard deviation 1), every test has "
                "$\\mu \\ge \\Phi^{-1}(1 - \\mathrm{FPR}) - \\Phi^{-1}(\\mathrm{FNR})$, where $\\Phi^{-1}$ is the "
                "standard normal quantile (Nasr et al. 2023). What lower bound on $\\mu$ does this test prove? "
                "(to within 0.01)"),
        hints=("Both terms Φ⁻¹(1 − FPR) and −Φ⁻¹(FNR) fall as the rates grow: the bound must hold even at the "
               "largest rates the confidence bounds allow, so use the upper bounds, not the counts divided by N.",
               f"μ ≥ Φ⁻¹(1 − {fpr_shown:.4g}) − Φ⁻¹({fnr_shown:.4g}); a normal table or a calculator's inverse "
               "normal gives each quantile."),
        solution=(f"Φ⁻¹(1 − {fpr_shown:.4g}) = {z_fpr:.4f} and Φ⁻¹({fnr_shown:.4g}) = {_signed(z_fnr)}, so "
                  f"μ ≥ {z_fpr:.4f} − {_bracketed(z_fnr)} = {bound:.3f}."),
        why=(f"μ ≥ Φ⁻¹(1 − {fpr_shown:.4g}) − Φ⁻¹({fnr_shown:.4g}) = {z_fpr:.4f} − {_bracketed(z_fnr)} = "
             f"{bound:.3f}, "
             f"with {_percent(confidence)} confidence, and only if the trade-off curve is Gaussian (on Laplace noise "
             f"the same formula overstates). The counts alone, {false_positives:,}/{draws:,} and "
             f"{false_negatives:,}/{draws:,}, would give {point:.3f}, more than the draws show."),
        answer=bound, tolerance=0.01)


def _interference(rng: np.random.Generator) -> Variant:
    r"""Why one noisy sum of many canaries proves little: interference (Keinan, Shenfeld & Ligett 2025).

    The audit of the page's aggregate mode (:func:`dpcore.one_run_audit.one_run_audit`, the correct mechanism):
    canary :math:`i`'s score :math:`c_i(y - \sum_j c_j/2)` is the sum seen through :math:`c_i`; its own bit moves the
    sum by :math:`c_i` (at most 1), while the other canaries' bits make it vary with standard deviation about
    :math:`\sqrt{m/12}` (each adds :math:`c_j` or 0: variance :math:`c_j^2/4`, on average 1/12). The wrong choices:
    too few guesses, a mechanism more private than claimed, a confidence too demanding.
    """
    while True:
        m = int(rng.choice([1000, 3000, 10_000]))
        epsilon = float(rng.choice([1.0, 2.0, 3.0, 5.0]))
        guesses = int(rng.choice([50, 100, 200]))
        seed = int(rng.integers(1, 1000))
        confidence = float(rng.choice(CONFIDENCES))
        audit = one_run_audit(m, guesses, guesses, epsilon, mode="aggregate", seed=seed, confidence=confidence)
        if audit.epsilon_lower_bound < 0.3 * epsilon:
            break
    r, v, bound = audit.guesses, audit.correct, audit.epsilon_lower_bound
    spread = math.sqrt(m / 12)
    accuracy = v / r
    point = (f"even the point estimate ln(v/(r − v)) = ln({v}/{r - v}) = {_logit(accuracy):.2f} is at most half "
             f"of {epsilon:g}" if v > r / 2 else
             f"the guesses were right only {100 * accuracy:.1f} % of the time, no better than coin flips")
    choices, reasons, answer = shuffled(rng, (
        "The canaries interfere: every score is the same noisy sum, and the other canaries' bits are noise to it",
        f"Canary i's own bit moves the sum by its value $c_i$, at most 1, but the other {m - 1:,} canaries' bits move "
        f"the same sum by about √(m/12) = {spread:.1f} (one standard deviation): each guess is barely better than a "
        f"coin flip, {v} right of {r}, and the bound stays at {bound:.2f}. With each canary released on its own the "
        f"guesses would be right as often as ε = {epsilon:g} allows, and the bound would approach it."), [
        ("Too few guesses: guessing all the canaries would bring the bound up to the claim",
         f"More guesses help when each is right clearly more often than half the time. Here {point}: guessing more "
         "canaries, whose scores are even less clear, adds guesses no better than coin flips."),
        ("The mechanism is more private than it claims: each canary's true ε is smaller",
         f"One canary changes the sum by its value $c_i$, at most 1 in size, and Laplace noise of scale 1/ε covers a "
         f"change of 1 exactly: for a canary with value near ±1 the mechanism spends all of ε = {epsilon:g}. The gap "
         "is the audit's, not the mechanism's."),
        ("The confidence is too demanding: at a lower confidence the bound would reach the claim",
         f"The confidence only moves the binomial cut-off by a few standard deviations; {point}, so no confidence "
         f"level brings the bound near {epsilon:g}."),
    ])
    return Variant(
        prompt=(f"There are $m = {in_math(f'{m:,}')}$ canaries, each included with probability ½, and canary $i$ "
                "has a public value $c_i$ between −1 and 1. A mechanism adds up the values of the canaries that are "
                "in, and releases "
                f"the sum plus Laplace noise of scale $1/\\varepsilon$ with $\\varepsilon = {epsilon:g}$: one "
                "canary changes the sum by at most 1 (its sensitivity), so the release is "
                "$\\varepsilon$-differentially private for each canary. A one-run audit (Steinke, Nasr & Jagielski "
                "2023) scores each canary from the one release, guesses \"in\" for its "
                f"{guesses} highest scores and \"out\" for its {guesses} lowest: $v = {v}$ of its $r = {r}$ guesses "
                f"are right, and the lower bound on $\\varepsilon$ at {_percent(confidence)} confidence is "
                f"${bound:.2f}$, far below ${epsilon:g}$. Why?"),
        hints=("Ask what each canary's score is made of: its own bit, and what else? The audit can only be tight if "
               "each guess is right as often as ε allows.",
               f"Every score comes from the same sum. Compare one canary's effect on it (its value, at most 1) with "
               "the spread the other canaries' bits add: each adds its value or 0, a variance of about 1/12 on "
               f"average, so about √(m/12) for m = {m:,}."),
        solution=(f"The other canaries' bits make the sum vary by about √(m/12) = √({m:,}/12) = {spread:.1f}, "
                  f"while one canary moves it by its value, at most 1: the canaries interfere (Keinan, Shenfeld & "
                  f"Ligett 2025). So the guesses are barely better than coin flips ({v} right of {r}), and the "
                  f"bound, {bound:.2f}, stays far below ε = {epsilon:g}."),
        why=reasons[answer], answer=answer, choices=choices, reasons=reasons)


def _honest_threshold(rng: np.random.Generator) -> Variant:
    r"""What reporting the best of K thresholds, each at confidence c, does to a correct mechanism's audits: false
    alarms more often than :math:`1 - c`.

    The audits of :func:`dpcore.one_run_audit.threshold_honesty` (the page's last section: 500 canaries, each its bit
    plus Laplace noise, "in" for the k highest scores), repeated 200 times at a drawn seed, give the rates the reasons
    quote. The wrong choices: the largest bound keeps the confidence of one, more thresholds are more careful, the
    union bound :math:`K(1 - c)` is the rate.
    """
    while True:
        epsilon = float(rng.choice([0.5, 1.0, 2.0]))
        count = int(rng.choice([20, 30, 50]))
        confidence = float(rng.choice(CONFIDENCES))
        seed = int(rng.integers(0, 1000))
        result = threshold_honesty(epsilon, HONEST_CANARIES, HONEST_REPETITIONS, count, confidence, seed)
        level = 1 - confidence
        union = count * level
        if (count == result.thresholds.size and result.naive_rate >= 1.5 * level
                and result.naive_rate <= 0.5 * union and max(result.bonferroni_rate, result.split_rate) <= level):
            break
    naive, bonferroni, split = (f"{100 * rate:.1f} %" for rate in (result.naive_rate, result.bonferroni_rate,
                                                                    result.split_rate))
    allowed = f"{100 * level:g} %"
    measured = (f"In {HONEST_REPETITIONS} such audits the reported bound was above ε = {epsilon:g} in {naive} of "
                "them.")
    each = level / count
    fixes = (f"Paying for the choice keeps within {allowed}: each threshold at level (1 − c)/K = {allowed}/{count} = "
             f"{100 * each:.3g} % (Bonferroni; {bonferroni} measured), or the threshold chosen on half of the canaries "
             f"and its bound computed on the other half ({split} measured).")
    choices, reasons, answer = shuffled(rng, (
        f"More often than 1 − c = {allowed}: the threshold was picked on the same data that certify it",
        f"Each bound alone is above ε at most {allowed} of the time, but the reported one is the largest of {count}, "
        f"kept because it is large: it is above ε whenever any one of them is lucky. {measured} {fixes}"), [
        (f"At most 1 − c = {allowed}: each bound holds with confidence c, so the largest does too",
         f"Each bound holds with confidence c on its own, but the largest is chosen after looking: it is above ε "
         f"whenever any of the {count} is, which happens more often than for one. {measured}"),
        ("Never: trying more thresholds can only make the audit more careful",
         f"Reporting the largest of {count} bounds can only raise the reported bound, never lower it: more tries "
         f"give more chances of a lucky one, and on a correct mechanism a bound above ε is a false alarm. "
         f"{measured}"),
        (f"As often as the union bound K(1 − c) = {count} × {allowed} = {100 * union:g} % says",
         f"K(1 − c) = {100 * union:g} % is only an upper limit on the chance that at least one of the {count} bounds "
         "is lucky" + (", and above 100 % it says nothing" if union > 1 else "") + ". The bounds come from the same "
         f"canaries and rise and fall together, so the rate is well below it. {measured}"),
    ])
    return Variant(
        prompt=("A mechanism that truly is $\\varepsilon$-differentially private, "
                f"$\\varepsilon = {epsilon:g}$, is audited in one run (Steinke, Nasr & Jagielski 2023): "
                f"$m = {HONEST_CANARIES}$ canaries, each included with probability ½ and released as its bit plus "
                "Laplace noise of scale $1/\\varepsilon$. The auditor tries "
                f"$K = {count}$ thresholds (guessing \"in\" for the $k$ highest scores, for $K$ values of $k$ from "
                f"10 to {HONEST_CANARIES}), computes for each the lower bound on $\\varepsilon$ at confidence "
                f"$c = {confidence:g}$, and reports the largest. Repeated over many audits, how often is the "
                f"reported bound above the true $\\varepsilon = {epsilon:g}$ (a false alarm)?"),
        hints=("A bound at confidence c is above the true ε with probability at most 1 − c, if it was fixed before "
               "looking at the data. Was this one?",
               f"The reported bound is above ε whenever at least one of the {count} bounds is: is that more or less "
               f"likely than for one bound? And is {count} × (1 − c) a rate, or only a limit on it?"),
        solution=(f"The largest of {count} bounds is above ε whenever any one of them is, so false alarms come more "
                  f"often than the 1 − c = {allowed} each bound allows. {measured} {fixes}"),
        why=reasons[answer], answer=answer, choices=choices, reasons=reasons)


def _catch_the_bug(rng: np.random.Generator) -> Variant:
    r"""On the page: the fewest guesses :math:`k_+ = k_- = k` (of :data:`GUESS_STEPS`) at which a one-run audit of
    isolated canaries catches the planted bug (noise for half the sensitivity: the mechanism spends 2ε).

    Graded by the page's own audit (:func:`dpcore.lessons.audit_studio.one_run`) at the variant's canaries, release,
    claimed ε, confidence and seed (δ = 0): the answer is the first :math:`k` whose bound exceeds the claim; drawn
    again until the first :math:`k` does not, so the answer needs a search.
    """
    while True:
        mode = str(rng.choice(_ISOLATED))
        m = int(rng.choice(TASK_CANARIES))
        epsilon = float(rng.choice(TASK_EPSILONS))
        confidence = float(rng.choice(CONFIDENCES))
        seed = int(rng.integers(1, 1000))
        tried = [lesson.one_run(mode, m, k, k, epsilon, 0.0, confidence, "bug", seed) for k in GUESS_STEPS]
        caught = [run["caught"] for run in tried]
        if any(caught) and not caught[0]:
            first = caught.index(True)
            runs = tried[:first + 1]
            summed = lesson.one_run("aggregate", m, GUESS_STEPS[first], GUESS_STEPS[first], epsilon, 0.0, confidence,
                                    "bug", seed)
            # the page's two decimals tell the bounds from the claim apart, and one noisy sum misses the bug there
            if all(abs(run["bound"] - epsilon) >= MARGIN for run in runs) and not summed["caught"]:
                break
    answer = GUESS_STEPS[first]
    wanted: dict[str, Any] = dict(m=m, eps=epsilon, delta=0.0, conf=confidence, seed=seed, k_in=answer, k_out=answer)

    def accepts(params: Mapping[str, Any]) -> bool:
        if params.get("mode") != mode or params.get("bug") != "bug":
            return False
        return all(same(params.get(key), target) for key, target in wanted.items())

    trail = "; ".join(f"k = {k}: ε ≥ {run['bound']:.2f}" for k, run in zip(GUESS_STEPS, runs))
    steps = ", ".join(str(k) for k in GUESS_STEPS)
    return Variant(
        prompt=("On this page, audit in one run the mechanism with the planted bug (sidebar, Mechanism: "
                f"\"{lesson.BUG_NAMES['bug']}\"; it spends twice the $\\varepsilon$ it claims), its canaries "
                f"released one by one (Canaries: \"{lesson.MODE_NAMES[mode]}\", {_RELEASE_WORDS[mode]}), "
                f"$m = {in_math(f'{m:,}')}$ canaries, claimed "
                f"$\\varepsilon = {epsilon:g}$ and $\\delta = 0$, confidence {_percent(confidence)}, seed {seed} (the "
                "sidebar's random seed). "
                "The audit catches the bug when its lower bound on $\\varepsilon$ is above the claimed "
                f"${epsilon:g}$. With as many \"in\" guesses $k_+$ as \"out\" guesses $k_-$ (the sidebar's "
                f"Guesses), $k_+ = k_- = k$, find the **smallest** $k$ among {steps} at which the audit catches the "
                "bug, and leave the page set to it."),
        hints=("Set the sidebar first: the canaries, the mechanism (planted bug), m, ε, δ, the confidence and the "
               f"seed. Then try k = {', '.join(str(k) for k in GUESS_STEPS[:3])}, … in turn; the text under the "
               "one-run heading says \"Caught\" or \"Not caught\".",
               "Too few guesses, and the binomial test cannot tell a good guesser from luck, however many are right: "
               "with r = 2k guesses all right, the bound is at most ln(q/(1 − q)) for q = (1 − confidence)^(1/r)."),
        solution=(f"At these settings: {trail}. The first bound above {epsilon:g} is at k = {answer}: set k₊ = k₋ = "
                  f"{answer}."),
        why=(f"At k₊ = k₋ = {answer} the audit proves ε ≥ {runs[-1]['bound']:.2f} > {epsilon:g} from "
             f"{runs[-1]['correct']} right guesses of {runs[-1]['guesses']}; at k = {GUESS_STEPS[first - 1]} it "
             f"proved only {runs[-2]['bound']:.2f}. The bug spends {2 * epsilon:g}: one run of isolated canaries "
             "catches it, where one noisy sum of them would not."),
        accepts=accepts, controls=("mode", "bug", "m", "eps", "delta", "conf", "seed", "k_in", "k_out"))


EXERCISES = (
    Exercise("one_run_bound", "numeric", "The ε one run proves", _one_run_bound),
    Exercise("gaussian_mu", "numeric", "μ from a test's error rates", _gaussian_mu),
    Exercise("interference", "choice", "Why one noisy sum proves little", _interference),
    Exercise("honest_threshold", "choice", "The best of many thresholds", _honest_threshold),
    Exercise("catch_the_bug", "on_page", "Catch the planted bug in one run", _catch_the_bug),
)

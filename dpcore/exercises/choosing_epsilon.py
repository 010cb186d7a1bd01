r"""Check yourself, "Choosing ε": from the accuracy a release needs to the ε it costs.

Four exercises: the smallest ε for a count or a mean within :math:`\pm t` at confidence :math:`c` (a number), the ε
of a histogram whose every bin must be within :math:`\pm t` (a number), how ε grows when the target is made k times
sharper (a choice), and a release planned on the page with the largest target that keeps its ε within a cap (a task
on the page's plan). Every number comes from the library: :func:`dpcore.planning.calibrate`, the inverse of the
Laplace mechanism's error law (Dwork, McSherry, Nissim & Smith 2006): noise of scale :math:`b` stays within
:math:`\pm t` with probability :math:`1 - e^{-t/b}`, so :math:`\varepsilon = \frac{\Delta}{t}\ln\frac{1}{1-c}`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from .. import planning
from ..core.validation import InvalidParameterError
from ._numbers import in_math, plain, same, shown, shuffled, to_tolerance, tolerance
from .base import Exercise, Variant

__all__ = ["EXERCISES", "CONFIDENCES", "CAPS", "MARGIN"]

#: The confidences the exercises use: among those the page's editor offers (0.5 … 0.999)
CONFIDENCES = (0.9, 0.95, 0.99)
#: The caps on one release's ε of the task on the page
CAPS = (0.1, 0.2, 0.3, 0.5, 1.0)
#: The task's ε at its answer is this share under the cap, one step sharper this share over it, at least
MARGIN = 0.01
#: What the page's plan starts with (:data:`dpcore.planning.WORKED_EXAMPLE`): a task's answer is never one of these
_STARTS = planning.WORKED_EXAMPLE


def _percent(confidence: float) -> str:
    """A confidence as a percentage for prose: ``95 %``."""
    return f"{100 * confidence:g} %"


def _what(release: planning.Release) -> tuple[str, str, str]:
    """A count's or a mean's words: what it is, its sensitivity Δ with why, and Δ's value as shown."""
    if release.kind == "count":
        return ("a count (how many people in a data set have some property)",
                "one person changes a count by at most 1, so its sensitivity is $\\Delta = 1$", "1")
    width = release.upper - release.lower
    delta = shown(width / release.n, 4)
    return (f"the mean of $n = {in_math(f'{release.n:,}')}$ values, each clipped to the public range "
            f"$[L, U] = [{release.lower:g}, {release.upper:g}]$ before averaging ($n$ public)",
            f"one person moves that mean by at most $\\Delta = (U - L)/n = {plain(width)}/{in_math(f'{release.n:,}')} "
            f"= {delta}$ (its sensitivity)", delta)


def _draw_release(rng: np.random.Generator) -> planning.Release:
    """A count or a mean with its target ±t at a confidence c, every number drawn from ``rng``; drawn again until
    its smallest ε is one a data curator would consider (0.05 to 5)."""
    while True:
        confidence = float(rng.choice(CONFIDENCES))
        if rng.random() < 0.5:
            release = planning.Release("count", float(rng.choice([5, 8, 10, 12, 20, 25, 50])), confidence)
        else:
            lower, upper = ((0.0, 120.0), (0.0, 100.0), (0.0, 10.0), (18.0, 90.0))[int(rng.integers(4))]
            n = int(rng.choice([200, 500, 1000, 2000, 5000]))
            error = float(rng.choice([0.1, 0.2, 0.5, 1.0, 2.0]) * (upper - lower) / 100)
            release = planning.Release("mean", round(error, 9), confidence, lower=lower, upper=upper, n=n)
        if 0.05 <= planning.calibrate(release).epsilon <= 5:
            return release


def _target_epsilon(rng: np.random.Generator) -> Variant:
    r"""The smallest ε at which a Laplace count or mean is within :math:`\pm t` with probability :math:`c`.

    :math:`P(|\mathrm{Lap}(b)| \le t) = 1 - e^{-t/b} = c` gives :math:`b = t/\ln\frac{1}{1-c}`, and the Laplace
    mechanism is ε-DP at :math:`\varepsilon = \Delta/b` (Dwork, McSherry, Nissim & Smith 2006); computed by
    :func:`dpcore.planning.calibrate`. A count's :math:`\Delta` is 1, a clipped mean's :math:`(U - L)/n`.
    """
    release = _draw_release(rng)
    epsilon = planning.calibrate(release).epsilon
    within = tolerance(epsilon)
    what, sensitivity, delta = _what(release)
    width = -math.log1p(-release.confidence)
    scale = release.error / width
    unit = " (in the values' unit)" if release.kind == "mean" else ""
    return Variant(
        prompt=(f"You plan to release {what}, with Laplace noise of scale $b$ added to it: {sensitivity}, and the "
                "noisy release is $\\varepsilon$-differentially private with $\\varepsilon = \\Delta/b$ (the privacy "
                "budget: smaller is more private; Dwork, McSherry, Nissim & Smith 2006). You need it within "
                f"$\\pm t$ of the exact value{unit}, $t = {release.error:g}$, with probability "
                f"$c = {release.confidence:g}$ ({_percent(release.confidence)} of the releases). What is the "
                f"smallest $\\varepsilon$ that does it? (to within {plain(within)})"),
        hints=("Laplace noise of scale b stays within ±t with probability 1 − e^(−t/b): the larger the noise, the "
               "smaller that probability. Find the largest b that still reaches c, then ε = Δ/b.",
               "Solve 1 − e^(−t/b) = c: b = t / ln(1/(1 − c)). Then ε = Δ/b = Δ · ln(1/(1 − c)) / t."),
        solution=(f"1 − e^(−t/b) = {release.confidence:g} gives b = t / ln(1/(1 − c)) = {release.error:g} / "
                  f"ln({1 / (1 - release.confidence):.4g}) = {release.error:g} / {width:.4f} = {shown(scale, 4)}. "
                  f"With Δ = {delta}: ε = Δ/b = {delta} / {shown(scale, 4)} = {to_tolerance(epsilon, within)}."),
        why=(f"ε = Δ · ln(1/(1 − c)) / t = {delta} × {width:.4f} / {release.error:g} = "
             f"{to_tolerance(epsilon, within)}: a smaller ε would need more noise, and the release would miss ±t "
             f"more often than {_percent(1 - release.confidence)} of the time."),
        answer=epsilon, tolerance=within)


def _histogram_epsilon(rng: np.random.Generator) -> Variant:
    r"""The smallest ε of a Laplace histogram whose every bin is within :math:`\pm t` at once with probability c.

    Replacing one person moves one count down and another up: :math:`\ell_1` sensitivity 2, so
    :math:`\mathrm{Lap}(2/\varepsilon)` in every bin is ε-DP. The B noises are independent: all within
    :math:`\pm t` with probability :math:`(1 - e^{-t/b})^B = c`, so :math:`b = t/\ln\frac{1}{1 - c^{1/B}}` and
    :math:`\varepsilon = \frac{2}{t}\ln\frac{1}{1 - c^{1/B}}` (:func:`dpcore.planning.calibrate`).
    """
    bins = int(rng.choice([5, 10, 20, 50]))
    error = float(rng.choice([10, 20, 25, 40, 50]))
    confidence = float(rng.choice(CONFIDENCES))
    release = planning.Release("histogram", error, confidence, bins=bins)
    epsilon = planning.calibrate(release).epsilon
    within = tolerance(epsilon)
    each = confidence ** (1 / bins)
    width = -math.log1p(-each)
    return Variant(
        prompt=(f"A histogram counts the people of a data set in $B = {bins}$ bins, and Laplace noise of scale $b$ "
                "is added to every count, independently. Two data sets are neighbours when one person's value is "
                "replaced by another, which takes 1 from one bin's count and adds 1 to another's: the counts move by "
                "$\\Delta = 2$ in total (the sensitivity), so the noisy histogram is "
                "$\\varepsilon$-differentially private with $\\varepsilon = \\Delta/b = 2/b$ (the privacy budget: "
                f"smaller is more private). You need **every** bin within $\\pm t$ of its true count, $t = {error:g}$, "
                f"all at once, with probability $c = {confidence:g}$. What is the smallest $\\varepsilon$ that does "
                f"it? (to within {plain(within)})"),
        hints=(f"All {bins} bins must be within ±t together: if each is within ±t with probability p, all of them "
               f"are with probability p^{bins}, so each needs p = c^(1/{bins}), more than c.",
               "One bin's Laplace noise stays within ±t with probability 1 − e^(−t/b) = p: b = t / ln(1/(1 − p)). "
               "Then ε = 2/b."),
        solution=(f"Each bin needs p = c^(1/B) = {confidence:g}^(1/{bins}) = {each:.6f}. Then b = t / ln(1/(1 − p)) "
                  f"= {error:g} / {width:.4f} = {shown(error / width, 4)}, and ε = 2/b = "
                  f"{to_tolerance(epsilon, within)}."),
        why=(f"ε = (2/t) · ln(1/(1 − c^(1/B))) = (2/{error:g}) × ln(1/(1 − {each:.6f})) = "
             f"{to_tolerance(epsilon, within)}: the sensitivity 2 of replacing one person, and each of the {bins} "
             f"bins held to p = {each:.4f} so that all are within ±t with probability {confidence:g}."),
        answer=epsilon, tolerance=within)


def _sharper_target(rng: np.random.Generator) -> Variant:
    r"""How ε grows when a Laplace release's target is made k times sharper: ×k.

    :math:`\varepsilon = \frac{\Delta}{t}\ln\frac{1}{1-c}` is inversely proportional to t at a fixed confidence
    (:func:`dpcore.planning.calibrate`): the target :math:`t/k` costs :math:`k` times the ε. The wrong choices: √k (a
    sample's own error, falling like :math:`1/\sqrt n`), k² (the noise's variance, :math:`2b^2`), 1/k (the
    direction reversed).
    """
    release = _draw_release(rng)
    factor = int(rng.choice([2, 3, 4, 5, 10]))
    before = planning.calibrate(release).epsilon
    sharper = planning.Release(release.kind, release.error / factor, release.confidence, lower=release.lower,
                               upper=release.upper, n=release.n)
    after = planning.calibrate(sharper).epsilon
    what, _, _ = _what(release)
    root = math.sqrt(factor)
    choices, reasons, answer = shuffled(rng, (
        f"ε multiplied by {factor}",
        f"ε = Δ · ln(1/(1 − c)) / t is inversely proportional to the target t: within ±t/{factor} the noise's scale "
        f"b = t / ln(1/(1 − c)) must be {factor} times smaller, and ε = Δ/b {factor} times larger, from "
        f"{before:.4g} to {after:.4g}."), [
        (f"ε multiplied by {root:.3g} (√{factor})",
         f"√{factor} is how a sample's own error falls with {factor} times more people (like 1/√n). The privacy "
         f"noise's scale is b = Δ/ε, which falls like 1/ε: to make it {factor} times smaller, ε must grow "
         f"{factor}-fold, to {after:.4g}."),
        (f"ε multiplied by {factor ** 2}",
         f"{factor ** 2} = {factor}² is how much the noise's variance 2b² falls when b falls {factor}-fold. The "
         f"target is on the error itself, whose size b falls like 1/ε: {factor} times the ε is enough, "
         f"{after:.4g}."),
        (f"ε divided by {factor}",
         "A sharper target needs less noise, and less noise means a larger ε (less privacy), not a smaller one: ε "
         f"grows {factor}-fold, to {after:.4g}."),
    ])
    return Variant(
        prompt=(f"You plan to release {what}, with Laplace noise, within $\\pm t$ of the exact value "
                f"($t = {release.error:g}$) with probability $c = {release.confidence:g}$: the smallest privacy "
                f"budget that does it is $\\varepsilon = {before:.4g}$ (smaller is more private). Now you need it "
                f"{factor} times as accurate: within $\\pm t/{factor}$, at the same confidence $c$. By what factor "
                "does the smallest $\\varepsilon$ change?"),
        hints=("Laplace noise of scale b stays within ±t with probability 1 − e^(−t/b): at a fixed c, the largest "
               "noise allowed is proportional to t.",
               "b = t / ln(1/(1 − c)) and ε = Δ/b, so ε = Δ · ln(1/(1 − c)) / t: what happens to it when t is "
               f"divided by {factor}?"),
        solution=(f"ε = Δ · ln(1/(1 − c)) / t: Δ and c stay, t is divided by {factor}, so ε is multiplied by "
                  f"{factor}: from {before:.4g} to {after:.4g}."),
        why=reasons[answer], answer=answer, choices=choices, reasons=reasons)


def _plan_a_release(rng: np.random.Generator) -> Variant:
    r"""On the page: a Laplace count or mean at a confidence c with the smallest target on a grid of steps whose ε is
    at most a cap.

    :math:`\varepsilon(t) = \frac{\Delta}{t}\ln\frac{1}{1-c} \le X` from :math:`t^* = \frac{\Delta}{X}\ln\frac{1}{1-c}`
    on (:func:`dpcore.planning.calibrate`); the answer is :math:`t^*` rounded up to the step (10 to 100 steps in
    :math:`t^*`), drawn again until the ε at the answer is at least :data:`MARGIN` under the cap and the ε one step
    sharper as much over it (the page's ε, to three digits, tells them apart) and the answer is not a release the
    page starts with.
    """
    while True:
        release = _draw_release(rng)
        cap = float(rng.choice(CAPS))
        exact = planning.calibrate(release).epsilon * release.error / cap  # t*: ε(t*) = cap
        step = 10.0 ** (math.floor(math.log10(exact)) - 1)
        steps = exact / step
        answer = round(math.ceil(steps) * step, 9)
        planned = planning.Release(release.kind, answer, release.confidence, lower=release.lower,
                                   upper=release.upper, n=release.n)
        if steps / math.ceil(steps) <= 1 - MARGIN and steps / (math.ceil(steps) - 1) >= 1 + MARGIN and (
                planned not in _STARTS):
            break
    below = round(answer - step, 9)
    at_answer = planning.calibrate(planned).epsilon
    at_below = at_answer * answer / below
    what, sensitivity, delta = _what(release)
    digits = max(0, -math.floor(math.log10(step)))
    multiple = "a whole number" if step >= 1 else f"a multiple of {plain(step)} ({digits} decimal place" + (
        "s)" if digits > 1 else ")")
    wanted: dict[str, Any] = dict(kind=release.kind, mechanism="laplace", confidence=release.confidence,
                                  lower=release.lower, upper=release.upper, n=release.n)
    compared = ("kind", "mechanism", "confidence") if release.kind == "count" else tuple(wanted)

    def accepts(params: Mapping[str, Any]) -> bool:
        plan = params.get("plan")
        if not isinstance(plan, str):
            return False
        try:
            planned_now = planning.parse_plan(plan)
        except InvalidParameterError:
            return False
        return any(all(getattr(item, name) == wanted[name] if isinstance(wanted[name], str)
                       else same(getattr(item, name), wanted[name]) for name in compared)
                   and same(item.error, answer) for item in planned_now)

    return Variant(
        prompt=(f"On this page, put in the plan {what}, with Laplace noise and confidence "
                f"$c = {release.confidence:g}$ ({_percent(release.confidence)}). Its privacy budget "
                "$\\varepsilon$ may be at most "
                f"${cap:g}$ (smaller is more private): set its target $\\pm t$ to the **smallest** $t$ that keeps "
                f"$\\varepsilon \\le {cap:g}$, among the values of $t$ that are {multiple}. The page's table gives "
                "each release's ε."),
        hints=("A smaller target needs less noise, hence a larger ε: the smallest t allowed is the one at which ε "
               "reaches the cap.",
               f"ε = Δ · ln(1/(1 − c)) / t ≤ {cap:g} means t ≥ Δ · ln(1/(1 − c)) / {cap:g}; round that up to "
               f"{multiple}."),
        solution=(f"Here Δ = {delta}: t ≥ {delta} × ln(1/(1 − {release.confidence:g})) / {cap:g} = "
                  f"{shown(exact, 5)}, so t = {plain(answer)}, where ε = {at_answer:.4g}; at t = {plain(below)}, "
                  f"ε = {at_below:.4g}, over the cap."),
        why=(f"At t = {plain(answer)}, ε = {delta} × ln(1/(1 − {release.confidence:g})) / {plain(answer)} = "
             f"{at_answer:.4g} ≤ {cap:g}; one step sharper, t = {plain(below)}, costs ε = {at_below:.4g} > "
             f"{cap:g}."),
        accepts=accepts, controls=("plan",))


EXERCISES = (
    Exercise("target_epsilon", "numeric", "The ε a target costs", _target_epsilon),
    Exercise("histogram_epsilon", "numeric", "Every bin of a histogram at once", _histogram_epsilon),
    Exercise("sharper_target", "choice", "A sharper target", _sharper_target),
    Exercise("plan_a_release", "on_page", "The sharpest target within a cap", _plan_a_release),
)

r"""Lesson "Choosing ε": from the accuracy each planned release needs to the ε it costs, the plan's total, a fixed
budget's split, and what the total lets an attacker learn.

A *plan* is a list of releases (:class:`dpcore.planning.Release`), each with a target: within :math:`\pm t` of the
exact value with probability :math:`c`. Laplace noise of scale :math:`b = \Delta/\varepsilon` meets it from
:math:`\varepsilon = \frac{\Delta}{t}\ln\frac{1}{1-c}` on: a count within ±10 at 95 % needs
:math:`\ln(20)/10 \approx 0.300`. The calibrations, totals, split and risk are :mod:`dpcore.planning`'s; here: the
page's plan as text (its URL form, so that every function takes JSON values and a link reproduces the page), the
editor's steps (a release changed, added, removed), the tables, the simulated releases of the one-run picture, the
curves of the figures, the question and the takeaways.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from scipy import special

from .. import planning
from ..core.randomness import child_generator
from ..core.validation import (
    DELTA,
    EPSILON,
    SEED,
    Choice,
    Constraint,
    Integer,
    InvalidParameterError,
    Real,
    validated,
)
from .plain_words import number_text
from .questions import HELD_BACK, Question, bucket

__all__ = ["GLOSSARY", "WORKED", "KIND_NAMES", "MECHANISM_NAMES", "CONFIDENCES", "SCALES", "TRIALS", "QUESTION",
           "STARTS", "PLAN", "MAX_RISK_EPSILON", "releases", "read_plan", "plan_words", "edited", "added", "removed",
           "gaussian_delta", "epsilon_text", "release_rows", "mechanism_bars", "simulated_errors", "coverage_curves",
           "epsilon_vs_target", "total_rows", "total_caption", "split_rows", "split_caption", "risk_rows",
           "risk_caption", "roc_frames", "halving_question", "takeaways"]

#: The glossary terms (:data:`dpcore.lessons.glossary.TERMS`) the page's words use, checked against the page as
#: drawn by tests/app/test_plain_words.py
GLOSSARY = ("composition", "differential privacy (DP)", "exponential mechanism",
            "Gaussian differential privacy (μ-GDP)", "Gaussian mechanism", "Laplace mechanism", "membership inference",
            "median", "neighbouring datasets", "post-processing", "privacy profile", "pure and approximate DP", "score",
            "sensitivity (Δ)", "standard deviation (sd)", "trade-off curve", "type I and type II errors", "zCDP (ρ)",
            "δ (delta)", "ε (epsilon)", "ℓ₁ and ℓ₂ norms")

WORKED = planning.plan_text(planning.WORKED_EXAMPLE)  #: the default plan, as the URL writes it
#: What the page calls each kind of release
KIND_NAMES = {"count": "a count", "mean": "a mean", "histogram": "a histogram", "quantile": "a median"}
#: What the page calls each noise (a median always uses the exponential mechanism)
MECHANISM_NAMES = {"laplace": "Laplace (pure ε-DP)", "gaussian": "Gaussian ((ε, δ)-DP)"}
CONFIDENCES = (0.5, 0.8, 0.9, 0.95, 0.99, 0.999)  #: the confidences c the editor offers (a link may set others)
#: A release of each kind as the editor starts it when its kind is chosen: a count within ±10, a mean age over 1,000
#: people within ±1 year, a histogram of 10 bins within ±20, a median age within ±50 people in rank
STARTS = {"count": planning.Release("count", 10.0),
          "mean": planning.Release("mean", 1.0, lower=0.0, upper=120.0, n=1000),
          "histogram": planning.Release("histogram", 20.0, bins=10),
          "quantile": planning.Release("quantile", 50.0, lower=0.0, upper=120.0, n=1000, grid=1000)}
#: Every target multiplied by these in the figures' frames and curves: ×0.25 (four times as accurate) to ×4
SCALES = (0.25, 0.5, 1.0, 2.0, 4.0)
TRIALS = 10_000  #: simulated releases of each planned release (its share within ±t)
QUESTION = "halve_target"  #: the key of the page's predict-then-reveal question
_CURVE_SCALES = np.geomspace(0.25, 4.0, 33)  # the x of the ε-against-target curves
_RATIOS = np.linspace(0.0, 3.0, 151)  # the x of the simulated releases' curves: |error| as a multiple of t
_LARGEST_TARGET = 1e12  # the largest target ±t a release may ask (dpcore.planning.Release)


@dataclass(frozen=True)
class _Plan(Constraint):
    """A plan as the page's URL writes it (:func:`dpcore.planning.plan_text`), readable by
    :func:`dpcore.planning.parse_plan`."""

    def describe(self) -> str:
        return "a plan as text, e.g. 'count:t=10;mean:t=1,hi=120'"

    def check(self, name: str, value: Any) -> str:
        if not isinstance(value, str) or len(value) > 2000:
            self.fail(name, value)
        try:
            planning.parse_plan(value)
        except InvalidParameterError:
            self.fail(name, value)
        return value

    def bad_values(self) -> list[Any]:
        return [None, 3.0, "", "count", "nothing:t=1", "count:t=-1", "mean:t=1,lo=5,hi=1"]


PLAN = _Plan()  #: the constraint of a plan argument
_INDEX = Integer(low=0, high=planning.MAX_RELEASES - 1)
_FLAG = Choice((False, True))
_BUDGET = EPSILON


# --------------------------------------------------------------------------------------------------- the plan
@validated(plan=PLAN)
def releases(plan: str) -> tuple[planning.Release, ...]:
    """The releases of ``plan``.

    >>> [release.kind for release in releases(WORKED)]
    ['count', 'mean']
    """
    return planning.parse_plan(plan)


@dataclass(frozen=True)
class _Raw(Constraint):
    """Any text of at most 2,000 characters (what a link may carry as a plan)."""

    def describe(self) -> str:
        return "a string of at most 2,000 characters"

    def check(self, name: str, value: Any) -> str:
        if not isinstance(value, str) or len(value) > 2000:
            self.fail(name, value)
        return value

    def bad_values(self) -> list[Any]:
        return [None, 3.0, "x" * 2001]


@validated(raw=_Raw())
def read_plan(raw: str) -> str:
    """A plan from a link in its normal form (:func:`dpcore.planning.plan_text` of its releases), or
    :class:`InvalidParameterError` (a ``ValueError``) saying why not, in a student's words and without repeating the
    text (the page shows it as typed).

    >>> read_plan("mean:hi=120,t=1;count:t=10,c=0.95")
    'mean:t=1,hi=120;count:t=10'
    >>> read_plan("count:t=10;mean:t=-1")
    Traceback (most recent call last):
    ...
    dpcore.core.validation.InvalidParameterError: is not a plan this page can read (release 2 of 2)
    """
    try:
        return planning.plan_text(planning.parse_plan(raw))
    except InvalidParameterError:
        pass
    parts = raw.split(";")
    if len(parts) > planning.MAX_RELEASES:
        raise InvalidParameterError(f"has more than {planning.MAX_RELEASES} releases") from None
    for number, part in enumerate(parts, start=1):
        try:
            planning.parse_plan(part)
        except InvalidParameterError:
            raise InvalidParameterError(f"is not a plan this page can read (release {number} of {len(parts)})") \
                from None
    raise InvalidParameterError("is not a plan this page can read") from None


@validated(plan=PLAN)
def plan_words(plan: str) -> str:
    """The plan in words, its releases joined by semicolons.

    >>> plan_words(WORKED)
    'a count within ±10 at 95 %; a mean of 1,000 values in [0, 120] within ±1 at 95 %'
    """
    return "; ".join(release.describe() for release in releases(plan))


#: What each setting of a release is called when a change cannot be made
_FIELD_WORDS = {"error": "the target ±t", "confidence": "the confidence c", "lower": "the lowest value L",
                "upper": "the highest value U", "n": "the number of people n", "bins": "the number of bins",
                "grid": "the number of candidate values"}


@validated(plan=PLAN, index=_INDEX, kind=Choice(planning.KINDS), error=Real(), confidence=Real(),
           mechanism=Choice(planning.MECHANISMS), lower=Real(), upper=Real(), n=Integer(), bins=Integer(),
           grid=Integer())
def edited(plan: str, index: int, kind: str, error: float, confidence: float, mechanism: str, lower: float,
           upper: float, n: int, bins: int, grid: int) -> str:
    """``plan`` with its release ``index`` set to these values (a new kind starts from its :data:`STARTS` release,
    keeping the confidence, and the noise where the kind allows it); ``InvalidParameterError`` in a student's words
    when they make no release (the plan is then unchanged).

    >>> edited(WORKED, 0, "count", 5.0, 0.95, "gaussian", 0.0, 1.0, 1000, 10, 1000)
    'count:t=5,m=g;mean:t=1,hi=120'
    >>> edited(WORKED, 1, "quantile", 1.0, 0.9, "laplace", 0.0, 1.0, 1000, 10, 1000)
    'count:t=10;quantile:t=50,c=0.9,hi=120'
    """
    plan_releases = list(releases(plan))
    if index >= len(plan_releases):
        raise InvalidParameterError(f"The plan has {len(plan_releases)} releases: there is no release {index + 1}.")
    current = plan_releases[index]
    if kind != current.kind:
        start = STARTS[kind]
        release = replace(start, confidence=confidence,
                          mechanism="laplace" if kind == "quantile" else mechanism)
    else:
        if kind in ("mean", "quantile") and not upper > lower:
            raise InvalidParameterError("The highest value U must be greater than the lowest value L.")
        if kind == "quantile" and error > n:
            raise InvalidParameterError("A median's target counts people: ±t can be at most the number of people n.")
        try:
            release = planning.Release(kind, error, confidence, "laplace" if kind == "quantile" else mechanism,
                                       lower, upper, n, bins, grid)
        except InvalidParameterError as refused:
            field = str(refused).split(" ", 1)[0]
            raise InvalidParameterError(f"That change was not made: {_FIELD_WORDS.get(field, 'a setting')} is out "
                                        "of its range.") from None
    plan_releases[index] = release
    return planning.plan_text(plan_releases)


@validated(plan=PLAN)
def added(plan: str) -> str:
    """``plan`` with one more release: the first kind of count, mean, histogram, median it lacks (a count when it
    has them all), as :data:`STARTS` has it; ``InvalidParameterError`` when the plan is full.

    >>> added(WORKED)
    'count:t=10;mean:t=1,hi=120;histogram:t=20'
    """
    plan_releases = releases(plan)
    if len(plan_releases) >= planning.MAX_RELEASES:
        raise InvalidParameterError(f"A plan holds at most {planning.MAX_RELEASES} releases.")
    kinds = {release.kind for release in plan_releases}
    kind = next((kind for kind in planning.KINDS if kind not in kinds), "count")
    return planning.plan_text((*plan_releases, STARTS[kind]))


@validated(plan=PLAN, index=_INDEX)
def removed(plan: str, index: int) -> str:
    """``plan`` without its release ``index``; ``InvalidParameterError`` for its last release or an index it lacks.

    >>> removed(WORKED, 0)
    'mean:t=1,hi=120'
    """
    plan_releases = list(releases(plan))
    if len(plan_releases) == 1:
        raise InvalidParameterError("A plan needs at least one release.")
    if index >= len(plan_releases):
        raise InvalidParameterError(f"The plan has {len(plan_releases)} releases: there is no release {index + 1}.")
    del plan_releases[index]
    return planning.plan_text(plan_releases)


# --------------------------------------------------------------------------------------------- each release
@functools.lru_cache(maxsize=32)
def _plan(plan: str, delta: float) -> planning.Plan:
    """The plan calibrated (:func:`dpcore.planning.plan_for`), remembered for the last 32 settings: the page's
    tables, captions and takeaways all read it (frozen; shared read-only)."""
    return planning.plan_for(releases(plan), delta)


@functools.lru_cache(maxsize=32)
def _split(plan: str, delta: float, budget: float) -> planning.Plan:
    """:func:`dpcore.planning.split_budget` of the plan's releases, remembered for the last 32 settings: a split
    takes up to a few tenths of a second (a root search over the composed privacy loss), and the budget's table, its
    caption and every seed's takeaways read the same one."""
    return planning.split_budget(releases(plan), budget, delta)


@functools.lru_cache(maxsize=32)
def _attacker(plan: str, delta: float) -> planning.Risk:
    """:func:`dpcore.planning.attacker_risk` of the calibrated plan, remembered for the last 32 settings (its arrays
    shared read-only)."""
    return planning.attacker_risk(_plan(plan, delta))


@validated(plan=PLAN, delta=DELTA, index=_INDEX)
def gaussian_delta(plan: str, delta: float, index: int) -> float:
    """The δ release ``index`` gets as a Gaussian release: the plan's ``delta`` shared equally by its Gaussian
    releases, this one counted among them.

    >>> gaussian_delta(WORKED, 1e-6, 0)
    1e-06
    """
    plan_releases = releases(plan)
    others = sum(release.mechanism == "gaussian" for i, release in enumerate(plan_releases) if i != index)
    return delta / (others + 1)


@validated(epsilon=Real(low=0))
def epsilon_text(epsilon: float) -> str:
    """ε as the page writes it: three decimals from 0.1 to 1 (0.300), three significant digits otherwise.

    >>> epsilon_text(math.log(20) / 10), epsilon_text(0.0253), epsilon_text(2.3869), epsilon_text(1234.5)
    ('0.300', '0.0253', '2.39', '1,230')
    """
    if 0.1 <= epsilon < 1:
        return f"{epsilon:.3f}"
    return f"{epsilon:.3g}" if epsilon < 1 else number_text(epsilon)


def _percent(share: float) -> str:
    """A share as a percentage, one decimal (and no "100.0 %" for a share below 1)."""
    if share < 1 and round(100 * share, 1) >= 100:
        return "99.9 %"
    return f"{100 * share:.1f} %".replace(".0 %", " %") if share in (0.0, 1.0) else f"{100 * share:.1f} %"


def _confidence(confidence: float) -> str:
    return f"{100 * confidence:g} %"


def _gaussian_alternative(plan: str, delta: float, index: int, release: planning.Release) -> planning.Calibration:
    return planning.calibrate(replace(release, mechanism="gaussian"), gaussian_delta(plan, delta, index))


@validated(plan=PLAN, delta=DELTA, seed=SEED)
def release_rows(plan: str, delta: float, seed: int) -> list[dict[str, str]]:
    """One row per release of ``plan``: its smallest ε with pure DP (Laplace noise; the exponential mechanism for a
    median), its ε with Gaussian noise at its share of ``delta`` (— for a median), the noise and the guarantee of the
    noise chosen, and the share of :data:`TRIALS` simulated releases (seed ``seed``) within ±t next to the
    confidence asked.

    >>> rows = release_rows(WORKED, 1e-6, 0)
    >>> [row["smallest ε, pure (Laplace)"] for row in rows]
    ['0.300', '0.359']
    """
    plan_releases = releases(plan)
    calibrated = _plan(plan, delta)
    rows = []
    for index, (release, item) in enumerate(zip(plan_releases, calibrated.items)):
        pure = item if not item.gaussian else planning.calibrate(replace(release, mechanism="laplace"))
        if release.kind == "quantile":
            gaussian = "— (no Gaussian median)"
        else:
            alternative = _gaussian_alternative(plan, delta, index, release)
            gaussian = f"{epsilon_text(alternative.epsilon)} at δ = {alternative.delta:.0e}"
        share = planning.coverage(item, trials=TRIALS, seed=seed)
        rows.append({"release": f"{index + 1}. {release.describe()}",
                     "smallest ε, pure (Laplace)": epsilon_text(pure.epsilon),
                     "ε with Gaussian noise": gaussian,
                     "noise chosen": item.noise,
                     "guarantee": item.guarantee,
                     f"within ±t in {TRIALS:,} simulated releases": f"{_percent(share)} (asked: "
                                                                      f"{_confidence(release.confidence)})"})
    return rows


@validated(plan=PLAN, delta=DELTA)
def mechanism_bars(plan: str, delta: float) -> dict[str, Any]:
    """What the bars of each release show: ``categories`` (the releases, short), and by method id the ε each noise
    needs (NaN where it does not apply): ``"laplace"`` (pure), ``"gaussian_analytic"`` (at the release's share of
    ``delta``), ``"exponential_mechanism"`` (a median's); ``chosen`` the id each release uses.

    >>> bars = mechanism_bars(WORKED, 1e-6)
    >>> bars["categories"], [round(float(value), 3) for value in bars["laplace"]]
    (['1. a count ±10', '2. a mean ±1'], [0.3, 0.359])
    """
    plan_releases = releases(plan)
    values: dict[str, list[float]] = {method: [] for method in ("laplace", "gaussian_analytic",
                                                                "exponential_mechanism")}
    chosen = []
    for index, release in enumerate(plan_releases):
        quantile = release.kind == "quantile"
        pure = planning.calibrate(replace(release, mechanism="laplace")).epsilon
        values["laplace"].append(math.nan if quantile else pure)
        values["exponential_mechanism"].append(pure if quantile else math.nan)
        values["gaussian_analytic"].append(math.nan if quantile else
                                           _gaussian_alternative(plan, delta, index, release).epsilon)
        chosen.append("exponential_mechanism" if quantile else
                      "gaussian_analytic" if release.mechanism == "gaussian" else "laplace")
    categories = [f"{index + 1}. {KIND_NAMES[release.kind]} ±{release.error:g}"
                  for index, release in enumerate(plan_releases)]
    return {"categories": categories, **{method: np.array(v) for method, v in values.items()}, "chosen": chosen}


@validated(plan=PLAN, delta=DELTA, seed=SEED)
def simulated_errors(plan: str, delta: float, seed: int) -> list[np.ndarray]:
    """For each release of ``plan`` at its smallest ε, the errors of :data:`TRIALS` simulated releases as multiples
    of its target t, sorted: the draws of :func:`dpcore.planning.coverage` with the same seed (its share within ±t is
    the share of these at most 1). A count or a mean: |noise|; a histogram: the largest |noise| of its bins; a
    median: the rank error beyond the best candidate's (of evenly spread data).

    >>> errors = simulated_errors(WORKED, 1e-6, 0)
    >>> [float(np.mean(ratio <= 1)) for ratio in errors] == [planning.coverage(item) for item in
    ...                                                       planning.plan_for(releases(WORKED), 1e-6).items]
    True
    """
    found = []
    for item in _plan(plan, delta).items:
        release = item.release
        rng = child_generator(seed, "planning.coverage", release.kind)
        if release.kind == "quantile":
            data = np.linspace(release.lower, release.upper, release.n + 2)[1:-1]
            grid = np.linspace(release.lower, release.upper, release.grid)
            scores = -np.abs(np.searchsorted(data, grid, side="right") - 0.5 * release.n)
            chosen = rng.choice(grid.size, size=TRIALS, p=special.softmax(item.epsilon * scores / 2.0))
            errors = scores.max() - scores[chosen]
        else:
            shape = (TRIALS, release.bins if release.kind == "histogram" else 1)
            noise = (rng.normal(0.0, item.scale, shape) if item.gaussian else rng.laplace(0.0, item.scale, shape))
            errors = np.max(np.abs(noise), axis=1)
        found.append(np.sort(errors / item.error))
    return found


@validated(plan=PLAN, delta=DELTA, seed=SEED)
def coverage_curves(plan: str, delta: float, seed: int) -> dict[str, Any]:
    """The simulated releases' curves: ``ratio`` (|error| as a multiple of t, 0 to 3), for each release (``names``)
    the share of :func:`simulated_errors` within ±ratio·t (``shares``), and the confidence each asked
    (``confidences``).

    >>> curves = coverage_curves(WORKED, 1e-6, 0)
    >>> curves["names"][0], round(float(curves["shares"][0][50]), 2)  # within ±t
    ('1. a count within ±10 at 95 %', 0.95)
    """
    plan_releases = releases(plan)
    shares = [np.searchsorted(errors, _RATIOS, side="right") / errors.size
              for errors in simulated_errors(plan, delta, seed)]
    return {"ratio": _RATIOS, "names": [f"{index + 1}. {release.describe()}" for index, release in
                                        enumerate(plan_releases)],
            "shares": shares, "confidences": [release.confidence for release in plan_releases]}


@validated(plan=PLAN, delta=DELTA)
def epsilon_vs_target(plan: str, delta: float) -> dict[str, Any]:
    """ε each release needs (with the noise it uses, the Gaussian ones at their share of ``delta``) when its target
    is multiplied by ``scale`` (×0.25 to ×4): ``scale``, ``names``, ``epsilons`` (one array per release, NaN where a
    median's target would exceed its people).

    >>> curves = epsilon_vs_target(WORKED, 1e-6)
    >>> index = int(np.argmin(np.abs(curves["scale"] - 0.5)))
    >>> round(float(curves["epsilons"][0][index]), 3)  # the count within ±5
    0.599
    """
    plan_releases = releases(plan)
    share = _plan(plan, delta).items
    epsilons = []
    for release, item in zip(plan_releases, share):
        values = []
        for scale in _CURVE_SCALES:
            target = release.error * scale
            if target > (release.n if release.kind == "quantile" else _LARGEST_TARGET):
                values.append(math.nan)  # beyond what a release may ask
                continue
            values.append(planning.calibrate(replace(release, error=target), item.delta).epsilon)
        epsilons.append(np.array(values))
    return {"scale": _CURVE_SCALES, "names": [f"{index + 1}. {release.describe()}" for index, release in
                                              enumerate(plan_releases)], "epsilons": epsilons}


# --------------------------------------------------------------------------------------------- the plan's total
def _delta_text(delta: float) -> str:
    return "0" if delta == 0 else f"{delta:.0e}"


@validated(plan=PLAN, delta=DELTA)
def total_rows(plan: str, delta: float) -> list[dict[str, str]]:
    """The plan's total by each accounting of :func:`dpcore.planning.plan_for`, the smallest marked.

    >>> [(row["total ε"], row["smallest"]) for row in total_rows(WORKED, 1e-6)]
    [('0.659', 'smallest'), ('2.25', ''), ('0.659', '')]
    """
    calibrated = _plan(plan, delta)
    best = calibrated.best
    return [{"accounting": total.title[0].upper() + total.title[1:], "total ε": epsilon_text(total.epsilon),
             "total δ": _delta_text(total.delta), "smallest": "smallest" if total is best else ""}
            for total in calibrated.totals]


@validated(plan=PLAN, delta=DELTA)
def total_caption(plan: str, delta: float) -> str:
    """One sentence on the totals: which accounting gives the smallest ε, and by how much it beats basic composition.

    >>> total_caption(WORKED, 1e-6)[:60]
    'Basic composition gives the smallest total: ε = 0.659 for th'
    """
    calibrated = _plan(plan, delta)
    best, basic = calibrated.best, calibrated.totals[0]
    count = len(calibrated.items)
    said = f"{count} release{'s' if count > 1 else ''}"
    if best.method == "basic":
        return (f"Basic composition gives the smallest total: ε = {epsilon_text(best.epsilon)} for the {said}. With "
                "few pure releases adding the ε's is hard to beat; zCDP pays for turning its ρ back into an ε at "
                f"δ = {delta:.0e}.")
    return (f"{best.title[0].upper() + best.title[1:]} gives the smallest total: ε = {epsilon_text(best.epsilon)} at "
            f"δ = {best.delta:.0e}, against {epsilon_text(basic.epsilon)} by adding the ε's of the {said}.")


# --------------------------------------------------------------------------------------------- a fixed budget
@validated(plan=PLAN, delta=DELTA, budget=_BUDGET)
def split_rows(plan: str, delta: float, budget: float) -> list[dict[str, str]]:
    """The split of a total ``budget`` (:func:`dpcore.planning.split_budget`): each release's share of ε and the
    accuracy it then reaches against its target.

    >>> [row["accuracy reached"] for row in split_rows(WORKED, 1e-6, 1.0)]
    ['±6.59 (target ±10)', '±0.659 (target ±1)']
    """
    split = _split(plan, delta, budget)
    rows = []
    for index, item in enumerate(split.items):
        release = item.release
        unit = " people" if release.kind == "quantile" else ""
        rows.append({"release": f"{index + 1}. {release.describe()}", "its ε": epsilon_text(item.epsilon),
                     "accuracy reached": f"±{number_text(item.error)}{unit} (target ±{release.error:g})",
                     "error ÷ target": f"{item.error / release.error:.3g}"})
    return rows


@validated(plan=PLAN, delta=DELTA, budget=_BUDGET)
def split_caption(plan: str, delta: float, budget: float) -> str:
    """The split in one sentence: how the budget is accounted, and every release's error as a multiple of its target
    (the same for all: the best split makes them equal).

    >>> split_caption(WORKED, 1e-6, 1.0)[:72]
    'A budget of ε = 1 spent by basic composition: every release reaches 0.65'
    """
    split = _split(plan, delta, budget)
    ratio = split.worst_ratio
    how = ("basic composition" if not any(item.gaussian for item in split.items)
           else f"zCDP (a release adds Gaussian noise), at δ = {delta:.0e}")
    verdict = ("better than its target" if ratio < 0.995 else "worse than its target: the budget is too small"
               if ratio > 1.005 else "its target")
    return (f"A budget of ε = {budget:g} spent by {how}: every release reaches {ratio:.3g} times its target, "
            f"{verdict}. Giving one release more would leave another further from its own.")


# --------------------------------------------------------------------------------------------- what it risks
#: The largest total ε whose risk the page computes: beyond it the odds :math:`e^{\varepsilon}` exceed 10⁴³, and the
#: plan promises nothing an attacker would notice
MAX_RISK_EPSILON = 100.0


def _too_large(epsilon: float) -> str:
    return (f"The plan's total ε = {epsilon_text(epsilon)} is far beyond {MAX_RISK_EPSILON:g}: its releases promise "
            "nothing an attacker would notice. Loosen the targets to see what a total risks.")


def _risk(plan: str, delta: float) -> planning.Risk:
    """The attacker against the calibrated plan (:func:`dpcore.planning.attacker_risk`), or
    ``InvalidParameterError`` in words when its total is beyond :data:`MAX_RISK_EPSILON`."""
    calibrated = _plan(plan, delta)
    if calibrated.best.epsilon > MAX_RISK_EPSILON:
        raise InvalidParameterError(_too_large(calibrated.best.epsilon))
    return _attacker(plan, delta)


@validated(plan=PLAN, delta=DELTA)
def risk_rows(plan: str, delta: float) -> list[dict[str, str]]:
    """The best membership attacker against the plan's releases together (:func:`dpcore.planning.attacker_risk`):
    its true-positive rate at 1 % and 5 % false positives, and the largest advantage.

    >>> [row["says “in” for a member (true positives, at most)"] for row in risk_rows(WORKED, 1e-6)]
    ['1.9 %', '9.7 %']
    """
    risk = _risk(plan, delta)
    return [{"says “in” for a non-member (false positives)": f"{100 * fpr:g} %",
             "says “in” for a member (true positives, at most)": _percent(tpr),
             "advantage (true − false positives)": _percent(tpr - fpr)}
            for fpr, tpr in ((0.01, risk.tpr_1), (0.05, risk.tpr_5))]


@validated(plan=PLAN, delta=DELTA)
def risk_caption(plan: str, delta: float) -> str:
    """The risk in words: the total it comes from, the attacker's belief from a 1 % prior, the largest advantage.

    >>> risk_caption(WORKED, 1e-6)[-89:]
    'The largest advantage any test has, true-positive rate minus false-positive rate: 17.3 %.'
    """
    risk = _risk(plan, delta)
    belief = planning.posterior(risk, prior=0.01, fpr=0.01)
    how = ("exactly, from the releases' trade-off curve" if risk.exact else
           "an upper bound from the composed releases")
    return (f"At the plan's total ε = {epsilon_text(risk.epsilon)} (δ = {_delta_text(risk.delta)}; {how}): an "
            f"attacker who thought 1 % likely that one person is in the data, and whose test flags 1 % of "
            f"non-members, now thinks at most {_percent(belief)} when flagged. The largest advantage any test has, "
            f"true-positive rate minus false-positive rate: {_percent(risk.advantage)}.")


def _scaled(release: planning.Release, scale: float) -> float:
    """``release``'s target times ``scale``, kept within what a release may ask (a median's: its people)."""
    return min(release.error * scale, release.n if release.kind == "quantile" else _LARGEST_TARGET)


#: Each accounting of a total, short
_SHORT = {"basic": "basic composition", "zcdp": "zCDP", "numerical": "numerical composition"}
#: The attacker's false-positive rates drawn (log-spaced, 0.01 % to 100 %)
_FPR = np.geomspace(1e-4, 1.0, 121)


@validated(plan=PLAN, delta=DELTA)
def roc_frames(plan: str, delta: float) -> list[dict[str, Any]]:
    """For each target scale of :data:`SCALES` (every target multiplied by it), the plan at its smallest ε: its
    ``label`` ("×0.5"), ``scale``, ``epsilon`` and ``delta`` (the best total), ``method`` (its accounting, in words),
    the attacker's best true-positive rate ``tpr`` at each false-positive rate ``fpr`` (0.01 % to 100 %), and at 1 %
    and 5 % (``tpr_1``, ``tpr_5``). A scale whose total exceeds :data:`MAX_RISK_EPSILON` has no frame (at ×1:
    ``InvalidParameterError``, in words).

    >>> frames = roc_frames(WORKED, 1e-6)
    >>> [frame["label"] for frame in frames], round(frames[2]["epsilon"], 3)
    (['×0.25', '×0.5', '×1', '×2', '×4'], 0.659)
    """
    plan_releases = releases(plan)
    frames = []
    for scale in SCALES:
        scaled = [replace(release, error=_scaled(release, scale)) for release in plan_releases]
        calibrated = planning.plan_for(scaled, delta)
        if calibrated.best.epsilon > MAX_RISK_EPSILON:
            if scale == 1.0:
                raise InvalidParameterError(_too_large(calibrated.best.epsilon))
            continue  # a frame whose total promises nothing: left out
        risk = planning.attacker_risk(calibrated)
        frames.append({"label": f"×{scale:g}", "scale": scale, "epsilon": calibrated.best.epsilon,
                       "delta": calibrated.best.delta, "method": _SHORT[calibrated.best.method],
                       "fpr": _FPR, "tpr": np.interp(_FPR, risk.fpr, risk.tpr),
                       "tpr_1": risk.tpr_1, "tpr_5": risk.tpr_5})
    return frames


# --------------------------------------------------------------------------------------------- predict, then reveal
@validated(plan=PLAN, delta=DELTA)
def halving_question(plan: str, delta: float) -> Question:
    """Predict, then reveal: the plan's first release needs ε at its target ±t; what does it need within ±t/2? The
    answer, from :func:`dpcore.planning.calibrate`: about twice (ε ∝ 1/t for Laplace noise and the exponential
    mechanism, nearly so for Gaussian noise).

    >>> question = halving_question(WORKED, 1e-6)
    >>> question.choices[question.answer]
    'about twice as much: ≈ 0.60'
    """
    release = releases(plan)[0]
    item = _plan(plan, delta).items[0]
    halved = planning.calibrate(replace(release, error=release.error / 2), item.delta).epsilon
    epsilon = item.epsilon
    unit = " people in rank" if release.kind == "quantile" else ""
    noise = {"quantile": "the exponential mechanism", "gaussian": "Gaussian noise",
             "laplace": "Laplace noise"}["quantile" if release.kind == "quantile" else release.mechanism]
    return Question(
        key=QUESTION,
        prompt=(f"Release 1, {release.describe()}, needs ε ≈ {epsilon:.2f} with {noise}. What does it need to be "
                f"twice as accurate, within ±{release.error / 2:g}{unit} at the same confidence?"),
        choices=(f"about half as much: ≈ {epsilon / 2:.2f}", f"about the same: ≈ {epsilon:.2f}",
                 f"about √2 times as much: ≈ {epsilon * math.sqrt(2):.2f}",
                 f"about twice as much: ≈ {epsilon * 2:.2f}", f"about four times as much: ≈ {epsilon * 4:.2f}"),
        answer=bucket(halved / epsilon, (0.7, 1.2, 1.7, 2.8)),
        explanation=(f"It needs ε = {epsilon_text(halved)}, {halved / epsilon:.2f} times {epsilon_text(epsilon)}. "
                     + ("The noise must be half as wide, and its width is proportional to 1/ε: halving t doubles ε."
                        if release.mechanism == "laplace" else
                        "Gaussian noise must be half as wide too; at a fixed δ its ε grows a little less or more than "
                        "twice, but close to it.")))


# --------------------------------------------------------------------------------------------- what to notice
@validated(plan=PLAN, delta=DELTA, budget=_BUDGET, seed=SEED, revealed=_FLAG)
def takeaways(plan: str, delta: float, budget: float, seed: int, revealed: bool = True) -> list[str]:
    """What to notice, from the numbers on the page: halving the first target (held back until the question is
    revealed), the simulated releases against their confidence, the best total against basic composition, the
    budget's split and the attacker's belief (Markdown, one string per point)."""
    plan_releases = releases(plan)
    calibrated = _plan(plan, delta)
    first, item = plan_releases[0], calibrated.items[0]
    if revealed:
        halved = planning.calibrate(replace(first, error=first.error / 2), item.delta).epsilon
        accuracy = (f"Accuracy costs ε in proportion: release 1 needs ε = {epsilon_text(item.epsilon)} within "
                    f"±{first.error:g} and {epsilon_text(halved)} within ±{first.error / 2:g}, "
                    f"{halved / item.epsilon:.2f} times as much.")
    else:
        accuracy = (f"Release 1 needs ε = {epsilon_text(item.epsilon)} within ±{first.error:g}; what a target twice "
                    f"as tight costs appears {HELD_BACK} (Predict first, above).")
    shares = [planning.coverage(calibration, trials=TRIALS, seed=seed) for calibration in calibrated.items]
    exact = [index for index, release in enumerate(plan_releases) if release.kind != "quantile"]  # a median's: a bound
    worst = max(exact or range(len(plan_releases)), key=lambda index: abs(shares[index] -
                                                                          plan_releases[index].confidence))
    asked = _confidence(plan_releases[worst].confidence)
    simulated = (f"The simulated releases land where the calibration says: release {worst + 1} falls within ±t in "
                 f"{_percent(shares[worst])} of {TRIALS:,} tries, against the {asked} asked"
                 + (" (a median's target is a bound: it does better)." if not exact else "."))
    best, basic = calibrated.best, calibrated.totals[0]
    total = (f"The plan's total is ε = {epsilon_text(best.epsilon)} by {_SHORT[best.method]}"
             + ("." if best.method == "basic" else f", against {epsilon_text(basic.epsilon)} by adding the ε's."))
    split = _split(plan, delta, budget)
    ratio = split.worst_ratio
    budget_line = (f"A budget of ε = {budget:g} gives every release {ratio:.3g} times its target "
                   + ("(more accurate than asked)." if ratio < 1 else "(less accurate than asked).")
                   if abs(ratio - 1) > 0.005 else f"A budget of ε = {budget:g} meets every target exactly.")
    if best.epsilon > MAX_RISK_EPSILON:
        return [accuracy, simulated, f"{total} {budget_line}", _too_large(best.epsilon)]
    risk = _attacker(plan, delta)
    belief = planning.posterior(risk, prior=0.01, fpr=0.01)
    attacker = (f"At that total an attacker flagging 1 % of non-members catches at most {_percent(risk.tpr_1)} of "
                f"members: a 1 % suspicion grows to at most {_percent(belief)}.")
    return [accuracy, simulated, f"{total} {budget_line}", attacker]


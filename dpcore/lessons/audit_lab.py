r"""Lesson "Privacy audit lab": test a mechanism's privacy claim from its outputs, and play the attacker.

**Part 1, catch the broken mechanism.** Run a mechanism many times on two neighbouring datasets :math:`X \sim X'`
(a worst case for it), count how often its output falls in each event :math:`E` of a grid fixed in advance, and
bound the probabilities with Clopper–Pearson intervals (:mod:`dpcore.audit`). An :math:`(\varepsilon,\delta)`-DP
mechanism has :math:`P[M(X)\in E] \le e^{\varepsilon} P[M(X')\in E] + \delta` for every event, so with confidence
``confidence`` (simultaneous over the grid, both directions and complements)

.. math:: \varepsilon \;\ge\; \hat\varepsilon = \max_E \ln\frac{\underline p_E - \delta}{\overline q_E}.

The mechanism is **caught** when :math:`\hat\varepsilon` exceeds the claimed :math:`\varepsilon`. An audit proves
nothing in the other direction: passing means only that these events, with these draws, found no violation
(Jagielski, Ullman & Oprea 2020; Nasr et al. 2021).

Each mechanism comes as its correct version, from :mod:`dpcore.mechanisms`, and as **planted bugs**: deliberately
broken versions written here (never in :mod:`dpcore.mechanisms`), each marked ``BROKEN`` with what is wrong.

**Part 2, membership inference.** A dataset holds the target person or not (a fair coin); the Laplace count of the
people with a property (the target has it) is released. The best attacker, the likelihood-ratio test, says "in"
when the release exceeds the midpoint of the two possible counts; :math:`\varepsilon`-DP bounds any attacker by
:math:`\mathrm{TPR} \le e^{\varepsilon}\,\mathrm{FPR} + \delta` and its accuracy by
:math:`e^{\varepsilon}/(1+e^{\varepsilon})` (Kairouz, Oh & Viswanath 2015). An attacker's success is the same
lower bound on ε, seen from the other side. A player's accuracy comes with an exact Clopper–Pearson interval
(:func:`attacker_rates`), and :func:`against_bound` says whether it still holds the bound (beating it may be luck),
lies wholly above it (the release is not ε-DP) or wholly below it.

**Guess first.** Which letter hides the bug is a seeded draw for each mechanism and seed (:func:`variant_letters`);
the page asks :func:`broken_question` before it shows any verdict.
"""

from __future__ import annotations

import functools
import math
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..audit import AuditResult, clopper_pearson, epsilon_lower_bound, outcome_counts, threshold_counts
from ..core.validation import EPSILON, SEED, Array, Choice, InstanceOf, Integer, InvalidParameterError, Real, validated
from ..mechanisms import exponential, gaussian, laplace, quantile_density
from .questions import Question

__all__ = ["GLOSSARY", "MECHANISMS", "Mechanism", "Variant", "DRAWS", "CONFIDENCE", "variant_letters", "broken_letter",
           "broken_question", "audit_draws",
           "audit_run", "audit_path", "draw_counts", "verdict", "reveal", "takeaways", "rates_text", "PLAYERS",
           "attack_rounds", "likelihood_ratio_guess", "attacker_rates", "likelihood_ratio_rates", "accuracy_bound",
           "against_bound", "round_text"]

DRAWS = 200_000  #: draws per dataset at the page's default: every planted bug is caught there
CONFIDENCE = 0.95
DELTA = 1e-5  #: the δ the Gaussian mean claims
N = 100  #: rows of the audited datasets

#: The glossary's terms this page uses (dpcore.lessons.glossary; tests/app/test_plain_words.py)
GLOSSARY = ("audit", "clipping", "Clopper–Pearson interval", "confidence interval", "differential privacy (DP)",
            "exponential mechanism", "hypothesis", "Laplace mechanism", "median", "membership inference",
            "Monte Carlo trials", "neighbouring datasets", "pure and approximate DP", "sensitivity (Δ)", "δ (delta)",
            "ε (epsilon)")


@dataclass(frozen=True)
class Variant:
    """One implementation of a mechanism: ``draw(epsilon, size, rng) -> (outputs on X, outputs on X')``."""

    name: str
    broken: str  #: what is wrong with it ("" for the correct one)
    draw: Callable[[float, int, np.random.Generator], tuple[np.ndarray, np.ndarray]]


@dataclass(frozen=True)
class Mechanism:
    """A mechanism under audit: its claim, its worst-case neighbours, its event grid and its variants.

    ``events(epsilon)`` gives the thresholds of events :math:`\\{y > t\\}` (scalar outputs) or, as an int, the
    number of outcomes of events :math:`\\{y = h\\}` (discrete outputs); fixed before any draw, from public
    parameters only. ``weak_event(epsilon)`` is one threshold of that grid that is a poor choice, for comparison.
    """

    title: str
    claim: str  #: the guarantee, in words
    neighbours: str  #: X and X', in words
    delta: float
    events: Callable[[float], np.ndarray | int]
    weak_event: Callable[[float], float | int]
    variants: tuple[Variant, ...]


# ---------------------------------------------------------------------------- the mechanisms and their bugs

def _laplace_count(epsilon, size, rng):
    """Counts 50 and 51 (one person added): Laplace with scale 1/ε, sensitivity 1."""
    return laplace(np.full(size, 50.0), 1.0, epsilon, rng), laplace(np.full(size, 51.0), 1.0, epsilon, rng)


def _laplace_count_half_noise(epsilon, size, rng):
    # BROKEN (planted for the audit lab): the noise scale is halved, 1/(2ε): the release is 2ε-DP, not ε-DP.
    return 50.0 + rng.laplace(0.0, 0.5 / epsilon, size), 51.0 + rng.laplace(0.0, 0.5 / epsilon, size)


def _gaussian_mean(epsilon, size, rng):
    """Means of N = 100 values in [0, 1], X all 0, X' one value 1: Gaussian with the analytic σ for (ε, δ)."""
    return (gaussian(np.zeros(size), 1.0 / N, epsilon, DELTA, rng),
            gaussian(np.full(size, 1.0 / N), 1.0 / N, epsilon, DELTA, rng))


def _gaussian_mean_no_delta(epsilon, size, rng):
    # BROKEN (planted for the audit lab): δ is ignored in the calibration, σ = Δ/ε (the Laplace scale), about five
    # times too little noise for δ = 1e-5.
    sigma = (1.0 / N) / epsilon
    return rng.normal(0.0, sigma, size), 1.0 / N + rng.normal(0.0, sigma, size)


_SCORES_X = np.r_[1.0, np.zeros(99)]  # candidate 0 gains one vote, every other loses one: the worst case
_SCORES_NEIGHBOUR = np.r_[0.0, np.ones(99)]


def _exponential(epsilon, size, rng):
    """100 candidates, scores of sensitivity 1: P(h) ∝ exp(ε·score/2)."""
    return exponential(_SCORES_X, epsilon, 1.0, rng=rng, size=size), \
        exponential(_SCORES_NEIGHBOUR, epsilon, 1.0, rng=rng, size=size)


def _exponential_no_two(epsilon, size, rng):
    # BROKEN (planted for the audit lab): the factor 2 is dropped, P(h) ∝ exp(ε·score): 2ε-DP.
    def draws(scores):
        logits = epsilon * scores
        probabilities = np.exp(logits - logits.max())
        return rng.choice(scores.size, size=size, p=probabilities / probabilities.sum())
    return draws(_SCORES_X), draws(_SCORES_NEIGHBOUR)


_CLIP = 1.0


def _clipped_mean(epsilon, size, rng):
    """N = 100 values, X all 0, X' one value 1000: clip to [−1, 1], Laplace with scale 2C/(Nε)."""
    neighbour_mean = np.clip(1000.0, -_CLIP, _CLIP) / N
    return (laplace(np.zeros(size), 2 * _CLIP / N, epsilon, rng),
            laplace(np.full(size, neighbour_mean), 2 * _CLIP / N, epsilon, rng))


def _clipped_mean_sensitivity_before_clipping(epsilon, size, rng):
    # BROKEN (planted for the audit lab): the sensitivity is computed from the data before clipping, as their range
    # over N: it depends on the data (0 on X, so no noise at all), which no DP argument allows.
    def release(data):
        scale = (data.max() - data.min()) / (N * epsilon)
        return np.clip(data, -_CLIP, _CLIP).mean() + rng.laplace(0.0, scale, size)
    x = np.zeros(N)
    return release(x), release(np.r_[1000.0, x[1:]])


_MEDIAN_X = np.array([0.1, 0.2, 0.3, 0.4, 0.5])  # X' moves the largest value to 1


def _median_draws(law: dict, size: int, rng) -> np.ndarray:
    """``size`` draws from a private quantile's exact law (an interval by its probability, then uniform in it)."""
    interval = rng.choice(law["probabilities"].size, size=size, p=law["probabilities"])
    return law["edges"][interval] + rng.random(size) * np.diff(law["edges"])[interval]


def _median(epsilon, size, rng, domain=None):
    """The exponential-mechanism median on the public range [0, 1] (scores of sensitivity 1)."""
    neighbour = np.r_[_MEDIAN_X[:-1], 1.0]
    return tuple(_median_draws(quantile_density(data, 0.5, epsilon, *(domain(data) if domain else (0.0, 1.0))),
                               size, rng) for data in (_MEDIAN_X, neighbour))


def _median_data_range(epsilon, size, rng):
    # BROKEN (planted for the audit lab): the output range is the data's own [min, max], not a public one: an output
    # above X's largest value reveals X'.
    return _median(epsilon, size, rng, domain=lambda data: (float(data.min()), float(data.max())))


_BINS = np.array([30.0, 20.0, 50.0])  # X'; X moves one person from bin 1 to bin 0


def _difference(releases: np.ndarray) -> np.ndarray:
    """The audited statistic of a noisy histogram: count of bin 0 minus count of bin 1."""
    return releases[:, 0] - releases[:, 1]


def _partition_round(epsilon, size, rng):
    """One round's noisy counts of 3 bins; moving one person changes two counts by 1 (L1 sensitivity 2): Laplace
    with scale 2/ε on each count."""
    x = _BINS + np.array([1.0, -1.0, 0.0])
    return tuple(_difference(np.asarray(laplace(np.broadcast_to(counts, (size, 3)), 2.0, epsilon, rng)))
                 for counts in (x, _BINS))


def _partition_round_shared_noise(epsilon, size, rng):
    # BROKEN (planted for the audit lab): one noise draw is reused for every bin, so the differences between counts
    # are released exactly.
    x = _BINS + np.array([1.0, -1.0, 0.0])
    return tuple(_difference(counts + rng.laplace(0.0, 2.0 / epsilon, (size, 1))) for counts in (x, _BINS))


def _grid(low: float, high: float) -> np.ndarray:
    return np.linspace(low, high, 41)


MECHANISMS: dict[str, Mechanism] = {
    "laplace-count": Mechanism(
        "Laplace count", "ε-DP (δ = 0), add or remove one person, sensitivity 1",
        "X has 50 people with the property, X′ has 51", 0.0,
        lambda e: _grid(50.5 - 6 / e, 50.5 + 6 / e), lambda e: 50.5 + 8 / e,
        (Variant("correct", "", _laplace_count),
         Variant("noise halved", "the noise scale is 1/(2ε) instead of 1/ε", _laplace_count_half_noise))),
    "gaussian-mean": Mechanism(
        "Gaussian mean", "(ε, 10⁻⁵)-DP, replace one person, values in [0, 1], sensitivity 1/N",
        "X: 100 values, all 0; X′: one of them is 1", DELTA,
        lambda e: _grid(-6 / (N * e), 7 / (N * e)), lambda e: 0.5 / N,
        (Variant("correct", "", _gaussian_mean),
         Variant("δ ignored", "σ = Δ/ε, as if δ played no part", _gaussian_mean_no_delta))),
    "exponential-mechanism": Mechanism(
        "Exponential mechanism", "ε-DP, replace one voter, scores of sensitivity 1",
        "100 candidates; from X to X′ candidate 0 loses a vote, every other gains one", 0.0,
        lambda e: 100, lambda e: 50,
        (Variant("correct", "", _exponential),
         Variant("factor 2 dropped", "P(h) ∝ exp(ε·score) instead of exp(ε·score/2)", _exponential_no_two))),
    "clipped-mean": Mechanism(
        "Clipped mean", "ε-DP, replace one person, values clipped to [−1, 1], sensitivity 2/N",
        "X: 100 values, all 0; X′: one of them is 1,000", 0.0,
        lambda e: _grid(-12 / (N * e), 14 / (N * e)), lambda e: 30 / (N * e),
        (Variant("correct", "", _clipped_mean),
         Variant("sensitivity before clipping", "the noise scale comes from the data's range before clipping",
                 _clipped_mean_sensitivity_before_clipping))),
    "private-median": Mechanism(
        "Private median", "ε-DP, replace one person, outputs in the public range [0, 1]",
        "X: the 5 values 0.1, 0.2, …, 0.5; X′: the largest is moved to 1", 0.0,
        lambda e: _grid(0.0, 1.0), lambda e: 0.25,
        (Variant("correct", "", _median),
         Variant("range from the data", "the output range is the data's [min, max], not a public range",
                 _median_data_range))),
    "partition-round": Mechanism(
        "One partitioning round (noisy counts)", "ε-DP, replace one person, L1 sensitivity 2",
        "3 bins; from X to X′ one person moves from bin 0 to bin 1", 0.0,
        lambda e: _grid(12 - 16 / e, 12 + 16 / e), lambda e: 12 + 20 / e,
        (Variant("correct", "", _partition_round),
         Variant("noise reused", "one noise draw is added to every bin", _partition_round_shared_noise))),
}

_MECHANISM = Choice(tuple(MECHANISMS))
_LETTER = Choice(("A", "B"))  # every mechanism has two variants
_DRAWS = Integer(low=100, high=2_000_000)
_CONFIDENCE = Real(0.5, 1, high_open=True)


@validated(mechanism=_MECHANISM, seed=SEED)
def variant_letters(mechanism: str, seed: int) -> list[str]:
    """The variants of ``mechanism`` in the order of their neutral names "A", "B", …: a seeded shuffle drawn for
    each mechanism and seed apart (the stream of ``(seed, 2027, crc32(mechanism))``), so a class can tell the broken
    one neither from its letter nor from another mechanism's letters at the same seed. Reproducible: the same
    mechanism and seed always give the same order.

    >>> variant_letters("laplace-count", 5) == variant_letters("laplace-count", 5)
    True
    """
    names = [variant.name for variant in MECHANISMS[mechanism].variants]
    stream = np.random.default_rng([seed, 2027, zlib.crc32(mechanism.encode())])
    return [names[i] for i in stream.permutation(len(names))]


@validated(mechanism=_MECHANISM, seed=SEED)
def broken_letter(mechanism: str, seed: int) -> str:
    """The letter ("A" or "B") under which :func:`variant_letters` puts the broken variant of ``mechanism``."""
    broken = {variant.name for variant in MECHANISMS[mechanism].variants if variant.broken}
    return next(chr(65 + index) for index, name in enumerate(variant_letters(mechanism, seed)) if name in broken)


@validated(mechanism=_MECHANISM, seed=SEED)
def broken_question(mechanism: str, seed: int) -> Question:
    """Guess first: which of the two variants of ``mechanism`` is the broken one (the answer: :func:`broken_letter`).
    Its key names the mechanism and the seed, so a new mechanism or seed asks again."""
    spec = MECHANISMS[mechanism]
    letter = broken_letter(mechanism, seed)
    broken = next(variant for variant in spec.variants if variant.broken)
    other = "B" if letter == "A" else "A"
    return Question(
        key=f"broken_{mechanism.replace('-', '_')}_{seed}",
        prompt=f"{spec.title}: which variant is broken, A or B? Switch Variant to compare their outputs, then guess.",
        choices=("A", "B"), answer=ord(letter) - 65,
        explanation=(f"Variant {letter} has the planted bug: {broken.broken}. Variant {other} is the correct "
                     "mechanism. The audit below shows whether the draws are enough to catch it."))


def _variant(mechanism: str, letter: str, seed: int) -> Variant:
    name = variant_letters(mechanism, seed)[ord(letter) - ord("A")]
    return next(v for v in MECHANISMS[mechanism].variants if v.name == name)


@validated(mechanism=_MECHANISM, letter=_LETTER, epsilon=EPSILON, draws=_DRAWS, seed=SEED)
def audit_draws(mechanism: str, letter: str, epsilon: float, draws: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``draws`` outputs of variant ``letter`` of ``mechanism`` on X and on X′ (seeded)."""
    variant = _variant(mechanism, letter, seed)
    return variant.draw(epsilon, draws, np.random.default_rng([seed, 1]))


def _counts(spec: Mechanism, epsilon: float, outputs: np.ndarray) -> np.ndarray:
    events = spec.events(epsilon)
    return outcome_counts(outputs, events) if isinstance(events, int) else threshold_counts(outputs, events)


def _weak_counts(spec: Mechanism, epsilon: float, outputs: np.ndarray) -> np.ndarray:
    event = spec.weak_event(epsilon)
    discrete = isinstance(spec.events(epsilon), int)
    return np.array([np.sum(outputs == event) if discrete else np.sum(outputs > event)])


@validated(mechanism=_MECHANISM, letter=_LETTER, epsilon=EPSILON, draws=_DRAWS, confidence=_CONFIDENCE,
           seed=SEED)
def audit_run(mechanism: str, letter: str, epsilon: float, draws: int, confidence: float, seed: int
              ) -> AuditResult:
    """The audit of variant ``letter`` over the fixed event grid, with ``draws`` draws per dataset."""
    spec = MECHANISMS[mechanism]
    x, neighbour = audit_draws(mechanism, letter, epsilon, draws, seed)
    return epsilon_lower_bound(_counts(spec, epsilon, x), _counts(spec, epsilon, neighbour), draws, spec.delta,
                               confidence)


def _running(counter: Callable[[np.ndarray], np.ndarray], outputs: np.ndarray, counts: list[int]) -> np.ndarray:
    """``counter(outputs[:c])`` for each ``c`` of the increasing ``counts``: running sums of ``counter`` over the
    pieces between them, the same integers (each output is counted on its own, so counts add up), each output
    counted once instead of once per prefix."""
    return np.cumsum([counter(piece) for piece in np.split(outputs[:counts[-1]], counts[:-1])], axis=0)


@validated(draws=_DRAWS)
def draw_counts(draws: int) -> list[int]:
    """The draw counts an audit is shown at as draws accumulate: 1, 2, 5 × powers of ten up to ``draws``."""
    counts = [m * 10**e for e in range(2, 7) for m in (1, 2, 5) if m * 10**e < draws]
    return counts + [draws]


@validated(mechanism=_MECHANISM, letter=_LETTER, epsilon=EPSILON, draws=_DRAWS, confidence=_CONFIDENCE,
           seed=SEED)
def audit_path(mechanism: str, letter: str, epsilon: float, draws: int, confidence: float, seed: int) -> dict:
    """The audit as draws accumulate: for each of :func:`draw_counts` the first draws of both datasets, the bound
    over the grid (``"best"``), the bound of the weak event alone (``"weak"``) and the best event's threshold or
    outcome (``"event"``, NaN if none separates); plus the outputs and the event grid.

    Remembered for the last few calls (the page's figures and takeaways share one run); treat it as read-only."""
    return _audit_path(mechanism, letter, epsilon, draws, confidence, seed)


@functools.lru_cache(maxsize=4)
def _audit_path(mechanism: str, letter: str, epsilon: float, draws: int, confidence: float, seed: int) -> dict:
    spec = MECHANISMS[mechanism]
    x, neighbour = audit_draws(mechanism, letter, epsilon, draws, seed)
    events = spec.events(epsilon)
    path: dict[str, list[Any]] = {"draws": draw_counts(draws), "best": [], "weak": [], "event": [], "p_lower": [],
                                  "q_upper": []}
    counted = [_running(functools.partial(counter, spec, epsilon), outputs, path["draws"])
               for counter in (_counts, _weak_counts) for outputs in (x, neighbour)]
    for count, grid_x, grid_neighbour, weak_x, weak_neighbour in zip(path["draws"], *counted):
        best = epsilon_lower_bound(grid_x, grid_neighbour, count, spec.delta, confidence)
        weak = epsilon_lower_bound(weak_x, weak_neighbour, count, spec.delta, confidence)
        size = events if isinstance(events, int) else events.size
        path["best"].append(best.epsilon_lower_bound)
        path["weak"].append(weak.epsilon_lower_bound)
        path["event"].append(float((np.arange(size) if isinstance(events, int) else events)[best.event % size])
                             if best.event >= 0 else math.nan)
        path["p_lower"].append(best.p_lower)
        path["q_upper"].append(best.q_upper)
    return path | {"x": x, "neighbour": neighbour, "events": events}


@validated(mechanism=_MECHANISM, letter=_LETTER, epsilon=EPSILON, draws=_DRAWS, confidence=_CONFIDENCE,
           seed=SEED)
def verdict(mechanism: str, letter: str, epsilon: float, draws: int, confidence: float, seed: int) -> str:
    """The audit's verdict in words: "caught" only when the lower bound exceeds the claimed ε (the last point of
    :func:`audit_path`, which the page's figures have already computed)."""
    bound = audit_path(mechanism, letter, epsilon, draws, confidence, seed)["best"][-1]
    percent = f"{100 * confidence:g} %"
    if bound > epsilon:
        return (f"**Caught.** With {percent} confidence ε ≥ {bound:.2f}, above the claimed ε = {epsilon:g}: "
                f"variant {letter} does not keep its promise.")
    return (f"**Not caught.** The lower bound ε ≥ {bound:.2f} stays below the claimed ε = {epsilon:g} "
            f"({draws:,} draws each, {percent} confidence). That is not a proof of privacy: these events and these "
            "draws found no violation.")


@validated(mechanism=_MECHANISM, seed=SEED)
def reveal(mechanism: str, seed: int) -> list[str]:
    """Which variant letter is which, and what the broken one gets wrong."""
    spec = MECHANISMS[mechanism]
    lines = []
    for index, name in enumerate(variant_letters(mechanism, seed)):
        variant = next(v for v in spec.variants if v.name == name)
        what = f"broken: {variant.broken}" if variant.broken else "the correct mechanism"
        lines.append(f"Variant {chr(65 + index)}: {what}.")
    return lines


@validated(mechanism=_MECHANISM, letter=_LETTER, epsilon=EPSILON, draws=_DRAWS, confidence=_CONFIDENCE,
           seed=SEED, revealed=Choice((False, True)))
def takeaways(mechanism: str, letter: str, epsilon: float, draws: int, confidence: float, seed: int,
              revealed: bool = True) -> list[str]:
    """What to notice, from the numbers of this audit; before the student's guess (``revealed`` false) nothing
    that gives the verdict away, only the attacker game's numbers."""
    game = (f"In the game, the best attacker is right {100 * likelihood_ratio_rates(epsilon)['accuracy']:.1f} % "
            f"of the time at ε = {epsilon:g}; no attacker can expect more than {100 * accuracy_bound(epsilon):.1f} %.")
    if not revealed:
        return ["Guess which variant is broken first: the audit's numbers, and what they show, appear after your "
                "guess.", game]
    path = audit_path(mechanism, letter, epsilon, draws, confidence, seed)
    first, last = path["best"][0], path["best"][-1]
    caught = [count for count, bound in zip(path["draws"], path["best"]) if bound > epsilon]
    lines = [f"With {path['draws'][0]:,} draws the bound is ε ≥ {first:.2f}; with {draws:,} it is ε ≥ {last:.2f}. "
             "More draws narrow the confidence intervals, so the bound rises towards the events' true privacy loss."]
    if caught:
        lines.append(f"Variant {letter} is caught from {caught[0]:,} draws on: its lower bound exceeds the claimed "
                     f"ε = {epsilon:g}. No correct ε-DP mechanism can do that (except with probability "
                     f"{1 - confidence:.2g}).")
    else:
        lines.append(f"Variant {letter} is not caught: its bound stays below ε = {epsilon:g}. Passing is not a "
                     "proof: try the other variant, more draws, or ask which events could see a bug.")
    lines.append(f"One weak event alone gives ε ≥ {path['weak'][-1]:.2f} at {draws:,} draws, against "
                 f"{last:.2f} for the best of the grid: an audit is only as strong as its events.")
    lines.append(game)
    return lines


# ---------------------------------------------------------------------------- part 2: membership inference

_ROUNDS = Integer(low=1, high=1_000_000)


_BLOCK = 1000  # rounds drawn together (vectorised); round i is entry i % 1000 of block i // 1000


@validated(epsilon=EPSILON, start=Integer(low=0), rounds=_ROUNDS, seed=SEED)
def attack_rounds(epsilon: float, start: int, rounds: int, seed: int) -> dict[str, np.ndarray]:
    """Rounds ``start … start + rounds − 1`` of the game: the hidden coin (``"member"``: the target is in the
    dataset) and the released Laplace count (50 people with the property without the target, 51 with; scale 1/ε).
    Round ``i`` depends only on ``(seed, i)``, so a round is the same whoever plays it and in whatever batch.

    >>> one = attack_rounds(1.0, 1500, 1, 0)
    >>> batch = attack_rounds(1.0, 1000, 1000, 0)
    >>> bool(one["member"][0] == batch["member"][500]), bool(one["release"][0] == batch["release"][500])
    (True, True)
    """
    blocks = range(start // _BLOCK, (start + rounds - 1) // _BLOCK + 1)
    members, releases = [], []
    for block in blocks:
        rng = np.random.default_rng([seed, 3, block])
        member = rng.random(_BLOCK) < 0.5
        members.append(member)
        releases.append(laplace(50.0 + member, 1.0, epsilon, rng))
    offset = start - blocks[0] * _BLOCK
    return {"member": np.concatenate(members)[offset:offset + rounds],
            "release": np.concatenate(releases)[offset:offset + rounds]}


@validated(releases=Array(ndim=(1,)))
def likelihood_ratio_guess(releases: np.ndarray) -> np.ndarray:
    """The best attacker's guesses (Neyman–Pearson): "in" when the release is nearer 51 than 50."""
    return np.asarray(releases) > 50.5


@validated(confidence=_CONFIDENCE)
def attacker_rates(members, guesses, confidence: float = CONFIDENCE) -> dict[str, Any]:
    """An attacker's true- and false-positive rates, accuracy (``"right"`` of ``"rounds"``), and exact
    Clopper–Pearson intervals at ``confidence`` on all three (``"tpr_interval"``, ``"fpr_interval"``,
    ``"accuracy_interval"``; NaN where a rate is undefined).

    >>> rates = attacker_rates([True] * 5 + [False] * 5, [True] * 4 + [False] * 5 + [True])
    >>> rates["right"], rates["rounds"], [round(end, 4) for end in rates["accuracy_interval"]]
    (8, 10, [0.4439, 0.9748])
    """
    members, guesses = np.asarray(members, bool), np.asarray(guesses, bool)
    if members.shape != guesses.shape:
        raise InvalidParameterError(f"members and guesses must have the same length; got {members.size} and "
                                    f"{guesses.size}")
    inside, outside = int(members.sum()), int((~members).sum())
    hits, false_alarms = int((guesses & members).sum()), int((guesses & ~members).sum())
    rates = {"rounds": members.size, "confidence": confidence, "tpr": hits / inside if inside else math.nan,
             "fpr": false_alarms / outside if outside else math.nan,
             "accuracy": float(np.mean(guesses == members)) if members.size else math.nan}
    right = int((guesses == members).sum())
    rates["right"] = right
    for name, count, total in (("tpr", hits, inside), ("fpr", false_alarms, outside), ("accuracy", right,
                                                                                         members.size)):
        low, high = clopper_pearson(np.array([count]), total, confidence) if total else (np.nan, np.nan)
        rates[f"{name}_interval"] = (float(np.ravel(low)[0]), float(np.ravel(high)[0]))
    return rates


PLAYERS = ("you", "the likelihood-ratio attacker")  #: the game's players: the student, and the best attacker


_SHARE = Real(0, 1)


@validated(low=_SHARE, high=_SHARE, epsilon=EPSILON)
def against_bound(low: float, high: float, epsilon: float) -> str:
    r"""Where a confidence interval ``[low, high]`` on an attacker's accuracy lies against the most any attacker can
    expect from an ε-DP release on a fair coin, :math:`b = e^{\varepsilon}/(1+e^{\varepsilon})`
    (:func:`accuracy_bound`): ``"above"`` when :math:`b < \text{low}`, ``"below"`` when :math:`\text{high} < b`,
    else ``"contains"`` (the accuracy may be above or below :math:`b` by luck alone).

    Each round is a fresh coin and fresh noise, so whatever the attacker did before, a round is won with probability
    at most :math:`b`: the number of rounds won is at most a Binomial(rounds, :math:`b`) count, and an exact
    Clopper–Pearson interval at confidence :math:`1 - \gamma` lies wholly above :math:`b` with probability at most
    :math:`\gamma/2` against an ε-DP release (for a number of rounds fixed in advance).

    >>> against_bound(0.4439, 0.9748, 1.0), against_bound(0.74, 0.80, 1.0), against_bound(0.66, 0.72, 1.0)
    ('contains', 'above', 'below')
    """
    bound = accuracy_bound(epsilon)
    return "above" if low > bound else "below" if high < bound else "contains"


@validated(name=Choice(PLAYERS), rates=InstanceOf(dict, "the dict of attacker_rates"), epsilon=EPSILON)
def rates_text(name: str, rates: dict, epsilon: float) -> str:
    """One player's record in words: rounds won, the accuracy's confidence interval (:func:`attacker_rates`), and
    what it says against the ε-DP bound (:func:`against_bound`): maybe luck, impossible for an ε-DP release, or
    within the promise."""
    def rate(value: float) -> str:
        return f"{value:.2f}" if math.isfinite(value) else "not defined yet"
    rounds, bound = rates["rounds"], 100 * accuracy_bound(epsilon)
    low, high = rates["accuracy_interval"]
    limit = f"{bound:.1f} %, the most a {epsilon:g}-DP attacker can expect"
    text = (f"**{name[0].upper() + name[1:]}**: {rounds:,} round{'s' if rounds != 1 else ''}, right "
            f"{rates['right']:,} times ({100 * rates['accuracy']:.1f} %). With {100 * rates['confidence']:g} % "
            f"confidence the long-run accuracy lies between {100 * low:.1f} % and {100 * high:.1f} %. ")
    where = against_bound(low, high, epsilon)
    if where == "above":
        text += (f"That whole range lies above {limit}. Luck does that less than "
                 f"{50 * (1 - rates['confidence']):g} % of the time, so something is wrong: this release is not "
                 f"{epsilon:g}-DP, or the mechanism has a bug (or the answers were known: the same seed replays the "
                 "same rounds).")
    elif where == "below":
        text += f"That whole range lies below {limit}: these guesses stay within what the privacy promise allows."
    elif rates["accuracy"] > accuracy_bound(epsilon):
        text += (f"That is above {limit}, but the range still contains it: after {rounds:,} "
                 f"round{'s' if rounds != 1 else ''} that can be luck. Play more rounds to narrow the range.")
    else:
        text += (f"The range still contains {limit}: {rounds:,} round{'s' if rounds != 1 else ''} cannot tell "
                 "yet whether the true accuracy is below it. Play more rounds to narrow the range.")
    return text + f" True-positive rate {rate(rates['tpr'])}, false-positive rate {rate(rates['fpr'])}."


@validated(epsilon=EPSILON, index=Integer(low=0), guess=Choice((False, True)), seed=SEED)
def round_text(epsilon: float, index: int, guess: bool, seed: int) -> str:
    """Round ``index`` of the game (:func:`attack_rounds`) once guessed: the release, the guess, whether the target
    was in, and whether the guess was right."""
    played = attack_rounds(epsilon, index, 1, seed)
    member, release = bool(played["member"][0]), float(played["release"][0])
    said = "in" if guess else "out"
    return (f"Round {index + 1}: the released count was {release:.2f} and you said **{said}**. The target was "
            f"**{'in' if member else 'out'}**: {'right' if member == guess else 'wrong'}.")


@validated(epsilon=EPSILON)
def likelihood_ratio_rates(epsilon: float) -> dict[str, float]:
    """The exact rates of the likelihood-ratio attacker on the game: TPR = 1 − e^{−ε/2}/2, FPR = e^{−ε/2}/2."""
    fpr = 0.5 * math.exp(-epsilon / 2)
    return {"tpr": 1 - fpr, "fpr": fpr, "accuracy": 1 - fpr}


@validated(epsilon=EPSILON)
def accuracy_bound(epsilon: float) -> float:
    """The best accuracy any attacker can have against ε-DP on a fair coin: e^ε / (1 + e^ε)."""
    return 1.0 / (1.0 + math.exp(-epsilon))

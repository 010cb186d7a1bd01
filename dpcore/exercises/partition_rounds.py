r"""Check yourself, "Partitioning rounds": learn the big marginals first, in rounds on disjoint rows, under pure DP.

Three exercises: the noise of naive Laplace on every coordinate (a number), the round in which a marginal joins a
group (a choice), and the sample size that gives every round enough rows (a task on the page's controls). Every
number comes from the library: the Laplace noise of :mod:`dpcore.theory`, and the rounds and the row blocks of
:mod:`dpcore.estimators.partition_rounds` (Singhal 2023).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from .. import theory
from ..estimators.partition_rounds import block_layout, noiseless_partition
from ..lessons import partition_rounds as lesson
from ..lessons.grids import log_grid
from ._numbers import in_math, plain, same, shown, to_tolerance, tolerance
from .base import Exercise, Variant

__all__ = ["EXERCISES"]

#: The page's sample-size control (app_pages/settings/partition_rounds.py): n on this grid
SIZES = log_grid(10_000, 10_000_000, integer=True)
BETA = 0.1  #: the failure probability the learner's blocks are sized for (the library's default)


def _naive_noise(rng: np.random.Generator) -> Variant:
    r"""The standard deviation of naive Laplace's noise on each coordinate, :math:`\sqrt2\,d/(\varepsilon n)`.

    Two rows of :math:`\{0,1\}^d` differ by at most :math:`d` in :math:`\ell_1`, so the :math:`d` means have
    :math:`\Delta_1 = d/n` and get :math:`\mathrm{Lap}(d/(\varepsilon n))` each (the baseline Singhal 2023, §1.1,
    warns about; Laplace mechanism, Dwork, McSherry, Nissim & Smith 2006), whose standard deviation is
    :math:`\sqrt2` times the scale: :func:`dpcore.theory.laplace_mean_error` with width :math:`d`.
    """
    while True:
        d = int(rng.choice([16, 64, 256, 1024, 4096]))
        n = int(rng.choice([10_000, 30_000, 100_000, 300_000, 1_000_000]))
        epsilon = float(rng.choice([0.1, 0.2, 0.5, 1.0, 2.0, 5.0]))
        sd = float(theory.laplace_mean_error(n, epsilon, width=float(d), statistic="rmse"))
        if 0.001 <= sd <= 2:
            break
    within = tolerance(sd)
    smallest = 1 / (4 * d)
    return Variant(
        prompt=(f"Naive Laplace: each of $n = {in_math(f'{n:,}')}$ rows is $d = {in_math(f'{d:,}')}$ bits (each 0 "
                "or 1), and the average of every bit over the rows (one coordinate each) is released with Laplace "
                "noise of the same scale on every coordinate, so that the whole release of $d$ averages is "
                f"$\\varepsilon$-differentially private with $\\varepsilon = {epsilon:g}$. Neighbouring datasets "
                "differ in one row. What is the standard deviation of the noise added to each coordinate? "
                f"(to within {plain(within)})"),
        hints=("Replacing one row can change all d of its bits: the d averages move by at most d/n in total (their "
               "ℓ₁ sensitivity: the sum of the changes' sizes).",
               "The Laplace scale is b = Δ/ε = d/(εn), and a Laplace variable of scale b has standard deviation √2·b."),
        solution=(f"Δ = d/n = {d:,}/{n:,}, so the scale is b = d/(εn) = {shown(d / (epsilon * n), 4)} and the "
                  f"standard deviation √2·b = {to_tolerance(sd, within)}."),
        why=(f"√2·d/(εn) = √2 × {d:,} / ({epsilon:g} × {n:,}) = {to_tolerance(sd, within)}, on every coordinate "
             f"alike: {shown(sd / smallest, 2)} times the smallest marginal of the page's log-uniform profile, "
             f"1/(4d) = {shown(smallest)}."),
        answer=sd, tolerance=within)


def _threshold(r: int) -> float:
    """Round r's threshold 3u/8 with u = 2⁻ʳ."""
    return 3 / 8 * 2.0**-r


def _joining_round(rng: np.random.Generator) -> Variant:
    r"""The round in which a marginal :math:`p` joins a group without noise: the first :math:`r` with
    :math:`p \ge \tfrac38 2^{-r}`.

    Round :math:`r` assumes the remaining marginals are at most :math:`u = 2^{-r}` and moves the coordinates whose
    mean reaches :math:`3u/8` into its group (Singhal 2023, the rounds of PureDPPDE;
    :func:`~dpcore.estimators.partition_rounds.noiseless_partition`).
    """
    joins = int(rng.choice([3, 4, 5, 6, 7]))
    p = float(f"{_threshold(joins) * float(rng.choice([1.15, 1.3, 1.5, 1.7])):.3g}")
    groups = noiseless_partition(np.array([p]), 10)
    right = next(r + 1 for r, group in enumerate(groups) if group.size)
    first = right - int(rng.choice([0, 1, 2]))  # the three rounds offered: first, first + 1, first + 2
    reaches_u = math.ceil(-math.log2(p))  # the first round with u ≤ p: the threshold mistaken for u itself

    def reason(r: int) -> str:
        if r < right:
            return (f"In round {r} the bound is u = 2^−{r} = 1/{2**r} and the threshold 3u/8 = "
                    f"{_threshold(r):.4g}, above p = {p:g}: the coordinate stays for a later round.")
        said = (f"It has already left: in round {right} the threshold 3u/8 = {_threshold(right):.4g} is at most "
                f"p = {p:g}, and a coordinate joins the first round whose threshold it reaches.")
        return said + (f" (In round {r} p reaches u itself, but the threshold is 3u/8, not u.)"
                       if r == reaches_u else "")

    why = (f"Round {right}: u = 2^−{right} = 1/{2**right}, and p = {p:g} ≥ 3u/8 = {_threshold(right):.4g}, "
           f"while in round {right - 1} the threshold 3u/8 = {_threshold(right - 1):.4g} was above p.")
    rounds = range(first, first + 3)
    choices = (*(f"Round {r}" for r in rounds), "Never: it waits for the final block")
    reasons = (*(why if r == right else reason(r) for r in rounds),
               f"Only the coordinates still left when the rounds stop go to the final block; p = {p:g} reaches "
               f"round {right}'s threshold, 3u/8 = {_threshold(right):.4g}, before that.")
    return Variant(
        prompt=("Singhal's (2023) learner finds the big marginals first, in rounds (a marginal $p_j$ is the "
                "probability that bit $j$ of a row is 1). In round $r = 1, 2, 3, \\dots$ it assumes that the "
                "coordinates still left have marginals at most $u = 2^{-r}$, and a coordinate joins that round's "
                "group, and leaves, when its mean (the share of rows whose bit is 1) reaches $3u/8$. Ignoring the "
                "noise and the rule that stops the rounds, in which round does a coordinate with "
                f"$p_j = {p:g}$ join a group?"),
        hints=("The threshold 3u/8 halves from one round to the next; a coordinate leaves in the first round whose "
               "threshold it reaches.",
               f"Compute 3/8 × 2^−r for r = 1, 2, 3, … and stop at the first one at most {p:g}."),
        solution=(f"The thresholds are {', '.join(f'{_threshold(r):.4g}' for r in range(1, right + 1))} in rounds "
                  f"1 to {right}: the first one at most p = {p:g} is round {right}'s."),
        why=why, answer=rounds.index(right), choices=choices, reasons=reasons)


#: The largest sample size the task asks for: the page's one run stays quick up to there
_LARGEST = 1_000_000


def _nice_between(low: int, high: int) -> int:
    """The roundest whole number in ``[low, high]``: a multiple of the largest step of 1, 2, 5 × 10ᵉ that fits."""
    for step in (10_000, 5000, 2000, 1000, 500, 200, 100, 50, 20, 10, 5, 2, 1):
        candidate = math.ceil(low / step) * step
        if candidate <= high:
            return candidate
    return low  # pragma: no cover (step 1 always fits)


def _round_rows(rng: np.random.Generator) -> Variant:
    r"""On the page: the smallest sample size giving every partition round at least a given number of rows.

    The learner splits the rows into :math:`R = \max(1, \lceil\log_2(d/L_0)\rceil)` round blocks of
    :math:`\lfloor 0.3n/R\rfloor` rows, :math:`L_0 = \ln(2d/\beta)` (Singhal 2023, disjoint blocks so that the rounds
    compose in parallel; the library's :func:`~dpcore.estimators.partition_rounds.block_layout`).
    """
    d = int(rng.choice(lesson.DIMENSIONS))
    index = int(rng.integers(1, SIZES.index(_LARGEST) + 1))
    n, before = SIZES[index], SIZES[index - 1]
    layout = block_layout(n, d, BETA)
    rows, rows_before = layout.round_size, block_layout(before, d, BETA).round_size
    wanted = _nice_between(rows_before + 1, rows)
    rounds, log_term = layout.rounds, layout.log_term

    def accepts(params: Mapping[str, Any]) -> bool:
        return same(params.get("d"), d) and same(params.get("n"), n)

    return Variant(
        prompt=(f"On this page, set the dimension $d$ to **{d:,}**. The learner splits the $n$ rows into disjoint "
                "blocks: its partition rounds share 30 % of the rows, one block of equal size each, and the rest "
                "goes to the heavy and the final blocks. Find the smallest sample size $n$ on the slider for which "
                f"every partition round gets at least **{wanted:,}** rows. (The table \"Where the rows go\" of the "
                "one-run section, shown once you have answered the page's question there, lists each block's rows.)"),
        hints=("The number of rounds depends on d only: R = max(1, ⌈log₂(d/L₀)⌉) with L₀ = ln(2d/β), β = 0.1; each "
               "round gets ⌊0.3n/R⌋ rows (⌊·⌋: rounded down).",
               f"For d = {d:,}: L₀ = ln({2 * d:,}/0.1) = {log_term:.4g}, so R = {rounds}. You need 0.3n/{rounds} ≥ "
               f"{wanted:,}, that is n ≥ {wanted * rounds / 0.3:,.0f}: take the next value on the slider."),
        solution=(f"R = {rounds} rounds, each of ⌊0.3n/{rounds}⌋ rows: {rows_before:,} at n = {before:,}, "
                  f"{rows:,} at n = {n:,}. So n = {n:,}."),
        why=(f"⌊0.3 × {n:,} / {rounds}⌋ = {rows:,} ≥ {wanted:,}, while ⌊0.3 × {before:,} / {rounds}⌋ = "
             f"{rows_before:,} < {wanted:,}."),
        accepts=accepts, controls=("d", "n"))


EXERCISES = (
    Exercise("naive_noise", "numeric", "The noise of naive Laplace", _naive_noise),
    Exercise("joining_round", "choice", "When a marginal joins a group", _joining_round),
    Exercise("round_rows", "on_page", "Rows enough for every round", _round_rows),
)

r"""Check yourself, "Real data": the lab's releases on a real column, and what each choice costs.

Three exercises: the expected error of a clipped mean, bias and noise together, on a column small enough to read (a
number), the Laplace scale of a private histogram (a choice), and the ε at which the clipped mean's noise on a bundled
column is small enough (a task on the page's controls). Every number comes from the library:
:func:`dpcore.lessons.real_data.clipping_decomposition` (the clipped mean of Kamath, Singhal & Ullman 2020 with the
Laplace mechanism of Dwork, McSherry, Nissim & Smith 2006), the Laplace histogram of
:func:`dpcore.mechanisms.laplace_histogram` and the bundled data sets of :mod:`dpcore.datasets`.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..datasets import DATASETS
from ..lessons import real_data as lesson
from ..lessons.grids import log_grid
from ._numbers import in_math, plain, same, shown, shuffled, to_tolerance, tolerance
from .base import Exercise, Variant

__all__ = ["EXERCISES"]

#: The page's ε slider (app_pages/settings/real_data.py: from 0.01 to 10, log-spaced)
EPSILONS = log_grid(0.01, 10.0)
MARGIN = 0.02  #: how clearly (relatively) the page's task is met at its answer and missed one step below it


@dataclass(frozen=True)
class _Column:
    """A bundled column as the page offers it: its name on the page, the page's default clipping bounds, its unit."""

    name: str
    lower: float
    upper: float
    unit: str


#: The bundled columns by the page's ``data`` option: names and default bounds as the page shows them
#: (app_pages/settings/real_data.py, DATA_NAMES and PUBLIC)
COLUMNS = {"engel": _Column("Household incomes (Engel 1857)", 0.0, 10_000.0, "francs a year"),
           "anes96": _Column("Ages (American National Election Study 1996)", 0.0, 120.0, "years"),
           "randhie": _Column("Doctor visits (RAND Health Insurance Experiment)", 0.0, 100.0, "visits a year")}


def _num(value: float) -> str:
    """``value`` to four significant digits, with a true minus sign (``−4.375``)."""
    return shown(value, 4).replace("-", "−")


def _mistakes(bias: float, scale: float) -> dict[str, float]:
    """The answers of the mistakes the hints are about: the noise alone, the bias alone, the two added as if they
    never cancelled, and the bias's sign kept."""
    return {"noise alone": scale, "bias alone": abs(bias), "both added": abs(bias) + scale,
            "sign kept": bias + scale * math.exp(-abs(bias) / scale)}


def _clipped_error(rng: np.random.Generator) -> Variant:
    r"""The expected error of the clipped Laplace mean, :math:`\mathbb E|c + L| = |c| + b e^{-|c|/b}`, with the
    clipping bias :math:`c = \overline{\mathrm{clip}_{[L,U]}(x)} - \bar x` and :math:`b = (U - L)/(\varepsilon n)`.

    The clipped mean of Kamath, Singhal & Ullman (2020) with the Laplace mechanism (Dwork, McSherry, Nissim & Smith
    2006); computed by :func:`dpcore.lessons.real_data.clipping_decomposition`. Drawn again until bias and noise
    both matter (:math:`0.3 \le |c|/b \le 3`) and every mistake of :func:`_mistakes` lies at least three tolerances
    from the answer.
    """
    while True:
        n = int(rng.choice([8, 10]))
        outliers = int(rng.integers(1, 3))
        values = np.concatenate([rng.integers(0, 31, n - outliers), rng.integers(45, 91, outliers)]).astype(float)
        values = values[rng.permutation(n)]
        upper = float(rng.choice([30, 40]))
        epsilon = float(rng.choice([0.5, 1.0, 2.0]))
        split = lesson.clipping_decomposition(values, 0.0, upper, epsilon)
        within = tolerance(split.expected_error, 0.01)
        if 0.3 <= abs(split.bias) / split.noise_scale <= 3 and all(
                abs(wrong - split.expected_error) >= 3 * within
                for wrong in _mistakes(split.bias, split.noise_scale).values()):
            break
    bias, scale, error = split.bias, split.noise_scale, split.expected_error
    listed = ", ".join(f"{value:g}" for value in values[:-1]) + f" and {values[-1]:g}"
    above = [value for value in values if value > upper]
    cut = " + ".join(f"({value:g} − {upper:g})" for value in above)
    remaining = scale * math.exp(-abs(bias) / scale)
    return Variant(
        prompt=(f"The weekly hours of paid work of $n = {n}$ students: {listed}. A private mean clips every value "
                f"into $[L, U] = [0, {upper:g}]$ (a value above $U$ is moved down to $U$), averages, and adds Laplace "
                "noise of scale $b = (U - L)/(\\varepsilon n)$, with the privacy budget "
                f"$\\varepsilon = {epsilon:g}$ (smaller is more private). Its error against the true mean is "
                "$c + \\text{noise}$, where the clipping bias $c$ is the clipped values' mean minus the true mean. "
                "How large is the error on average? For Laplace noise, "
                "$\\mathbb E|c + \\text{noise}| = |c| + b\\,e^{-|c|/b}$ ($\\mathbb E$: the average over the noise). "
                f"(in hours, to within {plain(within)})"),
        hints=("Two parts: clipping pulls the mean down (the bias c, computed from the data), and the noise adds "
               "b on average; they partly cancel, which is why the average error is not simply |c| + b.",
               "c = −(the amounts cut off above U) / n; b = (U − L)/(εn); then |c| + b·e^(−|c|/b)."),
        solution=(f"Clipping cuts {cut} = {sum(value - upper for value in above):g} hours off the total, so "
                  f"c = −{sum(value - upper for value in above):g} / {n} = {_num(bias)} hours. The noise scale is "
                  f"b = {upper:g} / ({epsilon:g} × {n}) = {_num(scale)} hours. The average error is "
                  f"|c| + b·e^(−|c|/b) = {_num(abs(bias))} + {_num(scale)} × e^(−{abs(bias) / scale:.4g}) = "
                  f"{_num(abs(bias))} + {_num(remaining)} = {to_tolerance(error, within)} hours."),
        why=(f"E|c + noise| = |c| + b·e^(−|c|/b) = {_num(abs(bias))} + {_num(scale)} × "
             f"e^(−{abs(bias) / scale:.4g}) = {to_tolerance(error, within)} hours: narrower bounds would cut the "
             "noise and add bias, wider ones the reverse."),
        answer=error, tolerance=within, unit="hours")


def _histogram_scale(rng: np.random.Generator) -> Variant:
    r"""The Laplace scale of the private histogram, :math:`2/\varepsilon` per count.

    Replacing one person's value moves one count down and another up: the counts' :math:`\ell_1` sensitivity is 2,
    whatever the number of bins (disjoint bins: parallel composition), so :math:`\mathrm{Lap}(2/\varepsilon)` per
    count is ε-DP (Dwork, McSherry, Nissim & Smith 2006; :func:`dpcore.mechanisms.laplace_histogram`). The wrong
    choices: add-or-remove neighbours (1/ε), the budget split over the bins (2B/ε), a count divided like a mean
    (2/(εn)).
    """
    epsilon = float(rng.choice([0.1, 0.2, 0.5, 1.0, 2.0]))
    bins = int(rng.choice([10, 20, 50]))
    n = int(rng.choice([235, 944, 5000, 20_190]))
    scale = 2 / epsilon
    choices, reasons, answer = shuffled(rng, (
        f"$b = {scale:g}$",
        f"Replacing one person's value takes 1 from one bin's count and adds 1 to another's, so together the counts "
        f"move by at most 2 (the sensitivity Δ = 2), whatever the number of bins: b = Δ/ε = 2/{epsilon:g} = "
        f"{scale:g}."), [
        (f"$b = {1 / epsilon:g}$",
         f"1/ε = {1 / epsilon:g} would do if neighbouring columns differed by one person added or removed: one count "
         "moves by 1. The page's neighbours replace one person's value, which moves two counts: Δ = 2, "
         f"b = {scale:g}."),
        (f"$b = {2 * bins / epsilon:g}$",
         f"That splits ε over the {bins} bins as if each count were a separate release. But the bins are disjoint: "
         "one person touches at most two of them, so the whole histogram costs ε once (parallel composition): "
         f"b = 2/ε = {scale:g}."),
        (f"$b = {shown(2 / (epsilon * n))}$",
         f"Dividing by n = {n:,} is right for a mean, which one person moves by 1/n of a change; a count moves by a "
         f"whole 1. The counts' sensitivity is 2: b = 2/ε = {scale:g}."),
    ])
    return Variant(
        prompt=(f"A column of $n = {in_math(f'{n:,}')}$ values is counted in {bins} bins over its public range, and "
                "Laplace noise of scale $b$ is added to every count, with the privacy budget "
                f"$\\varepsilon = {epsilon:g}$ for the whole histogram (smaller is more private). Two columns are "
                "neighbours when one person's value is replaced by another. Which $b$ makes the noisy histogram "
                "$\\varepsilon$-differentially private, with the least noise?"),
        hints=("Ask how much one replaced value can change the list of counts, in total: that is the sensitivity Δ.",
               "One value leaves its bin and lands in another: two counts change by 1. Then b = Δ/ε."),
        solution=(f"A replaced value leaves one bin (its count −1) and enters another (+1): Δ = 2 in total. The "
                  f"bins are disjoint, so the budget is not split over them: b = 2/ε = 2/{epsilon:g} = {scale:g}."),
        why=reasons[answer], answer=answer, choices=choices, reasons=reasons)


def _noise(key: str, epsilon: float) -> float:
    """The clipped mean's Laplace scale :math:`b = (U - L)/(\\varepsilon n)` on the bundled column ``key`` with the
    page's default bounds."""
    column = COLUMNS[key]
    return (column.upper - column.lower) / (epsilon * DATASETS[key].rows)


@functools.cache
def _clear_tasks() -> tuple[tuple[str, float, float], ...]:
    """The tasks (column, the largest noise scale allowed, the smallest ε of the slider that keeps to it) whose answer
    is clear on the slider: met by :data:`MARGIN` at the answer, missed by as much one step below, with the answer
    between ε = 0.05 and 5. The allowed scales are 1, 2 or 5 times a power of ten."""
    clear = []
    for key in COLUMNS:
        for exponent in range(-4, 4):
            for mantissa in (1, 2, 5):
                most = float(f"{mantissa}e{exponent}")
                first = next((i for i, epsilon in enumerate(EPSILONS) if _noise(key, epsilon) <= most), None)
                if (first and 0.05 <= EPSILONS[first] <= 5 and _noise(key, EPSILONS[first]) <= (1 - MARGIN) * most
                        and _noise(key, EPSILONS[first - 1]) >= (1 + MARGIN) * most):
                    clear.append((key, most, EPSILONS[first]))
    return tuple(clear)


def _noise_epsilon(rng: np.random.Generator) -> Variant:
    r"""On the page: the smallest ε of the slider at which the clipped mean's Laplace scale
    :math:`b = (U - L)/(\varepsilon n)` on a bundled column, at the page's default bounds, is at most a given amount.

    The clipped mean's sensitivity is :math:`(U - L)/n` (Kamath, Singhal & Ullman 2020; the Laplace mechanism of
    Dwork, McSherry, Nissim & Smith 2006): ε must be at least :math:`(U - L)/(nb)`. Amounts are drawn among those the
    slider crosses clearly (:func:`_clear_tasks`).
    """
    clear = _clear_tasks()
    key, most, target = clear[int(rng.integers(len(clear)))]
    column, n = COLUMNS[key], DATASETS[key].rows
    width = column.upper - column.lower
    below = EPSILONS[EPSILONS.index(target) - 1]
    needed = width / (n * most)

    def accepts(params: Mapping[str, Any]) -> bool:
        return params.get("data") == key and same(params.get("eps"), target)

    def amount(value: float) -> str:
        return f"{shown(value)} {column.unit}"

    bounds = f"{in_math(plain(column.lower))}, {in_math(plain(column.upper))}"

    return Variant(
        prompt=(f"On this page, choose the data **{column.name}** ($n = {in_math(f'{n:,}')}$ values) and keep the "
                f"clipping bounds at the page's defaults for it, $[L, U] = [{bounds}]$ ({column.unit}). "
                "The clipped mean adds Laplace noise of scale $b = (U - L)/(\\varepsilon n)$. Set the privacy budget "
                f"$\\varepsilon$ to the **smallest** value on its slider at which $b$ is at most {plain(most)} "
                f"{column.unit}."),
        hints=("A larger ε means less noise: the noise scale falls like 1/ε, so find where it first drops to the "
               "amount asked.",
               f"b ≤ {plain(most)} means ε ≥ (U − L)/(n × {plain(most)}) = {plain(width)}/({n:,} × {plain(most)}) = "
               f"{needed:.3g}; take the first value on the slider at or above it."),
        solution=(f"ε must be at least {plain(width)}/({n:,} × {plain(most)}) = {needed:.3g}; the first value on the "
                  f"slider at or above it is ε = {target:g}, where b = {amount(_noise(key, target))} (at "
                  f"ε = {below:g}, b = {amount(_noise(key, below))}, too much)."),
        why=(f"At ε = {target:g}, b = {plain(width)}/({target:g} × {n:,}) = {amount(_noise(key, target))}, at most "
             f"{plain(most)}; one step below, at ε = {below:g}, b = {amount(_noise(key, below))}. More people (a "
             "larger n) would need a smaller ε for the same noise."),
        accepts=accepts, controls=("data", "eps"))


EXERCISES = (
    Exercise("clipped_error", "numeric", "Bias and noise of a clipped mean", _clipped_error),
    Exercise("histogram_scale", "choice", "The noise of a private histogram", _histogram_scale),
    Exercise("noise_epsilon", "on_page", "Enough ε for a clipped mean", _noise_epsilon),
)

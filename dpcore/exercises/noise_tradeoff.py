r"""Check yourself, "Pure vs approximate DP": what a pure promise costs, and what δ buys.

Four exercises: the Laplace scale of a sum (a number), the classical Gaussian's σ for a clipped mean in :math:`d`
dimensions, which must use the :math:`\ell_2` sensitivity (a number), what the zCDP Gaussian promises as
:math:`(\varepsilon', \delta)`-DP (a choice), and δ chosen far below :math:`1/n` (a task on the page's controls).
Every number comes from the library: :func:`dpcore.mechanisms.gaussian_sigma` (Dwork & Roth 2014, Thm A.1),
:func:`dpcore.lessons.noise_tradeoff.zcdp_gaussian_epsilon` (Bun & Steinke 2016) and the page's grids.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from .. import accounting, mechanisms
from ..lessons import noise_tradeoff as lesson
from ..lessons.plain_words import superscript
from ._numbers import in_math, plain, same, shown, shuffled, to_tolerance, tolerance
from .base import Exercise, Variant

__all__ = ["EXERCISES"]


def _power(exponent: int) -> str:
    """10 to the power ``exponent`` in plain text: ``10⁻⁶``."""
    return f"10{superscript(exponent)}"


def _scientific(value: float) -> str:
    """A small positive number in plain text as a person reads it: three significant digits times a power of ten
    (``3.33 × 10⁻⁸``), or just the power when the digits are 1.

    >>> _scientific(3.333e-8), _scientific(1e-6)
    ('3.33 × 10⁻⁸', '10⁻⁶')
    """
    exponent = math.floor(math.log10(value) + 1e-12)
    mantissa = float(f"{value / 10.0 ** exponent:.3g}")
    return _power(exponent) if mantissa == 1 else f"{mantissa:g} × {_power(exponent)}"


def _laplace_scale(rng: np.random.Generator) -> Variant:
    """The Laplace mechanism's noise scale :math:`b = \\Delta_1 / \\varepsilon` (Dwork, McSherry, Nissim & Smith
    2006; Dwork & Roth 2014, Thm 3.6), for a sum of values in :math:`[0, w]` (sensitivity :math:`\\Delta_1 = w`)."""
    width = float(rng.choice([2, 5, 10, 20]))  # not 1: Δ/ε and 1/ε would agree
    epsilon = float(rng.choice([0.1, 0.2, 0.25, 0.5, 2.0]))  # not 1: Δ/ε and Δ·ε would agree
    scale = width / epsilon
    return Variant(
        prompt=(f"Each person's value lies in $[0, {width:g}]$ and the Laplace mechanism releases their **sum** with "
                f"the privacy budget $\\varepsilon = {epsilon:g}$ (smaller is more private): it adds noise drawn from "
                "a Laplace distribution of scale $b$ (the noise's typical size). What is $b$? (to within 0.01)"),
        hints=("One person changes the sum by at most the width of the range: that is the sensitivity Δ.",
               "The Laplace mechanism's scale is b = Δ / ε."),
        solution=f"Δ = {width:g} (one value moves the sum by at most {width:g}), so b = Δ / ε = {width:g} / "
                 f"{epsilon:g} = {scale:g}.",
        why=f"b = Δ / ε = {width:g} / {epsilon:g} = {scale:g}.",
        answer=scale, tolerance=0.01)


def _gaussian_sigma(rng: np.random.Generator) -> Variant:
    r"""The classical Gaussian mechanism's :math:`\sigma = \Delta_2\sqrt{2\ln(1.25/\delta)}/\varepsilon` for the mean
    of :math:`n` points clipped to an :math:`\ell_2` ball of radius :math:`C`, :math:`\Delta_2 = 2C/n`.

    Dwork & Roth (2014, Thm A.1), proved for :math:`\varepsilon \le 1`; computed by
    :func:`dpcore.mechanisms.gaussian_sigma` with ``calibration="classical"``. The :math:`\ell_2` sensitivity does
    not grow with :math:`d`; the :math:`\ell_1` one, :math:`2C\sqrt d/n`, would (the page's :math:`\sqrt d` gap).
    """
    dimension = int(rng.choice([4, 16, 64, 256]))
    radius = float(rng.choice([1, 2, 5, 10]))
    n = int(rng.choice([100, 200, 500, 1000, 2000]))
    epsilon = float(rng.choice([0.1, 0.2, 0.25, 0.5]))  # below 1, where the classical rule is proved
    delta = float(rng.choice([1e-5, 1e-6, 1e-8]))
    l2_sensitivity = 2 * radius / n
    sigma = mechanisms.gaussian_sigma(l2_sensitivity, epsilon, delta, "classical")
    within = tolerance(sigma)
    root = math.sqrt(2 * math.log(1.25 / delta))
    exponent = round(-math.log10(delta))
    return Variant(
        prompt=(f"Each of $n = {in_math(f'{n:,}')}$ people holds a point in $d = {dimension}$ dimensions, clipped to "
                f"the ball of radius $C = {radius:g}$ around a public centre (a point farther out is moved onto the "
                "ball). Their mean is released with Gaussian noise of standard deviation $\\sigma$ in every "
                "coordinate, calibrated to the $\\ell_2$ sensitivity $\\Delta_2$ (the most one person can move the "
                "mean, measured as a straight-line length) by the classical rule "
                "$\\sigma = \\Delta_2\\sqrt{2\\ln(1.25/\\delta)}/\\varepsilon$ (Dwork & Roth 2014, proved for "
                "$\\varepsilon < 1$), with the privacy "
                f"budget $\\varepsilon = {epsilon:g}$ and the failure probability $\\delta = 10^{{-{exponent}}}$ (the "
                f"chance that the promise fails). What is $\\sigma$? (to within {plain(within)})"),
        hints=("Replacing one person moves their clipped point anywhere in the ball: at most a diameter, 2C, so the "
               "mean moves by at most 2C/n in straight-line length, whatever the dimension d.",
               "Δ₂ = 2C / n, then σ = Δ₂ × √(2 ln(1.25/δ)) / ε."),
        solution=(f"Δ₂ = 2C / n = 2 × {radius:g} / {n:,} = {shown(l2_sensitivity, 4)} (the dimension d = {dimension} "
                  f"does not enter: the ℓ₂ sensitivity is a length). √(2 ln(1.25/δ)) = √(2 ln(1.25 × "
                  f"{_power(exponent)})) = {root:.4f}, so σ = {shown(l2_sensitivity, 4)} × {root:.4f} / {epsilon:g} = "
                  f"{to_tolerance(sigma, within)}."),
        why=(f"σ = (2C/n)·√(2 ln(1.25/δ))/ε = {shown(l2_sensitivity, 4)} × {root:.4f} / {epsilon:g} = "
             f"{to_tolerance(sigma, within)}: the Gaussian pays for the ℓ₂ move 2C/n, which does not grow with d."),
        answer=sigma, tolerance=within)


def _zcdp_promise(rng: np.random.Generator) -> Variant:
    r"""What the zCDP Gaussian (:math:`\sigma = \Delta_2/\varepsilon`) promises as :math:`(\varepsilon', \delta)`-DP.

    It is :math:`\rho`-zCDP with :math:`\rho = \varepsilon^2/2` (Bun & Steinke 2016, Prop 1.6), hence
    :math:`(\varepsilon', \delta)`-DP with :math:`\varepsilon' = \rho + 2\sqrt{\rho\ln(1/\delta)}` (their Prop 1.3):
    :func:`dpcore.lessons.noise_tradeoff.zcdp_gaussian_epsilon`. The wrong choices: the same ε, ρ taken for an ε,
    and ρ = ε in the conversion.
    """
    epsilon = float(rng.choice([0.1, 0.25, 0.5, 1.0]))  # below 2: ρ = ε²/2 and ρ = ε differ
    exponent = int(rng.choice([5, 6, 8, 10]))
    delta = 10.0 ** -exponent
    rho = accounting.pure_to_zcdp(epsilon)
    promised = lesson.zcdp_gaussian_epsilon(epsilon, delta)
    rho_as_epsilon = accounting.zcdp_to_approx(epsilon, delta)
    log_term = math.log(1 / delta)
    choices, reasons, answer = shuffled(rng, (
        f"$(\\varepsilon', \\delta)$-DP with $\\varepsilon' \\approx {promised:.3g}$",
        f"ρ = ε²/2 = {rho:g}, and ρ-zCDP is worth ε′ = ρ + 2√(ρ ln(1/δ)) = {rho:g} + 2√({rho:g} × {log_term:.3g}) "
        f"= {promised:.3g} at δ = {_power(-exponent)}: a weaker promise than ε = {epsilon:g}, which is why its "
        "noise is smaller."), [
        (f"$(\\varepsilon', \\delta)$-DP with $\\varepsilon' = {epsilon:g}$, the same as the Laplace mechanism",
         "The zCDP Gaussian shares Laplace's ρ, not its (ε, δ) promise: ρ-zCDP only converts to "
         f"ε′ = ρ + 2√(ρ ln(1/δ)) = {promised:.3g}, more than ε = {epsilon:g}. Comparing the two at the same ε "
         "flatters the Gaussian."),
        (f"$(\\varepsilon', \\delta)$-DP with $\\varepsilon' = {rho:g}$",
         f"{rho:g} is ρ = ε²/2 itself, the zCDP parameter: it measures privacy on another scale, and must be "
         f"converted: ε′ = ρ + 2√(ρ ln(1/δ)) = {promised:.3g}."),
        (f"$(\\varepsilon', \\delta)$-DP with $\\varepsilon' \\approx {rho_as_epsilon:.3g}$",
         f"That converts ρ = ε = {epsilon:g}; but the noise σ = Δ₂/ε gives ρ = Δ₂²/(2σ²) = ε²/2 = {rho:g}, so "
         f"ε′ = {rho:g} + 2√({rho:g} × {log_term:.3g}) = {promised:.3g}."),
    ])
    return Variant(
        prompt=("The *zCDP Gaussian* adds Gaussian noise of standard deviation $\\sigma = \\Delta_2/\\varepsilon$ to "
                "a query whose $\\ell_2$ sensitivity is $\\Delta_2$ (the most one person can move the answer, as a "
                f"straight-line length), here with the privacy budget $\\varepsilon = {epsilon:g}$. It satisfies "
                "$\\rho$-zero-concentrated differential privacy ($\\rho$-zCDP, Bun & Steinke 2016) with "
                "$\\rho = \\varepsilon^2/2$, the same $\\rho$ as the Laplace mechanism's pure $\\varepsilon$-DP. As an "
                "$(\\varepsilon', \\delta)$-DP promise (the output's probabilities change by a factor at most "
                f"$e^{{\\varepsilon'}}$, except with probability $\\delta$), what is it worth at "
                f"$\\delta = 10^{{-{exponent}}}$?"),
        hints=("Sharing a zCDP ρ with Laplace is not sharing its (ε, δ): a ρ-zCDP guarantee has to be converted into "
               "an (ε′, δ) one, and the conversion costs.",
               "ρ = ε²/2, then ε′ = ρ + 2√(ρ ln(1/δ))."),
        solution=(f"ρ = ε²/2 = {epsilon:g}²/2 = {rho:g}; ln(1/δ) = {exponent} ln 10 = {log_term:.4g}; "
                  f"ε′ = {rho:g} + 2√({rho:g} × {log_term:.4g}) = {promised:.3g}. The zCDP Gaussian at ε = "
                  f"{epsilon:g} is ({promised:.3g}, {_power(-exponent)})-DP, not "
                  f"({epsilon:g}, {_power(-exponent)})-DP."),
        why=reasons[answer], answer=answer, choices=choices, reasons=reasons)


def _delta_rule(rng: np.random.Generator) -> Variant:
    r"""On the page: the largest δ of the slider (powers of ten) with :math:`\delta \le 1/(Mn)`, at the page's n.

    δ is the probability that the guarantee fails outright, so it must be far below :math:`1/n`, or a mechanism
    could publish one random person's record and still be "private" (Dwork & Roth 2014, §2.3); the page's takeaway
    calls :math:`\delta n \le 0.01` comfortably small. With :math:`n` from :data:`~dpcore.lessons.noise_tradeoff.N_GRID`
    (on the n slider) and :math:`Mn \in [10^3, 10^9]`, the answer :math:`10^{-\lceil\log_{10}(Mn)\rceil}` lies on
    the δ slider, :math:`[10^{-12}, 10^{-3}]`.
    """
    n = int(rng.choice(lesson.N_GRID))
    margin = int(rng.choice([10, 100, 1000]))
    exponent = math.ceil(round(math.log10(margin * n), 9))
    target = float(f"1e-{exponent}")
    ceiling = 1 / (margin * n)

    def accepts(params: Mapping[str, Any]) -> bool:
        return same(params.get("n"), n) and same(params.get("delta"), target)

    return Variant(
        prompt=(f"On this page, set the sample size $n$ to **{n:,}**. Then set $\\delta$, the failure probability "
                "(the chance that the privacy promise fails outright), to the **largest** value on its slider that "
                f"keeps $\\delta$ at least {margin:,} times smaller than $1/n$."),
        hints=("δ must be far below 1/n: a δ near 1/n would allow a mechanism that publishes one person's record "
               f"outright. Here “far” means a factor of {margin:,}.",
               f"δ ≤ 1/({margin:,} × n); the slider holds powers of ten, so take the largest power of ten not above "
               "that."),
        solution=(f"1/({margin:,} × {n:,}) = {_scientific(ceiling)}. The largest power of ten not above it is "
                  f"{_power(-exponent)}: set n = {n:,} and δ = {_power(-exponent)} (δ × n = "
                  f"{shown(target * n)}, at most 1/{margin:,})."),
        why=(f"δ = {_power(-exponent)} gives δ × n = {shown(target * n)} ≤ 1/{margin:,}; the next value up, "
             f"{_power(1 - exponent)}, gives δ × n = {shown(10 * target * n)}, more than 1/{margin:,}."),
        accepts=accepts, controls=("n", "delta"))


EXERCISES = (
    Exercise("laplace_scale", "numeric", "The Laplace scale", _laplace_scale),
    Exercise("gaussian_sigma", "numeric", "The Gaussian's σ for a clipped mean", _gaussian_sigma),
    Exercise("zcdp_promise", "choice", "What the zCDP Gaussian promises", _zcdp_promise),
    Exercise("delta_rule", "on_page", "δ far below 1/n", _delta_rule),
)

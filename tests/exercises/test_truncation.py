"""Check yourself on "Truncation bias", from each prompt's own numbers: the clipped mean's noise scale 2t/(εn), the
two-point law's clipping bias, how the private error falls with n, and the radius where the noise first exceeds the
bias, recomputed from the Lomax and two-point laws on the radius slider."""

import math
import re

import numpy as np
import pytest
from scipy import integrate

from dpcore.exercises.base import grade
from tests.exercises.checks_of_kinds import check_choice, check_numeric, check_words, over_seeds, page, read

EXERCISE, SPECS, _ = page("truncation-bias")
FAMILIES = {"Lomax (Pareto II)": "lomax", "two-point law": "two-point"}


@over_seeds
def test_noise_scale_is_two_t_over_epsilon_n(seed):
    made = EXERCISE["noise_scale"].variant(seed)
    n, t, epsilon = (read(pattern, made.prompt) for pattern in (r"\$n = {}\$", r"radius \$t = {}\$",
                                                                 r"\$\\varepsilon = {}\$"))
    assert made.answer == pytest.approx(2 * t / (epsilon * n), rel=1e-12)
    assert made.tolerance == read(r"to within {}\)", made.prompt)
    check_numeric(made, {"the window's radius, not its width": t / (epsilon * n),
                         "ε multiplied": 2 * t * epsilon / n, "the sum's sensitivity, not the mean's": 2 * t / epsilon})
    check_words(made)


@over_seeds
def test_two_point_bias_is_the_far_values_move_times_its_probability(seed):
    made = EXERCISE["two_point_bias"].variant(seed)
    low = read(r"\$X = {}\$ with probability \$[0-9.]+\$", made.prompt)
    high = read(r"\$X = {}\$ with probability \$p", made.prompt)
    p, mean, t = (read(pattern, made.prompt) for pattern in (r"\$p = {}\$", r"\$\\mu = {}\$", r"radius \$t = {}\$"))
    assert (1 - p) * low + p * high == pytest.approx(mean)
    bias = (1 - p) * np.clip(low, mean - t, mean + t) + p * np.clip(high, mean - t, mean + t) - mean
    assert made.answer == pytest.approx(bias, rel=1e-9, abs=1e-12)
    assert made.answer < 0
    check_numeric(made, {"the probability forgotten": mean + t - high, "the sign flipped": -bias,
                         "the gap measured from the low value": -p * ((high - low) - t)})
    check_words(made)


@over_seeds
def test_the_private_part_falls_by_ten_to_the_k_minus_one_over_k(seed):
    made = EXERCISE["rate_with_n"].variant(seed)
    k = read(r"with \$k = {}\$", made.prompt)
    assert read(r"from \${}\$", made.prompt) * 10 == read(r"to \${}\$, by what", made.prompt)
    factor = 10 ** ((k - 1) / k)
    assert made.choices[int(made.answer)] == f"About {factor:.3g} times smaller"
    check_choice(made)
    check_words(made)


def lomax_bias(moment_k: float, radius: float) -> float:
    """E clip(X) − μ for the page's Lomax law: shape a = max(4, k + 1), centred, scaled to E|X − μ|ᵏ = 1; the tail
    integrals of the survival function (1 + y)^(−a) in closed form, the scale by numerical integration."""
    a = max(4.0, moment_k + 1.0)
    shift = 1.0 / (a - 1.0)

    def density(y):
        return a * (1 + y) ** (-a - 1)
    moment = integrate.quad(lambda y: abs(y - shift) ** moment_k * density(y), 0, shift)[0] + \
        integrate.quad(lambda y: abs(y - shift) ** moment_k * density(y), shift, np.inf)[0]
    scale = moment ** (-1.0 / moment_k)
    start = radius / scale + shift  # E(sZ − t)+ = s ∫ P(Y > y) dy from y = t/s + 1/(a − 1)
    above = scale * (1 + start) ** (1 - a) / (a - 1)
    end = shift - radius / scale  # E(−t − sZ)+ = s ∫ P(Y < y) dy up to y = 1/(a − 1) − t/s
    below = scale * (end - (1 - (1 + end) ** (1 - a)) / (a - 1)) if end > 0 else 0.0
    return below - above


def two_point_bias(moment_k: float, radius: float, p: float = 0.01) -> float:
    """E clip(X) − μ for the page's two-point law: −pg w.p. 1 − p, (1 − p)g w.p. p, g from E|X − μ|ᵏ = 1."""
    gap = ((1 - p) * p**moment_k + p * (1 - p) ** moment_k) ** (-1.0 / moment_k)
    values, weights = np.array([-p * gap, (1 - p) * gap]), np.array([1 - p, p])
    return float(weights @ (np.clip(values, -radius, radius) - values))


def settings_of(prompt: str) -> dict:
    family = FAMILIES[re.search(r"distribution to \*\*(.+?)\*\*", prompt).group(1)]
    moment = re.search(r"order \$k\$ to \*\*([0-9.]+)\*\*", prompt).group(1)
    return {"family": family, "moment": moment, "n": int(read(r"sample size \$n\$ to \*\*{}\*\*", prompt)),
            "eps": read(r"\$\\varepsilon\$ to \*\*{}\*\*", prompt)}


@over_seeds
def test_the_balance_radius_is_where_the_noise_first_exceeds_the_bias(seed):
    made = EXERCISE["balance_radius"].variant(seed)
    chosen = settings_of(made.prompt)
    assert set(made.controls) == {"family", "moment", "n", "eps", "t"} <= set(SPECS)
    for key in ("family", "moment", "n", "eps"):  # the settings asked for are the controls' own values
        assert chosen[key] in SPECS[key].options
    radii = np.array(SPECS["t"].options)
    bias_of = lomax_bias if chosen["family"] == "lomax" else two_point_bias
    bias = np.array([bias_of(float(chosen["moment"]), t) for t in radii])
    noise = math.sqrt(2) * 2 * radii / (chosen["eps"] * chosen["n"])
    first = int(np.flatnonzero(noise > np.abs(bias))[0])
    assert first > 0  # not the slider's first value: the student has to move it
    target = float(radii[first])
    assert grade("on_page", made, {**chosen, "t": target}).right
    assert grade("on_page", made, {**chosen, "t": target}).said == made.why
    assert f"So t = {target:g}." in made.solution
    for other in (radii[first - 1], *radii[first + 1:first + 2]):
        assert not grade("on_page", made, {**chosen, "t": float(other)}).right
    other_family = "student-t" if chosen["family"] != "student-t" else "lomax"
    assert not made.accepts({**chosen, "t": target, "family": other_family})
    other_epsilon = next(e for e in SPECS["eps"].options if not math.isclose(e, chosen["eps"]))
    assert not made.accepts({**chosen, "t": target, "eps": other_epsilon})
    assert not made.accepts({})
    check_words(made)

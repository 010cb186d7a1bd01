r"""What ε and δ mean in everyday words: odds, and what an attacker can learn.

An :math:`\varepsilon`-DP release changes the probability of any outcome by at most a factor :math:`e^{\varepsilon}`
when one person's data change. So an attacker who believed "this person is in the data" with probability :math:`p`
before seeing the release believes it with probability at most

.. math:: p' = \frac{e^{\varepsilon} p}{e^{\varepsilon} p + 1 - p}

after (Bayes' rule with a likelihood ratio of at most :math:`e^{\varepsilon}`). Studies of how people read privacy
guarantees found such odds far better understood than a bare ε (Nanayakkara et al. 2023, *What Are the Chances?*).
With :math:`\delta > 0` the promise may fail with probability up to :math:`\delta`.
"""

from __future__ import annotations

import math

from ..core.validation import EPSILON, Real, validated

__all__ = ["belief_after", "epsilon_in_words", "exp_text", "number_text", "superscript"]


@validated(epsilon=EPSILON, prior=Real(0, 1, low_open=True, high_open=True))
def belief_after(epsilon: float, prior: float = 0.5) -> float:
    """The most an attacker's belief ``prior`` can grow after seeing one ε-DP release: e^ε·p / (e^ε·p + 1 − p).

    >>> round(belief_after(1.0), 4)
    0.7311
    """
    boost = math.exp(epsilon) * prior
    return boost / (boost + 1.0 - prior)


@validated(epsilon=EPSILON, delta=Real(0, 1, high_open=True))
def epsilon_in_words(epsilon: float, delta: float = 0.0) -> str:
    """ε (and δ) as odds, in one or two sentences for a student.

    >>> print(epsilon_in_words(1.0, 1e-6))  # doctest: +NORMALIZE_WHITESPACE
    ε = 1 in words: one person's data change the probability of any outcome by at most ×2.7; an attacker who
    thought 50 % now thinks at most 73.1 %. δ = 1e-06 allows the promise to fail with probability up to 1e-06 (about
    one chance in 1,000,000).
    """
    factor = math.exp(epsilon)
    shown = f"{factor:.2g}" if factor < 10 else f"{factor:,.0f}"
    text = (f"ε = {epsilon:g} in words: one person's data change the probability of any outcome by at most ×{shown}; "
            f"an attacker who thought 50 % now thinks at most {100 * belief_after(epsilon):.3g} %.")
    if delta > 0:
        text += (f" δ = {delta:.0e} allows the promise to fail with probability up to {delta:.0e} "
                 f"(about one chance in {1 / delta:,.0f}).")
    return text


@validated(exponent=Real())
def exp_text(exponent: float, spec: str) -> str:
    """:math:`e^x` as text: formatted with ``spec`` up to 1e6, in scientific notation above (computed from
    :math:`x/\\ln 10`, so that it never overflows: :math:`e^{1000}` is "1.97e+434").

    >>> exp_text(1.0, ".2g"), exp_text(5.0, ",.0f"), exp_text(1000.0, ".3g")
    ('2.7', '148', '1.97e+434')
    """
    if exponent <= math.log(1e6):
        return format(math.exp(exponent), spec)
    decimal = exponent / math.log(10.0)
    power = math.floor(decimal)
    mantissa = 10.0 ** (decimal - power)
    if round(mantissa, 2) >= 10.0:
        mantissa, power = mantissa / 10.0, power + 1
    return f"{mantissa:.2f}e+{power}"


@validated(value=Real())
def number_text(value: float) -> str:
    """A number as a person reads it: 3 significant digits, thousands separators, a true minus sign, never "-0".

    >>> number_text(41.237), number_text(-2689.2), number_text(0.000827), number_text(-0.0)
    ('41.2', '−2,690', '0.000827', '0')
    """
    rounded = float(f"{value:.3g}")
    if rounded == 0:
        return "0"
    text = f"{rounded:,.0f}" if abs(rounded) >= 1000 else f"{rounded:.3g}"
    return text.replace("-", "−")


#: Unicode's superscript forms of what a formatted number holds; the decimal point is a raised dot, as in 10⁻⁰·⁵.
_SUPERSCRIPTS = str.maketrans("0123456789-−+.e", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁻⁺·ᵉ")


@validated(value=Real())
def superscript(value: float, spec: str = "g") -> str:
    """The number ``value``, formatted with ``spec``, as a superscript for a power in plain text (a chart's label, a
    question the class poll sends to phones, a table cell), where a typed caret would be read as it is: ``n^-0.72``.

    >>> "n" + superscript(-0.72, ".2f"), "d" + superscript(1.5), "E|X − μ|" + superscript(3.0)
    ('n⁻⁰·⁷²', 'd¹·⁵', 'E|X − μ|³')
    """
    return format(value, spec).translate(_SUPERSCRIPTS)

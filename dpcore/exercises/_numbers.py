"""What the exercises of the truncation, tournament, partitioning and audit pages share.

A tolerance a person can type to, numbers written for people, a grid control's value compared, and the choices of a
choice exercise in a drawn order.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np


def tolerance(value: float, share: float = 0.02) -> float:
    """The largest 1, 2 or 5 times a power of ten at most ``share`` of ``|value|``: a tolerance the prompt can state.

    It is at least ``share / 2.5`` of the value, so a typed answer with three significant digits is right, and a
    factor of 2 or more is far outside it.

    >>> tolerance(0.0042), tolerance(460.5, share=0.01), tolerance(1.0)
    (5e-05, 2.0, 0.02)
    """
    target = share * abs(value)
    exponent = math.floor(math.log10(target))
    for mantissa in (5, 2, 1):
        candidate = float(f"{mantissa}e{exponent}")
        if candidate <= target:
            return candidate
    return float(f"1e{exponent}")  # pragma: no cover (1 × 10^floor(log10 x) never exceeds x)


def plain(value: float) -> str:
    """A number without an exponent, as it is typed: ``0.00005``, ``2``, ``1,000``.

    >>> plain(5e-05), plain(2.0), plain(1000.0), plain(0.25)
    ('0.00005', '2', '1,000', '0.25')
    """
    if value == int(value) and abs(value) >= 1:
        return f"{int(value):,}"
    return np.format_float_positional(value, trim="-")


def shown(value: float, digits: int = 3) -> str:
    """``value`` with ``digits`` significant digits, without an exponent, thousands separated.

    >>> shown(0.0000113137), shown(21640.4), shown(-0.125), shown(3.0)
    ('0.0000113', '21,640', '-0.125', '3')
    """
    if abs(value) >= 10 ** (digits - 1):
        return f"{value:,.0f}"
    text = np.format_float_positional(value, precision=digits, unique=False, fractional=False, trim="-")
    return text.rstrip(".")


def num(value: float) -> str:
    """``value`` in the ``g`` format with a minus sign (−), for prose.

    >>> num(-1.6), num(0.5), num(3.0)
    ('−1.6', '0.5', '3')
    """
    return f"{value:g}".replace("-", "−")


def in_math(text: str) -> str:
    """A number written for people (:func:`shown`, :func:`plain`) as it goes inside ``$…$``: thousands commas braced.

    >>> in_math("21,640")
    '21{,}640'
    """
    return text.replace(",", "{,}")


def to_tolerance(value: float, within: float) -> str:
    """``value`` to one decimal place more than the tolerance ``within`` asks for, without trailing zeros, thousands
    separated, with a minus sign.

    >>> to_tolerance(0.123456, 0.005), to_tolerance(21640.4, 200.0), to_tolerance(-0.71234, 0.01), to_tolerance(1, 0.02)
    ('0.1235', '21,640', '−0.712', '1')
    """
    decimals = max(0, math.ceil(-math.log10(within / 10)))
    text = f"{value:,.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text.replace("-", "−")


def same(value: Any, target: float) -> bool:
    """Whether a control's value ``value`` is the grid value ``target`` (a number, up to rounding; else False).

    >>> same(0.7, 0.7000000000000001), same("0.7", 0.7), same(None, 0.7), same(0.5, 0.7)
    (True, False, False, False)
    """
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        return False
    return math.isclose(float(value), target, rel_tol=1e-9, abs_tol=1e-12)


def shuffled(rng: np.random.Generator, right: tuple[str, str],
             wrong: Sequence[tuple[str, str]]) -> tuple[tuple[str, ...], tuple[str, ...], int]:
    """The choices ``right`` and ``wrong`` (each a pair: the choice, its reason) in an order drawn from ``rng``.

    Returns the choices, their reasons and the index of the right one.

    >>> shuffled(np.random.default_rng(0), ("yes", "why"), [("no", "because")])
    (('yes', 'no'), ('why', 'because'), 0)
    """
    options = [right, *wrong]
    order = [int(i) for i in rng.permutation(len(options))]
    return (tuple(options[i][0] for i in order), tuple(options[i][1] for i in order), order.index(0))

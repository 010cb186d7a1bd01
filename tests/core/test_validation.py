"""Declared validation (dpcore.core.validation): each constraint kind's boundary case, normalised good values, the
error message, and an explicit None default. That every public function declares its constraints and rejects
bad values is tests/test_public_functions.py.
"""

import math

import numpy as np
import pytest

from dpcore.core.validation import Array, Choice, Integer, InvalidParameterError, Real, Seed, Text, validated


@pytest.mark.parametrize(
    "constraint, value",
    [
        (Real(0, 1, low_open=True), 0.0),
        (Real(low=0), -1e-300),
        (Real(), math.inf),
        (Real(), "1"),
        (Integer(low=1), 0),
        (Integer(), 1.5),
        (Choice(("a", "b")), "c"),
        (Array(ndim=(1,)), np.zeros((2, 2))),
        (Array(min_size=1), []),
        (Array(), [1.0, math.nan]),
        (Array(low=0, low_open=True), [0.0]),
        (Seed(), -3),
        (Text(r"[a-z]+", "a word"), "word "),
        (Text(r"[a-z]+", "a word"), b"word"),
    ],
)
def test_each_constraint_kind_rejects_its_boundary_case(constraint, value):
    with pytest.raises(InvalidParameterError, match=r"^x must be .*; got"):
        constraint.check("x", value)


@pytest.mark.parametrize(
    "constraint, value, expected",
    [
        (Real(0, 1), 1, 1.0),
        (Integer(low=1), 1e4, 10000),
        (Real(low=0, allow_inf=True), math.inf, math.inf),
        (Array(), [1, 2], np.array([1.0, 2.0])),
        (Real(), np.float32(0.5), 0.5),
        (Text(r"[a-z-]+", "an address"), "real-data", "real-data"),
    ],
)
def test_constraints_normalise_good_values(constraint, value, expected):
    np.testing.assert_array_equal(constraint.check("x", value), expected)


def test_error_message_names_parameter_range_and_value():
    @validated(epsilon=Real(low=0, low_open=True))
    def release(epsilon):
        return epsilon

    with pytest.raises(ValueError) as caught:
        release(-1)
    assert str(caught.value) == "epsilon must be a real number > 0; got -1.0"


def test_constraint_for_a_missing_parameter_is_a_programming_error():
    with pytest.raises(TypeError, match="unknown parameters"):
        validated(nope=Real())(lambda x: x)


def test_an_explicit_none_default_is_accepted_but_none_elsewhere_is_not():
    from dpcore import mechanisms

    assert mechanisms.exponential(np.array([0.0, 1.0]), 1.0, 1.0, False, 0, None) in (0, 1)
    with pytest.raises(TypeError, match="epsilon must be"):
        mechanisms.exponential(np.array([0.0, 1.0]), None)

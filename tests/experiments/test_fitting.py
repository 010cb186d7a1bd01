"""Fits drawn from sweeps (dpcore.experiments.fitting): power laws and the samples needed for a target error."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpcore import experiments
from dpcore.experiments import fit_power_law

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "fit_power_law": dict(x=np.array([1.0, 10.0]), y=np.array([1.0, 0.1])),
    "samples_needed": dict(
        n_values=np.array([10.0, 100.0]), errors=np.array([0.5, 0.1]), target=0.2
    ),
}


def test_samples_needed_log_log_interpolation():
    """experiments.samples_needed (moved there from product), errors = 1/sqrt(n): target 0.01 is reached at
    n = 10^4 exactly (between 10^3 and 10^5); nan when never reached; the first n when already below; a grid point
    when hit exactly."""
    n = np.array([1e2, 1e3, 1e5, 1e6])
    errors = 1 / np.sqrt(n)
    assert experiments.samples_needed(n, errors, 0.01) == pytest.approx(1e4, rel=1e-12)
    assert experiments.samples_needed(n, errors, 0.002) == pytest.approx(2.5e5, rel=1e-12)
    assert math.isnan(experiments.samples_needed(n, errors, 1e-4))
    assert experiments.samples_needed(n, errors, 0.5) == 100.0
    assert experiments.samples_needed(n, errors, 1 / math.sqrt(1e3)) == pytest.approx(1e3, rel=1e-12)
    # a kinked curve: interpolation only uses the two bracketing points
    kinked = np.array([0.5, 0.4, 0.1, 0.05])
    x0, x1, y0, y1 = math.log(1e3), math.log(1e5), math.log(0.4), math.log(0.1)
    expected = math.exp(x0 + (math.log(0.2) - y0) * (x1 - x0) / (y1 - y0))
    assert experiments.samples_needed(n, kinked, 0.2) == pytest.approx(expected, rel=1e-12)


def test_fit_power_law_recovers_a_known_law():
    x = np.logspace(1, 5, 9)
    exponent, constant = fit_power_law(x, 3.0 * x ** (-2 / 3))
    assert exponent == pytest.approx(-2 / 3, abs=1e-12)
    assert constant == pytest.approx(3.0, rel=1e-12)
    noisy = 0.5 * x**0.25 * np.exp(np.random.default_rng(0).normal(0, 0.01, x.size))
    assert fit_power_law(x, noisy)[0] == pytest.approx(0.25, abs=0.01)


@pytest.mark.parametrize("arguments, error, message", [
    ({"x": [1, 2], "y": [1, -2]}, ValueError, r"y must be a real array .*\(0"),
    ({"x": [1, 2, 3], "y": [1, 2]}, ValueError, r"x and y must have the same length"),
    ({"x": [1], "y": [1]}, ValueError, r"x must be .*at least 2 entries"),
    ({"x": [2, 2], "y": [1, 3]}, ValueError, r"x must contain at least two distinct values"),
])
def test_fit_power_law_rejects_bad_data(arguments, error, message):
    with pytest.raises(error, match=message):
        fit_power_law(**arguments)

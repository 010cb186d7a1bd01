"""Check yourself on "Real data", from each prompt's own numbers: the clipped mean's average error (bias and noise
together, against a numerical integral), the private histogram's Laplace scale, and the noise task on the page's own
columns, bounds and ε slider."""

import itertools
import math
import re

import numpy as np
import pytest
from scipy import integrate

from app_pages.settings import real_data as page_settings
from dpcore.datasets import load_dataset
from dpcore.exercises import real_data
from dpcore.exercises.base import grade
from tests.exercises.checks_of_kinds import check_numeric, check_stated, check_words, over_seeds, page, read, value

EXERCISE, SPECS, DEFAULTS = page("real-data")


def test_the_columns_and_the_slider_are_the_pages():
    """The names, default bounds and units the exercises quote are those the page shows."""
    assert real_data.EPSILONS == SPECS["eps"].options
    for key, column in real_data.COLUMNS.items():
        assert column.name == page_settings.DATA_NAMES[key]
        facts = page_settings.PUBLIC[key]
        assert (column.lower, column.upper, column.unit) == (facts.low, facts.high, facts.unit)


def laplace_mean_abs(shift: float, scale: float) -> float:
    """E|shift + L|, L ~ Laplace(scale), by numerical integration of the density e^(−|z|/b)/(2b)."""
    def integrand(z):
        return abs(shift + z) * math.exp(-abs(z) / scale) / (2 * scale)
    return sum(integrate.quad(integrand, low, high)[0]
               for low, high in ((-math.inf, -abs(shift)), (-abs(shift), 0.0), (0.0, math.inf)))


@over_seeds
def test_the_clipped_means_average_error_is_bias_and_noise_together(seed):
    made = EXERCISE["clipped_error"].variant(seed)
    n = read(r"\$n = {}\$ students", made.prompt)
    listed = re.search(r"students: ([0-9, and]+)\.", made.prompt).group(1)
    x = np.array([float(item) for item in re.split(r", | and ", listed)])
    upper = read(r"\[L, U\] = \[0, {}\]", made.prompt)
    epsilon = read(r"\$\\varepsilon = {}\$", made.prompt)
    assert x.size == n
    bias = np.clip(x, 0.0, upper).mean() - x.mean()
    scale = upper / (epsilon * n)
    error = abs(bias) + scale * math.exp(-abs(bias) / scale)
    assert made.answer == pytest.approx(error, rel=1e-9)
    assert made.answer == pytest.approx(laplace_mean_abs(bias, scale), rel=1e-6)
    assert made.tolerance == read(r"to within {}\)", made.prompt) and made.unit == "hours"
    check_numeric(made, {"the noise alone": scale, "the bias alone": abs(bias), "both added": abs(bias) + scale,
                         "the sign kept": bias + scale * math.exp(-abs(bias) / scale)})
    check_words(made)


@over_seeds
def test_the_histograms_counts_get_laplace_noise_of_scale_two_over_epsilon(seed):
    made = EXERCISE["histogram_scale"].variant(seed)
    n, bins, epsilon = (read(pattern, made.prompt) for pattern in (
        r"\$n = {}\$", r"counted in {} bins", r"\$\\varepsilon = {}\$"))
    mistakes = {"add or remove one": 1 / epsilon, "ε split over the bins": 2 * bins / epsilon,
                "a count divided like a mean": 2 / (epsilon * n)}
    check_stated(made, r"^\$b = {}\$$", 2 / epsilon, mistakes, rel=1e-6)  # Δ₁ = 2 under replace-one
    check_words(made)


@over_seeds
def test_the_noise_task_is_solved_at_the_first_epsilon_that_keeps_b_small(seed):
    made = EXERCISE["noise_epsilon"].variant(seed)
    name = re.search(r"choose the data \*\*(.+?)\*\*", made.prompt).group(1)
    key = next(option for option, shown in page_settings.DATA_NAMES.items() if shown == name)
    lower, upper = map(value, re.search(r"\[L, U\] = \[([0-9{},.]+), ([0-9{},.]+)\]", made.prompt).groups())
    n = read(r"\$n = {}\$ values", made.prompt)
    most = read(r"at which \$b\$ is at most {} ", made.prompt)
    facts = page_settings.PUBLIC[key]
    assert (lower, upper) == (facts.low, facts.high) and n == load_dataset(key).size
    assert made.controls == ("data", "eps")
    grid = SPECS["eps"].options
    target = next(epsilon for epsilon in grid if (upper - lower) / (epsilon * n) <= most)
    assert target != grid[0]
    solving = [(data, epsilon) for data, epsilon in itertools.product(SPECS["data"].options, grid)
               if made.accepts({**DEFAULTS, "data": data, "eps": epsilon})]
    assert solving == [(key, target)]  # on the controls' own options, and only there
    assert grade("on_page", made, {**DEFAULTS, "data": key, "eps": target}).said == made.why
    check_words(made)


def test_the_noise_tasks_use_every_bundled_column():
    names = {re.search(r"\*\*(.+?)\*\*", EXERCISE["noise_epsilon"].variant(seed).prompt).group(1)
             for seed in range(200)}
    assert names == {page_settings.DATA_NAMES[key] for key in real_data.COLUMNS}

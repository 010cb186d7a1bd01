"""Truncation bias: the controls, and the sweeps they select."""

from collections.abc import Callable
from typing import Any

import ui
from dpcore.experiments import SweepResult
from dpcore.lessons import truncation

SPECS = [
    ui.epsilon_spec(default=1.0, low=0.01, high=5.0),
    ui.ParamSpec(key="moment", label="Bounded moment order k", kind="choice", default="3",
                 options=truncation.MOMENTS, aliases=("k",), names=truncation.MOMENT_NAMES,
                 help="The data have E|X − μ|ᵏ = 1: on average, the k-th power of a point's distance from the mean μ "
                      "is 1. Smaller k = heavier tails (far-away points more common); ∞ = Gaussian data."),
    ui.ParamSpec(key="family", label="Distribution", kind="choice", default="lomax", options=truncation.FAMILIES,
                 names=truncation.FAMILY_NAMES,
                 help="Lomax (Pareto II: one long right tail, like incomes) and the two-point law (a common value and "
                      "a rare far one) are asymmetric, so clipping them is biased; Student's t and the Gaussian are "
                      "symmetric."),
    ui.n_spec(default=10_000, low=10, high=1_000_000),
    ui.ParamSpec(key="t", label="Clipping radius t (one run)", kind="log", default=2.0,
                 options=tuple(ui.log_grid(0.1, 100.0)), help="The window is [μ − t, μ + t] in the one-run view."),
    ui.trials_spec(default=200, low=20, high=2000),
    ui.seed_spec(),
    ui.monte_carlo_spec(),
]


def sweeps(values: dict[str, Any], run: Callable[..., SweepResult]) -> None:
    """Run, through ``run``, every sweep the page shows at the control values ``values``: the error against n of
    every estimator (for the chosen family and ε) and the bias-correction sweep."""
    truncation.error_vs_n(values["family"], values["eps"], values["trials"], values["mc"], run=run)
    truncation.bias_correction(values["trials"], values["mc"], run=run)

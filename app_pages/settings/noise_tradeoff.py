"""Pure vs approximate DP: the controls (the sidebar's and the composed releases beside their figure),
and the sweeps they select."""

from collections.abc import Callable
from typing import Any

import ui
from dpcore.experiments import SweepResult
from dpcore.lessons import noise_tradeoff as lesson

SPECS = [
    ui.epsilon_spec(default=1.0, low=0.05, high=10.0),
    ui.delta_spec(default=1e-6, low=1e-12, high=1e-3),
    ui.ParamSpec(key="d", label="Dimension d", kind="choice", default=64, options=lesson.DIMENSIONS,
                 help="Number of coordinates of each data point (and of the mean being released)."),
    ui.n_spec(default=10_000, low=100, high=1_000_000),
    ui.trials_spec(default=200, low=20, high=2000),
    ui.seed_spec(),
    ui.monte_carlo_spec(),
]

RELEASES = ui.ParamSpec(key="releases", label="Composed releases k", kind="log", default=100,
                        options=tuple(ui.log_grid(1, 1000, integer=True)), aliases=("k",),
                        help="How many private releases are made from the same data; the dotted line marks it.")
IN_PAGE = (RELEASES,)  # drawn beside the composition figure


def sweeps(values: dict[str, Any], run: Callable[..., SweepResult]) -> None:
    """Run, through ``run``, every sweep the page shows at the control values ``values``: the error against n at the
    chosen ε and against the dimension at the chosen n (both at the chosen δ)."""
    lesson.error_vs_n(values["eps"], values["delta"], values["trials"], values["mc"], run=run)
    lesson.error_vs_dimension(values["n"], values["delta"], values["trials"], values["mc"], run=run)

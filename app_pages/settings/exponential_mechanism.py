"""Exponential mechanism: the controls, and the sweeps they select."""

from collections.abc import Callable
from typing import Any

import ui
from dpcore.experiments import SweepResult
from dpcore.lessons import exponential_mechanism as lesson

SPECS = [
    ui.epsilon_spec(default=0.1, low=0.01, high=10.0),
    ui.n_spec(default=100, low=10, high=3000),
    ui.trials_spec(default=200, low=50, high=2000),
    ui.seed_spec(),
    ui.monte_carlo_spec(),
]


def sweeps(values: dict[str, Any], run: Callable[..., SweepResult]) -> None:
    """Run, through ``run``, every sweep the page shows at the control values ``values``: the user-level error at
    every user-level ε, the selection loss against k and the private median's error against n."""
    for epsilon in lesson.USER_EPSILONS:
        lesson.user_level_vs_m(epsilon, values["trials"], values["mc"], run=run)
    lesson.loss_vs_k(values["trials"], values["mc"], run=run)
    lesson.median_vs_n(values["trials"], values["mc"], run=run)

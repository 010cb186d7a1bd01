"""Binary product distributions: the controls, and the sweeps they select."""

from collections.abc import Callable
from typing import Any

import ui
from dpcore.experiments import SweepResult
from dpcore.lessons import partition_rounds as lesson

SPECS = [
    ui.ParamSpec(key="eps", label="Privacy ε", kind="choice", default=1.0, options=lesson.EPSILONS,
                 help="Every block's ε; blocks use disjoint rows, so the whole algorithm is ε-DP.", crossed=True),
    ui.ParamSpec(key="d", label="Dimension d", kind="choice", default=1024, options=lesson.DIMENSIONS,
                 help="Number of binary attributes per row.", crossed=True),
    ui.n_spec(default=1_000_000, low=10_000, high=10_000_000),
    ui.ParamSpec(key="profile", label="Marginal profile", kind="choice", default="log-uniform",
                 options=lesson.PROFILES, help="How the true marginals pⱼ are spread between 1/(4d) and 1/2.",
                 crossed=True),
    ui.delta_spec(default=1e-6, low=1e-12, high=1e-3),
    ui.trials_spec(default=30, low=10, high=200),
    ui.seed_spec(),
    ui.monte_carlo_spec(),
]


def sweeps(values: dict[str, Any], run: Callable[..., SweepResult]) -> None:
    """Run, through ``run``, every sweep the page shows at the control values ``values``: the error against n (total
    variation and KL), against the dimension, and by marginal profile."""
    sweep = dict(delta=values["delta"], trials=values["trials"], seed=values["mc"], run=run)
    for metric in ("tv", "kl"):
        lesson.sweep_vs_n(values["profile"], values["d"], metric=metric, **sweep)
    lesson.sweep_vs_dimension(values["profile"], values["eps"], **sweep)
    lesson.sweep_by_profile(values["d"], values["eps"], **sweep)

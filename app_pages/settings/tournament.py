"""Tournament selection: the controls, and the sweeps they select."""

from collections.abc import Callable
from typing import Any

import ui
from dpcore.experiments import SweepResult
from dpcore.lessons import tournament as lesson

SPECS = [
    ui.epsilon_spec(default=0.1, low=0.01, high=5.0),
    ui.n_spec(default=300, low=30, high=10_000),
    ui.ParamSpec(key="hypotheses", label="Hypotheses k", kind="choice", default=41, options=lesson.K_GRID,
                 aliases=("k",),
                 help="Unit-variance Gaussians N(μ, 1) with means 0.1 apart, centred on 0 (k = 41: μ ∈ [−2, 2])."),
    ui.ParamSpec(key="a", label="Contest: Hᵢ's mean", kind="choice", default=0.3, options=lesson.MEANS,
                 help="The pair whose Scheffé set is drawn."),
    ui.ParamSpec(key="b", label="Contest: Hⱼ's mean", kind="choice", default=0.8, options=lesson.MEANS),
    ui.ParamSpec(key="m", label="Examples per user m", kind="choice", default=16, options=lesson.PER_USER,
                 help="User-level section: each user holds m examples; neighbours differ in one whole user."),
    ui.trials_spec(default=100, low=20, high=500),
    ui.seed_spec(),
    ui.monte_carlo_spec(),
]


def sweeps(values: dict[str, Any], run: Callable[..., SweepResult]) -> None:
    """Run, through ``run``, every sweep the page shows at the control values ``values``: the item-level selection
    sweep and the user-level one (whose trial count is the lesson's own)."""
    lesson.item_sweep(values["trials"], values["mc"], run=run)
    lesson.user_sweep(values["mc"], run=run)

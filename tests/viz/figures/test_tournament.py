"""The tournament page's figures (dpcore.viz.figures.tournament)."""

import numpy as np

from tests.examples import stored

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "scheffe_figure": dict(
        sample=np.array([0.0, 1.0, 2.0]),
        curves={"H": (np.array([0.0, 2.0]), np.array([0.1, 0.2]))},
        shaded=[(1.0, np.inf)],
        shaded_name="W",
        bins=5,
        title="t",
        presentation=True,
    ),
    "win_matrix_figure": dict(
        matrix=np.array([[0.0, 1.0], [-1.0, 0.0]]), labels=["a", "b"], title="t", presentation=False
    ),
    "selection_figure": dict(
        positions=np.array([0.0, 1.0]),
        scores=np.array([1.0, 2.0]),
        probabilities=np.array([0.4, 0.6]),
        marks={"truth": 0.5},
        x_title="μ",
        title="t",
        presentation=False,
    ),
    "grid_scores_figure": dict(
        xs=np.array([0.0, 1.0]),
        ys=np.array([0.0, 1.0]),
        values=np.ones((2, 2)),
        marks={"truth": (0.5, 0.5)},
        value_title="score",
        title="t",
        presentation=False,
    ),
    "one_contest": dict(a=0.3, b=0.8, k=21, n=50, epsilon=1.0, seed=0, presentation=False),
    "whole_tournament": dict(k=21, n=50, epsilon=1.0, seed=0, presentation=False),
    "selection_scores": dict(k=21, n=50, epsilon=1.0, seed=0, presentation=False),
    "plane_map": dict(shown="score", epsilon=1.0, seed=0, presentation=False),
    "tv_vs_n": dict(
        trials=100, seed=0, epsilon=0.1, start="41", presentation=False, run=stored
    ),
    "price_of_k": dict(
        trials=100, seed=0, start="0.1", presentation=False, run=stored
    ),
    "users_needed": dict(seed=0, start="0.1", presentation=False, run=stored),
    "user_tv": dict(seed=0, epsilon=0.1, start="16", presentation=False, run=stored),
}

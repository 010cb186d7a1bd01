"""The lessons' grids (dpcore.lessons.grids)."""

import numpy as np

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "log_grid": dict(low=0.5, high=3.0, mantissas=np.array([1.0, 2.0, 5.0]), integer=False),
    "nearest": dict(frames=(0.1, 0.3, 1.0), value=0.5),
}

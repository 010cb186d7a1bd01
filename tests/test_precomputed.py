"""The default-state results shipped in assets/precomputed equal a fresh run of what they record."""

from pathlib import Path

import numpy as np
import pytest

from dpcore.experiments import rerun_stored

STORED = sorted((Path(__file__).resolve().parents[1] / "assets" / "precomputed").glob("*.npz"))


def test_pages_ship_precomputed_defaults():
    assert len(STORED) >= 2  # the truncation page's two default sweeps (./lab.sh precompute)


@pytest.mark.parametrize("path", STORED, ids=lambda path: path.name)
def test_stored_result_equals_a_fresh_run(path):
    stored, fresh = rerun_stored(path)
    assert (stored.parameters, stored.methods, stored.seed) == (fresh.parameters, fresh.methods, fresh.seed)
    for axis in stored.parameters:
        np.testing.assert_array_equal(stored.grid[axis], fresh.grid[axis])
    for name in ("median", "lower", "upper", "mean", "rmse", "trials"):
        np.testing.assert_array_equal(getattr(stored, name), getattr(fresh, name), err_msg=name)
    for kept, again in zip(stored.errors.ravel(), fresh.errors.ravel()):
        np.testing.assert_array_equal(kept, again)

"""The result store (dpcore.experiments.store): saved and loaded results, served when their parameters match."""

from __future__ import annotations

import importlib

import numpy as np

from dpcore.experiments import SweepResult, run_sweep
from tests.examples import STORE

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "load_or_run": dict(
        directory="/nonexistent/dplab",
        function=importlib.import_module("dpcore.lessons.noise_tradeoff").error_sweep,
        n_values=[10],
        dimensions=[1],
        epsilons=[1.0],
        delta=1e-6,
        trials=2,
        seed=0,
    ),
    "load_stored": dict(
        directory="/nonexistent/dplab", function=importlib.import_module("dpcore.lessons.noise_tradeoff").error_sweep,
        n_values=[10], dimensions=[1], epsilons=[1.0], delta=1e-6, trials=2, seed=0),
    "stored_calls": dict(directory="/nonexistent/dplab"),
    "stored_index": dict(directory="/nonexistent/dplab"),
    "rerun_stored": dict(path=sorted(STORE.glob("*.npz"), key=lambda p: p.stat().st_size)[0]),
    "run_now": dict(
        function=importlib.import_module("dpcore.lessons.exponential_mechanism").quantile_error_sweep,
        n_values=[10],
        epsilons=[1.0],
        trials=2,
        seed=0,
    ),
}


def stored_sweep(n_values, seed):
    """A module-level sweep (stored results record an importable function)."""
    return run_sweep(lambda p, t, rng: rng.standard_normal((t, p["n"])),
                     {"mean": lambda x, p, rng: np.abs(x.mean(axis=1))}, {"n": list(n_values)},
                     data_parameters=("n",), trials=lambda p: 10 * p["n"], seed=seed)


def test_save_load_round_trip_and_load_or_run(tmp_path):
    from dpcore.experiments import load_or_run, rerun_stored, stored_calls

    result = stored_sweep([2, 3], 5)
    result.save(tmp_path / "r.npz")
    loaded = SweepResult.load(tmp_path / "r.npz")
    np.testing.assert_array_equal(loaded.median, result.median)
    assert [e.size for e in loaded.errors.ravel()] == [20, 30]  # ragged trials survive
    assert load_or_run(tmp_path / "store", stored_sweep, n_values=[4], seed=1).errors is not None  # not stored
    assert not (tmp_path / "store").exists()
    first = load_or_run(tmp_path / "store", stored_sweep, store_as="grid", n_values=[4], seed=1)
    (stored,) = (tmp_path / "store").glob("stored_sweep-*.npz")
    again = load_or_run(tmp_path / "store", stored_sweep, n_values=[4], seed=1)  # served: summaries only
    for name in ("median", "lower", "upper", "mean", "rmse", "trials"):  # the store keeps the summaries only
        np.testing.assert_array_equal(getattr(first, name), getattr(again, name))
    assert first.errors[0, 0].size == 40 and again.errors is None
    assert [call[2] for call in stored_calls(tmp_path / "store", "grid")] == [stored]
    assert stored_calls(tmp_path / "store", "defaults") == []
    kept, fresh = rerun_stored(stored)
    np.testing.assert_array_equal(kept.median, fresh.median)
    assert load_or_run(tmp_path / "store", stored_sweep, n_values=[4], seed=2).seed == 2  # other parameters: computed

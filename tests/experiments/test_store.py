"""The result store (dpcore.experiments.store): saved and loaded results, served when their parameters match."""

from __future__ import annotations

import numpy as np

from dpcore.experiments import SweepResult, run_sweep


def stored_sweep(n_values, seed):
    """A module-level sweep (stored results record an importable function)."""
    return run_sweep(lambda p, t, rng: rng.standard_normal((t, p["n"])),
                     {"mean": lambda x, p, rng: np.abs(x.mean(axis=1))}, {"n": list(n_values)},
                     data_parameters=("n",), trials=lambda p: 10 * p["n"], seed=seed)


def test_save_load_round_trip_and_load_or_run(tmp_path, monkeypatch):
    from dpcore.experiments import load_or_run, rerun_stored, stored_calls

    result = stored_sweep([2, 3], 5)
    result.save(tmp_path / "r.npz")
    loaded = SweepResult.load(tmp_path / "r.npz")
    np.testing.assert_array_equal(loaded.median, result.median)
    assert [e.size for e in loaded.errors.ravel()] == [20, 30]  # ragged trials survive
    monkeypatch.setenv("DPLAB_STORE_PRECOMPUTED", "grid")
    first = load_or_run(tmp_path / "store", stored_sweep, n_values=[4], seed=1)
    (stored,) = (tmp_path / "store").glob("stored_sweep-*.npz")
    again = load_or_run(tmp_path / "store", stored_sweep, n_values=[4], seed=1)
    for name in ("median", "lower", "upper", "mean", "rmse", "trials"):  # the store keeps the summaries only
        np.testing.assert_array_equal(getattr(first, name), getattr(again, name))
    assert first.errors[0, 0].size == 40 and again.errors is None
    assert [call[2] for call in stored_calls(tmp_path / "store", "grid")] == [stored]
    assert stored_calls(tmp_path / "store", "defaults") == []
    kept, fresh = rerun_stored(stored)
    np.testing.assert_array_equal(kept.median, fresh.median)
    assert load_or_run(tmp_path / "store", stored_sweep, n_values=[4], seed=2).seed == 2  # other parameters: computed

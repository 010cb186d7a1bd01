"""The Monte Carlo engine: statistics, common random numbers, shapes, exports, input checks."""

from __future__ import annotations

import concurrent.futures
import csv
import io
import sys
import types

import numpy as np
import pytest

from dpcore.core.randomness import child_generator
from dpcore.experiments import SweepResult, fit_power_law, join_methods, run_sweep, trials_for_budget
from tests.examples import PARTITION_SWEEP

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "run_sweep": dict(
        sample=lambda p, t, rng: rng.standard_normal((t, p["n"])),
        estimators={"mean": lambda x, p, rng: np.abs(x.mean(axis=1))},
        grid={"n": [10]},
        data_parameters=("n",),
        trials=20,
        seed=0,
        quantiles=(0.1, 0.9),
    ),
    "trials_for_budget": dict(budget=1000, max_trials=100, min_trials=10),
    "join_methods": dict(results=[PARTITION_SWEEP], order=list(PARTITION_SWEEP.methods)),
    "parallel_over": dict(executor=concurrent.futures.ThreadPoolExecutor(1)),
}


def normal_sample(params, trials, rng):
    return rng.standard_normal((trials, params["n"]))


def sample_mean_error(data, params, rng):
    return np.abs(data.mean(axis=1))


def laplace_noise(data, params, rng):
    """Signed noise of a Laplace mean of values in [-3, 3]: Lap(6 / (epsilon n))."""
    return rng.laplace(0.0, 6.0 / (params["epsilon"] * params["n"]), data.shape[0])


def clipped_laplace_error(data, params, rng):
    """Signed error of the clipped Laplace mean of N(0, 1) data (true mean 0)."""
    return np.clip(data, -3.0, 3.0).mean(axis=1) + laplace_noise(data, params, rng)


def sweep(estimators, grid, trials=200, seed=7, data_parameters=("n",), sample=normal_sample, **options):
    return run_sweep(sample, estimators, grid, data_parameters=data_parameters, trials=trials, seed=seed, **options)


def test_sample_mean_of_normal_data_follows_the_root_n_law():
    n = np.array([25, 100, 400])
    result = sweep({"mean": sample_mean_error}, {"n": n}, trials=4000)
    np.testing.assert_allclose(result.median[0], 0.6745 / np.sqrt(n), rtol=0.05)
    np.testing.assert_allclose(result.rmse[0], 1.0 / np.sqrt(n), rtol=0.05)
    np.testing.assert_allclose(result.mean[0], np.sqrt(2 / np.pi) / np.sqrt(n), rtol=0.05)
    exponent, constant = fit_power_law(n, result.median[0])
    assert exponent == pytest.approx(-0.5, abs=0.03)
    assert constant == pytest.approx(0.6745, rel=0.1)
    # the band is the 10 % and 90 % quantiles of |N(0, 1/n)|: 0.1257 and 1.6449 standard errors
    np.testing.assert_allclose(result.lower[0] * np.sqrt(n), 0.1257, rtol=0.1)
    np.testing.assert_allclose(result.upper[0] * np.sqrt(n), 1.6449, rtol=0.05)


def test_errors_come_from_the_documented_streams():
    n, trials, seed = 50, 300, 11
    result = sweep({"clipped": clipped_laplace_error}, {"n": [n], "epsilon": [0.5]}, trials=trials, seed=seed)
    data = child_generator(seed, "data", n).standard_normal((trials, n))
    noise = child_generator(seed, "noise", "clipped", n).laplace(0.0, 6.0 / (0.5 * n), trials)
    np.testing.assert_array_equal(result.errors[0, 0, 0], np.clip(data, -3, 3).mean(axis=1) + noise)


def test_pieces_come_from_the_documented_streams():
    """300 trials in pieces of 128: piece 0 from the point's own streams, pieces 1 and 2 (128 and 44 trials) from
    theirs, keyed "piece", i; side by side, in order."""
    n, seed = 50, 11
    result = sweep({"clipped": clipped_laplace_error}, {"n": [n], "epsilon": [0.5]}, trials=300, seed=seed,
                   piece=128)
    expected = []
    for index, size in enumerate((128, 128, 44)):
        key = (n, "piece", index) if index else (n,)
        data = child_generator(seed, "data", *key).standard_normal((size, n))
        noise = child_generator(seed, "noise", "clipped", *key).laplace(0.0, 6.0 / (0.5 * n), size)
        expected.append(np.clip(data, -3, 3).mean(axis=1) + noise)
    np.testing.assert_array_equal(result.errors[0, 0, 0], np.concatenate(expected))
    assert result.trials[0, 0, 0] == 300


def test_a_run_within_one_piece_is_the_run_without_pieces():
    grid = {"n": [20, 400], "epsilon": [0.5, 2.0]}
    whole = sweep({"clipped": clipped_laplace_error, "mean": sample_mean_error}, grid, trials=200)
    for piece in (200, 10_000, lambda params: 80_000 // params["n"]):  # 200 trials fit one piece at both n
        pieced = sweep({"clipped": clipped_laplace_error, "mean": sample_mean_error}, grid, trials=200, piece=piece)
        for name in ("median", "lower", "upper", "mean", "rmse", "trials"):
            np.testing.assert_array_equal(getattr(pieced, name), getattr(whole, name))


def test_pieced_runs_follow_the_same_law():
    """The sample mean's median error 0.6745/sqrt(n), 4000 trials in pieces of 150 (27 pieces)."""
    n = np.array([25, 100, 400])
    result = sweep({"mean": sample_mean_error}, {"n": n}, trials=4000, piece=150)
    np.testing.assert_allclose(result.median[0], 0.6745 / np.sqrt(n), rtol=0.05)
    assert np.all(result.trials == 4000)


def test_common_random_numbers_across_epsilon():
    result = sweep({"clipped": clipped_laplace_error, "noise": laplace_noise}, {"n": [40], "epsilon": [1.0, 2.0, 4.0]})
    noise_1, noise_2, noise_4 = result.errors[1, 0]
    # the same noise draws at every epsilon: Lap(b / 2) is exactly half of Lap(b)
    np.testing.assert_array_equal(noise_2, noise_1 / 2)
    np.testing.assert_array_equal(noise_4, noise_1 / 4)
    np.testing.assert_array_equal(result.median[1, 0, 1:], result.median[1, 0, :-1] / 2)
    # and the same data: error(epsilon) = D + N / epsilon with D and N shared by all three epsilons
    clipped_1, clipped_2, clipped_4 = result.errors[0, 0]
    np.testing.assert_allclose(clipped_1 - clipped_2, 2 * (clipped_2 - clipped_4), rtol=0, atol=1e-12)


def test_common_random_numbers_survive_spawned_streams():
    def two_stage(data, params, rng):  # e.g. a range estimate, then a noisy mean, each on its own stream
        first, second = rng.spawn(2)
        size, scale = data.shape[0], 1 / params["epsilon"]
        return first.laplace(0.0, scale, size) + second.laplace(0.0, 2 * scale, size)

    noise_1, noise_2 = sweep({"two stage": two_stage}, {"n": [5], "epsilon": [1.0, 2.0]}).errors[0, 0]
    np.testing.assert_array_equal(noise_2, noise_1 / 2)


def test_methods_share_data_but_not_noise():
    result = sweep({"mean a": sample_mean_error, "mean b": sample_mean_error, "noise a": laplace_noise,
                    "noise b": laplace_noise}, {"n": [30], "epsilon": [1.0]}, trials=2000)
    errors = result.errors[:, 0, 0]
    np.testing.assert_array_equal(errors[0], errors[1])
    assert abs(np.corrcoef(errors[2], errors[3])[0, 1]) < 0.1
    assert not np.array_equal(errors[2], errors[3])


def test_data_are_drawn_once_per_data_parameter_combination():
    sample_calls, estimator_calls = [], []

    def counting_sample(params, trials, rng):
        sample_calls.append(dict(params))
        return normal_sample(params, trials, rng)

    def counting_estimator(data, params, rng):
        estimator_calls.append(dict(params))
        return sample_mean_error(data, params, rng)

    grid = {"n": [10, 20], "epsilon": [0.5, 1.0, 2.0], "k": [2, 3]}
    sweep({"a": counting_estimator, "b": counting_estimator}, grid, data_parameters=("n", "k"),
          sample=counting_sample)
    assert sample_calls == [{"n": 10, "k": 2}, {"n": 10, "k": 3}, {"n": 20, "k": 2}, {"n": 20, "k": 3}]
    assert len(estimator_calls) == 2 * 12
    assert estimator_calls[0] == {"n": 10, "k": 2, "epsilon": 0.5}


def test_data_are_read_only_for_estimators():
    def clips_in_place(data, params, rng):
        np.clip(data, -1, 1, out=data)
        return data.mean(axis=1)

    with pytest.raises(ValueError, match="read-only"):
        sweep({"in place": clips_in_place}, {"n": [10]})


def test_same_seed_reproduces_and_other_seed_changes():
    grid = {"n": [20, 40], "epsilon": [0.5, 1.0]}
    estimators = {"clipped": clipped_laplace_error}
    first, again, other = (sweep(estimators, grid, seed=s) for s in (3, 3, 4))
    for name in ("median", "lower", "upper", "mean", "rmse"):
        np.testing.assert_array_equal(getattr(first, name), getattr(again, name))
        assert not np.any(getattr(first, name) == getattr(other, name))
    np.testing.assert_array_equal(np.stack(first.errors.ravel()), np.stack(again.errors.ravel()))


def test_streams_are_keyed_by_value_not_position():
    wide = sweep({"clipped": clipped_laplace_error}, {"n": [20, 40], "epsilon": [0.5, 1.0]})
    narrow = sweep({"clipped": clipped_laplace_error}, {"n": [40], "epsilon": [1.0]})
    np.testing.assert_array_equal(wide.errors[0, 1, 1], narrow.errors[0, 0, 0])


def test_axes_keep_grid_order_whatever_the_data_axes():
    def tagged(data, params, rng):  # a known value per grid point
        return np.full(data.shape[0], 100 * params["epsilon"] + params["n"] + params["k"] / 10)

    grid = {"epsilon": [1.0, 2.0, 3.0], "n": [5, 6], "k": [1, 2, 3, 4]}
    result = sweep({"first": tagged, "second": lambda d, p, r: 2 * tagged(d, p, r)}, grid, trials=7)
    assert result.parameters == ("epsilon", "n", "k")
    assert result.methods == ("first", "second")
    assert result.median.shape == result.trials.shape == result.errors.shape == (2, 3, 2, 4)
    eps, n, k = np.meshgrid(*grid.values(), indexing="ij")
    expected = 100 * eps + n + k / 10
    for name in ("median", "lower", "upper", "mean", "rmse"):
        np.testing.assert_allclose(getattr(result, name), [expected, 2 * expected], rtol=1e-12)
    assert np.all(result.trials == 7)
    assert result.errors[1, 2, 0, 3].shape == (7,)
    assert result.quantiles == (0.1, 0.9) and result.seed == 7
    with pytest.raises(ValueError, match="read-only"):
        result.median[0, 0, 0, 0] = 0.0


def test_quantile_levels_are_honoured():
    def uniform_grid(data, params, rng):
        return np.arange(data.shape[0], dtype=float)

    result = sweep({"u": uniform_grid}, {"n": [1]}, trials=101, quantiles=(0.25, 0.75))
    assert (result.lower[0, 0], result.median[0, 0], result.upper[0, 0]) == (25.0, 50.0, 75.0)
    assert result.rmse[0, 0] == pytest.approx(np.sqrt(np.mean(np.arange(101.0) ** 2)))


def test_trials_callable_and_budget_rule():
    rule = trials_for_budget(6000, max_trials=500, min_trials=40)
    assert [rule({"n": n}) for n in (5, 12, 60, 1000)] == [500, 500, 100, 40]
    result = sweep({"mean": sample_mean_error}, {"n": [5, 12, 60, 1000], "epsilon": [1.0, 2.0]}, trials=rule)
    np.testing.assert_array_equal(result.trials[0], [[500, 500], [500, 500], [100, 100], [40, 40]])
    assert [result.errors[0, i, 1].size for i in range(4)] == [500, 500, 100, 40]


def test_records_and_csv_round_trip():
    result = sweep({"clipped": clipped_laplace_error, "mean": sample_mean_error},
                   {"n": [20, 40], "epsilon": [0.5, 1.0, 2.0]}, trials=50)
    rows = result.records()
    assert len(rows) == 2 * 2 * 3
    assert list(rows[0]) == ["method", "n", "epsilon", "median", "lower", "upper", "mean", "rmse", "trials"]
    assert rows[4] == {"method": "clipped", "n": 40, "epsilon": 1.0, "median": result.median[0, 1, 1],
                       "lower": result.lower[0, 1, 1], "upper": result.upper[0, 1, 1],
                       "mean": result.mean[0, 1, 1], "rmse": result.rmse[0, 1, 1], "trials": 50}
    parsed = list(csv.DictReader(io.StringIO(result.to_csv())))
    assert len(parsed) == len(rows)
    for row, text in zip(rows, parsed):
        assert text["method"] == row["method"]
        assert int(text["n"]) == row["n"] and int(text["trials"]) == row["trials"]
        for key in ("epsilon", "median", "lower", "upper", "mean", "rmse"):
            assert float(text[key]) == row[key]  # full precision survives the text


def test_curve_slices_along_one_axis():
    result = sweep({"clipped": clipped_laplace_error, "noise": laplace_noise},
                   {"n": [20, 40, 80], "epsilon": [0.5, 1.0], "k": [3]}, trials=30)
    curve = result.curve("noise", "n", epsilon=1.0)
    np.testing.assert_array_equal(curve["x"], [20, 40, 80])
    for name in ("median", "lower", "upper", "mean", "rmse"):
        np.testing.assert_array_equal(curve[name], getattr(result, name)[1, :, 1, 0])
    across_epsilon = result.curve("clipped", "epsilon", n=40, k=3)
    np.testing.assert_array_equal(across_epsilon["median"], result.median[0, 1, :, 0])
    assert result.curve("noise", "n", epsilon=1.0 + 1e-12)["median"][2] == result.median[1, 2, 1, 0]
    with pytest.raises(ValueError, match=r"epsilon must be one of the grid values \[0.5, 1.0\]; got 3"):
        result.curve("noise", "n", epsilon=3)
    with pytest.raises(ValueError, match="needs a value for axis 'epsilon'"):
        result.curve("noise", "n")
    with pytest.raises(ValueError, match=r"method must be one of \('clipped', 'noise'\); got 'median'"):
        result.curve("median", "n", epsilon=1.0)
    with pytest.raises(ValueError, match="x must be one of the grid axes"):
        result.curve("noise", "delta", epsilon=1.0)


def wrong_shape(data, params, rng):
    return np.zeros(data.shape[0] - 1)


@pytest.mark.parametrize("change, error, message", [
    ({"grid": {"n": []}}, ValueError, r"grid axis 'n' must be a non-empty 1-D sequence; got \[\]"),
    ({"grid": {}}, TypeError, r"grid must be a non-empty mapping"),
    ({"grid": {"n": [10, 10]}}, ValueError, r"grid axis 'n' must not repeat values"),
    ({"grid": {"n": [10], "median": [1]}}, ValueError, r"grid axis names must be strings other than"),
    ({"data_parameters": ("n", "m")}, ValueError, r"data_parameters must be grid axes \('n', 'epsilon'\); got \['m'\]"),
    ({"data_parameters": "n"}, TypeError, r"data_parameters must be a sequence of grid axis names"),
    ({"estimators": {"mean": 3}}, TypeError, r"estimators must map names .* got 'mean': 3"),
    ({"estimators": {}}, TypeError, r"estimators must be a non-empty mapping"),
    ({"sample": None}, TypeError, r"sample must be a callable"),
    ({"trials": 0}, ValueError, r"trials must be an integer >= 1; got 0"),
    ({"trials": 2.5}, ValueError, r"trials must be an integer >= 1; got 2.5"),
    ({"trials": lambda params: params["n"] - 10}, ValueError, r"trials\(\{'n': 10\}\) must be an integer >= 1; got 0"),
    ({"seed": -1}, ValueError, r"seed must be an integer >= 0; got -1"),
    ({"quantiles": (0.9, 0.1)}, ValueError, r"quantiles must be two increasing levels"),
    ({"quantiles": (0.1, 1.5)}, ValueError, r"quantiles must be a real array .*within \[0, 1\]"),
    ({"estimators": {"short": wrong_shape}}, ValueError,
     r"estimator 'short' must return per-trial errors of shape \(20,\); "
     r"got shape \(19,\) at \{'n': 10, 'epsilon': 1.0\}"),
    ({"estimators": {"nan": lambda d, p, r: np.full(d.shape[0], np.nan)}}, ValueError,
     r"estimator 'nan' returned non-finite errors"),
])
def test_run_sweep_rejects_bad_inputs(change, error, message):
    arguments = {"sample": normal_sample, "estimators": {"mean": sample_mean_error},
                 "grid": {"n": [10], "epsilon": [1.0]}, "data_parameters": ("n",), "trials": 20, "seed": 0}
    arguments.update(change)
    with pytest.raises(error, match=message):
        run_sweep(**arguments)


@pytest.mark.parametrize("arguments, message", [
    ({"budget": 0}, r"budget must be an integer >= 1; got 0"),
    ({"budget": 100, "min_trials": 50, "max_trials": 10}, r"min_trials must be <= max_trials=10; got 50"),
])
def test_trials_for_budget_rejects_bad_inputs(arguments, message):
    with pytest.raises(ValueError, match=message):
        trials_for_budget(**arguments)


def test_budget_rule_names_a_missing_size_parameter():
    with pytest.raises(ValueError, match=r"size_parameter 'n' must be a data parameter; got \['d'\]"):
        trials_for_budget(1000)({"d": 3})


def test_result_is_a_frozen_dataclass():
    result = sweep({"mean": sample_mean_error}, {"n": [10]}, trials=5)
    assert isinstance(result, SweepResult)
    with pytest.raises(AttributeError):
        result.seed = 1


def test_sweeps_of_method_subsets_join_into_the_sweep_of_all_methods():
    """Streams are keyed by method id and grid values, so joining subsets reproduces the joint sweep exactly."""
    methods = {"mean": sample_mean_error, "clipped laplace": clipped_laplace_error, "noise": laplace_noise}
    grid = {"n": [30, 300], "epsilon": [0.5, 1.0]}
    whole = sweep(methods, grid, trials=50)
    parts = [sweep({name: methods[name] for name in names}, grid, trials=50)
             for names in (["noise"], ["mean", "clipped laplace"])]
    joined = join_methods(parts, list(methods))
    assert joined.methods == whole.methods
    for name in ("median", "lower", "upper", "mean", "rmse", "trials"):
        np.testing.assert_array_equal(getattr(joined, name), getattr(whole, name))
    np.testing.assert_array_equal(joined.errors[2, 1, 0], whole.errors[2, 1, 0])


def test_a_summary_only_result_round_trips_and_joins_without_per_trial_errors(tmp_path):
    methods = {"mean": sample_mean_error, "noise": laplace_noise}
    grid = {"n": [30, 300], "epsilon": [1.0]}
    full = sweep({"mean": methods["mean"]}, grid, trials=20)
    sweep({"noise": methods["noise"]}, grid, trials=20).save(tmp_path / "noise.npz", per_trial=False)
    summary = SweepResult.load(tmp_path / "noise.npz")
    assert summary.errors is None and (tmp_path / "noise.npz").stat().st_size < 4000
    joined = join_methods([full, summary], ["noise", "mean"])
    whole = sweep(methods, grid, trials=20)
    assert joined.errors is None
    np.testing.assert_array_equal(joined.median, whole.median[::-1])


def test_join_refuses_different_grids_seeds_or_a_wrong_order():
    part = sweep({"mean": sample_mean_error}, {"n": [30], "epsilon": [1.0]}, trials=20)
    other_seed = sweep({"noise": laplace_noise}, {"n": [30], "epsilon": [1.0]}, trials=20, seed=8)
    other_grid = sweep({"noise": laplace_noise}, {"n": [40], "epsilon": [1.0]}, trials=20)
    for other in (other_seed, other_grid):
        with pytest.raises(ValueError, match="must share their parameters, grid, seed and quantiles"):
            join_methods([part, other], ["mean", "noise"])
    same = sweep({"noise": laplace_noise}, {"n": [30], "epsilon": [1.0]}, trials=20)
    with pytest.raises(ValueError, match="order must list each joined method once"):
        join_methods([part, same], ["mean"])


def test_a_lesson_sweep_on_a_two_worker_dask_cluster_equals_the_sequential_sweep():
    """Grid points run on Dask worker processes (the lesson's closures travel by cloudpickle): the same numbers,
    because every stream is keyed by the seed and the grid values, not by the worker or the order. Same draws, same
    trial counts; the statistics to 1e-12 relative, since numpy's vectorised sums may round the last bit differently
    in another process (memory alignment, BLAS threads: benchmarks/bench_dask.py saw 2.7e-15 on a large sweep)."""
    import distributed  # a test dependency (requirements-dev.txt); the library itself never needs it

    from dpcore.experiments import parallel_over
    from dpcore.lessons import noise_tradeoff
    params = dict(n_values=[100, 1000, 10_000], dimensions=[1, 8], epsilons=[0.5, 1.0], delta=1e-6, trials=300,
                  seed=5)
    sequential = noise_tradeoff.error_sweep(**params)
    # Worker processes are spawned, and a spawned process re-runs the parent's __main__ from its file: in this
    # suite that may be a page an earlier AppTest ran as __main__. The workers start with a __main__ without a file.
    running, sys.modules["__main__"] = sys.modules["__main__"], types.ModuleType("__main__")
    try:
        cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                           host="127.0.0.1")
    finally:
        sys.modules["__main__"] = running
    with cluster, distributed.Client(cluster) as client:
        with parallel_over(client.get_executor()):
            parallel = noise_tradeoff.error_sweep(**params)
        workers = len(client.scheduler_info()["workers"])
    assert workers == 2
    np.testing.assert_array_equal(parallel.trials, sequential.trials)
    for name in ("median", "lower", "upper", "mean", "rmse"):
        np.testing.assert_allclose(getattr(parallel, name), getattr(sequential, name), rtol=1e-12, atol=0)
    for kept, again in zip(parallel.errors.ravel(), sequential.errors.ravel()):
        np.testing.assert_allclose(kept, again, rtol=1e-12, atol=1e-300)

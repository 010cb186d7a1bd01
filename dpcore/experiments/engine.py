r"""The Monte Carlo engine: estimators x parameter grid x trials, vectorised over trials.

Every page's "error versus n, epsilon, k" figure comes from :func:`run_sweep`. A sweep takes

* ``sample(data_params, trials, rng)``: draws ``trials`` independent datasets **at once** (e.g. an
  array of shape ``(trials, n)``) from the parameters that change the data;
* ``estimators``: ``{name: estimator(data, params, rng) -> errors}``, each returning the per-trial
  error, shape ``(trials,)``, computed with array operations over the trial axis;
* ``grid``: the parameter axes, ``{"n": [...], "epsilon": [...]}``, of which ``data_parameters``
  (e.g. ``("n",)``) change the data and the others (epsilon, delta, ...) only the estimator.

**Vectorisation.** There is no Python loop over trials: one call of ``sample`` draws all datasets of
a data-parameter combination and one call of an estimator privatises all of them. The Python-level
work per grid point is constant (a dict, a generator, one estimator call, a few reductions), so a
sweep costs about what its random draws and array arithmetic cost (``benchmarks/bench_engine.py``).

**Common random numbers (CRN).** The data for a data-parameter combination are drawn once, from the
stream ``child_generator(seed, "data", *data values)``, and reused by every method at every value of
the other parameters. Each method's noise comes from ``child_generator(seed, "noise", method,
*data values)``, started afresh at each value of the other parameters: the same data and the same
noise draws at epsilon = 1 and epsilon = 2, so an epsilon animation moves only because epsilon moved,
and the difference between two methods is not blurred by independent data. Different methods get
independent noise; different data-parameter combinations get independent data. Streams are keyed by
values, not positions, so a sweep over ``n = [100, 1000]`` and one over ``n = [100]`` see the same data
at ``n = 100``. Datasets returned as NumPy arrays are made read-only, since every method shares them.

**Pieces.** A sweep may draw its trials in pieces of at most ``piece`` datasets, to bound its memory (all trials
of a large n at once can take gigabytes). Piece 0 uses the grid point's streams above, so a grid point with no more
trials than one piece is the same number for number as without pieces; piece i >= 1 has its own data and noise
streams, the keys above followed by ``"piece", i`` (independent of every other). The errors of the pieces are put
side by side, in order.

Summaries per grid point and method: median and a quantile band (default 10 %–90 %) of the errors,
their mean and root mean square, the number of trials, and the raw errors themselves.
"""

from __future__ import annotations

import contextlib
import csv
import functools
import io
import itertools
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..core.randomness import child_generator
from ..core.validation import Array, Constraint, InstanceOf, Integer, InvalidParameterError, validated

__all__ = ["SweepResult", "join_methods", "parallel_over", "run_sweep", "trials_for_budget"]


_STATISTICS = ("median", "lower", "upper", "mean", "rmse")


_RESERVED = ("method", *_STATISTICS, "trials")


_TRIAL_COUNT = Integer(low=1)


Sampler = Callable[[dict, int, np.random.Generator], Any]


Estimator = Callable[[Any, dict, np.random.Generator], np.ndarray]


@dataclass(frozen=True)
class _Trials(Constraint):
    """A number of trials (an integer >= 1) or a callable ``trials(data_params) -> int``."""

    def describe(self) -> str:
        return "an integer >= 1 or a callable data_params -> integer >= 1"

    def check(self, name: str, value: Any) -> int | Callable[[dict], int]:
        return value if callable(value) else _TRIAL_COUNT.check(name, value)

    def bad_values(self) -> list[Any]:
        return [0, -5, 2.5, "100", None]


@dataclass(frozen=True)
class _Executor(Constraint):
    """Where grid points run: anything with a ``map(function, iterable)`` method (or ``None`` when ``optional``)."""

    optional: bool = False

    def describe(self) -> str:
        return "an executor with a map(function, iterable) method" + (" or None" if self.optional else "")

    def check(self, name: str, value: Any) -> Any:
        if not ((value is None and self.optional) or callable(getattr(value, "map", None))):
            self.fail(name, value)
        return value

    def bad_values(self) -> list[Any]:
        return [1, "pool", object()] + ([] if self.optional else [None])


@dataclass(frozen=True, eq=False)
class SweepResult:
    r"""Summaries of a sweep, one entry per (method, grid point); arrays are read-only.

    Every array has shape ``(len(methods), *[len(grid[a]) for a in parameters])``.

    Attributes
    ----------
    parameters : tuple of str
        Grid axis names, in grid order.
    grid : dict of str to numpy.ndarray
        The values of each axis.
    methods : tuple of str
        Estimator names, in the order given.
    median, lower, upper : numpy.ndarray
        Median and the ``quantiles`` band of the per-trial errors.
    mean, rmse : numpy.ndarray
        Mean error and root mean squared error :math:`\sqrt{\tfrac1T\sum_t e_t^2}`.
    trials : numpy.ndarray of int
        Number of trials behind each entry.
    errors : numpy.ndarray of object or None
        The raw per-trial errors, each a 1-D float array; ``None`` for a result loaded from a file saved without
        them (:meth:`save` with ``per_trial=False``: the summaries only, a fraction of the size).
    quantiles : tuple of float
        The band's quantile levels ``(lower, upper)``.
    seed : int
        The seed the sweep ran with (with the grid, it determines every number here).
    """

    parameters: tuple[str, ...]
    grid: dict[str, np.ndarray]
    methods: tuple[str, ...]
    median: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    mean: np.ndarray
    rmse: np.ndarray
    trials: np.ndarray
    errors: np.ndarray | None
    quantiles: tuple[float, float]
    seed: int

    def records(self) -> list[dict]:
        """Tidy rows, method-major then grid points in C order.

        Each row is ``{"method": ..., <parameter>: value, ..., "median", "lower", "upper", "mean",
        "rmse", "trials"}`` with Python scalars.
        """
        rows = []
        for index in np.ndindex(self.median.shape):
            row: dict[str, Any] = {"method": self.methods[index[0]]}
            row.update((axis, self.grid[axis][i].item()) for axis, i in zip(self.parameters, index[1:]))
            row.update((name, float(getattr(self, name)[index])) for name in _STATISTICS)
            row["trials"] = int(self.trials[index])
            rows.append(row)
        return rows

    def to_csv(self) -> str:
        """The :meth:`records` as CSV text with a header row (floats written at full precision)."""
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, fieldnames=["method", *self.parameters, *_STATISTICS, "trials"],
                                lineterminator="\n")
        writer.writeheader()
        writer.writerows(self.records())
        return buffer.getvalue()

    def save(self, path: str | Path, *, per_trial: bool = True, **metadata: Any) -> None:
        """Write the result (and JSON-serialisable ``metadata``) to a compressed ``.npz`` file; with
        ``per_trial=False`` (or no :attr:`errors`) the summaries only, without the raw per-trial errors."""
        meta = dict(parameters=self.parameters, methods=self.methods, quantiles=self.quantiles, seed=self.seed,
                    grid={axis: self.grid[axis].tolist() for axis in self.parameters}, **metadata)
        raw = {}
        if per_trial and self.errors is not None:
            raw["errors"] = np.concatenate([np.asarray(e, dtype=float) for e in self.errors.ravel()])
        # allow_pickle named (numpy's default) so that a type checker does not match the arrays below to it
        np.savez_compressed(path, allow_pickle=True, meta=json.dumps(meta), **raw,
                            **{name: getattr(self, name) for name in (*_STATISTICS, "trials")})

    @classmethod
    def load(cls, path: str | Path) -> SweepResult:
        """Read a result written by :meth:`save` (its extra metadata is ignored here)."""
        with np.load(path) as stored:
            meta = json.loads(str(stored["meta"]))
            tables = {name: _frozen(stored[name]) for name in (*_STATISTICS, "trials")}
            flat = stored["errors"] if "errors" in stored.files else None
        errors = None
        if flat is not None:
            errors = np.empty(tables["trials"].shape, dtype=object)
            pieces = np.split(flat, np.cumsum(tables["trials"].ravel())[:-1])
            for index, piece in zip(np.ndindex(errors.shape), pieces):
                errors[index] = piece
            errors = _frozen(errors)
        return cls(parameters=tuple(meta["parameters"]), methods=tuple(meta["methods"]),
                   grid={axis: _frozen(np.asarray(values)) for axis, values in meta["grid"].items()},
                   errors=errors, quantiles=tuple(meta["quantiles"]), seed=meta["seed"], **tables)

    def curve(self, method: str, x: str, **fixed: Any) -> dict[str, np.ndarray]:
        """A 1-D slice along axis ``x``, every other axis fixed by value.

        Axes with a single value may be left out of ``fixed``. Numeric values match up to a relative
        tolerance of 1e-9 (so ``epsilon=1.0`` finds a grid value of ``1.0000000000000002``).

        Returns
        -------
        dict
            ``"x"``: the values of axis ``x``; ``"median"``, ``"lower"``, ``"upper"``, ``"mean"``,
            ``"rmse"``: the matching summaries along that axis.
        """
        if method not in self.methods:
            raise InvalidParameterError(f"method must be one of {self.methods}; got {method!r}")
        if x not in self.parameters:
            raise InvalidParameterError(f"x must be one of the grid axes {self.parameters}; got {x!r}")
        unknown = set(fixed) - set(self.parameters) - {x}
        if unknown or x in fixed:
            raise InvalidParameterError(f"fixed must name grid axes other than x={x!r}; got {sorted(fixed)}")
        index: list[Any] = [self.methods.index(method)]
        for axis in self.parameters:
            if axis == x:
                index.append(slice(None))
            elif axis in fixed:
                index.append(_position(axis, self.grid[axis], fixed[axis]))
            elif self.grid[axis].size == 1:
                index.append(0)
            else:
                raise InvalidParameterError(f"curve along {x!r} needs a value for axis {axis!r}, one of "
                                            f"{self.grid[axis]}")
        where = tuple(index)
        return {"x": self.grid[x], **{name: getattr(self, name)[where] for name in _STATISTICS}}


def _position(axis: str, values: np.ndarray, value: Any) -> int:
    """Index of ``value`` on a grid axis (numbers up to a relative tolerance of 1e-9)."""
    if np.issubdtype(values.dtype, np.number) and isinstance(value, (int, float, np.number)):
        hits = np.flatnonzero(np.isclose(values, value, rtol=1e-9, atol=0.0))
    else:
        hits = np.flatnonzero(values == value)
    if hits.size == 0:
        raise InvalidParameterError(f"{axis} must be one of the grid values {values.tolist()}; got {value!r}")
    return int(hits[0])


def _check_grid(grid: Mapping[str, Sequence]) -> dict[str, list]:
    """Grid axes as lists of Python scalars, after checking names and values."""
    if not isinstance(grid, Mapping) or not grid:
        raise InvalidParameterError(f"grid must be a non-empty mapping of axis name -> values; got {grid!r}")
    levels = {}
    for axis, values in grid.items():
        if not isinstance(axis, str) or axis in _RESERVED:
            raise InvalidParameterError(f"grid axis names must be strings other than {_RESERVED}; got {axis!r}")
        array = np.asarray(values)
        if array.ndim != 1 or array.size == 0:
            raise InvalidParameterError(f"grid axis {axis!r} must be a non-empty 1-D sequence; got {values!r}")
        levels[axis] = array.tolist()
        if len(set(levels[axis])) != array.size:
            raise InvalidParameterError(f"grid axis {axis!r} must not repeat values; got {levels[axis]}")
    return levels


def _check_callables(sample: Sampler, estimators: Mapping[str, Estimator]) -> None:
    if not callable(sample):
        raise InvalidParameterError(f"sample must be a callable sample(data_params, trials, rng); got {sample!r}")
    if not isinstance(estimators, Mapping) or not estimators:
        raise InvalidParameterError(f"estimators must be a non-empty mapping of name -> estimator; got {estimators!r}")
    for name, estimator in estimators.items():
        if not isinstance(name, str) or not callable(estimator):
            raise InvalidParameterError(f"estimators must map names (str) to callables estimator(data, params, rng); "
                                        f"got {name!r}: {estimator!r}")


def _split_axes(axes: tuple[str, ...], data_parameters: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(data axes, other axes), each in grid order."""
    if isinstance(data_parameters, str) or not isinstance(data_parameters, Sequence):
        raise InvalidParameterError("data_parameters must be a sequence of grid axis names, e.g. ('n',); got "
                                    f"{data_parameters!r}")
    missing = [name for name in data_parameters if name not in axes]
    if missing:
        raise InvalidParameterError(f"data_parameters must be grid axes {axes}; got {missing} not in the grid")
    return (tuple(a for a in axes if a in data_parameters), tuple(a for a in axes if a not in data_parameters))


def _check_quantiles(quantiles: Sequence[float]) -> tuple[float, float]:
    levels = np.asarray(quantiles, dtype=float)
    if levels.shape != (2,) or not levels[0] < levels[1]:
        raise InvalidParameterError(f"quantiles must be two increasing levels in [0, 1], e.g. (0.1, 0.9); "
                                    f"got {levels.tolist()}")
    return float(levels[0]), float(levels[1])


def _read_only(data: Any) -> Any:
    """Freeze the arrays of a dataset shared by every method and grid point."""
    for part in data if isinstance(data, tuple) else (data,):
        if isinstance(part, np.ndarray):
            part.flags.writeable = False
    return data


def _checked_errors(method: str, params: dict, errors: Any, trials: int) -> np.ndarray:
    errors = np.asarray(errors, dtype=float)
    if errors.shape != (trials,):
        raise InvalidParameterError(f"estimator {method!r} must return per-trial errors of shape ({trials},); "
                                    f"got shape {errors.shape} at {params}")
    if not np.all(np.isfinite(errors)):
        raise InvalidParameterError(f"estimator {method!r} returned non-finite errors at {params}")
    return errors


def _summarise(block: np.ndarray, quantiles: tuple[float, float]) -> dict[str, np.ndarray]:
    """Statistics of each row of ``block`` (grid points x trials)."""
    lower, median, upper = np.quantile(block, (quantiles[0], 0.5, quantiles[1]), axis=1)
    return {"median": median, "lower": lower, "upper": upper, "mean": block.mean(axis=1),
            "rmse": np.sqrt(np.einsum("ij,ij->i", block, block) / block.shape[1])}


def _trial_count(trials: int | Callable[[dict], int], data_params: dict) -> int:
    count = trials(data_params) if callable(trials) else trials
    return _TRIAL_COUNT.check(f"trials({data_params})", count)


def _error_block(method: str, estimator: Estimator, data: Any, points: list[dict], noise_key: tuple,
                 count: int) -> np.ndarray:
    """One method's errors at the grid points sharing a dataset, shape (points, count), read-only.

    Each point gets a freshly built generator on the same noise stream (common random numbers). Built,
    not rewound: an estimator that splits its generator (``Generator.spawn``) gets the same children
    at every point too, which restoring a saved bit-generator state would not give.
    """
    block = np.empty((len(points), count))
    for row, params in zip(block, points):
        row[:] = _checked_errors(method, params, estimator(data, params, child_generator(*noise_key)), count)
    block.flags.writeable = False
    return block


def _store(tables: dict[str, np.ndarray], target: tuple, block: np.ndarray, quantiles: tuple[float, float]) -> None:
    """Write a block's summaries and raw errors at ``target`` (method, data indices) of every table."""
    other_shape = tables["trials"].shape[len(target):]
    for name, values in _summarise(block, quantiles).items():
        tables[name][target] = values.reshape(other_shape)
    tables["trials"][target] = block.shape[1]
    for row, other_index in zip(block, np.ndindex(other_shape)):
        tables["errors"][target + other_index] = row


def _frozen(array: np.ndarray) -> np.ndarray:
    array.flags.writeable = False
    return array


def _data_point(sample: Sampler, estimators: Mapping[str, Estimator], seed: int,
                task: tuple[dict, list[dict], int, int]) -> list[np.ndarray]:
    """Every method's error block at one data-parameter combination (the unit of parallel work): a pure function
    of the seed and the grid values, so any worker computes the same numbers. The trials are drawn in pieces of at
    most ``piece`` datasets (the module docstring), the pieces' errors put side by side."""
    data_params, points, count, piece = task
    blocks: list[list[np.ndarray]] = [[] for _ in estimators]
    for index, start in enumerate(range(0, count, piece)):
        size = min(piece, count - start)
        key = (*data_params.values(), *(("piece", index) if index else ()))  # piece 0: the point's own streams
        data = _read_only(sample(data_params, size, child_generator(seed, "data", *key)))
        for pieces, (method, estimator) in zip(blocks, estimators.items()):
            pieces.append(_error_block(method, estimator, data, points, (seed, "noise", method, *key), size))
        del data  # before the next piece is drawn: at most one piece's datasets in memory
    return [_frozen(np.concatenate(pieces, axis=1)) if len(pieces) > 1 else pieces[0] for pieces in blocks]


class _Sequential:
    """The default executor: the grid points one after another, in this thread."""

    @staticmethod
    def map(function: Callable, tasks: Sequence) -> Iterator:
        return map(function, tasks)


_DEFAULT_EXECUTOR: list = [_Sequential()]


def _executor(executor: Any) -> Any:
    return _DEFAULT_EXECUTOR[-1] if executor is None else executor


@contextlib.contextmanager
@validated(executor=_Executor())
def parallel_over(executor: Any) -> Iterator[None]:
    """Run every :func:`run_sweep` inside the block on ``executor`` (anything with ``map(function, iterable)``
    returning results in order: a ``concurrent.futures`` executor, or a Dask cluster's
    ``distributed.Client(...).get_executor()``), including the sweeps a lesson runs internally.

    The numbers do not change: each grid point's streams are keyed by the seed and its values, never by where or
    in which order it runs (up to the last bit of numpy's vectorised sums, which another process may round
    differently). The sample and estimator functions must then be picklable by the executor (Dask uses
    cloudpickle, which also takes the lessons' closures).

    >>> from concurrent.futures import ThreadPoolExecutor
    >>> sweep = lambda: run_sweep(lambda p, t, rng: rng.standard_normal((t, p["n"])),
    ...                           {"mean": lambda x, p, rng: np.abs(x.mean(axis=1))}, {"n": [10, 100]},
    ...                           data_parameters=("n",), trials=50, seed=3)
    >>> with ThreadPoolExecutor(2) as pool, parallel_over(pool):
    ...     parallel = sweep()
    >>> bool((parallel.median == sweep().median).all())
    True
    """
    _DEFAULT_EXECUTOR.append(executor)
    try:
        yield
    finally:
        _DEFAULT_EXECUTOR.remove(executor)


@validated(trials=_Trials(), seed=Integer(low=0), quantiles=Array(ndim=(1,), min_size=2, low=0, high=1),
           executor=_Executor(optional=True), piece=_Trials())
def run_sweep(sample: Sampler, estimators: Mapping[str, Estimator], grid: Mapping[str, Sequence], *,
              data_parameters: Sequence[str], trials: int | Callable[[dict], int], seed: int,
              quantiles=(0.1, 0.9), executor: Any = None, piece: int | Callable[[dict], int] | None = None
              ) -> SweepResult:
    r"""Run every estimator at every grid point on ``trials`` simulated datasets (CRN, vectorised).

    Parameters
    ----------
    sample : callable
        ``sample(data_params, trials, rng) -> data``: ``trials`` independent datasets drawn at once
        from ``rng``; ``data_params`` holds only the ``data_parameters`` axes.
    estimators : mapping of str to callable
        ``estimator(data, params, rng) -> errors``: the per-trial error, shape ``(trials,)``, of the
        estimator run on every dataset; ``params`` holds every axis. Must not modify ``data``.
    grid : mapping of str to sequence
        The parameter axes, in order (e.g. ``{"n": [100, 1000], "epsilon": [0.5, 1, 2]}``).
    data_parameters : sequence of str
        The axes that change the data (e.g. ``("n",)``); the others change only the estimators.
    trials : int or callable
        Trials per grid point, or ``trials(data_params) -> int`` (see :func:`trials_for_budget`).
    seed : int
        Non-negative seed of every stream (see the module docstring for the stream keys).
    quantiles : pair of float
        Levels of the band reported as ``lower`` and ``upper``.
    executor : optional
        Where the grid points run (each data-parameter combination is one task): anything with
        ``map(function, iterable)``, e.g. a Dask ``Client(...).get_executor()``; default: the one set by
        :func:`parallel_over`, else sequentially here. The result is the same, number for number.
    piece : int or callable, optional
        At most this many datasets in memory at once (or ``piece(data_params) -> int``, e.g. so that trials × n
        stays under a budget): the trials are drawn in pieces (see the module docstring). Default: all at once.
        A grid point with no more trials than one piece gives the same numbers as without pieces.

    Returns
    -------
    SweepResult

    Raises
    ------
    InvalidParameterError
        On a bad grid, unknown data parameters, non-callables, a trial count below 1, or an
        estimator returning the wrong shape or non-finite errors (naming the method and shapes).

    Examples
    --------
    The sample mean of :math:`\mathcal N(0,1)` data, median absolute error :math:`\approx 0.6745/\sqrt n`:

    >>> result = run_sweep(lambda p, t, rng: rng.standard_normal((t, p["n"])),
    ...                    {"mean": lambda x, p, rng: np.abs(x.mean(axis=1))},
    ...                    {"n": [100, 400]}, data_parameters=("n",), trials=2000, seed=1)
    >>> np.round(result.median[0] * np.sqrt([100, 400]), 1)
    array([0.7, 0.7])
    """
    quantiles = _check_quantiles(quantiles)
    levels = _check_grid(grid)
    _check_callables(sample, estimators)
    axes = tuple(levels)
    data_axes, other_axes = _split_axes(axes, data_parameters)
    layout = data_axes + other_axes
    shape = (len(estimators), *(len(levels[a]) for a in layout))
    tables = {**{name: np.empty(shape) for name in _STATISTICS},
              "trials": np.empty(shape, dtype=int), "errors": np.empty(shape, dtype=object)}

    indices = list(np.ndindex(shape[1:1 + len(data_axes)]))
    tasks = []
    for data_index in indices:
        data_params = {a: levels[a][i] for a, i in zip(data_axes, data_index)}
        points = [{**data_params, **dict(zip(other_axes, values))}
                  for values in itertools.product(*(levels[a] for a in other_axes))]
        count = _trial_count(trials, data_params)
        tasks.append((data_params, points, count, count if piece is None else _trial_count(piece, data_params)))
    run = functools.partial(_data_point, sample, estimators, seed)
    for data_index, blocks in zip(indices, _executor(executor).map(run, tasks)):
        for m, block in enumerate(blocks):
            _store(tables, (m, *data_index), block, quantiles)

    order = (0, *(1 + layout.index(a) for a in axes))
    return SweepResult(parameters=axes, grid={a: _frozen(np.asarray(levels[a])) for a in axes},
                       methods=tuple(estimators),
                       **{name: _frozen(table.transpose(order)) for name, table in tables.items()},
                       quantiles=quantiles, seed=seed)


@validated(results=InstanceOf((list, tuple), "a list of SweepResult"),
           order=InstanceOf((list, tuple), "a list of method ids"))
def join_methods(results: Sequence[SweepResult], order: Sequence[str]) -> SweepResult:
    """One result with the methods of several sweeps over the same grid and seed, in ``order``.

    Because every method's noise stream is keyed by its id and the data by the grid values (see the module
    docstring), sweeps of disjoint method subsets joined here equal, number for number, one sweep of all of them:
    a lesson can then recompute only the methods that a changed parameter touches (e.g. only the one method that
    uses δ).
    """
    first = results[0]
    for other in results[1:]:
        same = (other.parameters == first.parameters and other.seed == first.seed
                and other.quantiles == first.quantiles
                and all(np.array_equal(other.grid[a], first.grid[a]) for a in first.parameters))
        if not same:
            raise InvalidParameterError("results must share their parameters, grid, seed and quantiles to be joined")
    methods = [method for result in results for method in result.methods]
    if sorted(methods) != sorted(order) or len(set(methods)) != len(methods):
        raise InvalidParameterError(f"order must list each joined method once; got {list(order)} for methods {methods}")
    rows = [(result, result.methods.index(method)) for method in order for result in results
            if method in result.methods]
    per_trial = all(result.errors is not None for result in results)

    def stacked(name: str) -> np.ndarray:
        return _frozen(np.stack([getattr(result, name)[index] for result, index in rows]))

    tables = {name: stacked(name) for name in (*_STATISTICS, "trials")}
    return SweepResult(parameters=first.parameters, grid=first.grid, methods=tuple(order), **tables,
                       errors=stacked("errors") if per_trial else None, quantiles=first.quantiles, seed=first.seed)


@validated(budget=Integer(low=1), max_trials=Integer(low=1), min_trials=Integer(low=1))
def trials_for_budget(budget: int, *, size_parameter: str = "n", max_trials: int = 1000,
                      min_trials: int = 20) -> Callable[[dict], int]:
    r"""A trial count that keeps ``trials * n`` near ``budget``: ``clip(budget // n, min_trials, max_trials)``.

    Pass the result as ``run_sweep(..., trials=trials_for_budget(10**6))`` to spend about the same
    number of random draws at every sample size: many trials at small ``n``, fewer (never below
    ``min_trials``) at large ``n``.

    Examples
    --------
    >>> rule = trials_for_budget(10**6)
    >>> rule({"n": 100}), rule({"n": 10**4}), rule({"n": 10**6})
    (1000, 100, 20)
    """
    if min_trials > max_trials:
        raise InvalidParameterError(f"min_trials must be <= max_trials={max_trials}; got {min_trials}")

    def trials(data_params: dict) -> int:
        if size_parameter not in data_params:
            raise InvalidParameterError(f"size_parameter {size_parameter!r} must be a data parameter; got "
                                        f"{sorted(data_params)}")
        return max(min_trials, min(max_trials, budget // int(data_params[size_parameter])))

    return trials


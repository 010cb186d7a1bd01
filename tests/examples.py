"""The valid example calls of the library's public functions: where they are, how they are gathered, and the example
objects the calls of several modules share.

The test module of each library module, ``tests/<folder>/test_<module>.py`` for ``dpcore/<folder>/<module>.py``
(``tests/test_<module>.py`` for a top-level one, such as ``dpcore/audit.py``), holds ``VALID_CALLS``: one valid call
(its keyword arguments) for each public function of that module, by function name. :func:`valid_calls` gathers them,
keyed ``<folder>.<module>.<function>``, for ``tests/test_public_functions.py``, which swaps bad values into each call,
and fails for a public function without one.
"""

import importlib
from pathlib import Path

from dpcore.experiments import load_or_run
from dpcore.lessons import partition_rounds

ROOT = Path(__file__).resolve().parents[1]
STORE = ROOT / "assets" / "precomputed"


def stored(function, **params):
    """A page's sweep as the app serves it at the defaults: stored in ``assets/precomputed`` (or computed)."""
    return load_or_run(STORE, function, **params)


# The arguments of one audit-lab audit (the lesson's functions and its figures).
AUDIT = dict(mechanism="laplace-count", letter="A", epsilon=1.0, draws=1_000, confidence=0.95, seed=0)

# A small partitioning-rounds sweep (joined by the engine, read by the lesson).
PARTITION_SWEEP = partition_rounds.error_sweep([1e3, 1e4, 1e5], [16, 64], [1.0], ["log-uniform"], 2, 0, mc_samples=10)


def tests_of(module: str) -> str:
    """The test module that holds ``module``'s valid calls: ``estimators.selection`` ->
    ``tests.estimators.test_selection``, ``audit`` -> ``tests.test_audit``."""
    package, _, name = module.rpartition(".")
    return ".".join(["tests", *([package] if package else []), f"test_{name}"])


def valid_calls(modules) -> dict[str, dict]:
    """``{"<module>.<function>": call}`` from the ``VALID_CALLS`` of each of ``modules``' test modules (a module whose
    test module is missing contributes nothing)."""
    calls = {}
    for module in modules:
        try:
            tests = importlib.import_module(tests_of(module))
        except ModuleNotFoundError as missing:  # no such test module (or folder); any other import error is raised
            if not f"{tests_of(module)}.".startswith(f"{missing.name}."):
                raise
            continue
        calls.update({f"{module}.{name}": call for name, call in getattr(tests, "VALID_CALLS", {}).items()})
    return calls

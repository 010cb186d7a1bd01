"""Every result type says which fields the guarantee covers, which are public and which are non-private diagnostics.

The roles are dataclass field metadata (:func:`dpcore.core.guarantees.privacy_roles`); the docstrings say the same in
words. A "public" field must depend only on the parameters: run the estimator on two different datasets with the same
seed and the public fields must be identical. A "diagnostic" must be named as not private in the docstring, so a
reader of the library knows not to publish it.
"""

import dataclasses
import importlib
import inspect
import pkgutil
from importlib import import_module

import numpy as np
import pytest

import dpcore.estimators
from dpcore.core.guarantees import ROLES, privacy_roles, public, released
from dpcore.estimators import heavy_tailed_mean, partition_rounds, sdp, selection, truncated_mle

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "released": dict(),
    "public": dict(),
    "diagnostic": dict(),
    "privacy_roles": dict(result_type=importlib.import_module("dpcore.estimators.selection").Selection),
}


def result_types():
    """The public dataclasses of dpcore.estimators, except the hypothesis families (inputs, not results)."""
    for info in pkgutil.iter_modules(dpcore.estimators.__path__):
        module = import_module(f"dpcore.estimators.{info.name}")
        for name, value in inspect.getmembers(module, inspect.isclass):
            if (dataclasses.is_dataclass(value) and value.__module__ == module.__name__ and not name.startswith("_")
                    and not issubclass(value, selection.HypothesisClass)):
                yield value


RESULT_TYPES = sorted(result_types(), key=lambda cls: cls.__name__)


def test_the_result_types_are_found():
    assert {cls.__name__ for cls in RESULT_TYPES} == {
        "BlockLayout", "BlockRelease", "IterativeResult", "MeanEstimate", "NoiseCalibration", "PartitionResult",
        "PartitionRound", "Selection", "TruncatedEstimate"}


@pytest.mark.parametrize("result_type", RESULT_TYPES, ids=lambda cls: cls.__name__)
def test_every_field_has_a_privacy_role_and_diagnostics_are_named_in_words(result_type):
    roles = privacy_roles(result_type)
    assert set(roles.values()) <= set(ROLES)
    doc = inspect.getdoc(result_type)
    for name, role in roles.items():
        if role == "diagnostic":
            assert name in doc and "not private" in doc, f"{result_type.__name__}.{name}"
    if "guarantee" in roles:
        assert roles["guarantee"] == "public"


def test_an_unlabelled_field_is_refused():
    @dataclasses.dataclass
    class Half:
        estimate: float = released()
        count: int = 0

    with pytest.raises(TypeError, match=r"Half does not label the privacy role of \['count'\]"):
        privacy_roles(Half)
    assert privacy_roles(dataclasses.make_dataclass("Ok", [("scale", float, public())])) == {"scale": "public"}


def public_fields(result) -> dict:
    roles = privacy_roles(type(result))
    return {name: getattr(result, name) for name, role in roles.items() if role == "public"}


def assert_same(left, right):
    assert left.keys() == right.keys()
    for name in left:
        a, b = left[name], right[name]
        if dataclasses.is_dataclass(a):
            assert_same(public_fields(a), public_fields(b))
        else:
            np.testing.assert_array_equal(a, b, err_msg=name)


rng = np.random.default_rng(0)
DATA = {  # two different datasets per estimator: the public fields may not tell them apart
    "private_mean_1d": [1.0 + rng.standard_t(3, 2_000), -2.0 + rng.standard_t(3, 2_000)],
    "truncated_mle_mean": [0.8 + rng.standard_normal(2_000), -0.3 + rng.standard_normal(2_000)],
    "private_select": [rng.normal(0.0, 1, 500), rng.normal(0.6, 1, 500)],
    "partition_rounds": [(rng.random((2_000, 6)) < [0.4, 0.2, 0.05, 0.01, 0.3, 0.0]).astype(float),
                         (rng.random((2_000, 6)) < [0.0, 0.1, 0.45, 0.02, 0.2, 0.1]).astype(float)],
    "iterative_mean_2d": [rng.normal([1.0, 0.0], 1, (400, 2)), rng.normal([-1.0, 2.0], 1, (400, 2))],
}
FAMILY = selection.GaussianFamily(np.linspace(-1, 1, 9), np.ones(9))
RUNS = {
    "private_mean_1d": lambda x: heavy_tailed_mean.private_mean_1d(x, 1.0, 3.0, 50.0, rng=7, alpha=0.1, groups=3),
    "truncated_mle_mean": lambda x: truncated_mle.truncated_mle_mean(x, 1.0, 1e-6, 0.0, 1.5, rng=7),
    "private_select": lambda x: selection.private_select(FAMILY, x, 1.0, rng=7),
    "partition_rounds": lambda x: partition_rounds.partition_rounds(x, 1.0, rng=7),
    "iterative_mean_2d": lambda x: sdp.iterative_mean_2d(x, 2.0, buckets=8, steps=2, rng=7, radii_count=2, angles=8),
}


@pytest.mark.parametrize("estimator", sorted(RUNS))
def test_public_fields_do_not_depend_on_the_data(estimator):
    first, second = (RUNS[estimator](x) for x in DATA[estimator])
    assert_same(public_fields(first), public_fields(second))
    roles = privacy_roles(type(first))
    released_differ = [name for name, role in roles.items() if role == "released"
                       and not dataclasses.is_dataclass(getattr(first, name))
                       and not isinstance(getattr(first, name), tuple)
                       and not np.array_equal(getattr(first, name), getattr(second, name), equal_nan=True)]
    assert released_differ, "the two datasets should give different releases (else the check above proves nothing)"

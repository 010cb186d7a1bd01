"""Every public dpcore function rejects bad input with InvalidParameterError naming the parameter.

The functions and their constraints are discovered from the modules (``@validated`` keeps them on
``func.__constraints__``), so a new public function cannot slip through: it must declare constraints and have a valid
example call in the ``VALID_CALLS`` of its module's test module (``tests/<folder>/test_<module>.py``, gathered by
``tests.examples.valid_calls``), or the first two tests fail.
"""

import importlib
import inspect
import pkgutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dpcore
from dpcore.core.validation import Integer, InvalidParameterError, Real
from tests.examples import valid_calls

# Every module of the library (packages only re-export their modules' names), so a new module is covered at once.
MODULES = sorted(
    info.name.removeprefix("dpcore.")
    for info in pkgutil.walk_packages(dpcore.__path__, "dpcore.")
    if not info.ispkg and info.name != "dpcore.core.validation"
)  # the validator itself

# One valid call per public function, from the test module of its library module (tests/examples.py says where): the
# baseline each bad value is swapped into.
VALID_CALLS = valid_calls(MODULES)


def public_functions():
    """(qualified name, function) for every public function of the library modules."""
    found = {}
    for module_name in MODULES:
        module = importlib.import_module(f"dpcore.{module_name}")
        for name in getattr(module, "__all__", ()):
            item = getattr(module, name)
            if callable(item) and not isinstance(item, type):
                found[f"{module_name}.{name}"] = item
    return found


FUNCTIONS = public_functions()
CASES = [(name, param) for name, func in FUNCTIONS.items() for param in getattr(func, "__constraints__", {})]


def test_every_public_function_declares_its_constraints():
    """Every public function with parameters declares them (one without, e.g. a context manager, has none to
    declare; an empty ``@validated()`` is refused)."""
    undeclared = [name for name, func in FUNCTIONS.items()
                  if inspect.signature(func).parameters and not hasattr(func, "__constraints__")]
    assert undeclared == []
    empty = [name for name, func in FUNCTIONS.items() if getattr(func, "__constraints__", None) == {}]
    assert empty == []


def test_every_public_function_has_a_valid_example_call():
    assert sorted(set(FUNCTIONS) - set(VALID_CALLS)) == []


@pytest.mark.parametrize("name", sorted(VALID_CALLS))
def test_valid_example_call_succeeds(name):
    FUNCTIONS[name](**VALID_CALLS[name])


def bad_values(constraint):
    """A strategy of values ``constraint`` must reject: its own list plus out-of-range draws."""
    listed = st.sampled_from(constraint.bad_values())
    if isinstance(constraint, Real) and constraint.low is not None:
        edge = st.floats(
            max_value=constraint.low, exclude_max=not constraint.low_open, allow_nan=False, allow_infinity=False
        )
        return st.one_of(listed, edge)
    if isinstance(constraint, Real) and constraint.high is not None:
        edge = st.floats(
            min_value=constraint.high, exclude_min=not constraint.high_open, allow_nan=False, allow_infinity=False
        )
        return st.one_of(listed, edge)
    if isinstance(constraint, Integer) and constraint.low is not None:
        return st.one_of(listed, st.integers(max_value=constraint.low - 1))
    return listed


@pytest.mark.parametrize("name, param", CASES)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_bad_input_is_rejected_with_a_message_naming_the_parameter(name, param, data):
    func = FUNCTIONS[name]
    none_is_default = inspect.signature(func).parameters[param].default is None
    bad = data.draw(
        bad_values(func.__constraints__[param]).filter(lambda v: not (v is None and none_is_default)), label=param
    )
    with pytest.raises(InvalidParameterError) as caught:
        func(**{**VALID_CALLS[name], param: bad})
    assert param in str(caught.value)


def test_every_explicit_parameter_check_raises_the_parameter_error():
    """dpcore raises InvalidParameterError (a ValueError and a TypeError) for a bad parameter, in its constraints and
    in every explicit check, so that the app shows exactly those as messages and a bug (any other error) fails."""
    assert issubclass(InvalidParameterError, ValueError) and issubclass(InvalidParameterError, TypeError)
    plain = [f"{path.relative_to(Path(dpcore.__file__).parent)}:{number}"
             for path in sorted(Path(dpcore.__file__).parent.rglob("*.py"))
             for number, line in enumerate(path.read_text().splitlines(), 1)
             if "raise ValueError(" in line
             or ("raise TypeError(" in line and "does not label the privacy" not in line)]
    assert plain == []

"""Every public function of the library's algorithmic core documents its parameters in a numpydoc docstring.

The core is ``dpcore.core``, ``dpcore.mechanisms``, ``dpcore.accounting``, ``dpcore.audit`` and ``dpcore.estimators``,
with the data layer (``dpcore.datasets``, ``dpcore.columns``): the packages ruff's ``D`` rules (numpy convention)
check (pyproject.toml). Ruff checks that a docstring exists and how
it is laid out, but not that its ``Parameters`` section lists every parameter; this test does. Public = named in the
module's ``__all__``. For each such function:

* its ``Parameters`` section (a ``Parameters`` header over a dashed line) lists every parameter of
  ``inspect.signature`` (``*args`` / ``**kwargs``-style ones may be left out), each as ``name : type`` or
  ``name, other : type`` followed by an indented description, and names nothing the signature lacks;
* a function with no parameters needs no section;
* it has a ``Returns`` section unless it is annotated to return None.
"""

import importlib
import inspect
import pkgutil
import re

import pytest

PACKAGES = ["dpcore.core", "dpcore.mechanisms", "dpcore.estimators", "dpcore.datasets"]
MODULES = ["dpcore.accounting", "dpcore.audit", "dpcore.columns", "dpcore.one_run_audit"]


def _modules() -> list[str]:
    names = list(MODULES)
    for package in PACKAGES:
        names.append(package)
        names += [info.name for info in pkgutil.walk_packages(importlib.import_module(package).__path__, package + ".")]
    return sorted(set(names))


def _public_functions() -> dict[str, object]:
    """Qualified name -> function, for every function named in an ``__all__`` (re-exports counted once)."""
    found: dict[int, tuple[str, object]] = {}
    for module_name in _modules():
        module = importlib.import_module(module_name)
        for name in getattr(module, "__all__", []):
            obj = getattr(module, name)
            if inspect.isfunction(obj):
                qualified = f"{obj.__module__}.{obj.__qualname__}"
                found.setdefault(id(obj), (qualified, obj))
    return dict(sorted(found.values()))


FUNCTIONS = _public_functions()

_HEADER = re.compile(r"^(\S.*?)\s*$")
_DASHES = re.compile(r"^-{3,}\s*$")


def sections(docstring: str) -> dict[str, list[str]]:
    """Section title -> its lines (dedented docstring; a title is an unindented line over a dashed line)."""
    lines = inspect.cleandoc(docstring).splitlines()
    found: dict[str, list[str]] = {}
    current = None
    index = 0
    while index < len(lines):
        line = lines[index]
        if index + 1 < len(lines) and _HEADER.match(line) and _DASHES.match(lines[index + 1]):
            current = line.strip()
            found[current] = []
            index += 2
            continue
        if current is not None:
            found[current].append(line)
        index += 1
    return found


def documented_parameters(docstring: str) -> tuple[list[str], list[str]]:
    """The names in the ``Parameters`` section, and its entries that are malformed (no ``: type`` or no meaning)."""
    entries = sections(docstring).get("Parameters", [])
    names, malformed = [], []
    for position, line in enumerate(entries):
        if not line.strip() or line[0].isspace():
            continue  # a blank line or a description line
        head, colon, kind = line.partition(" : ")
        following = entries[position + 1] if position + 1 < len(entries) else ""
        if not colon or not kind.strip() or not (following.strip() and following[0].isspace()):
            malformed.append(line)
        names += [name.strip().lstrip("*") for name in head.split(",")]
    return names, malformed


def _expected(func) -> tuple[set[str], set[str]]:
    """(parameters that must be documented, every parameter name that may be)."""
    parameters = inspect.signature(func).parameters.values()
    required = {p.name for p in parameters if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD) and p.name != "self"}
    return required, {p.name for p in parameters}


def test_the_core_has_public_functions():
    assert len(FUNCTIONS) > 80  # the discovery found the modules (a broken import would make every test vacuous)


@pytest.mark.parametrize("qualified", list(FUNCTIONS))
def test_every_parameter_is_documented(qualified):
    func = FUNCTIONS[qualified]
    required, allowed = _expected(func)
    docstring = func.__doc__ or ""
    names, malformed = documented_parameters(docstring)
    if not required and not names:
        return
    assert "Parameters" in sections(docstring), f"{qualified}: no Parameters section"
    assert not malformed, f"{qualified}: entries without 'name : type' and a description: {malformed}"
    assert len(names) == len(set(names)), f"{qualified}: a parameter is documented twice: {names}"
    missing = sorted(required - set(names))
    unknown = sorted(set(names) - allowed)
    assert not missing, f"{qualified}: parameters not documented: {missing}"
    assert not unknown, f"{qualified}: documented but not in the signature: {unknown}"


@pytest.mark.parametrize("qualified", list(FUNCTIONS))
def test_every_result_is_documented(qualified):
    func = FUNCTIONS[qualified]
    if inspect.signature(func).return_annotation in (None, "None"):
        return
    assert "Returns" in sections(func.__doc__ or ""), f"{qualified}: no Returns section"


def test_the_parser_reads_numpydoc():
    docstring = """Summary.

    Parameters
    ----------
    x, y : float
        Two numbers.
    rng : None, int or numpy.random.Generator
        The seed.
    bad
    *key : hashable
        Parts of a key.

    Returns
    -------
    float
        A number.
    """
    names, malformed = documented_parameters(docstring)
    assert names == ["x", "y", "rng", "bad", "key"]
    assert malformed == ["bad"]
    assert list(sections(docstring)) == ["Parameters", "Returns"]

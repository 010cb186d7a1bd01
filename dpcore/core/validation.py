"""Declared parameter constraints, checked once at the library boundary.

Every public dpcore function declares what each argument may be with the :func:`validated` decorator::

    @validated(epsilon=Real(low=0, low_open=True), delta=Real(0, 1, low_open=True, high_open=True))
    def gaussian_sigma(l2_sensitivity, epsilon, delta): ...

A call with a bad value raises :class:`InvalidParameterError` (a ``ValueError`` and a ``TypeError``, so code that
catches either keeps working) whose message names the parameter, its allowed range and the value received; so does
every explicit parameter check in dpcore, and nothing else does. The declarations are
kept on the function (``func.__constraints__``) so the test suite can enumerate every public function
and feed each constrained parameter the bad values its constraint knows (:meth:`Constraint.bad_values`).
"""

from __future__ import annotations

import functools
import inspect
import math
import numbers
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ParamSpec, TypeVar

import numpy as np

__all__ = ["InvalidParameterError", "InvalidDataError", "Constraint", "Real", "Integer", "Choice", "Array", "Seed",
           "InstanceOf", "Text", "validated", "float_if_scalar", "check_same_length", "EPSILON", "DELTA", "RHO",
           "SENSITIVITY", "POSITIVE", "SEED", "TRIALS"]


class InvalidParameterError(ValueError, TypeError):
    """A dpcore function was called with a parameter outside its documented range or of the wrong type.

    The message names the parameter, what it may be and what it got. Both a ``ValueError`` and a ``TypeError`` (as
    scikit-learn's error of the same name), so callers that catch either keep working; the app shows this error, and
    only this one, as a message on the page.
    """


class InvalidDataError(InvalidParameterError):
    """A data file (a student's CSV) or a column of it cannot be used: too large, empty, not UTF-8 text, no numbers.

    The message says what is wrong in words a first-year student understands and what to do about it; it never quotes
    the file's cells. A subclass of :class:`InvalidParameterError`, so the app shows it as a message on the page.
    """


class Constraint:
    """What one parameter may be. Subclasses implement :meth:`check` and :meth:`bad_values`."""

    def check(self, name: str, value: Any) -> Any:
        """Return ``value`` (possibly normalised) or raise :class:`InvalidParameterError` naming ``name``."""
        raise NotImplementedError

    def describe(self) -> str:
        """The allowed range in words, as used in error messages."""
        raise NotImplementedError

    def bad_values(self) -> list[Any]:
        """Values this constraint must reject (used by the property tests)."""
        raise NotImplementedError

    def fail(self, name: str, value: Any) -> None:
        """Raise :class:`InvalidParameterError`: ``name`` must be :meth:`describe`; got ``value``."""
        raise InvalidParameterError(f"{name} must be {self.describe()}; got {value!r}")


def _is_real_scalar(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


@dataclass(frozen=True)
class Real(Constraint):
    """A finite real number in ``[low, high]`` (ends optionally open; ``None`` means unbounded).

    ``allow_inf=True`` additionally admits ``+inf`` (e.g. ``epsilon=inf`` for a noiseless reference).
    """

    low: float | None = None
    high: float | None = None
    low_open: bool = False
    high_open: bool = False
    allow_inf: bool = False

    def describe(self) -> str:
        """The range in words, e.g. ``a real number in (0, 1)`` or ``a real number > 0 (or inf)``."""
        if self.low is None and self.high is None:
            text = "a finite real number"
        elif self.high is None:
            text = f"a real number {'>' if self.low_open else '>='} {self.low:g}"
        elif self.low is None:
            text = f"a real number {'<' if self.high_open else '<='} {self.high:g}"
        else:
            left = "(" if self.low_open else "["
            right = ")" if self.high_open else "]"
            text = f"a real number in {left}{self.low:g}, {self.high:g}{right}"
        return text + (" (or inf)" if self.allow_inf else "")

    def check(self, name: str, value: Any) -> float:
        """Return ``value`` as a float (a 0-d array is unwrapped); fail on booleans, NaN and values out of range."""
        if isinstance(value, np.ndarray) and value.ndim == 0:
            value = value.item()
        if not _is_real_scalar(value):
            self.fail(name, value)
        value = float(value)
        if math.isnan(value) or (math.isinf(value) and not (self.allow_inf and value > 0)):
            self.fail(name, value)
        if self.low is not None and (value < self.low or (self.low_open and value == self.low)):
            self.fail(name, value)
        if self.high is not None and (value > self.high or (self.high_open and value == self.high)):
            self.fail(name, value)
        return value

    def bad_values(self) -> list[Any]:
        """NaN, a string, None, a bool, -inf (and +inf unless allowed), and values beyond each bound."""
        bad: list[Any] = [float("nan"), "1.0", None, True]
        if not self.allow_inf:
            bad.append(float("inf"))
        bad.append(float("-inf"))
        if self.low is not None:
            bad.append(self.low - 1.0 - abs(self.low))
            if self.low_open:
                bad.append(self.low)
        if self.high is not None:
            bad.append(self.high + 1.0 + abs(self.high))
            if self.high_open:
                bad.append(self.high)
        return bad


@dataclass(frozen=True)
class Integer(Constraint):
    """An integer in ``[low, high]`` (``None`` means unbounded). Integral floats such as ``1e4`` are accepted."""

    low: int | None = None
    high: int | None = None

    def describe(self) -> str:
        """The range in words, e.g. ``an integer >= 1`` or ``an integer in [1, 64]``."""
        if self.high is None:
            return f"an integer >= {self.low}" if self.low is not None else "an integer"
        if self.low is None:
            return f"an integer <= {self.high}"
        return f"an integer in [{self.low}, {self.high}]"

    def check(self, name: str, value: Any) -> int:
        """Return ``value`` as an int (``1e4`` passes); fail on booleans, fractions, NaN and values out of range."""
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            self.fail(name, value)
        if not math.isfinite(float(value)) or float(value) != int(value):
            self.fail(name, value)
        value = int(value)
        if (self.low is not None and value < self.low) or (self.high is not None and value > self.high):
            self.fail(name, value)
        return value

    def bad_values(self) -> list[Any]:
        """NaN, 2.5, a string, None, a bool, and the integers just beyond each bound."""
        bad: list[Any] = [float("nan"), 2.5, "3", None, True]
        if self.low is not None:
            bad.append(self.low - 1)
        if self.high is not None:
            bad.append(self.high + 1)
        return bad


@dataclass(frozen=True)
class Choice(Constraint):
    """One of a fixed set of options."""

    options: tuple

    def describe(self) -> str:
        """The options in words, e.g. ``one of 'laplace', 'gaussian'``."""
        return "one of " + ", ".join(repr(o) for o in self.options)

    def check(self, name: str, value: Any) -> Any:
        """Return ``value`` if it is one of the options; fail otherwise."""
        if value not in self.options:
            self.fail(name, value)
        return value

    def bad_values(self) -> list[Any]:
        """An unknown option and None."""
        return ["no-such-option", None]


@dataclass(frozen=True)
class Array(Constraint):
    """A real array (a scalar counts as 0-d) with optional shape, size and bounds requirements.

    Parameters
    ----------
    ndim : tuple of int, optional
        Allowed numbers of dimensions, e.g. ``(1,)`` for a vector, ``(0, 1)`` for a scalar or vector.
    min_size : int
        Minimum number of entries along the last axis (``1`` rejects empty data).
    finite : bool
        Reject NaN and ±inf entries.
    low, high : float, optional
        Bounds every entry must satisfy (closed, unless ``low_open``).
    low_open : bool
        Make the lower bound strict (``low=0, low_open=True``: positive entries).
    """

    ndim: tuple[int, ...] | None = None
    min_size: int = 1
    finite: bool = True
    low: float | None = None
    high: float | None = None
    low_open: bool = False

    def describe(self) -> str:
        """The requirements in words, e.g. ``a real array with ndim in {1} with at least 1 entry per row``."""
        parts = ["a real array"]
        if self.ndim is not None:
            parts.append(f"with ndim in {set(self.ndim)}")
        if self.min_size > 0:
            parts.append(f"with at least {self.min_size} entr{'y' if self.min_size == 1 else 'ies'} per row")
        if self.finite:
            parts.append("of finite values")
        if self.low is not None or self.high is not None:
            parts.append(f"within {'(' if self.low_open else '['}{self.low if self.low is not None else '-inf'}, "
                         f"{self.high if self.high is not None else 'inf'}]")
        return " ".join(parts)

    def check(self, name: str, value: Any) -> np.ndarray:
        """Return ``value`` as a float array if it meets every requirement; fail (naming ``name``) otherwise."""
        if value is None or isinstance(value, (str, bytes, dict, set)):
            self.fail(name, value)
        try:
            array = np.asarray(value, dtype=float)
        except (TypeError, ValueError):
            self.fail(name, _short(value))
        if self.ndim is not None and array.ndim not in self.ndim:
            raise InvalidParameterError(f"{name} must be {self.describe()}; got an array of shape {array.shape}")
        if array.ndim > 0 and array.shape[-1] < self.min_size:
            raise InvalidParameterError(f"{name} must be {self.describe()}; got an array of shape {array.shape}")
        if self.finite and not np.all(np.isfinite(array)):
            raise InvalidParameterError(f"{name} must be {self.describe()}; got non-finite entries")
        if self.low is not None:
            below = array <= self.low if self.low_open else array < self.low
        else:
            below = np.zeros(array.shape, dtype=bool)
        if np.any(below) or (self.high is not None and np.any(array > self.high)):
            raise InvalidParameterError(f"{name} must be {self.describe()}; got entries in "
                                        f"[{np.min(array):g}, {np.max(array):g}]")
        return array

    def bad_values(self) -> list[Any]:
        """None, a string, NaN entries, an empty array, a 3-d array, entries out of range (each where it is bad)."""
        bad: list[Any] = [None, "abc", [float("nan")] * max(1, self.min_size)]
        if self.min_size > 0:
            bad.append([])
        if self.ndim is not None and 3 not in self.ndim:
            bad.append(np.zeros((2, 2, 2)))
        if self.low is not None:
            bad.append([self.low - 1.0] * max(1, self.min_size))
        if self.high is not None:
            bad.append([self.high + 1.0] * max(1, self.min_size))
        return bad


@dataclass(frozen=True)
class Seed(Constraint):
    """``None``, a non-negative integer seed, or a ``numpy.random.Generator``."""

    def describe(self) -> str:
        """``None, a non-negative integer seed or a numpy.random.Generator``."""
        return "None, a non-negative integer seed or a numpy.random.Generator"

    def check(self, name: str, value: Any) -> Any:
        """Return ``None`` or a Generator as is, a non-negative integer as an int; fail otherwise."""
        if value is None or isinstance(value, np.random.Generator):
            return value
        if isinstance(value, (numbers.Integral, np.integer)) and not isinstance(value, bool):
            if int(value) < 0:
                self.fail(name, value)
            return int(value)
        self.fail(name, value)

    def bad_values(self) -> list[Any]:
        """-1, 1.5, a string and a legacy ``numpy.random.RandomState``."""
        return [-1, 1.5, "seed", np.random.RandomState(0)]


@dataclass(frozen=True)
class InstanceOf(Constraint):
    """An instance of ``kind`` (a figure, a sweep result, a distribution), described in messages as ``description``."""

    kind: type | tuple[type, ...]
    description: str

    def describe(self) -> str:
        """The ``description`` given at construction."""
        return self.description

    def check(self, name: str, value: Any) -> Any:
        """Return ``value`` if it is an instance of ``kind``; fail otherwise."""
        if not isinstance(value, self.kind):
            self.fail(name, value)
        return value

    def bad_values(self) -> list[Any]:
        """None, a string and a float."""
        return [None, "text", 3.0]


@dataclass(frozen=True)
class Text(Constraint):
    """A string matching, whole, the regular expression ``pattern``; ``description`` says it in messages."""

    pattern: str
    description: str

    def describe(self) -> str:
        """The ``description`` given at construction."""
        return self.description

    def check(self, name: str, value: Any) -> Any:
        """Return ``value`` if it is a string matching :attr:`pattern`; fail otherwise."""
        if not isinstance(value, str) or not re.fullmatch(self.pattern, value):
            self.fail(name, value)
        return value

    def bad_values(self) -> list[Any]:
        """None, a float and a string of spaces and punctuation."""
        return [None, 3.0, " ?! "]


_P = ParamSpec("_P")  # the decorated function's parameters
_R = TypeVar("_R")  # and its result: validated() keeps both


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def validated(**constraints: Constraint) -> Callable[[Callable[_P, _R]], Callable[_P, _R]]:
    """Decorate a public function with its parameter constraints.

    Each named argument is checked (and normalised, e.g. lists to arrays) before the function runs; ``None``
    passes unchecked for a parameter whose default is ``None`` (passing the default explicitly is allowed).
    The constraints stay readable as ``func.__constraints__`` for the property tests.

    Parameters
    ----------
    **constraints : Constraint
        One constraint per parameter name; every name must be a parameter of the decorated function (else
        :class:`InvalidParameterError` at decoration time). Parameters without a constraint are not checked.

    Returns
    -------
    callable
        The decorator: it wraps a function so that each call binds its arguments, checks and normalises the
        constrained ones, then calls the function.
    """

    def decorate(func: Callable[_P, _R]) -> Callable[_P, _R]:
        signature = inspect.signature(func)
        parameters = signature.parameters
        optional = {name for name, parameter in parameters.items() if parameter.default is None}
        unknown = set(constraints) - set(parameters)
        if unknown:
            raise InvalidParameterError(f"{func.__qualname__}: constraints for unknown parameters {sorted(unknown)}")
        checks = tuple((name, constraints[name]) for name in parameters if name in constraints)  # parameter order
        # A signature of plain parameters (no positional-only, no *args or **kwargs) is bound by hand: the same
        # arguments as Signature.bind gives, without its cost (~5 µs a call, thousands of calls per page run).
        plain = all(parameter.kind in (parameter.POSITIONAL_OR_KEYWORD, parameter.KEYWORD_ONLY)
                    for parameter in parameters.values())
        positional = tuple(name for name, parameter in parameters.items()
                           if parameter.kind is parameter.POSITIONAL_OR_KEYWORD)
        required = tuple(name for name, parameter in parameters.items() if parameter.default is parameter.empty)

        def bound_by_hand(args: tuple, kwargs: dict) -> dict[str, Any] | None:
            # The arguments by name, as signature.bind binds them; None for any call it would refuse (too many
            # arguments, an unknown or repeated name, a required one missing), left to it to say why.
            if len(args) > len(positional):
                return None
            arguments = dict(zip(positional, args))
            for name, value in kwargs.items():
                if name in arguments or name not in parameters:
                    return None
                arguments[name] = value
            return arguments if all(name in arguments for name in required) else None

        @functools.wraps(func)
        def wrapper(*args: _P.args, **kwargs: _P.kwargs) -> _R:
            arguments = bound_by_hand(args, kwargs) if plain else None
            if arguments is None:
                bound = signature.bind(*args, **kwargs)
                for name, value in bound.arguments.items():
                    constraint = constraints.get(name)
                    if constraint is not None and not (value is None and name in optional):
                        bound.arguments[name] = constraint.check(name, value)
                return func(*bound.args, **bound.kwargs)
            for name, constraint in checks:
                if name in arguments:
                    value = arguments[name]
                    if not (value is None and name in optional):
                        arguments[name] = constraint.check(name, value)
            return func(**arguments)  # type: ignore[call-arg]

        # Set by name: typeshed's type of a functools.wraps wrapper declares no such attribute.
        setattr(wrapper, "__constraints__", dict(constraints))  # noqa: B010
        return wrapper

    return decorate


def float_if_scalar(result: Any) -> float | np.ndarray:
    """A Python float for a 0-d result (a scalar query gives a scalar answer), the array otherwise.

    Parameters
    ----------
    result : float or array_like
        A result whose ``numpy.ndim`` is 0 (a scalar or 0-d array) or more.

    Returns
    -------
    float or numpy.ndarray
        ``float(result)`` if it is 0-d, else ``result`` unchanged.
    """
    return float(result) if np.ndim(result) == 0 else result


def check_same_length(names: Sequence[str], arrays: Sequence[np.ndarray]) -> None:
    """Raise :class:`InvalidParameterError` unless all arrays have the same length along their last axis.

    Parameters
    ----------
    names : sequence of str
        The parameter names of ``arrays``, in order, for the message.
    arrays : sequence of numpy.ndarray
        Arrays with at least one dimension.

    Raises
    ------
    InvalidParameterError
        If the last-axis lengths differ; the message names every array with its shape.
    """
    sizes = {a.shape[-1] for a in arrays}
    if len(sizes) > 1:
        shapes = ", ".join(f"{n}: {a.shape}" for n, a in zip(names, arrays))
        raise InvalidParameterError(f"{' and '.join(names)} must have the same length; got {shapes}")


# Shared constraints of the privacy parameters: every public function that takes them declares these.
EPSILON = Real(low=0, low_open=True)  #: the privacy budget ε > 0
DELTA = Real(0, 1, low_open=True, high_open=True)  #: the failure probability 0 < δ < 1
RHO = Real(low=0, low_open=True)  #: the zCDP parameter ρ > 0
SENSITIVITY = Real(low=0, low_open=True)  #: a sensitivity Δ > 0
POSITIVE = Real(low=0, low_open=True)  #: any real number > 0 (a scale, a radius, a rate)
SEED = Integer(low=0)  #: a seed of the Monte Carlo runs: a non-negative integer
TRIALS = Integer(low=1, high=100_000)  #: Monte Carlo trials per grid point: 1 to 100,000 (more would run for hours)

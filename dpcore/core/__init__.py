"""The base layer: declared parameter validation, seeded randomness, and the privacy roles of result fields.

``validation``  ``@validated(...)`` constraints (and the shared EPSILON / DELTA / RHO / SENSITIVITY)
``randomness``  seeds -> generators, child streams that never correlate two mechanisms
``guarantees``  which fields of a result its guarantee covers (released, public, diagnostic)
"""

from . import guarantees, randomness, validation
from .validation import InvalidDataError, InvalidParameterError

__all__ = ["InvalidDataError", "InvalidParameterError", "guarantees", "randomness", "validation"]

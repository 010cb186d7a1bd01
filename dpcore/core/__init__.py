"""The base layer: declared parameter validation, seeded randomness, and the guarantee record.

``validation``  ``@validated(...)`` constraints (and the shared EPSILON / DELTA / RHO / SENSITIVITY)
``randomness``  seeds -> generators, child streams that never correlate two mechanisms
``guarantees``  :class:`~dpcore.core.guarantees.Guarantee`, the typed statement of a privacy guarantee
"""

from . import guarantees, randomness, validation

__all__ = ["guarantees", "randomness", "validation"]

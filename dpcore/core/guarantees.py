"""The privacy role of every field of a result type: what its guarantee covers, what is public, what is a diagnostic.

Each mechanism and estimator states its guarantee (ε, δ, the neighbouring relation, the sensitivity) in its docstring
and its result's ``guarantee`` field; the roles say which of the result's fields that guarantee is about.
"""

from __future__ import annotations

from dataclasses import field, fields

from .validation import InstanceOf, validated

__all__ = ["ROLES", "diagnostic", "privacy_roles", "public", "released"]


ROLES = {
    "released": "covered by the guarantee: a private output, or computed from private outputs only",
    "public": "depends only on the public parameters, never on the data",
    "diagnostic": "computed from the data without noise: NOT private, for teaching and debugging only",
}


def _role(name: str):
    return field(metadata={"privacy": name})


def released():
    """A result field the privacy guarantee covers (see :data:`ROLES`).

    Returns
    -------
    dataclasses.Field
        A dataclass field whose metadata labels its privacy role ``"released"``.
    """
    return _role("released")


def public():
    """A result field that depends only on public parameters (see :data:`ROLES`).

    Returns
    -------
    dataclasses.Field
        A dataclass field whose metadata labels its privacy role ``"public"``.
    """
    return _role("public")


def diagnostic():
    """A result field computed from the data without noise: not private (see :data:`ROLES`).

    Returns
    -------
    dataclasses.Field
        A dataclass field whose metadata labels its privacy role ``"diagnostic"``.
    """
    return _role("diagnostic")


@validated(result_type=InstanceOf(type, "a dataclass type"))
def privacy_roles(result_type) -> dict[str, str]:
    """Field name -> privacy role (``"released"``, ``"public"`` or ``"diagnostic"``) of a result dataclass.

    Parameters
    ----------
    result_type : type
        A dataclass type whose fields are declared with :func:`released`, :func:`public` or :func:`diagnostic`.

    Returns
    -------
    dict of str to str
        Every field's name mapped to its role, in field order.

    Raises
    ------
    TypeError
        If ``result_type`` is not a dataclass, or some field does not label its privacy role.

    Examples
    --------
    >>> from dpcore.estimators.selection import Selection
    >>> privacy_roles(Selection)["index"], privacy_roles(Selection)["scores"]
    ('released', 'diagnostic')
    """
    unlabelled = [f.name for f in fields(result_type) if f.metadata.get("privacy") not in ROLES]
    if unlabelled:
        raise TypeError(f"{result_type.__name__} does not label the privacy role of {unlabelled}")
    return {f.name: f.metadata["privacy"] for f in fields(result_type)}

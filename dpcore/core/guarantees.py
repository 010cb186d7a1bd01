"""The typed statement of a privacy guarantee (which notion, which parameters, which neighbouring relation), and the
privacy role of every field of a result type (what the guarantee covers, what is public, what is a diagnostic)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields

from .validation import InstanceOf, validated

__all__ = ["Guarantee", "NOTIONS", "RELATIONS", "ROLES", "diagnostic", "privacy_roles", "public", "released"]

NOTIONS = ("pure", "approximate", "zcdp")
RELATIONS = ("replace-one", "add/remove-one", "replace-one-user")


@dataclass(frozen=True)
class Guarantee:
    r"""What a release promises: :math:`\varepsilon`-DP (``"pure"``), :math:`(\varepsilon, \delta)`-DP
    (``"approximate"``) or :math:`\rho`-zCDP (``"zcdp"``), for one neighbouring relation.

    Examples
    --------
    >>> Guarantee("approximate", epsilon=1.0, delta=1e-6)
    Guarantee(notion='approximate', epsilon=1.0, delta=1e-06, rho=None, relation='replace-one')
    >>> str(Guarantee("pure", epsilon=0.5))
    '0.5-DP (replace-one neighbours)'
    """

    notion: str
    epsilon: float | None = None
    delta: float = 0.0
    rho: float | None = None
    relation: str = "replace-one"

    def __post_init__(self) -> None:
        if self.notion not in NOTIONS:
            raise ValueError(f"notion must be one of {NOTIONS}; got {self.notion!r}")
        if self.relation not in RELATIONS:
            raise ValueError(f"relation must be one of {RELATIONS}; got {self.relation!r}")
        if self.notion == "zcdp":
            if self.rho is None or not (math.isfinite(self.rho) and self.rho > 0):
                raise ValueError(f"rho must be a finite number > 0 for zCDP; got {self.rho!r}")
            return
        if self.epsilon is None or not (math.isfinite(self.epsilon) and self.epsilon > 0):
            raise ValueError(f"epsilon must be a finite number > 0; got {self.epsilon!r}")
        if self.notion == "pure" and self.delta != 0:
            raise ValueError(f"a pure guarantee has delta = 0; got {self.delta!r}")
        if self.notion == "approximate" and not 0 < self.delta < 1:
            raise ValueError(f"delta must be in (0, 1) for approximate DP; got {self.delta!r}")

    def __str__(self) -> str:
        if self.notion == "zcdp":
            claim = f"{self.rho:g}-zCDP"
        elif self.notion == "pure":
            claim = f"{self.epsilon:g}-DP"
        else:
            claim = f"({self.epsilon:g}, {self.delta:g})-DP"
        return f"{claim} ({self.relation} neighbours)"


ROLES = {
    "released": "covered by the guarantee: a private output, or computed from private outputs only",
    "public": "depends only on the public parameters, never on the data",
    "diagnostic": "computed from the data without noise: NOT private, for teaching and debugging only",
}


def _role(name: str):
    return field(metadata={"privacy": name})


@validated()
def released():
    """A result field the privacy guarantee covers (see :data:`ROLES`)."""
    return _role("released")


@validated()
def public():
    """A result field that depends only on public parameters (see :data:`ROLES`)."""
    return _role("public")


@validated()
def diagnostic():
    """A result field computed from the data without noise: not private (see :data:`ROLES`)."""
    return _role("diagnostic")


@validated(result_type=InstanceOf(type, "a dataclass type"))
def privacy_roles(result_type) -> dict[str, str]:
    """Field name -> privacy role (``"released"``, ``"public"`` or ``"diagnostic"``) of a result dataclass.

    Examples
    --------
    >>> from dpcore.estimators.selection import Selection
    >>> privacy_roles(Selection)["index"], privacy_roles(Selection)["scores"]
    ('released', 'diagnostic')
    """
    roles = {f.name: f.metadata.get("privacy") for f in fields(result_type)}
    unlabelled = [name for name, role in roles.items() if role not in ROLES]
    if unlabelled:
        raise TypeError(f"{result_type.__name__} does not label the privacy role of {unlabelled}")
    return roles

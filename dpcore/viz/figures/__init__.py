"""One figures module per lesson (its one-run views and sweeps), plus ``common`` for figures several lessons share."""

from . import audit_lab, common, exponential_mechanism, home, noise_tradeoff, partition_rounds, tournament, truncation

__all__ = ["audit_lab", "common", "exponential_mechanism", "home", "noise_tradeoff", "partition_rounds", "tournament",
           "truncation"]

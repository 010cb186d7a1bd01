"""One figures module per lesson (its one-run views and sweeps), plus ``common`` for figures several lessons share."""

from . import common, exponential_mechanism, home, noise_tradeoff, partition_rounds, tournament, truncation

__all__ = ["common", "exponential_mechanism", "home", "noise_tradeoff", "partition_rounds", "tournament", "truncation"]

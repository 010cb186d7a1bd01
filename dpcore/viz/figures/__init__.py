"""One figures module per lesson: its page builders, which run the lesson and draw what it returns with the charts of
:mod:`dpcore.viz.charts` and the animated sweeps of :mod:`dpcore.viz.animation`."""

from . import audit_lab, exponential_mechanism, home, noise_tradeoff, partition_rounds, tournament, truncation

__all__ = ["audit_lab", "exponential_mechanism", "home", "noise_tradeoff", "partition_rounds", "tournament",
           "truncation"]

"""One module per page of the lab: its grids, method ids and labels, sweeps, theory companions and takeaway numbers.

The only layer of dpcore that knows pages exist. Pure (numpy / scipy), importable from a notebook: the page scripts
call these functions and draw what they return.
"""

from . import (
           audit_lab,
           class_poll,
           exponential_mechanism,
           glossary,
           grids,
           home,
           methods,
           noise_tradeoff,
           partition_rounds,
           plain_words,
           tournament,
           truncation,
)

__all__ = ["audit_lab", "class_poll", "exponential_mechanism", "glossary", "grids", "home", "methods", "noise_tradeoff",
           "partition_rounds", "plain_words", "tournament", "truncation"]

"""dpcore: differentially private statistical estimation, as taught by Private Estimation Lab.

A pure library (numpy, scipy; cvxpy lazily): importing it never imports streamlit or plotly.
Figure builders live in :mod:`dpcore.viz`, imported on demand.

Modules
-------
validation   declared parameter constraints, checked at every public function
randomness   seeds -> generators, child streams that never correlate mechanisms
mechanisms   Laplace, Gaussian (analytic / classical / zCDP), exponential, report-noisy-max, histogram
accounting   privacy profiles, notion conversions, composition
clipping     projecting rows into a norm ball (bounded sensitivity, the source of bias)
audit        statistical privacy audits (empirical lower bounds on epsilon)
experiments  the Monte Carlo engine: estimator x parameter grid x trials, vectorised
theory       rate curves overlaid on simulations
expmech      the exponential mechanism: permute-and-flip, private quantiles, a public cover (halfspace depth)
sdp          HKM22's SDP score over directions (cvxpy, imported lazily) and a 2-D iterative estimator
user_level   user-level DP: per-user clipped scores for threshold selection
noise_tradeoff  pure vs approximate DP for a d-dimensional mean (page: pure vs approximate)
distributions   heavy-tailed families with an exact k-th moment; clipping bias
truncation      KSU20 private means of heavy-tailed data
truncated_mle   seed 003: truncate, then remove the bias by truncated maximum likelihood
viz          Plotly figure builders (imports plotly)
"""

from . import (accounting, audit, clipping, distributions, experiments, expmech, mechanisms, noise_tradeoff,
               randomness, sdp, theory, truncated_mle, truncation, user_level, validation)

__all__ = ["accounting", "audit", "clipping", "distributions", "experiments", "expmech", "mechanisms",
           "noise_tradeoff", "randomness", "sdp", "theory", "truncated_mle", "truncation", "user_level", "validation"]
__version__ = "0.1.0"

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
expmech      the exponential mechanism over a public cover (halfspace depth)
noise_tradeoff  pure vs approximate DP for a d-dimensional mean (page: pure vs approximate)
viz          Plotly figure builders (imports plotly)
"""

from . import (accounting, audit, clipping, experiments, expmech, mechanisms, noise_tradeoff, randomness, theory,
               validation)

__all__ = ["accounting", "audit", "clipping", "experiments", "expmech", "mechanisms", "noise_tradeoff",
           "randomness", "theory", "validation"]
__version__ = "0.1.0"

"""dpcore: differentially private statistical estimation, as taught by Private Estimation Lab.

A pure library (numpy, scipy; cvxpy lazily): importing it never imports streamlit or plotly.
Figure builders live in :mod:`dpcore.viz`, imported on demand.

Modules
-------
validation   declared parameter constraints, checked at every public function
randomness   seeds -> generators, child streams that never correlate mechanisms
mechanisms   Laplace, Gaussian (analytic / classical), exponential, report-noisy-max, histogram
accounting   privacy profiles, notion conversions, composition
audit        statistical privacy audits (empirical lower bounds on epsilon)
experiments  the Monte Carlo engine: estimator x parameter grid x trials, vectorised
theory       rate curves overlaid on simulations
viz          Plotly figure builders (imports plotly)
"""

from . import accounting, audit, mechanisms, randomness, validation

__all__ = ["accounting", "audit", "experiments", "mechanisms", "randomness", "theory", "validation"]
__version__ = "0.1.0"

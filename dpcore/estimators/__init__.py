"""The papers' algorithms, each with its guarantee in its docstring: no sweeps, no page defaults, no figures.

=====================  ============================================================================================
``clipping``           projecting rows into an ℓ1 / ℓ2 ball (bounded sensitivity, the source of bias)
``mean_release``       a clipped d-dimensional mean released with Laplace / Gaussian / zCDP-Gaussian noise
``heavy_tailed_mean``  Kamath, Singhal & Ullman (2020): private range + clipped Laplace mean, pure / zCDP / (ε, δ)
``truncated_mle``      truncation to a survival set, then the bias removed by truncated maximum likelihood
``partition_rounds``   pure-DP learning of a binary product distribution by partitioning rounds
``selection``          Scheffé contests, tournaments, sensitivity-1 scores and private hypothesis selection
``user_level``         user-level DP threshold selection with per-user clipped scores
``cover``              the exponential mechanism over a public grid cover with the halfspace-depth score
``sdp``                the SDP score over directions (cvxpy, imported lazily) and a 2-D iterative estimator
=====================  ============================================================================================
"""

from . import (
               clipping,
               cover,
               heavy_tailed_mean,
               mean_release,
               partition_rounds,
               sdp,
               selection,
               truncated_mle,
               user_level,
)

__all__ = ["clipping", "cover", "heavy_tailed_mean", "mean_release", "partition_rounds", "sdp", "selection",
           "truncated_mle", "user_level"]

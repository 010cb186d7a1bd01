"""The privacy mechanisms, one family per module; each states its guarantee and is checked by an audit.

===============  ==================================================================================
``laplace``      the Laplace mechanism (ε-DP)
``gaussian``     the Gaussian mechanism: analytic / classical (ε, δ)-DP, ρ-zCDP
``exponential``  the exponential mechanism, report-noisy-max, permute-and-flip (ε-DP selection)
``quantile``     the private quantile (continuous exponential mechanism, ε-DP)
``histogram``    the Laplace histogram (ε-DP)
``poll``         a class poll's vote counts, Laplace or two-sided geometric noise (ε-DP)
===============  ==================================================================================

Every mechanism is also reachable from here, e.g. ``dpcore.mechanisms.laplace(...)``.
"""

from .exponential import exponential, exponential_probabilities, permute_and_flip, report_noisy_max
from .gaussian import gaussian, gaussian_sigma, zcdp_gaussian
from .histogram import laplace_histogram
from .laplace import laplace
from .poll import PollRelease, poll_histogram
from .quantile import private_quantile, quantile_densities, quantile_density, sample_quantile_density

__all__ = ["laplace", "gaussian", "gaussian_sigma", "zcdp_gaussian", "exponential", "exponential_probabilities",
           "report_noisy_max", "permute_and_flip", "laplace_histogram", "private_quantile", "quantile_density",
           "quantile_densities", "sample_quantile_density",
           "poll_histogram", "PollRelease"]

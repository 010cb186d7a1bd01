"""The data laws the lessons sample from, with their exact quantities.

``heavy_tailed``    Lomax / two-point / Student-t / Gaussian with E|X − μ|^k = 1; exact clipped means and biases
``binary_product``  products of Bernoulli marginals: profiles, sampling, exact KL / χ² / Hellinger, TV
"""

from . import binary_product, heavy_tailed

__all__ = ["binary_product", "heavy_tailed"]

"""dpcore: differentially private statistical estimation, as taught by Private Estimation Lab.

A pure library (numpy, scipy; cvxpy lazily): importing it never imports streamlit or plotly. Layers, each importing
only from the ones above it in this list (a test enforces it):

=================================  ===================================================================================
``core``                           validation, randomness, the guarantee record
``mechanisms``, ``accounting``,    the privacy mechanisms (one family per module); privacy profiles, conversions and
``audit``                          composition; statistical privacy audits
``distributions``, ``estimators``  the data laws; the papers' algorithms
``datasets``, ``columns``          bundled real data sets; the numeric columns of a student's CSV, validated
``theory``, ``experiments``        rate curves; the Monte Carlo engine, its store and fits
``lessons``                        one module per page: grids, sweeps, theory companions, takeaway numbers
``viz``                            Plotly figure builders (imports plotly; loaded on first use of ``dpcore.viz``)
=================================  ===================================================================================
"""

import importlib

from . import (
    accounting,
    audit,
    columns,
    core,
    datasets,
    distributions,
    estimators,
    experiments,
    lessons,
    mechanisms,
    theory,
)

__all__ = ["accounting", "audit", "columns", "core", "datasets", "distributions", "estimators", "experiments",
           "lessons", "mechanisms", "theory", "viz"]
__version__ = "0.2.0"


def __getattr__(name: str):
    """``dpcore.viz`` on first use, so that ``import dpcore`` stays Plotly-free."""
    if name == "viz":
        return importlib.import_module(".viz", __name__)
    raise AttributeError(f"module 'dpcore' has no attribute {name!r}")

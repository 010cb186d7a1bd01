"""The one Monte Carlo engine, its result store and the fits drawn from it.

``engine``   :func:`run_sweep`: estimators × grid × trials, vectorised, value-keyed streams; :class:`SweepResult`;
             :func:`parallel_over`: the grid points on any executor (a Dask cluster), the same numbers
``store``    :func:`load_or_run`: stored results (``assets/precomputed``) served when their parameters match
``fitting``  :func:`fit_power_law`, :func:`samples_needed`
"""

from . import engine, fitting, store
from .engine import SweepResult, join_methods, parallel_over, run_sweep, trials_for_budget
from .fitting import fit_power_law, samples_needed
from .store import load_or_run, load_stored, rerun_stored, run_now, stored_calls, stored_index

__all__ = ["engine", "fitting", "store", "SweepResult", "join_methods", "parallel_over", "run_sweep",
           "trials_for_budget",
           "fit_power_law", "samples_needed", "run_now", "load_or_run", "load_stored", "rerun_stored",
           "stored_calls", "stored_index"]

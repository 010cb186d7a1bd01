"""The default-state results shipped in assets/precomputed equal a fresh run of what they record, on any machine.

The comparison itself (what is exact, what is compared to rtol 1e-6, and why) is ``tests/precomputed_check.py``;
it runs in a subprocess because OpenBLAS reads its thread count once, when numpy loads.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.precomputed_check import STORE

CHECK = Path(__file__).resolve().parent / "precomputed_check.py"


def test_pages_ship_precomputed_defaults():
    assert len(list(STORE.glob("*.npz"))) >= 2  # at least the truncation page's two default sweeps


@pytest.mark.parametrize("threads", ["1", "2"])
def test_stored_results_equal_a_fresh_run_with_any_blas_thread_count(threads):
    env = {**os.environ, "OPENBLAS_NUM_THREADS": threads, "OMP_NUM_THREADS": threads, "MKL_NUM_THREADS": threads,
           "PYTHONPATH": os.pathsep.join([str(CHECK.parents[1]), os.environ.get("PYTHONPATH", "")])}
    run = subprocess.run([sys.executable, str(CHECK)], env=env, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "stored results match a fresh run" in run.stdout

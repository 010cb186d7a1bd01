"""Shared test settings.

* ``tests/app/scripts`` holds small Streamlit pages that the tests run through AppTest: they are not test modules
  (and importing one outside a Streamlit run would execute it).
* Hypothesis's CI profile (chosen when the environment sets CI) derives a new settings object from the previous one on
  every call of a parametrised ``@given`` test and reads each setting through that chain recursively: after about 900
  calls (tests/test_public_functions.py makes more) the chain outgrows Python's default recursion limit of 1000. A
  larger limit lets the chain be walked; nothing else depends on it.
* Pages answer a slow setting with a quick pass first (``ui.progressive``); the tests compare pages with the library
  at the requested trial counts, so they run with the quick pass off (``DPLAB_QUICK_SECONDS=inf``, also inherited by
  the servers the browser tests start). ``tests/app/test_progressive.py`` turns it on where it is the subject.
* ``computed_sweeps`` (AppTest suites): the sweeps a page computed rather than served stored or already computed.
"""

import os
import sys

import pytest

collect_ignore = ["app/scripts"]

os.environ.setdefault("DPLAB_QUICK_SECONDS", "inf")

sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))


@pytest.fixture
def computed_sweeps(monkeypatch):
    """The sweeps the app computes (not served stored or from its shared store), by function name."""
    import ui
    from dpcore.experiments import load_or_run
    calls = []

    def counting(directory, function, **params):
        calls.append(function.__name__)
        return load_or_run(directory, function, **params)
    monkeypatch.setattr(ui.compute, "load_or_run", counting)
    return calls

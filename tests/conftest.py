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
* On several cores (``./lab.sh test`` runs ``-n auto --dist loadgroup``, pytest-xdist; ``pytest_xdist_make_scheduler``
  below): the browser tests (tests/e2e) and the container's (tests/deploy) are one group, run one after another by one
  worker, since they start Streamlit servers, nginx and Chromium and some measure how fast pages answer; each AppTest
  module (tests/app) stays whole on one worker, as its tests share module-scoped page runs and the app's in-process
  caches in order; the unit tests and docstring examples go one by one to whichever worker is free.
* The class poll's votes (``DPLAB_DATA_DIR``) go to a temporary folder of each test process, never the repository's.
* The lab's teacher key (``DPLAB_TEACHER_KEY``, :mod:`classroom.teacher_key`) is one made for the test process, so
  the tests and the servers they start agree on it.
"""

import os
import secrets
import sys
import tempfile

import pytest

collect_ignore = ["app/scripts"]

os.environ.setdefault("DPLAB_QUICK_SECONDS", "inf")
# the class poll's store (classroom.poll_store) of the app runs and servers of the tests: a folder of this process's own
os.environ.setdefault("DPLAB_DATA_DIR", tempfile.mkdtemp(prefix="dplab-test-data-"))

os.environ.setdefault("DPLAB_TEACHER_KEY", "-".join(secrets.token_hex(2).upper() for _ in range(4)))

sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))


@pytest.hookimpl(optionalhook=True)  # a pytest-xdist hook
def pytest_xdist_make_scheduler(config, log):
    """``--dist loadgroup`` with the groups by folder: all of tests/e2e in one (one worker runs the browser tests one
    after another), each tests/app module in its own, every other test alone. (``xdist_group`` marks cannot say it
    under pytest 9.2: xdist 3.8 records a mark's group in the node id, which pytest 9.2 no longer lets it change, so
    the mark is ignored and the tests spread over the workers: pytest-dev/pytest-xdist#1386.)"""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadGroupScheduling

    class ByFolder(LoadGroupScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.partition("::")[0]
            if path.startswith(("tests/e2e/", "tests/deploy/")):  # servers, nginx, Chromium: one at a time
                return "tests/e2e"
            if path.startswith("tests/app/"):
                return path
            return super()._split_scope(nodeid)  # a test of its own (or its xdist_group, where xdist can read one)

    return ByFolder(config, log)


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

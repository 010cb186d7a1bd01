"""The viz tests' shared figure: ``fig``, the animated sweep of ``frames.make_figure`` (one per test module)."""

import pytest

from tests.viz.frames import make_figure


@pytest.fixture(scope="module")
def fig():
    return make_figure(title="Mean estimation")

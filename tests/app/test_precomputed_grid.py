"""The precomputed grid covers every discrete control value: at every setting one move away from a page's defaults
(each option of each discrete control but the trial count) and at the combinations of its crossed controls
(:func:`ui.params.grid_settings`), every sweep the page shows is served from ``assets/precomputed``, none is
computed. ``tests/test_precomputed.py`` checks that what is stored equals a fresh run.

Every single move is run; of the crossed combinations (180 on the partitioning-rounds page), a fixed sample of
CROSSED_SAMPLE, spread over every control's options, keeps the test within a minute or two per page."""

import random

import pytest
from helpers import page_path, run

from registry import PAGES
from ui.page import PAGE_SPECS
from ui.params import grid_settings

SCRIPTS = [info.script.removeprefix("app_pages/") for info in PAGES]
CROSSED_SAMPLE = 24


def page_grid(at) -> list[dict[str, str]]:
    """The grid of the controls the page drew (the sidebar's and those beside their figures), as precompute's."""
    return grid_settings(at.session_state[PAGE_SPECS])


def to_check(settings: list[dict[str, str]]) -> list[dict[str, str]]:
    """Every single move, and a seeded sample of the combinations of crossed controls."""
    single = [query for query in settings if len(query) == 1]
    crossed = [query for query in settings if len(query) > 1]
    return single + random.Random(0).sample(crossed, min(CROSSED_SAMPLE, len(crossed)))


@pytest.mark.parametrize("script", SCRIPTS)
def test_every_setting_on_the_grid_is_stored(script, computed_sweeps):
    at = run(page_path(script), timeout=600)
    assert not at.exception and computed_sweeps == []
    settings = page_grid(at)
    assert len(settings) >= 10  # every page has discrete controls
    missing = []
    for query in to_check(settings):
        moved = run(page_path(script), timeout=600, **query)
        assert not moved.exception and all(moved.query_params[key] == value for key, value in query.items()), query
        if computed_sweeps:
            missing.append((query, sorted(set(computed_sweeps))))
            computed_sweeps.clear()
    assert missing == []

"""The precomputed grid covers every discrete control value: one move away from a page's defaults (each option of
each discrete control but the trial count, :func:`ui.params.grid_settings`), every sweep the page shows is served
from ``assets/precomputed``, none is computed. ``tests/test_precomputed.py`` checks that what is stored equals a
fresh run."""

import pytest
from helpers import page_path, run

from registry import PAGES
from ui.precompute import page_grid

SCRIPTS = [info.script.removeprefix("app_pages/") for info in PAGES]


@pytest.mark.parametrize("script", SCRIPTS)
def test_every_setting_one_move_from_the_defaults_is_stored(script, computed_sweeps):
    at = run(page_path(script), timeout=600)
    assert not at.exception and computed_sweeps == []
    settings = page_grid(at)
    assert len(settings) >= 10  # every page has discrete controls
    missing = []
    for key, value in settings:
        moved = run(page_path(script), timeout=600, **{key: value})
        assert not moved.exception and moved.query_params[key] == value, (key, value)
        if computed_sweeps:
            missing.append((key, value, sorted(set(computed_sweeps))))
            computed_sweeps.clear()
    assert missing == []

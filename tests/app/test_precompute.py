"""./lab.sh precompute (ui.precompute) calls each page's sweeps directly, from its settings module: its plan names
exactly the stored sweeps, each stored for what the plan says; a page's control values are read as its links are."""

import json

import pytest

from dpcore.experiments import load_stored, stored_index
from registry import PAGES
from ui.compute import PRECOMPUTED
from ui.params import delta_spec, seed_spec, trials_spec
from ui.precompute import main, page_controls, page_settings, settings_values, store_page


def _planned() -> dict:
    """What precompute would store, page by page, run against the stored sweeps: path -> the first mark asked for.
    A sweep the plan names that is not stored fails here at once (nothing is computed)."""
    first_mark = {}
    paths = {(name, json.dumps(params, sort_keys=True)): path for name, params, path, _ in stored_index(PRECOMPUTED)}

    def runner(directory, function, *, store_as, **params):
        result = load_stored(directory, function, **params)
        assert result is not None, (function.__qualname__, store_as, params)
        name = f"{function.__module__}.{function.__qualname__}"
        first_mark.setdefault(paths[name, json.dumps(params, sort_keys=True)].resolve(), store_as)
        return result

    for info in PAGES:
        store_page(info, PRECOMPUTED, runner)
    return first_mark


def test_the_plan_is_exactly_the_stored_sweeps_with_their_marks():
    stored = {path.resolve(): mark for _, _, path, mark in stored_index(PRECOMPUTED) if mark in ("defaults", "grid")}
    assert len(stored) >= 300
    assert _planned() == stored


def test_the_pages_with_sweeps_and_their_grids():
    counts = {info.url_path: store_page(info, PRECOMPUTED, lambda *args, **kwargs: pytest.fail("no page run"))
              for info in PAGES if not hasattr(page_settings(info), "sweeps")}
    assert counts == {"": 0, "privacy-audit-lab": 0, "audit-studio": 0, "real-data": 0,
                      "choosing-epsilon": 0}  # no stored sweep: home, the audit lab and the audit studio (audits of
    # a fraction of a second), the real-data page (its Monte Carlo draws only the mechanisms' noise on a fixed column:
    # computed live) and choosing ε (exact calibrations and a second of simulated releases)
    noise = page_settings(next(info for info in PAGES if info.url_path == "pure-vs-approximate"))
    assert [spec.key for spec in page_controls(noise)][-1] == "releases"  # the control beside its figure counts


def test_control_values_are_read_as_links_are():
    specs = [delta_spec(low=1e-8, high=1e-6), trials_spec(), seed_spec()]
    assert settings_values(specs) == {"delta": 1e-6, "trials": 200, "seed": 0}
    assert settings_values(specs, {"delta": "1e-07", "seed": "3"}) == {"delta": 1e-7, "trials": 200, "seed": 3}


@pytest.mark.parametrize("query, words", [
    ({"nope": "1"}, "no control 'nope'; the controls are delta, trials, seed"),
    ({"delta": "abc"}, "`abc` is not a number"),
    ({"delta": "1"}, "clamped"),
    ({"trials": "5"}, "clamped"),
])
def test_a_value_a_link_could_not_carry_is_refused(query, words):
    with pytest.raises(ValueError, match=words):
        settings_values([delta_spec(low=1e-8, high=1e-6), trials_spec(), seed_spec()], query)


def test_an_unknown_page_is_refused():
    with pytest.raises(SystemExit, match="no such page"):
        main(["app_pages/nowhere.py"])

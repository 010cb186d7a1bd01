"""AppTest property test: seeded random combinations of every page's allowed control values (ends of every range
and equal values of controls that share their options included) never raise, keep every section of the page (each
heading is still there, and each chart of the default run is either drawn or replaced by a message), and every
message is in plain words.

The allowed values are read from the page's widgets after a run at its defaults (importing a page script would run
it): select sliders and radios by their options (display texts, thousands separators dropped: the URL parser
snaps numbers to the grid), sliders and number inputs by their ends. Controls that only buy precision or another
draw (``TIME_ONLY``: the Monte Carlo trials, the seed) stay at their first value, which keeps the whole test at a few
minutes; their other ends are covered by each page's extreme-control tests.
"""

import random

import pytest
from helpers import page_path, run, texts

from registry import PAGES

COMBINATIONS = 3  #: per page, to keep CI time low
INTERNAL = ("Traceback", "moment_k=", "n_values", " a and b")  #: library words a page message must not show
TIME_ONLY = ("trials", "seed", "mc")  #: controls that change no code path, only the run time or the random draws


def allowed_values(at) -> dict[str, list[str]]:
    """URL key -> allowed URL values of each control of the page run ``at`` (widget keys ``w_<key>``)."""
    values = {}
    for widget in [*at.select_slider, *at.radio]:
        values[widget.key.removeprefix("w_")] = [str(option).replace(",", "") for option in widget.options]
    for widget in [*at.slider, *at.number_input]:
        values[widget.key.removeprefix("w_")] = [f"{widget.min:.12g}", f"{widget.max:.12g}"]
    return values


def combinations(values: dict[str, list[str]], rng: random.Random) -> list[dict[str, str]]:
    """``COMBINATIONS`` queries: each control at its first, its last or a random allowed value; in the last query
    every pair of controls with the same options is set equal (e.g. the two means of a contest)."""
    def draw(options: list[str]) -> str:
        return rng.choice([options[0], options[-1], rng.choice(options)])
    queries = [{key: options[0] if key in TIME_ONLY else draw(options) for key, options in values.items()}
               for _ in range(COMBINATIONS)]
    keys = list(values)
    for i, first in enumerate(keys):
        for second in keys[i + 1:]:
            if values[first] == values[second] and len(values[first]) > 2:
                queries[-1][second] = queries[-1][first]
    return queries


def sections(at) -> tuple[list[str], int]:
    """The page's section headings, and how many charts it drew."""
    return texts(at.subheader), len(at.get("plotly_chart"))


def page_queries() -> list[tuple[str, dict[str, str], tuple[list[str], int]]]:
    rng = random.Random(0)
    cases = []
    for info in PAGES:
        script = page_path(info.script.removeprefix("app_pages/"))
        defaults = run(script, timeout=300)
        cases += [(script, query, sections(defaults)) for query in combinations(allowed_values(defaults), rng)]
    return cases


@pytest.mark.parametrize("script, query, default_sections", page_queries(),
                         ids=lambda value: str(value).rpartition("/")[2] if isinstance(value, (str, dict)) else "")
def test_random_control_combinations_run_keep_every_section_and_speak_plainly(script, query, default_sections):
    at = run(script, timeout=600, **query)
    assert not at.exception, [element.value for element in at.exception]
    messages = texts(at.error) + texts(at.warning)
    for message in messages + texts(at.info):
        assert not any(word in message for word in INTERNAL), message
    headings, charts = sections(at)
    default_headings, default_charts = default_sections
    assert headings == default_headings
    assert charts + len(messages) >= default_charts, f"{default_charts - charts} charts gone, {len(messages)} messages"

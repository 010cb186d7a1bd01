"""AppTest: the partitioning-rounds page at defaults, extreme and bad controls."""

import numpy as np
import pytest
from helpers import (
    assert_clean_and_animated,
    assert_message,
    charts,
    decode,
    frame_traces,
    page_fixture,
    page_path,
    run,
    tables,
    texts,
)

import ui
from classroom.table import cell_text
from dpcore.distributions import binary_product as products
from dpcore.estimators import partition_rounds as product
from dpcore.experiments import load_or_run
from dpcore.lessons import partition_rounds as lesson

PAGE = page_path("partition_rounds.py")
ANIMATED = {"rounds": "round 1", "tv_vs_n": "1", "kl_vs_n": "1", "tv_vs_d": "1,000,000", "profiles": "log-uniform"}


def run_page(**query: str):
    return run(PAGE, timeout=300, **query)


default_page = page_fixture("partition_rounds.py")


def test_page_runs_at_defaults_with_every_figure(default_page):
    assert_clean_and_animated(default_page, ANIMATED)
    assert dict(default_page.query_params) == {"reveal": "1", "eps": "1", "d": "1024", "n": "1000000",
                                               "profile": "log-uniform", "delta": "1e-06", "trials": "30", "seed": "0",
                                               "mc": "0"}


def test_rounds_animation_replays_the_trace(default_page):
    """One frame per round plus the final estimates; each round's threshold is 3u/8 and the groups partition
    the coordinates exactly as the library's run of the same seed."""
    spec = charts(default_page)["rounds"]
    p = products.marginal_profile("log-uniform", 1024)
    trace, _ = product.simulate_estimators(p, 1_000_000, 1.0, rng=0)
    names = [f["name"] for f in spec["frames"]]
    assert names == [f"round {r + 1}" for r in range(len(trace.rounds))] + ["final estimates"]
    for r, step in enumerate(trace.rounds):
        traces = frame_traces(spec, f"round {r + 1}")
        np.testing.assert_allclose(decode(traces["threshold 3u/8"]["y"]), [3 / 8 * 0.5 ** (r + 1)] * 2)
        group = traces[f"H{r + 1} (u = 1/{2 ** (r + 1)})"]
        assert len(decode(group["x"])) == max(1, int(step.selected.sum()))
    final = frame_traces(spec, "final estimates")
    shown = sum(np.isfinite(decode(t["y"])).sum() for name, t in final.items() if name.startswith(("H", "light")))
    assert shown == 1024  # every coordinate ends in exactly one group


def test_blocks_table_and_the_issue_numbers(default_page):
    """The sample-use table adds up to n; the TV-vs-n frame at ε = 1 shows the partition ≥ 2x below naive at n = 10⁶."""
    table = tables(default_page)[0]
    assert sum(int(row["rows"].replace(",", "")) for row in table) == 1_000_000
    assert {row["ε on these rows"] for row in table} <= {"1", "0"}
    traces = frame_traces(charts(default_page)["tv_vs_n"], "1")
    n = decode(traces["naive Laplace"]["x"])
    at = int(np.flatnonzero(n == 1e6)[0])
    assert decode(traces["naive Laplace"]["y"])[at] > 2 * decode(traces["partition rounds (pure)"]["y"])[at]
    assert 0.009 <= decode(traces["non-private"]["y"])[at] <= 0.015


def test_takeaways_state_where_the_substitute_loses(default_page):
    notes = " ".join(texts(default_page.markdown))
    assert "Where the pure substitute does not win" in notes and "d = 16, 64" in notes
    assert "Fitted sample-complexity exponents" in notes


def test_takeaways_and_tables_are_the_lessons_at_the_page_state(default_page):
    """The page shows what the lesson computes from the stored default sweeps: the takeaways, the one-run tables
    and the sample-complexity table; every figure is offered for download."""
    stored = lambda function, **params: load_or_run(ui.compute.PRECOMPUTED, function, **params)
    state = dict(profile="log-uniform", epsilon=1.0, delta=1e-6, trials=30, seed=0)
    notes = lesson.takeaways(n=1_000_000, **state, run=stored)
    assert "\n".join(f"- {line}" for line in notes) in texts(default_page.markdown)
    single = lesson.one_run("log-uniform", 1024, 1_000_000, 1.0, 1e-6, 0)
    assert lesson.run_caption(single) in texts(default_page.caption)  # with the TV's Monte Carlo error (issue 44)
    assert "Monte Carlo error of about ± 0.002" in lesson.run_caption(single)
    shown = tables(default_page)
    as_shown = lambda rows: [{name: cell_text(value) for name, value in row.items()} for row in rows]  # noqa: E731
    assert shown[0] == as_shown(lesson.block_table(single)) and shown[1] == as_shown(lesson.distance_table(single))
    assert shown[2] == as_shown(lesson.complexity_table(**state, run=stored))
    assert set(default_page.session_state[ui.FIGURE_CALLS]) == set(ANIMATED)


@pytest.mark.parametrize("query", [dict(eps="0.1", d="16", n="10000", profile="all 1/2"),
                                   dict(eps="5", d="64", n="10000000", profile="all tiny", trials="10")])
def test_extreme_controls(query):
    at = run_page(**query)
    assert not at.exception and not at.error and not at.warning
    assert at.select_slider(key="w_eps").value == float(query["eps"])
    assert at.select_slider(key="w_d").value == int(query["d"])
    how = {row["computed"] for row in tables(at)[1]}  # TV of the run: exact by enumeration only for d ≤ 16
    assert how == {"exact (enumeration)"} if query["d"] == "16" else all(h.startswith("Monte Carlo") for h in how)


@pytest.mark.parametrize("query, level, words", [
    (dict(eps="abc"), "error", "Invalid eps in the link: `abc`"),
    (dict(n="5"), "warning", "clamped to 10,000"),
    (dict(profile="cubic"), "error", "profile"),
    (dict(d="100"), "info", "using the nearest, 64"),
])
def test_bad_links_give_messages_not_tracebacks(query, level, words):
    assert_message(run_page(**query), level, words)


def test_presentation_mode_keeps_formulas_figures_and_takeaways_and_hides_the_prose(default_page):
    present = run_page(present="1")
    assert not present.exception and len(present.latex) == len(default_page.latex) == 3
    assert set(charts(present)) == set(ANIMATED)
    assert not any("Each point is a coordinate" in text for text in texts(present.markdown))
    assert any("Where the pure substitute does not win" in text for text in texts(present.markdown))


def _assert_every_frame_has_the_same_traces(spec: dict) -> None:
    names = [[trace["name"] for trace in frame["data"]] for frame in spec["frames"]]
    assert all(frame == names[0] for frame in names), [frame["name"] for frame in spec["frames"]]


def test_largest_dimension_shows_every_figure_with_the_same_traces_in_every_frame():
    """At d = 4096 naive Laplace's TV saturates at the small ε, so its fitted law has no point to fit: the curve
    stays in every frame (as gaps) instead of leaving some frames and breaking the animation."""
    at = run_page(d="4096")
    assert not at.exception and not at.error
    specs = charts(at)
    assert set(specs) == set(ANIMATED)
    for spec in specs.values():
        _assert_every_frame_has_the_same_traces(spec)
    fitted = "naive Laplace: fitted c·d²/(εn)"
    assert fitted in frame_traces(specs["tv_vs_n"], "0.1")
    assert not np.isfinite(decode(frame_traces(specs["tv_vs_n"], "0.1")[fitted]["y"])).any()

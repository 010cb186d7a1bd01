"""AppTest: the partitioning-rounds page at defaults, extreme and bad controls."""

import numpy as np
import pytest
from helpers import (
    assert_clean_and_animated,
    charts,
    decode,
    frame_traces,
    page_path,
    run,
    texts,
)

from dpcore.distributions import binary_product as products
from dpcore.estimators import partition_rounds as product

PAGE = page_path("partition_rounds.py")
ANIMATED = {"rounds": "round 1", "tv_vs_n": "1", "kl_vs_n": "1", "tv_vs_d": "1,000,000", "profiles": "log-uniform"}


def run_page(**query: str):
    return run(PAGE, timeout=300, **query)


@pytest.fixture(scope="module")
def default_page():
    return run_page()


def test_page_runs_at_defaults_with_every_figure(default_page):
    assert_clean_and_animated(default_page, ANIMATED)
    assert dict(default_page.query_params) == {"eps": "1", "d": "1024", "n": "1000000", "profile": "log-uniform",
                                               "delta": "1e-06", "trials": "30", "seed": "0"}


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
    table = default_page.dataframe[0].value
    assert sum(int(v.replace(",", "")) for v in table["rows"]) == 1_000_000
    assert set(table["ε on these rows"]) <= {"1", "0"}
    traces = frame_traces(charts(default_page)["tv_vs_n"], "1")
    n = decode(traces[product.NAIVE]["x"])
    at = int(np.flatnonzero(n == 1e6)[0])
    assert decode(traces[product.NAIVE]["y"])[at] > 2 * decode(traces[product.PARTITION_PURE]["y"])[at]
    assert 0.009 <= decode(traces[product.NON_PRIVATE]["y"])[at] <= 0.015


def test_takeaways_state_where_the_substitute_loses(default_page):
    notes = " ".join(texts(default_page.markdown))
    assert "Where the pure substitute does not win" in notes and "d = 16, 64" in notes
    assert "Fitted sample-complexity exponents" in notes


@pytest.mark.parametrize("query", [dict(eps="0.1", d="16", n="10000", profile="all 1/2"),
                                   dict(eps="5", d="64", n="10000000", profile="all tiny", trials="10")])
def test_extreme_controls(query):
    at = run_page(**query)
    assert not at.exception and not at.error and not at.warning
    assert at.select_slider(key="w_eps").value == float(query["eps"])
    assert at.select_slider(key="w_d").value == int(query["d"])
    how = set(at.dataframe[1].value["computed"])  # TV of the run: exact by enumeration only for d ≤ 16
    assert how == {"exact (enumeration)"} if query["d"] == "16" else all(h.startswith("Monte Carlo") for h in how)


@pytest.mark.parametrize("query, level, words", [
    (dict(eps="abc"), "error", "Invalid eps='abc'"),
    (dict(n="5"), "warning", "clamped to 10,000"),
    (dict(profile="cubic"), "error", "profile"),
    (dict(d="100"), "info", "using the nearest, 64"),
])
def test_bad_links_give_messages_not_tracebacks(query, level, words):
    at = run_page(**query)
    assert not at.exception
    assert any(words in text for text in texts(getattr(at, level)))

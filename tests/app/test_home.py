"""The home page, run through the app's entry point (st.navigation) as a user opens it."""

import math

import numpy as np
import pytest
from helpers import APP, decode, open_go_deeper, plotly_spec, run, texts
from streamlit.testing.v1 import AppTest

from registry import PAGES, TITLES, papers

EPSILONS = ["0.1", "0.15", "0.2", "0.3", "0.5", "0.7", "1", "1.5", "2", "3", "5"]


def frame_curves(frame: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(density on X, density on X', e^-eps x density on X) of one frame, as plotted."""
    on_x, on_x_prime, floor = (decode(trace["y"]) for trace in frame["data"])
    return on_x, on_x_prime, floor


def test_home_runs_and_shows_an_animated_chart():
    at = run(APP)
    assert not at.exception and not at.error and not at.warning
    spec = plotly_spec(at)
    assert [frame["name"] for frame in spec["frames"]] == EPSILONS
    slider = spec["layout"]["sliders"][0]
    assert [step["label"] for step in slider["steps"]] == EPSILONS
    assert {step["method"] for step in slider["steps"]} == {"animate"}
    assert [button["label"] for button in spec["layout"]["updatemenus"][0]["buttons"]] == ["Play", "Pause"]
    assert spec["layout"]["uirevision"] == "dplab"  # constant: a rerun keeps the user's zoom
    assert at.get("plotly_chart")[0].key == "home_densities"


@pytest.fixture(scope="module")
def default_spec() -> dict:
    return plotly_spec(run(APP))


@pytest.mark.parametrize("label", EPSILONS)
def test_every_frame_shows_the_e_to_the_epsilon_ratio(default_spec, label):
    frame = next(f for f in default_spec["frames"] if f["name"] == label)
    on_x, on_x_prime, floor = frame_curves(frame)
    eps = float(label)
    assert np.max(on_x / on_x_prime) == pytest.approx(math.exp(eps))
    assert np.min(on_x / on_x_prime) == pytest.approx(math.exp(-eps))
    assert np.all(on_x_prime >= floor * (1 - 1e-12))  # X' never drops below e^-eps times X


def test_chart_starts_at_the_sidebar_epsilon():
    at = run(APP)
    assert at.select_slider(key="w_eps").value == 1.0
    spec = plotly_spec(at)
    assert spec["layout"]["sliders"][0]["active"] == EPSILONS.index("1")
    start = next(f for f in spec["frames"] if f["name"] == "1")
    for shown, framed in zip(spec["data"], start["data"]):
        np.testing.assert_array_equal(decode(shown["y"]), decode(framed["y"]))


def test_epsilon_in_the_url_sets_the_widget_the_frame_and_the_takeaways():
    at = run(APP, eps="2")
    assert at.select_slider(key="w_eps").value == 2.0
    spec = plotly_spec(at)
    assert spec["layout"]["sliders"][0]["active"] == EPSILONS.index("2")
    on_x, on_x_prime, _ = (decode(trace["y"]) for trace in spec["data"])
    assert np.max(on_x / on_x_prime) == pytest.approx(math.exp(2))
    notes = next(text for text in texts(at.markdown) if text.startswith("- The largest ratio"))
    assert "7.389 = $e^{2}$" in notes and "88%" in notes


def test_url_follows_the_widget():
    at = run(APP)
    assert at.query_params["eps"] == "1"
    at.select_slider(key="w_eps").set_value(0.3).run()
    assert at.query_params["eps"] == "0.3"
    assert plotly_spec(at)["layout"]["sliders"][0]["active"] == EPSILONS.index("0.3")


@pytest.mark.parametrize("raw, eps, level", [
    ("abc", 1.0, "error"), ("nan", 1.0, "error"), ("inf", 1.0, "error"),
    ("-1", 0.1, "warning"), ("1e308", 5.0, "warning"), ("0.4", 0.5, "info"),
])
def test_bad_epsilon_in_the_link(raw, eps, level):
    at = run(APP, eps=raw)
    assert not at.exception
    assert (len(at.error), len(at.warning), len(at.info)) == tuple(int(level == kind) for kind in
                                                                   ("error", "warning", "info"))
    assert at.select_slider(key="w_eps").value == eps
    assert plotly_spec(at)["layout"]["sliders"][0]["active"] == EPSILONS.index(f"{eps:g}")


def test_presentation_mode_hides_prose_keeps_formula_and_enlarges_the_chart():
    plain, present = run(APP), run(APP, present="1")
    assert not present.exception
    assert len(present.markdown) < len(plain.markdown)
    for heading in ("How to use it", "The papers behind it"):
        assert not any(heading in text for text in texts(present.markdown))
        assert any(heading in text for text in texts(plain.markdown))
    assert len(present.latex) == len(plain.latex) == 1
    assert [plotly_spec(at)["layout"]["template"]["layout"]["font"]["size"] for at in (plain, present)] == [16, 22]


def test_the_course_links_every_topic_page_of_the_registry_in_teaching_order():
    at = run(APP)
    links = [link.proto for link in at.get("page_link")]
    assert [(link.label, link.page) for link in links] == [(f"Next for you: {PAGES[1].title}", PAGES[1].url_path)] + [
        (f"{i}. {page.title} (about {page.minutes} minutes): not started", page.url_path)
        for i, page in enumerate(PAGES[1:], 1)
    ] + [(f"Next: {PAGES[1].title}", PAGES[1].url_path)]  # a new browser's progress: nothing started yet
    summaries = [caption.value for caption in at.caption if caption.value.startswith(tuple(p.summary for p in PAGES))]
    assert summaries == [f"{page.summary}. First: {page.needs}. Papers: {'; '.join(page.papers)}."
                         for page in PAGES[1:]]
    objectives = [text for text in texts(at.markdown) if text.startswith("After it you can ")]
    assert objectives == [f"After it you can {'; '.join(page.objectives)}." for page in PAGES[1:]]
    assert [page.url_path for page in PAGES[1:]] == ["pure-vs-approximate", "exponential-mechanism",
                                                     "truncation-bias", "scheffe-tournament", "partitioning-rounds",
                                                     "privacy-audit-lab", "audit-studio", "real-data",
                                                     "choosing-epsilon"]
    assert all(page.papers for page in PAGES[1:])


def test_the_papers_behind_it_are_every_paper_of_every_page():
    """The home page lists every paper a page draws on, with its title, from the registry (issue 40: the audit lab's
    two were missing from a list typed by hand)."""
    block = next(text for text in texts(run(APP).markdown) if text.startswith("### The papers behind it"))
    cited = {paper for page in PAGES for paper in page.papers}
    assert not [paper for paper in cited if f"- {paper}. " not in block], block
    assert block.splitlines()[1:] == [f"- {paper}. {TITLES[paper]}." for paper in papers()]
    assert set(TITLES) == cited and "- Jagielski, Ullman & Oprea (2020). *Auditing" in block


def test_downloads_and_footer():
    at = open_go_deeper(run(APP))
    buttons = at.get("download_button")
    assert [button.proto.label for button in buttons] == ["Data (CSV)", "Figure (HTML)", "Python snippet",
                                                          "Handout (offline lesson, HTML)"]
    assert "PCG64" in at.main.caption[-1].value and "not a hardened release mechanism" in at.main.caption[-1].value


def test_the_course_map_shows_this_browsers_progress_and_the_next_page():
    """With the progress the browser keeps (seeded: AppTest runs no browser), each page says its state and the map
    links the first page not mastered."""
    from classroom import progress_storage
    from classroom.progress import PageProgress, Progress

    first, second, third = (page.url_path for page in PAGES[1:4])
    progress = Progress(seed=3, pages={first: PageProgress(3, 3, 3, True), second: PageProgress(2, 1, 0, False),
                                       third: PageProgress(1, 0, 0, False)})
    at = AppTest.from_file(APP, default_timeout=30)
    at.session_state[progress_storage.SESSION] = progress
    at.run()
    labels = [link.proto.label for link in at.get("page_link")]
    assert labels[0] == f"Next for you: {PAGES[2].title}"
    assert labels[1:4] == [f"1. {PAGES[1].title} (about {PAGES[1].minutes} minutes): mastered",
                           f"2. {PAGES[2].title} (about {PAGES[2].minutes} minutes): solved, not yet mastered",
                           f"3. {PAGES[3].title} (about {PAGES[3].minutes} minutes): tried"]
    assert labels[4].endswith(": not started")

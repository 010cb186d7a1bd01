"""Two things a teacher does with a link (docs/testing.md: the browser suite).

- The frame of a chart goes into the link: on the home page the chart's frame slider is moved (keyboard) from ε = 1
  to ε = 0.2; the address bar then holds ``frame_home_densities=0.2`` without rerunning the page (the sidebar's ε and
  its odds line stay), and the copied address, opened in another tab, shows the chart on ε = 0.2 and says so
  (``assets/a11y.js``, ``ui.frames``).
- The "Embed" code of "Go deeper", pasted into a local HTML file opened from disk (``file://``), shows the page in
  Streamlit's embed mode with its settings and its charts drawn (``classroom.embed``).
"""

from urllib.parse import parse_qsl, urlsplit

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect
from test_axe import TAGS, failures
from test_deep_links import PAGE_TIMEOUT

HOME_CHART = ".st-key-home_densities .js-plotly-plot"
DRAWN = '[data-testid="stPlotlyChart"] .js-plotly-plot .main-svg'


def query(url: str) -> dict[str, str]:
    return dict(parse_qsl(urlsplit(url).query))


def settled(page) -> None:
    page.wait_for_selector('[data-testid="stApp"]', timeout=PAGE_TIMEOUT)
    page.wait_for_function("() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=PAGE_TIMEOUT)


def frame_label(page: Page) -> str:
    return page.locator(HOME_CHART).evaluate("gd => gd._fullLayout.sliders[0].steps[gd._fullLayout.sliders[0]"
                                             ".active].label")


def test_the_link_copied_after_moving_a_frame_opens_the_chart_on_that_frame(page: Page, base_url: str,
                                                                            console_errors, screenshot_dir):
    page.goto(base_url + "/?eps=1", timeout=PAGE_TIMEOUT)
    page.wait_for_selector(f"{HOME_CHART} g.slider-group[role=slider]", timeout=PAGE_TIMEOUT)
    settled(page)
    assert frame_label(page) == "1"
    page.locator(f"{HOME_CHART} g.slider-group").focus()
    for _ in range(4):  # 1 → 0.7 → 0.5 → 0.3 → 0.2
        page.keyboard.press("ArrowLeft")
        page.wait_for_timeout(150)
    page.wait_for_function(f"() => document.querySelector('{HOME_CHART}')._fullLayout.sliders[0].active === 2",
                           timeout=PAGE_TIMEOUT)
    page.wait_for_function("() => new URLSearchParams(location.search).get('frame_home_densities') === '0.2'",
                           timeout=10_000)
    link = page.url
    assert query(link)["eps"] == "1"  # the sidebar's ε is unchanged: moving the frame reran nothing
    assert frame_label(page) == "0.2"

    # Back to ε = 1: the chart is where the page opens it, and the link says nothing more.
    for _ in range(4):
        page.keyboard.press("ArrowRight")
        page.wait_for_timeout(150)
    page.wait_for_function("() => !new URLSearchParams(location.search).has('frame_home_densities')", timeout=10_000)
    page.keyboard.press("Home")  # ε = 0.1, for a second link
    page.wait_for_function("() => new URLSearchParams(location.search).get('frame_home_densities') === '0.1'",
                           timeout=10_000)

    # The first link, opened in a new tab, shows the chart on ε = 0.2 and says why.
    other = page.context.new_page()
    other.goto(link, timeout=PAGE_TIMEOUT)
    other.wait_for_selector(f"{HOME_CHART} .main-svg", timeout=PAGE_TIMEOUT)
    settled(other)
    assert frame_label(other) == "0.2"
    expect(other.get_by_text("This chart opens on ε = 0.2, as the link asks")).to_be_visible()
    other.wait_for_timeout(1_500)  # the browser script leaves the link as it is: the chart shows its frame
    assert query(other.url).get("frame_home_densities") == "0.2"
    other.locator(HOME_CHART).screenshot(path=screenshot_dir / "frame-from-link.png")
    other.close()
    assert console_errors == []


def test_the_embed_code_shows_the_page_with_its_charts_inside_a_local_html_file(page: Page, base_url: str, tmp_path,
                                                                              console_errors, screenshot_dir):
    page.goto(base_url + "/truncation-bias?eps=2", timeout=PAGE_TIMEOUT)
    page.wait_for_selector(DRAWN, timeout=PAGE_TIMEOUT)
    settled(page)
    page.get_by_text("Go deeper: algorithms").click()
    code = page.locator('[data-testid="stCode"]').filter(has_text="<iframe")
    expect(code).to_be_visible(timeout=PAGE_TIMEOUT)
    snippet = code.inner_text()
    assert "embed=true" in snippet and "eps=2" in snippet
    box = page.get_by_role("checkbox", name="In presentation mode")
    box.focus()
    page.keyboard.press("Space")  # by keyboard: the code gains present=1
    expect(code).to_contain_text("present=1", timeout=PAGE_TIMEOUT)
    page.keyboard.press("Space")
    expect(code).not_to_contain_text("present=1", timeout=PAGE_TIMEOUT)
    settled(page)
    snippet = code.inner_text()
    page.wait_for_timeout(500)
    response = Axe().run(page, options={"runOnly": {"type": "tag", "values": TAGS},
                                        "resultTypes": ["violations"]}).response
    assert failures(response) == []  # Go deeper open, the Embed part included

    lesson = tmp_path / "lesson.html"
    lesson.write_text(f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>Lesson</title></head>"
                      f"<body><h1>Week 3: truncation</h1>{snippet}</body></html>", encoding="utf-8")
    page.goto(lesson.as_uri())
    frame = page.frame_locator("iframe")
    frame.locator(DRAWN).first.wait_for(timeout=PAGE_TIMEOUT)
    embedded = next(child for child in page.frames if child.url.startswith(base_url))
    embedded.wait_for_function("() => !document.querySelector('[data-testid=\"stStatusWidget\"]')",
                               timeout=PAGE_TIMEOUT)
    assert query(embedded.url)["embed"] == "true" and query(embedded.url)["eps"] == "2"
    drawn = embedded.locator(DRAWN).count()
    assert drawn >= 2, drawn
    page.screenshot(path=screenshot_dir / "embedded-page.png")
    assert console_errors == []


def test_play_writes_the_link_once_it_stops_and_a_sidebar_move_takes_the_frame_back(page: Page, base_url: str,
                                                                                    console_errors):
    page.goto(base_url + "/?eps=1", timeout=PAGE_TIMEOUT)
    page.wait_for_selector(f"{HOME_CHART} g.slider-group[role=slider]", timeout=PAGE_TIMEOUT)
    settled(page)
    page.locator(f"{HOME_CHART} g.updatemenu-button").first.focus()
    page.keyboard.press("Enter")  # Play: 1 → 1.5 → 2 → 3 → 5, a frame every 0.8 s
    page.wait_for_function(f"() => document.querySelector('{HOME_CHART}')._fullLayout.sliders[0].active === 8",
                           timeout=10_000)  # ε = 2: playing
    assert "frame_home_densities" not in query(page.url)  # nothing written while it plays
    page.wait_for_function("() => new URLSearchParams(location.search).get('frame_home_densities') === '5'",
                           timeout=15_000)  # written once, where it stopped
    assert query(page.url)["eps"] == "1"

    # The sidebar's ε moved (one step right, 1 → 1.5): the page reruns, the chart opens on the sidebar's ε again and
    # the link's frame goes.
    page.get_by_role("slider", name="Privacy budget ε (log scale)").focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => new URLSearchParams(location.search).get('eps') === '1.5'", timeout=PAGE_TIMEOUT)
    settled(page)
    page.wait_for_function("() => !new URLSearchParams(location.search).has('frame_home_densities')", timeout=10_000)
    assert frame_label(page) == "1.5"
    assert console_errors == []


ERROR_CHART = ".st-key-error_vs_n .js-plotly-plot"  #: pure vs approximate's error vs n, animated over ε


def drawn_traces(page: Page) -> str:
    """What the chart draws, trace by trace: name, legend, style, x and y as plotly.js holds them."""
    return page.locator(ERROR_CHART).evaluate("""gd => JSON.stringify(gd.data.map(t => [t.name, t.legendgroup,
        t.showlegend, t.mode, t.line && t.line.color, t.line && t.line.dash, t.fill, Array.from(t.x || []),
        Array.from(t.y || [])]))""")


def test_every_frame_played_in_the_browser_draws_what_the_server_draws_on_it(page: Page, base_url: str,
                                                                           console_errors):
    """Frames are sent lean (ui.drawn: only what changes); plotly.js, going to a frame, must draw exactly the traces
    the server puts on the chart when a link opens it on that frame (the full traces, merged on the server)."""
    page.goto(base_url + "/pure-vs-approximate", timeout=PAGE_TIMEOUT)
    page.wait_for_selector(f"{ERROR_CHART} .main-svg", timeout=PAGE_TIMEOUT)
    settled(page)
    labels = page.locator(ERROR_CHART).evaluate("gd => gd._fullLayout.sliders[0].steps.map(step => step.label)")
    assert len(labels) > 3
    other = page.context.new_page()
    for label in [labels[-1], labels[1], labels[0]]:  # forwards to the end, back, and to the first
        page.locator(ERROR_CHART).evaluate("(gd, label) => Plotly.animate(gd, [label], {mode: 'immediate', "
                                           "transition: {duration: 0}, frame: {duration: 0, redraw: true}})", label)
        page.wait_for_timeout(300)
        other.goto(f"{base_url}/pure-vs-approximate?frame_error_vs_n={label}", timeout=PAGE_TIMEOUT)
        other.wait_for_selector(f"{ERROR_CHART} .main-svg", timeout=PAGE_TIMEOUT)
        settled(other)
        assert drawn_traces(page) == drawn_traces(other), label
    other.close()
    assert console_errors == []

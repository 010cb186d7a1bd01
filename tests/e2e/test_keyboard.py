"""One page end to end with the keyboard only (docs/testing.md: the browser suite): no mouse event, no ``.click()``.

On Truncation bias a student who cannot use a mouse changes ε in the sidebar, answers and reveals the question (focus
lands on the answer, a live region), plays and pauses an animation (the frame moves, then stays), steps its frames with
the arrow keys (the slider's spoken value and the figure follow), opens "Go deeper" and downloads the figure's data.
Along the way: Plotly's toolbar is not in the Tab order, every Tab stop shows a focus ring, and the page's heading is
read as its title, without the icon's name (assets/a11y.js, assets/style.css, ui.chrome.setup_page and
ui.page.Page.predict).
"""

import csv
import io
from urllib.parse import parse_qsl, urlsplit

from playwright.sync_api import Page, expect
from test_deep_links import PAGE_TIMEOUT, wait_until_rendered

from dpcore.lessons import truncation

URL = "/truncation-bias"
CHART = ".st-key-error_vs_n .js-plotly-plot"  #: the animated error-vs-n figure (frames over the moment order k)
TAB_LIMIT = 150  #: more Tab presses than the page has stops

#: What the element with the keyboard focus is, and how its focus shows: an outline, or (Plotly's SVG controls) the
#: stroke of the shape drawn for it; a hidden radio or range input shows its ring on the picture drawn for it.
FOCUSED = """() => {
    const el = document.activeElement;
    if (!el || el === document.body) return null;
    const ancestors = node => node ? [node, ...ancestors(node.parentElement)] : [];
    const style = getComputedStyle(el);
    const cls = typeof el.className === 'string' ? el.className : (el.className.baseVal || '');
    let ring = style.outlineStyle !== 'none' ? parseFloat(style.outlineWidth) : 0;
    const rect = el.getBoundingClientRect();
    const shape = el.querySelector('rect.updatemenu-item-rect, rect.slider-grip-rect');
    if (shape) ring = Math.max(ring, parseFloat(getComputedStyle(shape).strokeWidth));
    if (rect.width <= 1 || rect.height <= 1) {  // an input hidden from sight: the ring is on what is drawn for it
        const drawn = el.closest('[data-testid="stRadioOption"]') || el.parentElement.parentElement;
        const around = getComputedStyle(drawn);
        ring = around.outlineStyle !== 'none' ? parseFloat(around.outlineWidth) : 0;
    }
    return {tag: el.tagName.toLowerCase(), role: el.getAttribute('role') || '', cls,
            label: el.getAttribute('aria-label') || '',
            text: (el.innerText || el.textContent || '').trim().slice(0, 80),
            type: el.getAttribute('type') || '', ring,
            valuetext: el.getAttribute('aria-valuetext') || '',
            keys: ancestors(el).flatMap(a => [...a.classList].filter(c => c.startsWith('st-key-'))),
            inChart: !!el.closest('.js-plotly-plot'), visible: rect.width > 0 && rect.height > 0};
}"""


def focused(page: Page) -> dict | None:
    return page.evaluate(FOCUSED)


def tab_to(page: Page, wanted, backwards: bool = False) -> dict:
    """Press Tab (Shift+Tab) until the focused element satisfies ``wanted``; fail after a page's worth of stops."""
    for _ in range(TAB_LIMIT):
        page.keyboard.press("Shift+Tab" if backwards else "Tab")
        now = focused(page)
        if now and wanted(now):
            return now
    raise AssertionError("no Tab stop matched")


def tab_stops(page: Page) -> list[dict]:
    """Every Tab stop of the page, in order, from the top (one full round)."""
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    stops: list[dict] = []
    for _ in range(TAB_LIMIT):
        page.keyboard.press("Tab")
        now = focused(page)
        if stops and now == stops[0]:
            return stops
        if now:
            stops.append(now)
    raise AssertionError(f"the Tab order did not come round in {TAB_LIMIT} stops")


def query(page: Page) -> dict[str, str]:
    return dict(parse_qsl(urlsplit(page.url).query))


def frame(page: Page) -> dict:
    """The animated chart's frame on screen: the slider's step, its label, and the first curve's points."""
    return page.locator(CHART).evaluate("""gd => ({
        active: gd._fullLayout.sliders[0].active,
        label: gd.querySelector('.slider-group > text.slider-label').textContent,
        valuetext: gd.querySelector('g.slider-group').getAttribute('aria-valuetext'),
        y: JSON.stringify(gd.data.map(trace => trace.y))})""")


def wait_for_run(page: Page) -> None:
    """The rerun a key press started has finished."""
    page.wait_for_timeout(300)
    page.wait_for_function("() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=PAGE_TIMEOUT)


def test_a_page_end_to_end_with_the_keyboard_only(page: Page, base_url: str, console_errors, screenshot_dir):
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(base_url + URL, timeout=PAGE_TIMEOUT)
    wait_until_rendered(page)
    page.wait_for_selector(f"{CHART} g.slider-group[role=slider]", timeout=PAGE_TIMEOUT)  # a11y.js has run

    # The heading is read as the title alone, and its anchor carries no icon name.
    heading = page.get_by_role("heading", level=1)
    expect(heading).to_have_accessible_name("Truncation bias")
    assert heading.get_attribute("id") == "truncation-bias"
    assert page.locator('h1 a[href="#truncation-bias"]').count() == 1

    # The Tab order: Plotly's toolbar is out of it, every animated chart's Play, Pause and slider are in it, and
    # every stop shows a ring of at least 2 px.
    stops = tab_stops(page)
    assert not [stop for stop in stops if "modebar" in stop["cls"]]
    assert page.locator(".modebar-btn").count() >= 8  # still there for a mouse
    plays = [stop for stop in stops if stop["role"] == "button" and stop["label"].startswith("Play the animation")]
    pauses = [stop for stop in stops if stop["role"] == "button" and stop["label"] == "Pause the animation"]
    sliders = [stop for stop in stops if stop["role"] == "slider" and stop["inChart"]]
    animated = page.locator('.js-plotly-plot g.slider-group').count()
    assert animated == 2 and len(plays) == len(pauses) == len(sliders) == animated
    assert plays[0]["label"] == "Play the animation over moment order k"
    unringed = [stop for stop in stops if stop["tag"] != "main" and stop["ring"] < 2]
    assert unringed == [], unringed

    # Change ε in the sidebar: its slider, one step to the right (1 → 1.5).
    epsilon = tab_to(page, lambda stop: stop["label"] == "Privacy budget ε (log scale)" and stop["type"] == "range")
    assert epsilon["valuetext"] in ("", "1")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => new URLSearchParams(location.search).get('eps') === '1.5'", timeout=PAGE_TIMEOUT)
    wait_for_run(page)
    assert focused(page)["label"] == "Privacy budget ε (log scale)"  # the focus stays where the student is

    # Answer the question: the first choice with Space, then Reveal with Enter.
    question = truncation.radius_question("lomax", 3, 10_000, 1.5)
    choice = tab_to(page, lambda stop: stop["type"] == "radio" and "st-key-question_radius" in stop["keys"])
    page.keyboard.press("Space")
    assert page.locator('.st-key-question_radius input[type=radio]').first.is_checked()
    reveal = tab_to(page, lambda stop: stop["tag"] == "button")
    assert "Reveal the answer" in reveal["text"] and choice
    page.keyboard.press("Enter")
    answer = page.locator(".st-key-answer_radius")
    expect(answer).to_contain_text("the answer is", timeout=PAGE_TIMEOUT)
    page.wait_for_function("() => document.activeElement.classList.contains('st-key-answer_radius')",
                           timeout=10_000)  # focus lands on the answer, once it is there
    assert answer.get_attribute("role") == "status" and answer.get_attribute("aria-live") == "polite"
    said = " ".join(answer.inner_text().split())
    assert said == " ".join(question.feedback(0).replace("**", "").split())
    assert said.startswith(f"Not quite: you said {question.choices[0].lower()}")  # choice 0 is not the answer here
    assert question.answer != 0
    wait_for_run(page)
    page.screenshot(path=screenshot_dir / "keyboard-answer-focused.png")

    # Play, then Pause: the frame moves on, then stays.
    before = frame(page)
    play = tab_to(page, lambda stop: stop["label"] == "Play the animation over moment order k")
    assert play["role"] == "button"
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => document.querySelector('{CHART}')._fullLayout.sliders[0].active !== "
                           f"{before['active']}", timeout=10_000)
    pause = tab_to(page, lambda stop: stop["role"] == "button")
    assert pause["label"] == "Pause the animation"
    page.keyboard.press("Space")
    page.wait_for_timeout(300)  # the pause has taken effect
    paused = frame(page)
    page.wait_for_timeout(1_800)  # longer than two frames of the animation (800 ms each)
    still = frame(page)
    assert still["active"] == paused["active"] != before["active"]
    assert still["y"] != before["y"]  # the curves are another frame's
    assert page.locator("#dplab-announcer").text_content().startswith("Paused at moment order k = ")

    # The frame slider: it comes before Play in the Tab order (Plotly draws it first). Arrows, Home, End and Page
    # Down move the figure's frame, the slider's spoken value and its label together.
    slider = tab_to(page, lambda stop: stop["role"] == "slider" and stop["inChart"], backwards=True)
    assert "moment order k" in slider["label"]
    steps = truncation.MOMENTS
    seen = []
    for key, index in (("Home", 0), ("ArrowRight", 1), ("ArrowRight", 2), ("End", len(steps) - 1),
                       ("ArrowLeft", len(steps) - 2), ("PageDown", len(steps) - 3)):  # 7 frames: a page is one
        previous = frame(page)
        page.keyboard.press(key)
        page.wait_for_function(f"() => document.querySelector('{CHART}')._fullLayout.sliders[0].active === {index}",
                               timeout=10_000)
        page.wait_for_timeout(100)
        now = frame(page)
        spoken = "infinity" if steps[index] == "inf" else steps[index]
        assert now["valuetext"] == f"moment order k = {spoken}" == focused(page)["valuetext"]
        assert now["label"] == f"moment order k = {steps[index]}"  # Plotly's own label moved with it
        assert now["y"] != previous["y"] or index == previous["active"]
        seen.append(now["valuetext"])
    assert len(set(seen)) == len(seen)
    page.locator(CHART).screenshot(path=screenshot_dir / "keyboard-frame-slider.png")
    assert query(page)["eps"] == "1.5"  # the frames moved without rerunning the page

    # Go deeper: open it with Enter, then download the first figure's data (CSV).
    deeper = tab_to(page, lambda stop: stop["tag"] == "summary" and "Go deeper" in stop["text"])
    assert deeper
    page.keyboard.press("Enter")
    expect(page.get_by_text("Data (CSV)")).to_be_visible(timeout=PAGE_TIMEOUT)
    wait_for_run(page)
    tab_to(page, lambda stop: stop["tag"] == "button" and "Data (CSV)" in stop["text"])
    with page.expect_download(timeout=PAGE_TIMEOUT) as download:
        page.keyboard.press("Enter")
    assert download.value.suggested_filename == "error_vs_n.csv"
    text = open(download.value.path(), encoding="utf-8").read()
    assert text.startswith("frame,trace,x,y\n")  # a plain table (how to get dpcore is said under the downloads)
    rows = [row for row in csv.reader(io.StringIO(text)) if row]
    assert len(rows) > 10 and len(rows[0]) >= 3
    assert console_errors == []

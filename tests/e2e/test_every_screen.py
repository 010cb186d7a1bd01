"""Every screen: each page in Chromium on a projector (1280×720, ``?present=1``) and on a phone (390×844), its
geometry read from the DOM and from Plotly's own layout; presentation mode kept across navigation.

What is checked, per page and screen:

* every chart's plot area is at least 60 % of its figure's width (the legend sits below, not beside);
* every text Plotly draws is at least 14 px on screen, and no figure title runs out of its figure;
* an animated chart, with its Play button and frame slider, fits the viewport's height (on the projector), and its
  Play button and slider lie inside the screen, the slider at least half the figure wide;
* no formula is wider than the column it sits in.

Screenshots of every page at both sizes go to ``$SCREENSHOT_DIR/screens`` (default ``artifacts/screenshots``).
"""

import pytest
from playwright.sync_api import Browser, Page
from test_deep_links import PAGE_TIMEOUT, wait_until_rendered

from registry import PAGES

# Every question revealed (reveal=1), so that the figures behind predict-then-reveal questions are measured too.
SCREENS = {"projector": (dict(width=1280, height=720), "present=1&reveal=1"),
           "phone": (dict(width=390, height=844), "reveal=1")}
MIN_PLOT_SHARE = 0.6
MIN_TEXT_PX = 14
MIN_PLOT_HEIGHT_PX = 150  # a long legend wrapping on a phone squeezed one plot to 39 px

GEOMETRY = """() => {
    // Labels of one kind (the x ticks, the y ticks, the bars' values) drawn on top of one another: their pairs.
    const overlapping = gd => ['.xtick text', '.ytick text', '.bartext'].flatMap(sel => {
        const boxes = [...gd.querySelectorAll(sel)].filter(t => t.textContent.trim()
                                                          && getComputedStyle(t).display !== 'none')
            .map(t => ({text: t.textContent, r: t.getBoundingClientRect()})).filter(b => b.r.width > 0);
        const pairs = [];
        boxes.forEach((a, i) => boxes.slice(i + 1).forEach(b => {
            const dx = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
            const dy = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
            if (dx > 1 && dy > 1) pairs.push(`${a.text} / ${b.text}`);
        }));
        return pairs;
    });
    const charts = [...document.querySelectorAll('[data-testid="stPlotlyChart"] .js-plotly-plot')].map(gd => {
        const full = gd._fullLayout, box = gd.getBoundingClientRect();
        const texts = [...gd.querySelectorAll('svg text')].filter(t => t.textContent.trim() && t.getBBox().width > 0);
        const fonts = texts.map(t => parseFloat(getComputedStyle(t).fontSize) * (t.getScreenCTM()?.a || 1));
        const rect = sel => { const el = gd.querySelector(sel); if (!el) return null;
                              const r = el.getBoundingClientRect(); return {left: r.left, right: r.right,
                                                                            top: r.top, bottom: r.bottom,
                                                                            width: r.width}; };
        return {title: (full.title && full.title.text) || '', width: full.width, plot: full._size.w,
                plotHeight: full._size.h,
                top: box.top + window.scrollY, bottom: box.bottom + window.scrollY, left: box.left, right: box.right,
                animated: !!(full.sliders && full.sliders.length), minFont: Math.min(...fonts),
                smallest: texts[fonts.indexOf(Math.min(...fonts))]?.textContent.slice(0, 40) || '',
                titleBox: rect('.gtitle'), play: rect('.updatemenu-button'), slider: rect('.slider-rail-rect'),
                overlaps: overlapping(gd)};
    });
    const formulas = [...document.querySelectorAll('.katex-display')].map(el => ({
        text: el.textContent.slice(0, 60), overflow: el.scrollWidth - el.clientWidth,
        right: el.getBoundingClientRect().right}));
    return {charts, formulas, viewport: {width: innerWidth, height: innerHeight}};
}"""


def geometry(page: Page) -> dict:
    """The page's charts and formulas, measured in the browser (see GEOMETRY)."""
    page.wait_for_timeout(500)  # the formulas' fit-to-width pass runs after the last render
    return page.evaluate(GEOMETRY)


def problems(found: dict, screen: str) -> list[str]:
    """What breaks the bar on this screen, in words (empty: nothing)."""
    width, height = found["viewport"]["width"], found["viewport"]["height"]
    issues = []
    for chart in found["charts"]:
        name = chart["title"][:40] or "untitled chart"
        if chart["plot"] < MIN_PLOT_SHARE * chart["width"]:
            issues.append(f"{name}: plot area {chart['plot']:.0f} of {chart['width']:.0f} px")
        if chart["minFont"] < MIN_TEXT_PX - 0.5:
            issues.append(f"{name}: text {chart['smallest']!r} at {chart['minFont']:.1f} px")
        if chart["plotHeight"] < MIN_PLOT_HEIGHT_PX:
            issues.append(f"{name}: plot area {chart['plotHeight']:.0f} px tall")
        if chart["overlaps"]:
            issues.append(f"{name}: labels on top of each other: {', '.join(chart['overlaps'][:3])}")
        title = chart["titleBox"]
        if title and (title["right"] > chart["right"] + 1 or title["left"] < chart["left"] - 1):
            issues.append(f"{name}: title runs out of the figure")
        if chart["animated"]:
            if screen == "projector" and chart["bottom"] - chart["top"] > height:
                issues.append(f"{name}: animated figure {chart['bottom'] - chart['top']:.0f} px tall on a "
                              f"{height} px screen")
            for control in ("play", "slider"):
                box = chart[control]
                if not box or box["left"] < 0 or box["right"] > width:
                    issues.append(f"{name}: {control} control off screen: {box}")
            if chart["slider"] and chart["slider"]["width"] < 0.5 * chart["width"]:
                issues.append(f"{name}: frame slider {chart['slider']['width']:.0f} px long")
    for formula in found["formulas"]:
        if formula["overflow"] > 1 or formula["right"] > width + 1:
            issues.append(f"formula {formula['text']!r} overflows by {formula['overflow']} px")
    return issues


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("info", PAGES, ids=[info.url_path or "home" for info in PAGES])
def test_every_page_fits_the_screen(browser: Browser, base_url: str, screenshot_dir, info, screen):
    viewport, query = SCREENS[screen]
    context = browser.new_context(viewport=viewport, device_scale_factor=1)
    page = context.new_page()
    page.goto(f"{base_url}/{info.url_path}?{query}", timeout=PAGE_TIMEOUT)
    wait_until_rendered(page)
    found = geometry(page)
    (screenshot_dir / "screens").mkdir(exist_ok=True)
    page.screenshot(path=screenshot_dir / "screens" / f"{info.url_path or 'home'}-{screen}.png", full_page=True)
    if screen == "projector":
        sidebar = page.locator('[data-testid="stSidebar"]')
        assert sidebar.get_attribute("data-collapsed") == "true", "the sidebar starts open in presentation mode"
    context.close()
    assert found["charts"], "no chart drawn"
    assert problems(found, screen) == []


def test_presentation_mode_survives_navigation_and_leaves_with_one_click(browser: Browser, base_url: str):
    context = browser.new_context(viewport=dict(width=1280, height=720))
    page = context.new_page()
    page.goto(f"{base_url}/?present=1", timeout=PAGE_TIMEOUT)
    wait_until_rendered(page)
    # a link in the page (the map of the lab) ...
    page.locator('[data-testid="stMain"] [data-testid="stPageLink"] a').first.click()
    wait_until_rendered(page)
    assert "present=1" in page.url
    # ... and a sidebar link
    page.locator('[data-testid="stExpandSidebarButton"]').click()
    page.locator('[data-testid="stSidebarNav"] a').last.click()
    wait_until_rendered(page)
    assert "present=1" in page.url
    font = page.evaluate("() => getComputedStyle(document.documentElement).fontSize")
    assert font == "22px"
    page.get_by_role("button", name="Leave presentation mode").click()
    page.wait_for_function("() => getComputedStyle(document.documentElement).fontSize === '16px'",
                           timeout=PAGE_TIMEOUT)  # the rerun without the presentation stylesheet
    wait_until_rendered(page)
    assert "present=1" not in page.url
    context.close()

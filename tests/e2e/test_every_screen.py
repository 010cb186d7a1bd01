"""Every screen: each page in Chromium on a projector (1280×720, ``?present=1``) and on a phone (390×844), its
geometry read from the DOM and from Plotly's own layout; presentation mode kept across navigation.

What is checked, per page and screen:

* every chart's plot area is at least 60 % of its figure's width (the legend sits below, not beside);
* every text Plotly draws is at least 14 px on screen, and no figure title runs out of its figure;
* an animated chart, with its Play button and frame slider, fits the viewport's height (on the projector), and its
  Play button and slider lie inside the screen, the slider at least half the figure wide;
* no legend lies over a tick label, an axis or figure title, a panel title, the frame slider, the Play/Pause buttons or
  a colour bar; neither the buttons nor the slider over an x tick label or the x title; no colour bar's title on its
  bar; the slider's value (its prefix and frame) not cut at the figure's or the screen's edge;
* no formula is wider than the column it sits in, nor shrunk below 85 % of its size (it breaks onto lines first);
* the panel titles of a figure with several panels (its annotations) overlap neither each other nor any tick label,
  and no tick label of one panel lies inside another panel's plot area;
* no axis title and no legend entry runs out of its figure (cut at the screen's edge);
* a chart title wraps by the figure's width, never before its first line is full (the browser's fit,
  assets/fit_formulas.js, ran; not in presentation mode, which keeps the server's 30 characters a line);
* no column of a table is hidden: an HTML table (the home page's deployments) never scrolls sideways and every header
  cell lies on the screen (on a phone it turns into cards, its header hidden).

The laptop (1440×900, every page at its defaults) is measured too.

Screenshots of every page at both sizes go to ``$SCREENSHOT_DIR/screens`` (default ``artifacts/screenshots``).
"""

import pytest
from playwright.sync_api import Browser, Page
from test_deep_links import PAGE_TIMEOUT, wait_until_rendered

from registry import PAGES

# Every question revealed (reveal=1), so that the figures behind predict-then-reveal questions are measured too.
SCREENS = {"projector": (dict(width=1280, height=720), "present=1&reveal=1"),
           "phone": (dict(width=390, height=844), "reveal=1"),
           "laptop": (dict(width=1440, height=900), "reveal=1")}
MIN_PLOT_SHARE = 0.6
MIN_TEXT_PX = 14
MIN_PLOT_HEIGHT_PX = 150  # a long legend wrapping on a phone squeezed one plot to 39 px
MIN_FORMULA_SCALE = 0.85  # a formula breaks onto lines before it shrinks further (the home page's went to 13.6 px)

GEOMETRY = r"""() => {
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
    const bounds = el => { const r = el.getBoundingClientRect(); return {left: r.left, right: r.right, top: r.top,
                                                                        bottom: r.bottom, width: r.width}; };
    const meets = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1
                            && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
    // Panel titles (annotations) on one another or on tick labels; a panel's tick labels inside another panel.
    const panelClashes = gd => {
        const notes = [...gd.querySelectorAll('.annotation-text-g')].map(el => ({text: el.textContent, r: bounds(el)}))
            .filter(n => n.r.width > 0);
        const ticks = [...gd.querySelectorAll('.xtick text, .ytick text')].filter(t => t.textContent.trim())
            .map(t => ({text: t.textContent, r: bounds(t), sub: t.closest('[class*="tick"]').parentElement}));
        const clashes = [];
        notes.forEach((a, i) => notes.slice(i + 1).forEach(b => {
            if (meets(a.r, b.r)) clashes.push(`panel titles ${a.text} / ${b.text}`); }));
        notes.forEach(n => ticks.forEach(t => { if (meets(n.r, t.r)) clashes.push(`${n.text} on tick ${t.text}`); }));
        const plots = Object.keys(gd._fullLayout._plots || {});
        if (plots.length > 1) {
            const box = gd.getBoundingClientRect();
            const areas = plots.map(id => { const p = gd._fullLayout._plots[id];
                return {id, left: box.left + p.xaxis._offset, right: box.left + p.xaxis._offset + p.xaxis._length,
                        top: box.top + p.yaxis._offset, bottom: box.top + p.yaxis._offset + p.yaxis._length}; });
            for (const id of plots) {
                const p = gd._fullLayout._plots[id];
                for (const axis of [p.xaxis, p.yaxis]) {
                    const labels = [...gd.querySelectorAll(`.${axis._id}tick text`)].map(bounds);
                    for (const label of labels) for (const area of areas)
                        if (area.id !== id && meets(label, area)) clashes.push(`${axis._id} tick in ${area.id}`);
                }
            }
        }
        return [...new Set(clashes)];
    };
    // What the legend, the Play/Pause buttons, the frame slider and a colour bar's title are drawn over: the legend
    // over a tick label, an axis or figure title, a panel title, the slider (its rail, labels or value), the buttons or
    // a colour bar; the buttons or the slider over an x tick label or an x title; a colour bar's title on its bar; the
    // slider's value (its prefix and frame) cut at the figure's or the screen's edge.
    const layoutClashes = gd => {
        const items = (sel, what) => [...gd.querySelectorAll(sel)]
            .filter(el => el.tagName !== 'text' || el.textContent.trim())
            .map(el => ({what: what(el), r: bounds(el)})).filter(item => item.r.width > 0);
        const said = el => el.textContent.trim().slice(0, 30);
        const ticks = items('[class^="x"][class$="tick"] > text, [class^="y"][class$="tick"] > text',
                            el => `tick label ${said(el)}`);
        const xTicks = items('[class^="x"][class$="tick"] > text', el => `x tick label ${said(el)}`);
        const titles = items('text.gtitle, text[class^="x"][class$="title"], text[class^="y"][class$="title"]',
                             el => `title ${said(el)}`);
        const xTitles = items('text[class^="x"][class$="title"]', el => `x title ${said(el)}`);
        const panels = items('.annotation-text-g', el => `panel title ${said(el)}`);
        const slider = items('.slider-container', () => 'frame slider');
        const buttons = items('.updatemenu-button', el => `${said(el)} button`);
        const colourBars = items('.cbfills', () => 'colour bar');
        const legend = items('.legend > .bg', () => 'legend');
        const clashes = [];
        const against = (movers, others) => movers.forEach(a => others.forEach(b => {
            if (meets(a.r, b.r)) clashes.push(`${a.what} on ${b.what}`); }));
        against(legend, [...ticks, ...titles, ...panels, ...slider, ...buttons, ...colourBars]);
        against(buttons, [...xTicks, ...xTitles]);
        against(slider, [...xTicks, ...xTitles, ...buttons]);
        against(items('.cbtitle', el => `colour bar title ${said(el)}`), colourBars);
        const box = gd.getBoundingClientRect();
        items('.slider-group > text.slider-label', el => `slider value ${said(el)}`).forEach(value => {
            if (value.r.left < Math.max(box.left, 0) - 1 || value.r.right > Math.min(box.right, innerWidth) + 1)
                clashes.push(`${value.what} cut at the edge`); });
        return [...new Set(clashes)];
    };
    const canvas = document.createElement('canvas').getContext('2d');
    // A title broken into lines while its first line had room for the next word: wrapped early (by characters).
    const wrappedEarly = (gd, full) => {
        const text = (gd.layout.title && (gd.layout.title.text ?? gd.layout.title)) || '';
        const lines = String(text).split(/<br\s*\/?>/i);
        if (lines.length < 2) return false;
        canvas.font = `${full.title.font.size}px ${full.title.font.family}`;
        const next = lines[1].split(' '), word = next[1] === '=' ? next.slice(0, 3).join(' ') : next[0];  // "a = b"
        const firstAndNext = (lines[0] + ' ' + word).replace(/<[^>]+>/g, '');
        return canvas.measureText(firstAndNext).width < 0.9 * (full.width * (1 - full.title.x) - 24);
    };
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
                overlaps: overlapping(gd), panelClashes: panelClashes(gd), wrappedEarly: wrappedEarly(gd, full),
                layoutClashes: layoutClashes(gd),
                // axis titles and legend entries: their boxes, to be inside the figure
                cut: [...gd.querySelectorAll('.xtitle, .ytitle, .x2title, .y2title, .legendtext')]
                    .filter(t => t.textContent.trim() && t.getBoundingClientRect().width > 0)
                    .map(t => ({text: t.textContent.slice(0, 40), r: bounds(t)}))
                    .filter(t => t.r.left < Math.max(box.left, 0) - 1 || t.r.right > Math.min(box.right, innerWidth) + 1
                                 || t.r.top < box.top - 1 || t.r.bottom > box.bottom + 1)
                    .map(t => t.text)};
    });
    // A table never hides a column: it does not scroll sideways and every header lies on the screen. HTML tables
    // only: Streamlit's data grid (st.dataframe) scrolls its columns by design.
    const tables = [...document.querySelectorAll('[data-testid="stMain"] table')]
        .filter(el => el.getBoundingClientRect().width > 0).map(el => {
            const scroller = el.parentElement;
            const headers = [...el.querySelectorAll('th')].filter(th => getComputedStyle(th).display !== 'none'
                && th.closest('thead') && getComputedStyle(th.closest('thead')).position !== 'absolute');
            const offScreen = headers.filter(th => { const r = th.getBoundingClientRect();
                return r.width > 0 && (r.right > innerWidth + 1 || r.left < -1); }).map(th => th.textContent);
            return {text: (el.textContent || '').slice(0, 40), hidden: scroller.scrollWidth - scroller.clientWidth,
                    offScreen};
        });
    // A formula's size against its own (the fit shrinks one that is wider than its column, and breaks it first).
    const scale = el => {
        const formula = el.querySelector(':scope > .katex');
        if (!formula) return 1;
        const shown = parseFloat(getComputedStyle(formula).fontSize), inline = formula.style.fontSize;
        formula.style.fontSize = '';
        const natural = parseFloat(getComputedStyle(formula).fontSize);
        formula.style.fontSize = inline;
        return shown / natural;
    };
    const formulas = [...document.querySelectorAll('.katex-display')].map(el => ({
        text: el.textContent.slice(0, 60), overflow: el.scrollWidth - el.clientWidth,
        right: el.getBoundingClientRect().right, scale: scale(el)}));
    return {charts, formulas, tables, fitted: !!window.dplabFitCharts,
            viewport: {width: innerWidth, height: innerHeight}};
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
        if chart["panelClashes"]:
            issues.append(f"{name}: panels overlap: {', '.join(chart['panelClashes'][:3])}")
        if chart["layoutClashes"]:
            issues.append(f"{name}: drawn over each other: {', '.join(chart['layoutClashes'][:4])}")
        if chart["cut"]:
            issues.append(f"{name}: cut at the figure's edge: {', '.join(chart['cut'][:3])}")
        if chart["wrappedEarly"] and screen != "projector":  # presentation mode keeps the server's wrapping
            issues.append(f"{name}: title wrapped before its line was full")
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
    if not found["fitted"]:
        issues.append("the charts' fit to the screen (assets/fit_formulas.js) did not run")
    for table in found["tables"]:
        if table["hidden"] > 1 or table["offScreen"]:
            issues.append(f"table {table['text']!r}: {table['hidden']} px of columns hidden, off screen: "
                          f"{table['offScreen']}")
    for formula in found["formulas"]:
        if formula["overflow"] > 1 or formula["right"] > width + 1:
            issues.append(f"formula {formula['text']!r} overflows by {formula['overflow']} px")
        if formula["scale"] < MIN_FORMULA_SCALE:
            issues.append(f"formula {formula['text']!r} shrunk to {formula['scale']:.0%} of its size")
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

"""What a screen reader meets, read from Chromium's accessibility tree (Playwright's ARIA snapshot and accessible
names and descriptions): docs/design.md §3, "Charts a screen reader can read" and "Keyboard" (assets/a11y.js).

- A chart is its name (its title) and its description, the "In words" paragraph under it (``aria-describedby``):
  none of Plotly's drawing (tick labels, legend, titles, the toolbar's icons, an unnamed image per SVG layer) is in
  its subtree, only an animated chart's Play, Pause and frame slider.
"""

import re

from playwright.sync_api import Page, expect
from test_deep_links import PAGE_TIMEOUT, wait_until_rendered

LAPTOP = dict(width=1440, height=900)
#: pages whose charts are read: animated lines with bands, a histogram and marker lines (Truncation bias); heat maps
#: with colour bars, two-panel bars, a histogram with density curves (Scheffé tournament); the home page's animation
CHART_PAGES = ("/truncation-bias?reveal=1", "/scheffe-tournament?reveal=1", "/")
#: what a chart's subtree may hold besides the figure itself: an animated chart's three controls
CONTROLS = re.compile(r'^- (slider "Frame of the animation(: [^"]+)?"|button "Play the animation( over [^"]+)?"|'
                      r'button "Pause the animation")$')
#: Plotly's texts: tick labels, colour bar ticks, legend entries, titles
DRAWN = "g.xtick text, g.ytick text, g.cbaxis text, g.legend text.legendtext, text.gtitle, text.xtitle, text.ytitle"


def snapshot_lines(locator) -> list[str]:
    """The element's ARIA snapshot, one node a line, without YAML's quotes (a name with a colon is quoted)."""
    lines = []
    for line in locator.aria_snapshot().splitlines():
        line = line.strip()
        quoted = re.fullmatch(r"- '(.*)'(:?)", line)
        lines.append(f"- {quoted[1].replace(chr(39) * 2, chr(39))}{quoted[2]}" if quoted else line)
    return lines


def test_a_chart_is_read_as_its_name_its_words_and_its_controls(page: Page, base_url: str):
    page.set_viewport_size(LAPTOP)
    read = animated = 0
    for path in CHART_PAGES:
        page.goto(base_url + path, timeout=PAGE_TIMEOUT)
        wait_until_rendered(page)
        page.wait_for_timeout(500)  # a11y.js runs after the last render
        charts = page.locator('[data-testid="stPlotlyChart"]')
        for index in range(charts.count()):
            chart = charts.nth(index)
            key = chart.evaluate("e => [...e.closest('[data-testid=stElementContainer]').classList]"
                                 ".find(c => c.startsWith('st-key-')).slice(7)")
            name = chart.get_attribute("aria-label")
            lines = snapshot_lines(chart)
            assert lines[0] in (f'- figure "{name}"', f'- figure "{name}":'), (path, key, lines[0])
            rest = lines[1:]
            assert [line for line in rest if not CONTROLS.match(line)] == [], (path, key, rest)
            assert not any(" img" in line or line.startswith("- img") for line in rest), (path, key, rest)
            drawn = chart.evaluate(f"e => [...e.querySelectorAll('{DRAWN}')].map(t => t.textContent.trim())"
                                   ".filter(Boolean)")
            assert drawn, (path, key)  # Plotly drew tick labels and a legend or a title; none of it is read
            assert not [text for text in drawn if any(text in line for line in rest)], (path, key)
            animated += len(rest) == 3

            # Its description is the "In words" paragraph under it, and only that.
            words = page.locator(f".st-key-words_{key}")
            assert chart.get_attribute("aria-describedby") == words.get_attribute("id") == f"dplab-words-{key}"
            paragraph = " ".join(words.inner_text().split())
            assert paragraph.startswith("In words: ")
            expect(chart).to_have_accessible_description(paragraph)
            read += 1
    assert read >= 12 and animated >= 4

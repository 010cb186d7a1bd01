"""Links people save and share: a deep link with state opens that page, with that state, inside the app.

The first test needs a server nobody has visited yet: with a `pages/` folder beside app.py, Streamlit 1.67 runs its
legacy page discovery until `st.navigation` has run once, so a fresh server's first request for /truncation-bias
showed "Page not found — ... Running the app's main page." and lost the path.
"""

import time
from urllib.parse import parse_qsl, quote, urlsplit

import pytest
from playwright.sync_api import Browser, Page, expect

from registry import PAGES, by_url_path

CHART = '[data-testid="stPlotlyChart"] .js-plotly-plot'
PAGE_TIMEOUT = 90_000  # ms: a topic page at non-default settings computes for 5-20 s, more on a busy machine
SEED = "Random seed (one run)"

# One saved link per topic page, every value off its page's default: {widget label: what the widget shows}. Three
# were saved before the URL key k (four meanings on four pages) was renamed: they must keep working.
SAVED_LINKS = {
    "/pure-vs-approximate?eps=0.5&d=16&k=10&seed=3": {
        "Privacy budget ε (log scale)": "0.5", "Dimension d": "16", "Composed releases k": "10", SEED: "3"},
    "/exponential-mechanism?eps=1&n=300&seed=5": {
        "Privacy budget ε (log scale)": "1", "Sample size n (log scale)": "300", SEED: "5"},
    "/truncation-bias?k=4&family=student-t&eps=0.5&seed=2": {
        "Bounded moment order k": "4", "Distribution": "Student's t", "Privacy budget ε (log scale)": "0.5", SEED: "2"},
    "/scheffe-tournament?eps=0.3&k=81&m=4&seed=1": {
        "Privacy budget ε (log scale)": "0.3", "Hypotheses k": "81", "Examples per user m": "4", SEED: "1"},
    "/partitioning-rounds?eps=0.5&d=256&profile=two-level&seed=4": {
        "Privacy ε": "0.5", "Dimension d": "256", "Marginal profile": "two-level", SEED: "4"},
    "/privacy-audit-lab?mechanism=gaussian-mean&variant=B&eps=0.5&seed=3": {
        "Mechanism": "Gaussian mean", "Variant": "B", "Privacy budget ε (log scale)": "0.5", SEED: "3"},
    "/real-data?data=anes96&eps=0.5&lower=18&upper=95&seed=2": {
        "Privacy budget ε (log scale)": "0.5", SEED: "2"},
    "/audit-studio?m=300&k_in=50&eps=2&mode=laplace&bug=bug&seed=3": {
        "Canaries m (log scale)": "300", "Claimed ε (log scale)": "2",
        "Canaries": "Isolated: Laplace noise for each canary",
        "Mechanism": "Planted bug: noise for half the sensitivity", SEED: "3"},
    "/choosing-epsilon?plan=count:t=5;mean:t=2,m=g,hi=120&delta=1e-08&budget=2&seed=3": {
        "δ (log scale)": "1e-08", "Total budget ε (log scale)": "2", SEED: "3"},
}


RENAMED = {("/pure-vs-approximate", "k"): "releases", ("/truncation-bias", "k"): "moment",
           ("/scheffe-tournament", "k"): "hypotheses"}  #: (page, old URL key) -> its key now


def sidebar_controls(page: Page) -> dict[str, str]:
    """{label: value shown} of every control: the sidebar's (select sliders, radio buttons, the seed) and the select
    sliders a page draws beside the chart they change."""
    return page.evaluate("""() => {
        const sidebar = document.querySelector('[data-testid="stSidebar"]');
        const label = el => el.querySelector('[data-testid="stWidgetLabel"]').innerText.trim();
        const shown = {};
        for (const el of document.querySelectorAll('[data-testid="stSlider"]'))
            shown[label(el)] = el.querySelector('input[type=range]').getAttribute('aria-valuetext');
        for (const el of sidebar.querySelectorAll('[data-testid="stRadio"]'))
            shown[label(el)] = el.querySelector('[data-testid="stRadioOption"][data-selected="true"]').innerText.trim();
        for (const el of sidebar.querySelectorAll('[data-testid="stNumberInput"]'))
            shown[label(el)] = el.querySelector('input').value;
        return shown;
    }""")


def wait_until_rendered(page: Page) -> None:
    """The app has drawn the page and finished its run (every chart drawn)."""
    page.wait_for_selector('[data-testid="stApp"]', timeout=PAGE_TIMEOUT)
    page.wait_for_selector(f"{CHART} .main-svg", timeout=PAGE_TIMEOUT)
    page.wait_for_function("() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=PAGE_TIMEOUT)


def assert_the_link_holds(page: Page, link: str, expected: dict[str, str]) -> None:
    """The page of ``link``, inside the app's navigation, showing the link's state, without error."""
    path, query = link.split("?")
    info = by_url_path(path)
    nav = page.locator('[data-testid="stSidebarNav"]')
    expect(nav).to_be_visible()
    assert [text.split("\n")[-1] for text in nav.locator("a").all_inner_texts()] == [p.title for p in PAGES]
    expect(page.locator("h1").first).to_contain_text(info.title)
    url = urlsplit(page.url)
    assert url.path == path
    saved = {RENAMED.get((path, key), key): value for key, value in parse_qsl(query)}
    assert saved.items() <= dict(parse_qsl(url.query)).items(), page.url  # old keys are rewritten to the new
    shown = sidebar_controls(page)
    assert {label: shown.get(label) for label in expected} == expected
    expect(page.locator('[data-testid="stException"]')).to_have_count(0)
    expect(page.locator('[data-testid="stAlertContentError"]')).to_have_count(0)
    expect(page.locator('[data-testid="stAlertContainer"]').filter(has_text="in the link")).to_have_count(0)


def test_a_deep_link_as_a_fresh_servers_first_request_opens_that_page_in_the_app(
        browser: Browser, fresh_server, screenshot_dir):
    link = "/truncation-bias?eps=0.3&seed=7"
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    try:
        page = context.new_page()
        page.goto(fresh_server + link)  # the very first request this server sees
        wait_until_rendered(page)
        time.sleep(5)  # with a pages/ folder, "Page not found" came up within a second or two of the first render
        expect(page.get_by_text("Page not found")).to_have_count(0)
        expect(page.get_by_role("dialog")).to_have_count(0)
        assert_the_link_holds(page, link, {"Privacy budget ε (log scale)": "0.3", SEED: "7"})
        page.screenshot(path=str(screenshot_dir / "deep-link-first-request.png"))
    finally:
        context.close()


@pytest.mark.parametrize("link", SAVED_LINKS)
def test_saved_links_keep_working(page: Page, link):
    page.goto(link)
    wait_until_rendered(page)
    assert_the_link_holds(page, link, SAVED_LINKS[link])


def test_every_topic_page_has_a_saved_link():
    assert sorted(link.split("?")[0] for link in SAVED_LINKS) == sorted(f"/{p.url_path}" for p in PAGES[1:])


def test_a_link_cannot_put_a_link_an_image_or_math_in_the_labs_messages(page: Page, screenshot_dir):
    """The payloads of the security review, in a real browser: each value shows as the characters typed, cut short,
    in a code span; no link to the attacker, no image loaded from it, no formula."""
    requested = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto("/privacy-audit-lab?variant=" + quote("[Session expired: log in again](https://evil.example/login)")
              + "&eps=" + quote("![x](https://evil.example/p.png)") + "&seed=" + quote("$\\href{https://evil.example}{x}$")
              + "&mechanism=" + quote("<b>bold</b>" + "x" * 10_000))
    wait_until_rendered(page)
    alerts = page.locator('[data-testid="stAlertContainer"]')
    expect(alerts.filter(has_text="in the link")).to_have_count(4)
    assert alerts.locator("a, img, .katex, b").count() == 0
    assert not [url for url in requested if urlsplit(url).hostname == "evil.example"]
    texts = alerts.all_inner_texts()
    assert any("variant in the link: [Session expired: log in again](https://… is not" in text for text in texts), texts
    assert max(map(len, texts)) < 300
    page.screenshot(path=str(screenshot_dir / "forged-link-messages.png"))

"""Every registered page in a real browser: no exception, every Plotly chart rendered, a screenshot saved."""

import pytest
from playwright.sync_api import Page, expect

from registry import PAGES

CHART = '[data-testid="stPlotlyChart"] .js-plotly-plot'


def registered_url_paths():
    """The URL path of every registered page, in teaching order ("" for home, served at /)."""
    return [page.url_path for page in PAGES]


def wait_until_idle(page: Page):
    page.wait_for_selector('[data-testid="stApp"]', timeout=30_000)
    page.wait_for_function("() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=60_000)


@pytest.mark.parametrize("url_path", registered_url_paths())
def test_page_renders_every_chart_without_errors(page: Page, console_errors, screenshot_dir, url_path):
    page.goto(f"/{url_path}")
    wait_until_idle(page)
    page.wait_for_selector(f"{CHART} .main-svg", timeout=60_000)
    expect(page.locator('[data-testid="stException"]')).to_have_count(0)
    expect(page.get_by_text("Traceback")).to_have_count(0)
    charts = page.locator('[data-testid="stPlotlyChart"]')
    count = charts.count()
    assert count >= 1
    for index in range(count):
        chart = charts.nth(index)
        chart.scroll_into_view_if_needed()
        expect(chart.locator(".main-svg").first).to_be_visible(timeout=30_000)
        traces = chart.evaluate("el => el.querySelector('.js-plotly-plot').data.length")
        assert traces > 0, f"chart {index} on /{url_path} has no traces"
    page.screenshot(path=str(screenshot_dir / f"{url_path or 'home'}.png"), full_page=True)
    assert console_errors == []


def test_bad_query_parameter_shows_a_message_not_a_traceback(page: Page, screenshot_dir):
    home = registered_url_paths()[0]
    page.goto(f"/{home}?eps=abc")
    wait_until_idle(page)
    expect(page.locator('[data-testid="stAlert"]').first).to_contain_text("eps", timeout=30_000)
    expect(page.locator('[data-testid="stException"]')).to_have_count(0)
    page.wait_for_selector(f"{CHART} .main-svg", timeout=60_000)
    page.screenshot(path=str(screenshot_dir / "home-bad-eps.png"))


def test_animation_plays_through_its_frames(page: Page):
    page.goto(f"/{registered_url_paths()[0]}")
    wait_until_idle(page)
    page.wait_for_selector(f"{CHART} .main-svg", timeout=60_000)
    frames = page.evaluate(f"() => document.querySelector('{CHART}')._transitionData._frames.length")
    assert frames >= 2
    page.locator(f"{CHART} g.updatemenu-button").first.click()
    page.wait_for_function(
        f"() => document.querySelector('{CHART}')._fullLayout.sliders[0].active === {frames - 1}", timeout=30_000)

"""The privacy audit lab in Chromium: Play replays the audit as draws accumulate (the frame title and the slider
move through the draw counts), and the attacker game's buttons record a round."""

from playwright.sync_api import Page, expect
from test_deep_links import CHART, PAGE_TIMEOUT, wait_until_rendered

from dpcore.lessons import audit_lab as lesson


def test_play_replays_the_audit_and_the_game_records_a_guess(page: Page, base_url: str, screenshot_dir):
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(f"{base_url}/privacy-audit-lab?draws=10000", timeout=PAGE_TIMEOUT)
    wait_until_rendered(page)
    chart = page.locator(CHART).first
    title = "el => el._fullLayout.title.text.replace(/<br>/g, ' ')"
    assert chart.evaluate(title).startswith("10,000 draws each")  # opens on all the draws
    seen = set()
    chart.locator(".updatemenu-button", has_text="Play").click()
    for _ in range(40):  # 800 ms a frame, 5 frames
        seen.add(chart.evaluate(title).split(" draws")[0])
        page.wait_for_timeout(150)
    counts = [f"{count:,}" for count in lesson.draw_counts(10_000)]
    assert set(counts[:3]) <= seen  # it went back to 100 draws and moved up through the counts
    chart.screenshot(path=screenshot_dir / "audit-lab-playing.png")
    page.get_by_role("button", name="Guess out").click()
    expect(page.get_by_text("You: 1 round,")).to_be_visible(timeout=PAGE_TIMEOUT)

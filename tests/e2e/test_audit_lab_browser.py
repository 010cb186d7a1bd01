"""The privacy audit lab in Chromium: the page opens without a verdict, Play replays the outputs as draws accumulate
(the frame title and the slider move through the draw counts), a guess by the keyboard alone reveals the verdict and
the bound figure, and the attacker game's buttons record a round and say whether the target was in."""

from playwright.sync_api import Page, expect
from test_deep_links import CHART, PAGE_TIMEOUT, wait_until_rendered

from dpcore.lessons import audit_lab as lesson

TITLE = "el => el._fullLayout.title.text.replace(/<br>/g, ' ')"


def test_play_replays_the_audit_and_the_game_records_a_guess(page: Page, base_url: str, screenshot_dir):
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(f"{base_url}/privacy-audit-lab?draws=10000", timeout=PAGE_TIMEOUT)
    wait_until_rendered(page)
    chart = page.locator(CHART).first
    assert chart.evaluate(TITLE) == "10,000 draws each of variant A"  # all the draws, and no verdict before a guess
    expect(page.locator(CHART)).to_have_count(2)  # the histograms and the attacker's plane: no bound figure yet
    seen = set()
    chart.locator(".updatemenu-button", has_text="Play").click()
    for _ in range(40):  # 800 ms a frame, 5 frames
        seen.add(chart.evaluate(TITLE).split(" draws")[0])
        page.wait_for_timeout(150)
    counts = [f"{count:,}" for count in lesson.draw_counts(10_000)]
    assert set(counts[:3]) <= seen  # it went back to 100 draws and moved up through the counts
    chart.screenshot(path=screenshot_dir / "audit-lab-playing.png")
    page.get_by_role("button", name="Guess out").click()
    expect(page.get_by_text("You: 1 round,")).to_be_visible(timeout=PAGE_TIMEOUT)
    expect(page.get_by_text("Round 1: the released count was")).to_be_visible()
    expect(page.get_by_text("The target was out: right.")).to_be_visible()  # seed 0's first round: out


def test_a_guess_by_keyboard_reveals_the_verdict(page: Page, base_url: str, screenshot_dir):
    """Tab to the question's A/B choice, pick B with the arrow keys, press the reveal button with Enter: the page says
    the guess was right (seed 0 puts the Laplace count's bug under B), shows variant A's verdict and the bound."""
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(f"{base_url}/privacy-audit-lab?draws=10000", timeout=PAGE_TIMEOUT)
    wait_until_rendered(page)
    question = lesson.broken_question("laplace-count", 0)
    box = page.locator(f".st-key-question_{question.key}")
    expect(box).to_contain_text(question.prompt)
    expect(page.get_by_text("Not caught.")).to_have_count(0)
    box.scroll_into_view_if_needed()
    box.screenshot(path=screenshot_dir / "audit-lab-question.png")
    first = box.get_by_role("radio").first
    first.focus()  # where Tab from the previous control lands
    page.keyboard.press("Space")  # A
    page.keyboard.press("ArrowRight")  # B
    expect(box.get_by_role("radio", name="B")).to_be_checked()
    for _ in range(5):
        page.keyboard.press("Tab")
        if box.get_by_role("button", name="Reveal the answer and the figure").evaluate(
                "el => el === document.activeElement"):
            break
    page.keyboard.press("Enter")
    expect(page.locator('[data-testid="stAlertContentSuccess"]')).to_contain_text("Right: B.", timeout=PAGE_TIMEOUT)
    expect(page.get_by_text("Not caught.")).to_be_visible(timeout=PAGE_TIMEOUT)
    expect(page.locator(CHART)).to_have_count(3, timeout=PAGE_TIMEOUT)
    wait_until_rendered(page)
    assert page.locator(CHART).first.evaluate(TITLE).endswith("claim 1: not caught")
    box.screenshot(path=screenshot_dir / "audit-lab-answered.png")

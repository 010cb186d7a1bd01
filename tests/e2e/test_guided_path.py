"""The guided path in Chromium: a predict-then-reveal round with the mouse, and the same round with the keyboard only.

A student who cannot use a mouse (or a speaker with a clicker) must reach the guess, choose, reveal and move a
control with Tab, arrows, Space and Enter alone.
"""

from playwright.sync_api import Page, expect
from test_deep_links import CHART, PAGE_TIMEOUT, wait_until_rendered

from dpcore.lessons import exponential_mechanism, truncation

QUESTION = '[class*="st-key-question_"]'


def chart_count(page: Page) -> int:
    return page.locator(CHART).count()


def test_a_predict_then_reveal_round(page: Page, base_url: str, screenshot_dir):
    """Truncation: the trade-off figure is absent until the guess; a wrong guess is told so, with the computed answer,
    and the figure appears."""
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(f"{base_url}/truncation-bias", timeout=PAGE_TIMEOUT)
    wait_until_rendered(page)
    question = truncation.radius_question("lomax", 3, 10_000, 1.0)
    box = page.locator(QUESTION)
    expect(box).to_contain_text(question.prompt)
    before = chart_count(page)
    box.scroll_into_view_if_needed()
    box.screenshot(path=screenshot_dir / "question-before.png")
    wrong = question.choices[(question.answer + 1) % len(question.choices)]
    box.get_by_text(wrong, exact=True).click()
    box.get_by_role("button", name="Reveal the answer and the figure").click()
    expect(page.locator('[data-testid="stAlertContentError"]')).to_contain_text("Not quite", timeout=PAGE_TIMEOUT)
    expect(page.locator('[data-testid="stAlertContentError"]')).to_contain_text(question.choices[question.answer])
    expect(page.locator(CHART)).to_have_count(before + 1, timeout=PAGE_TIMEOUT)
    wait_until_rendered(page)
    page.locator(QUESTION).screenshot(path=screenshot_dir / "question-after.png")
    page.locator(CHART).filter(has_text="Narrow window").screenshot(path=screenshot_dir / "question-after-figure.png")


def focused(page: Page) -> dict:
    return page.evaluate("""() => {
        const el = document.activeElement;
        return {tag: el.tagName, type: el.type || '', text: (el.innerText || '').trim().slice(0, 80),
                label: el.getAttribute('aria-label') || '', value: el.getAttribute('aria-valuetext') || ''};
    }""")


def tab_to(page: Page, matches, limit: int = 120) -> dict:
    """Press Tab until the focused element satisfies ``matches`` (the keyboard's own order, as a user would)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        state = focused(page)
        if matches(state):
            return state
    raise AssertionError(f"Tab never reached the element; last focus {state}")


def test_the_keyboard_alone_plays_a_round_and_moves_a_control(page: Page, base_url: str):
    """Exponential mechanism, keyboard only: Tab to the guess, arrows to choose, Tab to Reveal, Enter; then Tab to the
    sidebar's ε slider and ArrowRight moves ε (and the URL)."""
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(f"{base_url}/exponential-mechanism", timeout=PAGE_TIMEOUT)
    wait_until_rendered(page)
    question = exponential_mechanism.election_question(0.1)
    page.locator("body").focus()
    tab_to(page, lambda state: state["type"] == "radio"
           and page.evaluate("() => !!document.activeElement.closest('[class*=\"st-key-question_\"]')"))
    page.keyboard.press("Space")  # the first choice (a radio group takes the arrows; Space selects the focused one)
    page.keyboard.press("ArrowDown")  # the second choice
    reveal = tab_to(page, lambda state: "Reveal the answer" in state["text"])  # after its icon's name
    assert reveal["tag"] == "BUTTON"
    page.keyboard.press("Enter")
    verdict = page.locator('[data-testid="stAlertContentError"], [data-testid="stAlertContentSuccess"]')
    expect(verdict).to_contain_text(question.choices[question.answer], timeout=PAGE_TIMEOUT)
    expect(verdict).to_contain_text("you said 40 % to 60 % of the time")  # the second choice, chosen by arrow
    page.locator("body").focus()
    tab_to(page, lambda state: state["type"] == "range" and state["label"].startswith("Privacy budget ε"))
    page.keyboard.press("ArrowRight")
    page.wait_for_url("**eps=0.15**", timeout=PAGE_TIMEOUT)

"""A class poll on the projector (1280×720, ``?present=1&teacher=1``): once the teacher opens it, the room's code, its
QR code and the count of answers are on the first screen of the question, right under its prompt (ui.Page.predict,
assets/present.css), not 680 px down a question box taller than the screen. The poll itself:
tests/e2e/test_class_poll_browser.py.
"""

import re

from conftest import keep_teacher_key
from playwright.sync_api import Browser, expect
from test_deep_links import PAGE_TIMEOUT, wait_until_rendered

PROJECTOR = dict(width=1280, height=720)
# Where each part lies once the question's box is scrolled to the top of the screen, just under Streamlit's header (the
# longest prompt of the lab: truncation's, six lines on a projector).
WHERE = """() => {
    const box = document.querySelector('[class*="st-key-question_"]:has(.dplab-room-code)');
    const header = document.querySelector('[data-testid="stHeader"]').getBoundingClientRect().bottom;
    const top = box.getBoundingClientRect().top;
    const count = [...box.querySelectorAll('p, h3')].find(el => /answered so far/.test(el.textContent));
    const place = el => { const r = el.getBoundingClientRect(); return {top: r.top - top + header,
                                                                      bottom: r.bottom - top + header}; };
    return {code: place(box.querySelector('.dplab-room-code')), qr: place(box.querySelector('img.dplab-qr')),
            count: place(count), prompt: place(box.querySelector('[data-testid="stMarkdown"]'))};
}"""


def test_an_open_polls_code_qr_and_count_are_on_the_first_screen(browser: Browser, base_url: str, screenshot_dir):
    context = browser.new_context(viewport=PROJECTOR, device_scale_factor=1)
    keep_teacher_key(context, base_url)
    page = context.new_page()
    page.goto(f"{base_url}/truncation-bias?present=1&teacher=1", timeout=PAGE_TIMEOUT)
    wait_until_rendered(page)
    button = page.get_by_role("button", name="Poll the class on this question").first
    new_poll = page.get_by_role("button", name="New poll on this question").first
    open_room = page.locator(".dplab-room-code")
    expect(button.or_(open_room).or_(new_poll)).to_be_visible(timeout=PAGE_TIMEOUT)
    if new_poll.is_visible() and not open_room.count():  # another test's poll on this question was revealed: end it
        new_poll.click()
        expect(button).to_be_visible(timeout=PAGE_TIMEOUT)
    if button.is_visible():  # else a poll another test opened on this question is open: the same box shows it
        button.click()
    expect(page.locator(".dplab-room-code")).to_be_visible(timeout=PAGE_TIMEOUT)
    expect(page.get_by_text(re.compile(r"answered so far"))).to_be_visible(timeout=PAGE_TIMEOUT)
    try:
        box = page.locator('[class*="st-key-question_"]').filter(has=page.locator(".dplab-room-code"))
        box.evaluate("el => el.scrollIntoView({block: 'start'})")
        page.wait_for_timeout(300)
        where = page.evaluate(WHERE)
        page.screenshot(path=screenshot_dir / "poll-projector-first-screen.png")
        for part in ("code", "qr", "count"):
            assert where[part]["bottom"] <= PROJECTOR["height"], (part, where)
        assert where["prompt"]["bottom"] < where["qr"]["top"]  # under the question's prompt, before its choices
    finally:  # the poll ends: the next test opens its own on this question
        if page.locator(".dplab-room-code").count():
            page.get_by_role("button", name="End the poll").click()
            expect(page.locator(".dplab-room-code")).to_have_count(0, timeout=PAGE_TIMEOUT)
        context.close()

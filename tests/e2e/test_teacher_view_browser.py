"""The teacher view on a projector and on a phone, with the keyboard only (the behaviours themselves, through
AppTest: tests/app/test_teacher_view.py).

At 1280×720 with ``?present=1&teacher=1`` nothing on the screen gives an answer away; the folded notes open with the
keyboard, and their "settings to show live" links open new tabs that keep presentation mode and the page's settings;
"Leave teacher view" is in sight at the top and, pressed with the keyboard, drops the flag and keeps presentation
mode; axe-core finds no serious violation with the notes open. On a phone the two "Leave" buttons fit the screen's
width.
"""

from urllib.parse import parse_qsl, urlsplit

from axe_playwright_python.sync_playwright import Axe
from conftest import keep_teacher_key
from playwright.sync_api import Browser, expect
from test_axe import TAGS, failures
from test_deep_links import PAGE_TIMEOUT, wait_until_rendered
from test_keyboard import focused, query, tab_to, wait_for_run

URL = "/truncation-bias?present=1&teacher=1&eps=0.5"
NOTES = "Teacher view: questions for discussion, settings to show live"


def test_the_projector_shows_no_answer_and_the_teacher_leaves_by_keyboard(browser: Browser, base_url: str,
                                                                            screenshot_dir):
    context = browser.new_context(viewport=dict(width=1280, height=720), device_scale_factor=1)
    keep_teacher_key(context, base_url)
    page = context.new_page()
    page.goto(base_url + URL, timeout=PAGE_TIMEOUT)
    wait_until_rendered(page)
    page.screenshot(path=screenshot_dir / "teacher-projector.png")
    main = page.locator('[data-testid="stMain"]')
    for spoiler in ("The answer:", "Answer:", "Questions for discussion", "You said"):
        assert spoiler not in main.inner_text(), spoiler
    expect(page.get_by_role("button", name="Reveal the answer and the figure")).to_be_visible()
    leave = page.get_by_role("button", name="Leave teacher view")
    box = leave.bounding_box()
    assert box and box["y"] + box["height"] <= 720 and box["x"] + box["width"] <= 1280  # in sight, at the top
    # the notes open with the keyboard, and their links keep presentation mode and the settings
    tab_to(page, lambda now: now["tag"] == "summary" and NOTES in now["text"])
    page.keyboard.press("Enter")
    wait_for_run(page)
    notes = page.locator('[data-testid="stExpander"]').filter(has_text=NOTES)
    expect(notes.get_by_text("Questions for discussion", exact=True)).to_be_visible(timeout=PAGE_TIMEOUT)
    links = notes.locator('a[href*="truncation-bias"]')
    assert links.count() == 3
    for index in range(links.count()):
        link = links.nth(index)
        settings = dict(parse_qsl(urlsplit(link.get_attribute("href")).query))
        assert settings["present"] == "1" and settings["teacher"] == "1", settings
        assert link.get_attribute("target") == "_blank"
    assert dict(parse_qsl(urlsplit(links.nth(1).get_attribute("href")).query))["eps"] == "0.5"  # kept
    assert dict(parse_qsl(urlsplit(links.nth(1).get_attribute("href")).query))["t"] == "0.5"  # set by the link
    page.screenshot(path=screenshot_dir / "teacher-projector-notes.png")
    page.wait_for_timeout(500)  # the formulas' fit-to-width pass runs after the last render
    scan = Axe().run(page, options={"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"]})
    assert failures(scan.response) == []  # the Leave buttons, the folded answer and the opened notes pass axe-core
    # leave the teacher view with the keyboard alone
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    now = tab_to(page, lambda now: now["tag"] == "button" and "Leave teacher view" in now["text"])
    assert now["ring"] >= 2  # the focus shows
    page.keyboard.press("Enter")
    wait_for_run(page)
    expect(page.get_by_role("button", name="Leave teacher view")).to_have_count(0, timeout=PAGE_TIMEOUT)
    assert "teacher" not in query(page) and query(page)["present"] == "1" and query(page)["eps"] == "0.5"
    expect(page.locator('[data-testid="stExpander"]').filter(has_text=NOTES)).to_have_count(0)
    assert page.evaluate("() => getComputedStyle(document.documentElement).fontSize") == "22px"  # still presenting
    assert focused(page) is None or "Leave teacher view" not in focused(page)["text"]
    context.close()


def test_on_a_phone_the_leave_buttons_fit_the_screen(browser: Browser, base_url: str, screenshot_dir):
    context = browser.new_context(viewport=dict(width=390, height=844), device_scale_factor=1)
    keep_teacher_key(context, base_url)
    page = context.new_page()
    page.goto(base_url + URL, timeout=PAGE_TIMEOUT)
    wait_until_rendered(page)
    page.screenshot(path=screenshot_dir / "teacher-phone.png")
    for name in ("Leave presentation mode", "Leave teacher view"):
        box = page.get_by_role("button", name=name).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390, (name, box)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390  # no sideways scrolling
    context.close()

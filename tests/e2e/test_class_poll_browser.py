"""The class poll in the browser, with the keyboard only: a teacher's projector (1280×720, ``?present=1&teacher=1``)
and a student's phone (390×844) on one server (the behaviours themselves: tests/app/test_class_poll.py; 60 voters on
two replicas: tests/e2e/test_poll_replicas.py).

The teacher types the lab's teacher key once (a password field), opens a poll by keyboard and sees the room code, its
QR code, the count and the Reveal button on one screen; the student types the code as read from the wall on the home
page, answers with the arrow keys and sends with Enter; a reload of the phone keeps its one vote (the browser keeps
its voter id) and a reload of the projector finds the room again (the browser keeps the key); the projector's count
moves by itself; the teacher reveals by keyboard and the phone shows the release by itself. No horizontal scrolling
on the phone; axe-core finds no serious violation on either screen.
"""

import re

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect
from test_axe import TAGS, failures
from test_deep_links import PAGE_TIMEOUT, wait_until_rendered
from test_keyboard import tab_to, wait_for_run

from classroom import poll, teacher_key

PROJECTOR = dict(width=1280, height=720)
PHONE = dict(width=390, height=844)


def in_view(page: Page, selector: str, height: int) -> bool:
    """Whether the element is inside the viewport's height (after the page scrolled to what has the focus)."""
    box = page.locator(selector).first.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


def no_serious_violation(page: Page) -> list[str]:
    page.wait_for_timeout(500)
    return failures(Axe().run(page, options={"runOnly": {"type": "tag", "values": TAGS},
                                             "resultTypes": ["violations"]}).response)


def test_a_poll_run_from_a_projector_and_answered_from_a_phone_with_the_keyboard_only(browser: Browser,
                                                                                     base_url: str, screenshot_dir):
    teacher = browser.new_context(viewport=PROJECTOR, device_scale_factor=1).new_page()
    teacher.goto(f"{base_url}/truncation-bias?present=1&teacher=1", timeout=PAGE_TIMEOUT)
    wait_until_rendered(teacher)
    tab_to(teacher, lambda now: now["tag"] == "input" and "Teacher key" in now["label"])
    assert teacher.evaluate("() => document.activeElement.type") == "password"  # never drawn on the projector
    teacher.keyboard.type(teacher_key.lab_key().lower())
    teacher.keyboard.press("Enter")
    expect(teacher.get_by_role("button", name="Poll the class on this question")).to_be_visible(timeout=PAGE_TIMEOUT)
    assert teacher_key.lab_key() not in teacher.content() and "teacher_key" not in teacher.url
    tab_to(teacher, lambda now: now["tag"] == "button" and "Poll the class on this question" in now["text"])
    teacher.keyboard.press("Enter")
    code_box = teacher.locator(".dplab-room-code")
    expect(code_box).to_be_visible(timeout=PAGE_TIMEOUT)
    code = code_box.inner_text().strip()
    assert re.fullmatch(r"[A-Z2-9]{5}", code)
    count = teacher.get_by_text(re.compile(r"answered so far"))
    expect(count).to_have_text("0 answered so far", timeout=PAGE_TIMEOUT)
    reveal = teacher.get_by_role("button", name="Reveal the class's answers")
    reveal.scroll_into_view_if_needed()
    for selector in (".dplab-room-code", "img.dplab-qr", "text=answered so far"):  # one screen: code, QR, count, button
        assert in_view(teacher, selector, PROJECTOR["height"]), selector
    assert in_view(teacher, ".st-key-poll_reveal_radius", PROJECTOR["height"])
    teacher.screenshot(path=screenshot_dir / "poll-projector-open.png")
    assert no_serious_violation(teacher) == []

    student = browser.new_context(viewport=PHONE, device_scale_factor=1).new_page()
    student.goto(base_url + "/", timeout=PAGE_TIMEOUT)
    wait_until_rendered(student)
    tab_to(student, lambda now: now["tag"] == "input" and "Join a class poll" in now["label"])
    student.keyboard.type(f"{code[:2].lower()} {code[2:].lower()}")  # as read from the wall
    student.keyboard.press("Enter")
    ballot = student.locator(".st-key-class_poll")
    expect(ballot).to_contain_text(f"Room {code}.", timeout=PAGE_TIMEOUT)
    tab_to(student, lambda now: now["type"] == "radio" and "st-key-class_poll" in now["keys"])
    student.keyboard.press("ArrowDown")  # the second answer, "1 < t ≤ 3"
    student.keyboard.press("ArrowDown")  # the third, "3 < t ≤ 10"
    wait_for_run(student)
    tab_to(student, lambda now: now["tag"] == "button" and "Send my answer" in now["text"])
    student.keyboard.press("Enter")
    expect(ballot).to_contain_text("Your answer is in: 3 < t ≤ 10.", timeout=PAGE_TIMEOUT)
    assert student.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]  # no sideways scrolling
    student.screenshot(path=screenshot_dir / "poll-phone-voted.png")
    assert no_serious_violation(student) == []
    student.reload(timeout=PAGE_TIMEOUT)  # a new session of the same browser: its vote is found, no second ballot
    wait_until_rendered(student)
    ballot = student.locator(".st-key-class_poll")
    expect(ballot).to_contain_text("Your answer is in: 3 < t ≤ 10.", timeout=PAGE_TIMEOUT)
    assert student.get_by_role("button", name="Send my answer").count() == 0

    teacher.reload(timeout=PAGE_TIMEOUT)  # the projector reloaded: the browser keeps the key, the store the room
    wait_until_rendered(teacher)
    expect(teacher.locator(".dplab-room-code")).to_have_text(code, timeout=PAGE_TIMEOUT)
    count = teacher.get_by_text(re.compile(r"answered so far"))

    expect(count).to_have_text("1 answered so far", timeout=3 * poll.TEACHER_SECONDS * 1000 + 5000)  # by itself
    teacher.evaluate("() => document.activeElement && document.activeElement.blur()")
    tab_to(teacher, lambda now: now["tag"] == "button" and "Reveal the class's answers" in now["text"])
    teacher.keyboard.press("Enter")
    released = teacher.locator(".dplab-table").filter(has_text="released with ε = 1")
    expect(released).to_be_visible(timeout=PAGE_TIMEOUT)
    expect(released).to_contain_text("✓ right")
    teacher.screenshot(path=screenshot_dir / "poll-projector-revealed.png")
    phone_release = ballot.locator(".dplab-table")
    expect(phone_release).to_be_visible(timeout=2 * poll.STUDENT_SECONDS * 1000 + 10_000)  # the phone updates itself
    expect(phone_release).to_contain_text("✓ right")  # the right answer marked on the phone too, after the reveal
    assert "appear here when the teacher reveals" not in ballot.inner_text()  # the waiting sentence has gone
    expect(ballot).to_contain_text("You answered: 3 < t ≤ 10.")
    expect(ballot).to_contain_text("need not add up")
    assert student.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    student.screenshot(path=screenshot_dir / "poll-phone-revealed.png")
    assert no_serious_violation(teacher) == [] and no_serious_violation(student) == []
    tab_to(teacher, lambda now: now["tag"] == "button" and "New poll on this question" in now["text"])
    teacher.keyboard.press("Enter")  # the revealed poll ends: the question offers a new one (to the next test too)
    expect(teacher.get_by_role("button", name="Poll the class on this question")).to_be_visible(timeout=PAGE_TIMEOUT)

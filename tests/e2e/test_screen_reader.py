"""What a screen reader meets, read from Chromium's accessibility tree (Playwright's ARIA snapshot and accessible
names and descriptions): docs/design.md §3, "Charts a screen reader can read" and "Keyboard" (assets/a11y.js).

- A chart is its name (its title) and its description, the "In words" paragraph under it (``aria-describedby``):
  none of Plotly's drawing (tick labels, legend, titles, the toolbar's icons, an unnamed image per SVG layer) is in
  its subtree, only an animated chart's Play, Pause and frame slider.
- "Join" (the home page's class poll code), "Send my answer" (the ballot) and a file chosen in the real-data page's
  uploader each rerun the page and remove what had the focus: the focus then lands where the answer shows, and the
  live region (``#dplab-announcer``) reads it. The class's answers, revealed later in the poll's box, are read too.
- axe-core finds no serious violation in the states these reach (the poll's box with its ballot, then with the
  confirmation focused; a file read on the real-data page, its column focused) on the laptop, the projector
  (``?present=1``) and the phone.
- A Tab pressed 0.4 s after choosing an answer in the ballot (its rerun under way) reaches "Send my answer", and the
  vote is sent.
"""

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect
from test_axe import SCREENS, TAGS, failures
from test_deep_links import PAGE_TIMEOUT, wait_until_rendered
from test_keyboard import focused, tab_to, wait_for_run

from classroom import lab_store, poll_store, teacher_key
from dpcore.lessons import class_poll

PHONE = dict(width=390, height=844)
LAPTOP = dict(width=1440, height=900)
#: pages whose charts are read: animated lines with bands, a histogram and marker lines (Truncation bias); heat maps
#: with colour bars, two-panel bars, a histogram with density curves (Scheffé tournament); the home page's animation
CHART_PAGES = ("/truncation-bias?reveal=1", "/scheffe-tournament?reveal=1", "/")
#: what a chart's subtree may hold besides the figure itself: an animated chart's three controls
CONTROLS = re.compile(r'^- (slider "Frame of the animation(: [^"]+)?"|button "Play the animation( over [^"]+)?"|'
                      r'button "Pause the animation")$')
#: Plotly's texts: tick labels, colour bar ticks, legend entries, titles
DRAWN = "g.xtick text, g.ytick text, g.cbaxis text, g.legend text.legendtext, text.gtitle, text.xtitle, text.ytitle"
ANNOUNCER = "#dplab-announcer"
QUESTION = "Which clipping radius wins? Pick one."
CHOICES = ["a small one", "a middle one", "a big one"]
WAGES = b"id,hourly_wage\nA,13.5\nB,21.9\nC,17.3\nD,45\nE,9.8\nF,30.4\n"


def snapshot_lines(locator) -> list[str]:
    """The element's ARIA snapshot, one node a line, without YAML's quotes (a name with a colon is quoted)."""
    lines = []
    for line in locator.aria_snapshot().splitlines():
        line = line.strip()
        quoted = re.fullmatch(r"- '(.*)'(:?)", line)
        lines.append(f"- {quoted[1].replace(chr(39) * 2, chr(39))}{quoted[2]}" if quoted else line)
    return lines


def open_room() -> poll_store.Room:
    """A room of the lab's key on a question no page asks (so no teacher's page of the session's server finds it)."""
    return lab_store.shared_store().create_room("truncation-bias", QUESTION, CHOICES, teacher_key.lab_key(), 20.0,
                                                 "screen_reader_test")


def end_room(room: poll_store.Room) -> None:
    lab_store.shared_store().close(room.code, teacher_key.lab_key())


def focus_in(page: Page, selector: str) -> bool:
    return page.evaluate("selector => !!document.activeElement && !!document.activeElement.closest(selector)",
                         selector)


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


def test_join_and_send_move_the_focus_to_the_answer_and_read_it(browser: Browser, base_url: str):
    room = open_room()
    student = browser.new_context(viewport=PHONE, device_scale_factor=1).new_page()
    try:
        student.goto(base_url + "/", timeout=PAGE_TIMEOUT)
        wait_until_rendered(student)

        # A code of the wrong form: the form's message takes the focus and is read.
        tab_to(student, lambda now: now["tag"] == "input" and "Join a class poll" in now["label"])
        student.keyboard.type("K7Q")
        student.keyboard.press("Enter")
        student.wait_for_function("() => !!document.activeElement.closest('[data-testid=stForm] "
                                  "[data-testid=stAlert]')", timeout=PAGE_TIMEOUT)
        expect(student.locator(ANNOUNCER)).to_have_text("A room code has 5 characters; this one has 3.",
                                                        timeout=5_000)

        # The room's code: the poll's box at the top of the page takes the focus, its question is read.
        tab_to(student, lambda now: now["tag"] == "input" and "Join a class poll" in now["label"], backwards=True)
        student.keyboard.press("Control+A")
        student.keyboard.type(room.code.lower())
        student.keyboard.press("Enter")
        student.wait_for_function("() => document.activeElement.classList.contains('st-key-class_poll')",
                                  timeout=PAGE_TIMEOUT)
        box = student.get_by_role("region", name="Class poll")
        expect(box).to_be_focused()
        expect(student.locator(ANNOUNCER)).to_have_text(f"Room {room.code}. {QUESTION}", timeout=5_000)
        wait_for_run(student)

        # The ballot: the answer from the keyboard, Send with Enter; the confirmation takes the focus and is read.
        tab_to(student, lambda now: now["type"] == "radio" and "st-key-class_poll" in now["keys"])
        student.keyboard.press("ArrowDown")  # the second answer
        wait_for_run(student)
        tab_to(student, lambda now: now["tag"] == "button" and "Send my answer" in now["text"])
        student.keyboard.press("Enter")
        confirmation = (f"Your answer is in: {CHOICES[1]}. The class's results appear here when the teacher reveals "
                        "them.")
        student.wait_for_function("() => !!document.activeElement.closest('.st-key-class_poll "
                                  "[data-testid=stAlert]')", timeout=PAGE_TIMEOUT)
        assert f"Your answer is in: {CHOICES[1]}." in focused(student)["text"]
        expect(student.locator(ANNOUNCER)).to_have_text(confirmation, timeout=5_000)

        # The teacher reveals: the phone's box shows the release by itself, and it is read once.
        store = lab_store.shared_store()
        store.reveal(room.code, teacher_key.lab_key(), 1.0)
        tally = store.tally(room.code)
        result = class_poll.poll_result(list(tally.counts), CHOICES, 1.0, noise="geometric", seed=tally.room.seed)
        rows = "; ".join(f"{label} {int(count)}" for label, count in zip(CHOICES, result.released_counts))
        expect(student.locator(ANNOUNCER)).to_have_text(f"The class's answers, released with ε = 1: {rows}.",
                                                        timeout=15_000)
        assert focus_in(student, ".st-key-class_poll [data-testid=stAlert]")  # the reveal leaves the focus be
    finally:
        student.context.close()
        end_room(room)


def test_a_tab_pressed_while_the_ballot_reruns_reaches_send(browser: Browser, base_url: str):
    """Choosing an answer reruns the page; a Tab 0.4 s later (the run under way) lands on "Send my answer" and stays
    there once the run is over, so Enter sends the vote."""
    room = open_room()
    student = browser.new_context(viewport=PHONE, device_scale_factor=1).new_page()
    try:
        student.goto(f"{base_url}/?room={room.code}", timeout=PAGE_TIMEOUT)
        wait_until_rendered(student)
        tab_to(student, lambda now: now["type"] == "radio" and "st-key-class_poll" in now["keys"])
        student.keyboard.press("ArrowDown")
        student.keyboard.press("ArrowDown")  # the third answer: two reruns, the second replacing the first
        student.wait_for_timeout(400)
        student.keyboard.press("Tab")
        assert "Send my answer" in focused(student)["text"]
        wait_for_run(student)
        assert "Send my answer" in focused(student)["text"]  # the run left the focus where it was
        student.keyboard.press("Enter")
        expect(student.locator(".st-key-class_poll")).to_contain_text(f"Your answer is in: {CHOICES[2]}.",
                                                                      timeout=PAGE_TIMEOUT)
    finally:
        student.context.close()
        end_room(room)


def test_a_file_chosen_moves_the_focus_to_its_column_or_its_message(page: Page, base_url: str):
    page.set_viewport_size(LAPTOP)
    page.goto(base_url + "/real-data?data=upload", timeout=PAGE_TIMEOUT)
    page.wait_for_selector('.st-key-upload_file [data-testid="stFileUploader"]', timeout=PAGE_TIMEOUT)
    wait_for_run(page)
    for name, content, lands, said in (
            ("words.csv", b"name,city\nann,paris\nbob,rome\n", ".st-key-upload_file ~ * [data-testid=stAlert]",
             "No column of this file holds at least two numbers"),
            ("wages.csv", WAGES, ".st-key-upload_column input", "wages.csv is read. Column: hourly_wage.")):
        uploader = page.locator(".st-key-upload_file")  # the data's (Check yourself has an uploader too)
        uploader.get_by_role("button", name="Upload", exact=True).or_(
            uploader.get_by_role("button", name="Add files")).focus()
        page.locator('.st-key-upload_file input[type="file"]').set_input_files(  # what the file chooser gives
            {"name": name, "mimeType": "text/csv", "buffer": content})
        page.wait_for_function("selector => !!document.activeElement.closest(selector)", arg=lands,
                               timeout=PAGE_TIMEOUT)
        expect(page.locator(ANNOUNCER)).to_contain_text(said, timeout=5_000)
        wait_for_run(page)
    assert page.locator(".st-key-upload_column input").input_value() == "hourly_wage"


@pytest.mark.parametrize("screen", SCREENS)
def test_the_poll_box_and_a_file_read_have_no_serious_violation_on_any_screen(browser: Browser, base_url: str,
                                                                              screen):
    viewport, query = SCREENS[screen]
    room = open_room()
    page = browser.new_context(viewport=viewport, device_scale_factor=1).new_page()
    found = {}

    def scan(state: str) -> None:
        page.wait_for_timeout(500)
        response = Axe().run(page, options={"runOnly": {"type": "tag", "values": TAGS},
                                            "resultTypes": ["violations"]}).response
        if failures(response):
            found[state] = failures(response)
    try:
        page.goto(f"{base_url}/?room={room.code}&{query}", timeout=PAGE_TIMEOUT)
        wait_until_rendered(page)
        scan("ballot")
        page.locator(".st-key-class_poll input[type=radio]").first.focus()
        page.keyboard.press("Space")
        wait_for_run(page)
        page.get_by_role("button", name="Send my answer").focus()
        page.keyboard.press("Enter")
        page.wait_for_function("() => !!document.activeElement.closest('.st-key-class_poll [data-testid=stAlert]')",
                               timeout=PAGE_TIMEOUT)
        scan("voted")
        page.goto(f"{base_url}/real-data?data=upload&{query}", timeout=PAGE_TIMEOUT)
        page.wait_for_selector('.st-key-upload_file [data-testid="stFileUploader"]', timeout=PAGE_TIMEOUT)
        wait_for_run(page)
        page.locator('.st-key-upload_file input[type="file"]').set_input_files(
            {"name": "wages.csv", "mimeType": "text/csv", "buffer": WAGES})
        page.wait_for_function("() => !!document.activeElement.closest('.st-key-upload_column')", timeout=PAGE_TIMEOUT)
        wait_for_run(page)  # no chart yet: the public range is the student's to type
        scan("file read")
    finally:
        page.context.close()
        end_room(room)
    assert found == {}, found

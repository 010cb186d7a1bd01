""""Check yourself" in a real browser (classroom.check_yourself, classroom.progress_storage, classroom.receipts).

On Pure vs approximate DP, the page whose numeric exercise ``laplace_scale`` is the subject (the numbers a student
gets are computed here from the seed their browser keeps: ``variant_of``):

- a wrong answer gives the first hint, a second the second hint and "Show the answer", which shows the worked
  solution of the variant on screen; "Try a new one" gives a new variant, a right answer says "Right." and a new
  variant comes; three right in a row master the page; the status line counts it all;
- the progress stays in the browser (``localStorage``): through a reload and in a new tab (the home page's course map
  reads it), not in another browser (a new context), which starts afresh;
- "Download my progress", then "Load my progress" in another browser restores it byte for byte; a file that is not
  JSON, and JSON of another kind (a receipt), are refused with a message and change nothing;
- "Download a receipt" after three right answers: a replica (a second ``streamlit run`` sharing the data folder and
  the teacher key, without ``DPLAB_SECRET``) checks it in the home page's teacher view (the page mastered, three
  answers), and says a token whose payload was altered proves nothing;
- answering, loading and forgetting write nothing on the server: the data folder and the checkout are unchanged;
- with the keyboard only, "Check" (then "Show the answer", "Try a new one") moves the focus to the verdict and the live
  region reads it (assets/a11y.js);
- axe-core finds no serious violation in the section with its hints shown on the laptop, the projector and the phone;
  screenshots of it go to the screenshot folder.

One student's tab (``student``, module-scoped) serves most tests: each starts with "Forget my progress". The page takes
15-30 s to load on a busy machine, so few tabs are opened.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from conftest import APP_DIR, keep_teacher_key, running_server
from playwright.sync_api import Browser, Locator, Page, expect
from test_axe import SCREENS, TAGS, failures
from test_deep_links import PAGE_TIMEOUT, wait_until_rendered
from test_keyboard import tab_to

from classroom import receipts
from classroom.check_yourself import variant_of
from classroom.progress import IN_A_ROW, from_json
from dpcore import exercises
from registry import PAGES

PAGE = "pure-vs-approximate"
URL = f"/{PAGE}"
TITLE = next(info.title for info in PAGES if info.url_path == PAGE)
KEY = "laplace_scale"  #: the numeric exercise the tests answer
EXERCISE = next(exercise for exercise in exercises.for_page(PAGE) if exercise.key == KEY)
LISTED = exercises.for_page(PAGE)  #: every exercise of the page (others may be added)
BOX = f".st-key-exercise_{KEY}"
SECTION = f'[data-testid="stVerticalBlock"]:has(> [data-testid="stLayoutWrapper"] > {BOX})'  #: the fragment
ALERT = '[data-testid="stAlert"]'
WORDS = f'{ALERT} [data-testid="stMarkdownContainer"]'  #: an alert's words, without its icon's name
ANNOUNCER = "#dplab-announcer"
STORAGE = "dplab_progress"
STATUS = re.compile(r"\d+ right of \d+ checked")
LAPTOP = SCREENS["laptop"][0]
#: what the tests write into the checkout (the screenshots) and the tools' caches: not the server's doing
NOT_THE_SERVERS = {".git", "__pycache__", ".pytest_cache", ".hypothesis", ".mypy_cache", ".ruff_cache", ".venv"}
#: source files, which other sessions sharing a work tree may edit while the test runs; a server writes data (the poll
#: store, stored sweeps, a secret), never these
SOURCES = {".py", ".md", ".js", ".css", ".toml", ".txt", ".sh", ".cfg", ".ini", ".yml", ".yaml"}


# ------------------------------------------------------------------------- helpers
def exercise_box(page: Page, key: str = KEY) -> Locator:
    return page.locator(f".st-key-exercise_{key}")


def answer_box(page: Page) -> Locator:
    """The answer box of the variant on screen (its key ends with the attempt)."""
    return exercise_box(page).locator('[class*="st-key-answer_"] input')


def button(page: Page, name: str) -> Locator:
    return exercise_box(page).locator(f".st-key-{name}_{KEY} button")


def alerts(page: Page) -> Locator:
    """The words of the exercise's alerts (feedback, hints, the answer), in order."""
    return exercise_box(page).locator(WORDS)


def status(page: Page) -> Locator:
    """The section's status line: tried, right, the run toward mastery."""
    return page.get_by_test_id("stMarkdownContainer").filter(has_text=STATUS)


def idle(page: Page) -> None:
    """No run is under way (a quick run of the section may never show as running: the tests wait for what it
    changes, then for this)."""
    page.wait_for_function("() => document.querySelector('[data-testid=stApp]')"
                           ".getAttribute('data-test-script-state') === 'notRunning'", timeout=PAGE_TIMEOUT)


def kept_text(page: Page) -> str | None:
    return page.evaluate(f"() => localStorage.getItem('{STORAGE}')")


def kept(page: Page) -> dict | None:
    text = kept_text(page)
    return None if text is None else json.loads(text)


def kept_when(page: Page, condition) -> dict:
    """The progress the browser keeps, once ``condition`` holds for it (the storage writes after the run)."""
    for _ in range(100):
        document = kept(page)
        if document is not None and condition(document):
            return document
        page.wait_for_timeout(100)
    raise AssertionError(f"the browser keeps {kept(page)}")


def exercise_state(document: dict) -> list:
    return document["pages"][PAGE]["exercises"][KEY]


def variant(page: Page) -> exercises.Variant:
    """The variant the student sees, from the seed and attempt their browser keeps."""
    return variant_of(EXERCISE, PAGE, from_json(kept_text(page)))


def formulas(page: Page) -> list[str]:
    """The TeX of the exercise's formulas on screen (its numbers)."""
    return exercise_box(page).locator("annotation").all_text_contents()


def formulas_of(made: exercises.Variant) -> list[str]:
    """The TeX of a variant's prompt: what :func:`formulas` reads when the page shows that variant."""
    return re.findall(r"\$([^$]+)\$", made.prompt)


def open_exercises(page: Page, url: str) -> None:
    page.goto(url, timeout=PAGE_TIMEOUT)
    wait_until_rendered(page)
    expect(answer_box(page)).to_be_visible(timeout=PAGE_TIMEOUT)
    expect(status(page)).to_be_visible()
    idle(page)


def start_afresh(page: Page) -> dict:
    """ "Forget my progress": a new seed, nothing checked; the progress the browser then keeps."""
    before = kept(page)
    forget = page.locator(".st-key-progress_forget").get_by_role("button", name="Forget my progress")
    forget.click()  # (its help's tooltip holds a hidden copy of the button)
    expect(page.get_by_text("Your progress is forgotten")).to_be_visible()
    document = kept_when(page, lambda document: document["pages"] == {} and (before is None
                                                                           or document["seed"] != before["seed"]))
    expect(status(page)).to_contain_text("Not started: 0 right of 0 checked; 0 of 3 right in a row")
    idle(page)
    return document


def check(page: Page, typed: str, said: str) -> None:
    """Type ``typed`` and press "Check"; wait for the exercise's first alert to say ``said`` and the run to end (words
    the alert did not say before, or the caller waits for what else changes). A tab that reruns (another tab answered)
    briefly shows the old variant's box beside the new one: the box is typed in once it is the only one."""
    expect(answer_box(page)).to_have_count(1, timeout=PAGE_TIMEOUT)
    answer_box(page).fill(typed)
    button(page, "check").click()
    expect(alerts(page).first).to_contain_text(said)
    idle(page)


def right_answer(page: Page, mastered: bool = False) -> exercises.Variant:
    """Answer the variant on screen right; the new variant's box comes."""
    made = variant(page)
    attempt = kept(page)["pages"].get(PAGE, {}).get("exercises", {}).get(KEY, [0])[0]
    check(page, f"{made.answer:g}", "Right.")
    end = f" The page is mastered: {IN_A_ROW} right in a row." if mastered else ""
    expect(alerts(page).first).to_have_text(f"Right. {made.why}{end} Here is a new one.")
    expect(exercise_box(page).locator(f".st-key-answer_{KEY}_{attempt + 1} input")).to_have_value("")
    kept_when(page, lambda document: exercise_state(document)[0] == attempt + 1)
    return made


def download(page: Page, name: str, folder: Path) -> Path:
    with page.expect_download() as started:
        page.locator(f".st-key-{name} button").click()
    path = folder / started.value.suggested_filename
    started.value.save_as(path)
    return path


def upload(page: Page, key: str, name: str, content: bytes) -> None:
    """Choose a file in the uploader ``key`` (what its file chooser gives)."""
    page.locator(f'.st-key-{key} input[type="file"]').set_input_files(
        {"name": name, "mimeType": "application/json", "buffer": content})


@dataclass
class Tab:
    """A browser tab at the page, and what it showed and kept when it first opened it."""

    page: Page
    first_status: str
    first_kept: str | None
    first_formulas: list[str]


@pytest.fixture(scope="module")
def student(browser: Browser, base_url: str):
    """One student's tab at the page (1440×900), kept for the module's tests."""
    context = browser.new_context(viewport=LAPTOP, device_scale_factor=1)
    page = context.new_page()
    open_exercises(page, base_url + URL)
    yield page
    context.close()


@pytest.fixture(scope="module")
def newcomer(browser: Browser, base_url: str):
    """Another browser (its own context: its own localStorage), at the page."""
    context = browser.new_context(viewport=LAPTOP, device_scale_factor=1)
    page = context.new_page()
    open_exercises(page, base_url + URL)
    for _ in range(30):  # what the browser keeps is written as the section's run ends
        if kept_text(page) is not None:
            break
        page.wait_for_timeout(100)
    yield Tab(page, " ".join(status(page).inner_text().split()), kept_text(page), formulas(page))
    context.close()


# ------------------------------------------------------------------------- the tests
def test_the_page_lists_its_exercises_in_their_containers(student: Page):
    for number, listed in enumerate(LISTED, start=1):
        box = exercise_box(student, listed.key)
        expect(box).to_contain_text(f"Exercise {number} of {len(LISTED)}: {listed.title}")
        expect(box.locator(f".st-key-check_{listed.key} button")).to_have_text(re.compile("Check"))
    assert EXERCISE.kind == "numeric"


def test_hints_then_the_answer_then_right_answers_to_mastery(student: Page):
    page = student
    start_afresh(page)
    made = variant(page)
    assert formulas(page) == formulas_of(made)  # the variant on screen is the one computed from the kept seed
    typed = f"{made.answer + 1:g}"

    # A first wrong answer: the first hint.
    check(page, typed, "The first hint is below.")
    expect(alerts(page).first).to_have_text(f"Not yet. {typed} is more than {made.tolerance:g} away from the answer. "
                                            "The first hint is below.")
    expect(alerts(page).filter(has_text="Hint:")).to_have_text([f"Hint: {made.hints[0]}"])
    expect(button(page, "show")).to_have_count(0)
    expect(status(page)).to_contain_text("Tried: 0 right of 1 checked; 0 of 3 right in a row")

    # What is not a number is said so, and not counted.
    check(page, "about fifty", "What you typed is not a number")
    expect(status(page)).to_contain_text("Tried: 0 right of 1 checked")

    # A second wrong answer: the second hint, and "Show the answer".
    check(page, "-1", "The second hint is below.")
    expect(alerts(page).filter(has_text="Hint:")).to_have_text([f"Hint: {hint}" for hint in made.hints])
    expect(status(page)).to_contain_text("Tried: 0 right of 2 checked")
    assert exercise_state(kept_when(page, lambda d: exercise_state(d) == [0, 2, False])) == [0, 2, False]

    # "Show the answer": the worked solution of this variant; Check is off until a new variant.
    button(page, "show").click()
    expect(alerts(page).first).to_have_text("Read the worked answer below, then try a new variant.")
    expect(alerts(page).filter(has_text="The answer:")).to_have_text(f"The answer: {made.solution}")
    expect(button(page, "check")).to_be_disabled()
    kept_when(page, lambda document: exercise_state(document) == [0, 2, True])

    # "Try a new one": a new variant, no alert left.
    button(page, "new").click()
    expect(exercise_box(page).locator(f".st-key-answer_{KEY}_1 input")).to_be_visible()
    expect(alerts(page)).to_have_count(0)
    kept_when(page, lambda document: exercise_state(document) == [1, 0, False])

    # Right: "Right." with the formula and the variant's numbers, and a new variant; three in a row master the page.
    right_answer(page)
    expect(status(page)).to_contain_text("Solved: 1 right of 3 checked; 1 of 3 right in a row")
    right_answer(page)
    expect(status(page)).to_contain_text("Solved: 2 right of 4 checked; 2 of 3 right in a row")
    right_answer(page, mastered=True)
    expect(status(page)).to_contain_text("Mastered. 3 right of 5 checked.")
    document = kept_when(page, lambda document: len(document["receipts"]) == 3)
    assert {name: document["pages"][PAGE][name] for name in ("tried", "solved", "streak", "mastered")} == {
        "tried": 5, "solved": 3, "streak": 3, "mastered": True}
    assert exercise_state(document) == [4, 0, False]
    assert not re.search(r"\d\.\d{6,}", page.locator(SECTION).inner_text())  # no raw float on screen


def test_progress_survives_a_reload_and_a_new_tab_not_another_browser(student: Page, newcomer: Tab, base_url: str):
    page = student
    start_afresh(page)
    check(page, "-1", "The first hint is below.")
    document = kept_when(page, lambda document: PAGE in document["pages"])
    numbers = formulas(page)

    page.reload(timeout=PAGE_TIMEOUT)
    wait_until_rendered(page)
    expect(answer_box(page)).to_be_visible(timeout=PAGE_TIMEOUT)
    expect(status(page)).to_contain_text("Tried: 0 right of 1 checked")
    expect(alerts(page).filter(has_text="Hint:")).to_have_count(1)  # the hint the wrong answer earned
    assert formulas(page) == numbers  # the same variant
    assert kept(page) == document

    tab = page.context.new_page()  # a new tab of the same browser: the course map reads the same progress
    try:
        tab.goto(base_url + "/", timeout=PAGE_TIMEOUT)
        wait_until_rendered(tab)
        expect(tab.get_by_role("link", name=re.compile(rf"\. {re.escape(TITLE)} \(about \d+ minutes\): tried$"))
               ).to_be_visible(timeout=PAGE_TIMEOUT)
        expect(tab.get_by_text("Next for you:")).to_be_visible()
        assert kept(tab) == document
    finally:
        tab.close()

    # Another browser starts afresh: nothing checked, and its own seed if it keeps one.
    assert newcomer.first_status.startswith("Not started: 0 right of 0 checked; 0 of 3 right in a row")
    assert newcomer.first_kept is None or json.loads(newcomer.first_kept)["seed"] != document["seed"]


def test_an_answer_in_another_tab_keeps_what_this_tab_did(student: Page, base_url: str):
    """Two tabs of one browser at the page: three right answers in the first (the page mastered, three receipts),
    then a wrong one in the second, opened before. The browser should keep the first tab's answers and receipts."""
    page = student
    start_afresh(page)
    other = page.context.new_page()
    try:
        open_exercises(other, base_url + URL)
        for run in range(1, IN_A_ROW + 1):
            right_answer(page, mastered=run == IN_A_ROW)
        assert kept(other)["pages"][PAGE]["mastered"]  # one browser, one storage
        check(other, "-1", "The first hint is below.")
        document = kept_when(other, lambda document: document["pages"][PAGE]["tried"] != IN_A_ROW)  # written
        assert document["pages"][PAGE]["mastered"] and len(document["receipts"]) == IN_A_ROW, document
    finally:
        other.close()


def test_a_new_browser_keeps_its_seed_before_any_answer_and_shows_its_numbers(newcomer: Tab):
    """The seed is in the browser as soon as the numbers are on screen, so a reload before any answer keeps them."""
    assert newcomer.first_kept is not None
    assert json.loads(newcomer.first_kept)["pages"] == {}
    assert newcomer.first_formulas == formulas_of(variant_of(EXERCISE, PAGE, from_json(newcomer.first_kept)))


def test_download_then_load_restores_the_progress_and_a_bad_file_changes_nothing(student: Page, newcomer: Tab,
                                                                                 tmp_path: Path):
    page = student
    start_afresh(page)
    check(page, "-1", "The first hint is below.")
    right_answer(page)
    text = kept_text(page)
    assert json.loads(text)["pages"][PAGE]["solved"] == 1
    saved = download(page, "progress_download", tmp_path)
    assert saved.name == "dp-lab-progress.json" and saved.read_text() == text  # what the browser keeps, exactly
    receipt = download(page, "receipt_download", tmp_path)

    other = newcomer.page
    assert kept_text(other) != text
    upload(other, "progress_load", saved.name, saved.read_bytes())
    expect(other.get_by_text(f"Your progress from {saved.name} is loaded.")).to_be_visible()
    kept_when(other, lambda document: document == json.loads(text))
    assert kept_text(other) == text  # byte for byte
    expect(status(other)).to_have_text(status(page).inner_text())
    assert formulas(other) == formulas(page)  # the same variant: the same seed and attempt

    for name, content, said in (
            ("notes.json", b"my notes: b = 1/eps", "This file is not a progress file: it is not JSON text."),
            (receipt.name, receipt.read_bytes(), "This is not a progress file of the Private Estimation Lab.")):
        upload(other, "progress_load", name, content)
        expect(other.locator(WORDS).filter(has_text=said)).to_have_text(f"{said} Nothing has changed.")
        assert kept_text(other) == text
        expect(status(other)).to_have_text(status(page).inner_text())


def test_a_replica_checks_a_receipt_and_says_an_altered_one_proves_nothing(student: Page, browser: Browser,
                                                                           tmp_path: Path, monkeypatch):
    if os.environ.get(receipts.SECRET_ENV):
        pytest.skip("the servers share DPLAB_SECRET here, not the data folder's secret")
    data = Path(os.environ["DPLAB_DATA_DIR"])  # the test process's, shared by the servers it starts
    page = student
    document = start_afresh(page)
    made = [right_answer(page, mastered=run == IN_A_ROW) for run in range(1, IN_A_ROW + 1)]
    receipt = download(page, "receipt_download", tmp_path)
    tokens = json.loads(receipt.read_text())["tokens"]
    assert (data / receipts.SECRET_FILE).is_file()  # the secret the first receipt made, in the shared folder
    stamps = [receipts.verify(token) for token in tokens]
    assert [(stamp.page, stamp.exercise, stamp.variant, stamp.run) for stamp in stamps] == [
        (PAGE, KEY, exercises.variant_seed(document["seed"], PAGE, KEY, attempt), attempt + 1)
        for attempt in range(IN_A_ROW)]
    assert [EXERCISE.variant(stamp.variant) for stamp in stamps] == made

    payload, mac = tokens[-1].split(".")
    flipped = payload[:4] + ("B" if payload[4] != "B" else "C") + payload[5:]  # one character of the payload
    altered = receipt.read_text().replace(tokens[-1], f"{flipped}.{mac}")

    monkeypatch.delenv(receipts.SECRET_ENV, raising=False)
    with running_server(tmp_path) as replica:  # the same DPLAB_DATA_DIR and DPLAB_TEACHER_KEY (inherited)
        context = browser.new_context(viewport=LAPTOP, device_scale_factor=1)
        keep_teacher_key(context, replica)
        teacher = context.new_page()
        try:
            teacher.goto(replica + "/?teacher=1", timeout=PAGE_TIMEOUT)
            wait_until_rendered(teacher)
            upload(teacher, "receipt_check", receipt.name, receipt.read_bytes())
            verdict = teacher.get_by_test_id("stMarkdownContainer").filter(has_text="Pages proved mastered")
            expect(verdict).to_have_text(f"Pages proved mastered: {TITLE}. Right answers proved: {TITLE}: 3.",
                                         timeout=PAGE_TIMEOUT)
            expect(teacher.locator(WORDS).filter(has_text="altered")).to_have_count(0)

            upload(teacher, "receipt_check", "altered.json", altered.encode())
            expect(verdict).to_have_text(f"Pages proved mastered: none. Right answers proved: {TITLE}: 2.",
                                         timeout=PAGE_TIMEOUT)
            expect(teacher.locator(WORDS).filter(has_text="altered")).to_have_text(
                "1 of the receipt's entries were altered or signed by another lab: they prove nothing.")
        finally:
            context.close()


def snapshot(root: Path, leave_out: tuple[Path, ...] = (), folders: bool = False,
             sources: bool = True) -> dict[str, tuple]:
    """Every file under ``root`` (with ``folders`` every folder too; without ``sources`` no source file) with its size
    and modification time."""
    seen = {}
    for folder, names, files in os.walk(root):
        here = Path(folder)
        names[:] = [name for name in names if name not in NOT_THE_SERVERS and here / name not in leave_out]
        for name in files + (names if folders else []):
            if not sources and Path(name).suffix in SOURCES:
                continue
            path = here / name
            info = path.lstat()
            seen[str(path.relative_to(root))] = (info.st_size, info.st_mtime_ns)
        if folders:
            seen[str(here.relative_to(root)) + "/"] = (0, here.lstat().st_mtime_ns)
    return seen


def test_answering_loading_and_forgetting_write_nothing_on_the_server(student: Page, tmp_path: Path,
                                                                      screenshot_dir: Path):
    page = student
    data = Path(os.environ["DPLAB_DATA_DIR"])
    receipts.lab_secret()  # the lab's secret, made once in the data folder (if not already): no student's data
    leave_out = (APP_DIR / "artifacts" / "screenshots", screenshot_dir.resolve())
    start_afresh(page)
    before = snapshot(data, folders=True), snapshot(APP_DIR, leave_out, sources=False)
    assert os.environ.get(receipts.SECRET_ENV) or receipts.SECRET_FILE in before[0]
    assert "app.py" not in before[1] and "registry.py" not in before[1] and len(before[1]) > 50  # data, no sources

    check(page, "-1", "The first hint is below.")
    right_answer(page)
    saved = download(page, "progress_download", tmp_path)
    download(page, "receipt_download", tmp_path)
    start_afresh(page)
    upload(page, "progress_load", saved.name, saved.read_bytes())
    expect(page.get_by_text(f"Your progress from {saved.name} is loaded.")).to_be_visible()
    kept_when(page, lambda document: document == json.loads(saved.read_text()))
    start_afresh(page)

    after = snapshot(data, folders=True), snapshot(APP_DIR, leave_out, sources=False)
    changed = {name for one, other in zip(before, after) for name in one.keys() | other.keys()
               if one.get(name) != other.get(name)}
    assert not changed, sorted(changed)


def test_check_show_and_new_with_the_keyboard_move_the_focus_to_the_answer_and_read_it(student: Page):
    page = student
    start_afresh(page)
    made = variant(page)
    in_box = f"st-key-exercise_{KEY}"
    assert exercise_box(page).locator('[class*="st-key-answer_"]').first.get_attribute("role") is None  # no status

    def focus_on_alert(text: str) -> None:
        """The focus is on the exercise's first alert, which says ``text``, and the live region reads it."""
        page.wait_for_function(f"() => document.activeElement === document.querySelector('{BOX} {ALERT}')",
                               timeout=PAGE_TIMEOUT)
        assert text in " ".join(page.evaluate("() => document.activeElement.innerText").split())
        expect(page.locator(ANNOUNCER)).to_have_text(text, timeout=5_000)

    # From the end of the page back to the answer box; type; Tab to Check; Enter.
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    tab_to(page, lambda now: now["tag"] == "input" and in_box in now["keys"], backwards=True)
    for number, (typed, which) in enumerate((("-1", "first"), ("-2", "second")), start=1):
        page.keyboard.type(typed)
        now = tab_to(page, lambda now: now["tag"] == "button")
        assert now["text"].endswith("Check") and f"st-key-check_{KEY}" in now["keys"] and now["ring"] >= 2
        page.keyboard.press("Enter")
        focus_on_alert(f"Not yet. {typed} is more than {made.tolerance:g} away from the answer. The {which} hint is "
                       "below.")
        idle(page)
        if number == 1:
            tab_to(page, lambda now: now["tag"] == "input" and in_box in now["keys"], backwards=True)
            page.keyboard.press("Control+A")

    # "Show the answer", then "Try a new one": the focus goes to what to read, then to the new variant's box.
    tab_to(page, lambda now: now["tag"] == "button" and now["text"].endswith("Show the answer"))
    page.keyboard.press("Enter")
    focus_on_alert("Read the worked answer below, then try a new variant.")
    idle(page)
    tab_to(page, lambda now: now["tag"] == "button" and now["text"].endswith("Try a new one"))
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => !!document.activeElement.closest('.st-key-answer_{KEY}_1')", timeout=PAGE_TIMEOUT)
    expect(page.locator(ANNOUNCER)).to_contain_text(f"Exercise 1 of {len(LISTED)}: {EXERCISE.title} (a number)",
                                                    timeout=5_000)
    assert "\\" not in page.locator(ANNOUNCER).inner_text()  # the formulas' TeX source is not read
    idle(page)
    kept_when(page, lambda document: exercise_state(document) == [1, 0, False])

    # A right answer from the keyboard: the focus on "Right.", read.
    made = variant(page)
    page.keyboard.type(f"{made.answer:g}")
    tab_to(page, lambda now: now["tag"] == "button")
    page.keyboard.press("Enter")
    focus_on_alert(f"Right. {made.why} Here is a new one.")


@pytest.mark.parametrize("screen", SCREENS)
def test_the_section_with_its_hints_has_no_serious_violation(screen, student: Page, browser: Browser, base_url: str,
                                                             screenshot_dir: Path):
    viewport, query = SCREENS[screen]
    context = None
    if screen == "laptop":
        page = student
    else:  # the projector's presentation mode and the phone's layout, each in its own tab
        context = browser.new_context(viewport=viewport, device_scale_factor=1)
        page = context.new_page()
        open_exercises(page, f"{base_url}{URL}?{query}")
    try:
        start_afresh(page)
        made = variant(page)
        check(page, "-1", "The first hint is below.")
        check(page, f"{made.answer + 2:g}", "The second hint is below.")
        expect(alerts(page).filter(has_text="Hint:")).to_have_count(2)
        expect(button(page, "show")).to_be_visible()
        page.wait_for_timeout(300)  # the formulas' fit-to-width pass
        section, heading = page.locator(SECTION), page.locator("#check-yourself")
        expect(section).to_have_count(1)  # what axe-core scans below
        # The page scrolls inside Streamlit's main block, not the document: for the picture the window is made as
        # tall as the section (its width, hence the layout, unchanged), then set back.
        height = int(section.bounding_box()["height"] + heading.bounding_box()["height"]) + 200
        page.set_viewport_size({"width": viewport["width"], "height": max(height, viewport["height"])})
        section.evaluate("section => section.scrollIntoView({block: 'center'})")
        top, bottom = heading.bounding_box(), section.bounding_box()
        page.screenshot(path=screenshot_dir / f"check-yourself_{screen}.png",
                        clip={"x": 0, "y": max(0, top["y"] - 8), "width": viewport["width"],
                              "height": bottom["y"] + bottom["height"] - top["y"] + 16})
        page.set_viewport_size(viewport)
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]  # nothing sideways
        assert bottom["x"] >= 0 and bottom["x"] + bottom["width"] <= viewport["width"]
        response = Axe().run(page, context=SECTION, options={"runOnly": {"type": "tag", "values": TAGS},
                                                             "resultTypes": ["violations"]}).response
        assert failures(response) == []
    finally:
        if context is not None:
            context.close()

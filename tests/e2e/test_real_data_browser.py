"""The Real data page in a real browser: a bundled set from a deep link, the student's CSV uploaded through the
file chooser, bad files refused in the page, the keyboard, axe-core, and the page on three screens.

An uploaded file stays in the session: its name, its column's name and its values never reach the URL, and the
notebook snippet reads the student's own file instead of holding the data.
"""

from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlsplit

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect
from test_axe import TAGS, failures
from test_deep_links import PAGE_TIMEOUT, wait_until_rendered
from test_keyboard import tab_to, wait_for_run

DEEP_LINK = "/real-data?data=anes96&lower=18&upper=95&eps=0.5&reveal=1"
CHARTS = ("real_clipping", "real_quantiles", "real_histogram", "real_laplace_gaussian", "real_error_means",
          "real_error_quantiles")
ERROR = '[data-testid="stAlertContentError"]'
EXCEPTION = '[data-testid="stException"]'
UPLOADER = '.st-key-upload_file [data-testid="stFileUploader"]'  # the data's uploader (Check yourself has one too)
CHOSEN = ".st-key-upload_column input"
WAIT = 30_000  # ms: what an element needs once the page's run is over
FILE_NAME = "secret_wages_2026.csv"
COLUMN = "hourly_wage"
WAGES = [13.57, 21.91, 17.33, 45.02, 9.81, 30.44, 27.18, 15.66, 52.73, 19.29, 24.87, 11.05]
GOOD_CSV = ("id_code," + COLUMN + "\n" + "".join(f"A{i},{w}\n" for i, w in enumerate(WAGES))).encode()
FORMULA = "=cmd|' /C calc'!A0"
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64 + b"IHDR\x00\x00\x00\x10"
BAD_FILES = {  # file name -> bytes: each refused (or its bad cells left out) with a message in the page
    "empty.csv": b"",
    "picture.csv": PNG,
    "utf16.csv": "name,größe\nÄnne,1.5\nÖzil,2.5\n".encode("utf-16-le"),
    "latin1.csv": "nom,prix\nété,1.5\nhôtel,2.5\nçà,3.5\n".encode("latin-1"),
    "words.csv": b"name,city\nann,paris\nbob,rome\n",
    "constant.csv": b"x\n" + b"7\n" * 20,
}
NOTED = {  # file name -> (bytes, text of the note the page shows): the bad cells are counted and left out
    "messy.csv": (b"x\n1\n2\nnan\ninf\nhello\n3\n4\n", "left out"),
    "formula.csv": (("x\n1\n2\n" + f'"{FORMULA}"' + "\n3\n4\n5\n").encode(), "spreadsheet formulas"),
}


def charts_drawn(page: Page, keys=CHARTS) -> dict[str, bool]:
    """{chart key: its Plotly SVG is on the page with a non-zero size}."""
    return page.evaluate("""keys => Object.fromEntries(keys.map(key => {
        const svg = document.querySelector(`.st-key-${key} .main-svg`);
        const box = svg && svg.getBoundingClientRect();
        return [key, !!box && box.width > 0 && box.height > 0];
    }))""", list(keys))


def query(page: Page) -> dict[str, str]:
    return dict(parse_qsl(urlsplit(page.url).query))


def number_input(page: Page, key: str):
    return page.locator(f".st-key-w_{key} input")


TYPED_RANGE = "&low=0&high=100"  #: an upload's public range, typed in the link (the page releases nothing before)


def open_upload(page: Page, base_url: str, extra: str = "", typed: str = TYPED_RANGE) -> None:
    page.goto(base_url + "/real-data?data=upload" + typed + extra, timeout=PAGE_TIMEOUT)
    page.wait_for_selector(UPLOADER, timeout=PAGE_TIMEOUT)
    wait_for_run(page)


def upload(page: Page, name: str, content: bytes) -> None:
    """Choose a file in the uploader's own file input, then wait for the page's rerun."""
    page.locator(f'{UPLOADER} input[type="file"]').set_input_files(
        {"name": name, "mimeType": "text/csv", "buffer": content}, timeout=PAGE_TIMEOUT)
    page.wait_for_timeout(300)  # the upload, then the rerun it starts
    wait_for_run(page)


def upload_good_file(page: Page) -> None:
    upload(page, FILE_NAME, GOOD_CSV)
    page.wait_for_selector(f".st-key-{CHARTS[1]} .main-svg", timeout=PAGE_TIMEOUT)
    wait_for_run(page)


def assert_nothing_private_in_the_url(page: Page) -> None:
    url = unquote(page.url)
    for secret in (FILE_NAME, "secret", COLUMN, "id_code", *map(str, WAGES)):
        assert secret not in url, url


def test_a_deep_link_to_a_bundled_set_draws_every_chart(page: Page, base_url: str, console_errors):
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(base_url + DEEP_LINK, timeout=PAGE_TIMEOUT)
    wait_until_rendered(page)
    page.wait_for_function("keys => keys.every(k => document.querySelector(`.st-key-${k} .main-svg`))", arg=CHARTS,
                           timeout=PAGE_TIMEOUT)
    assert charts_drawn(page) == dict.fromkeys(CHARTS, True)
    assert number_input(page, "lower").input_value() == "18"
    assert number_input(page, "upper").input_value() == "95"
    assert {"data": "anes96", "lower": "18", "upper": "95", "eps": "0.5"}.items() <= query(page).items()
    expect(page.locator(EXCEPTION)).to_have_count(0)
    assert console_errors == []


def test_an_uploaded_csv_is_used_in_the_session_only(page: Page, base_url: str, console_errors):
    page.set_viewport_size({"width": 1440, "height": 900})
    open_upload(page, base_url, "&reveal=1")
    upload_good_file(page)
    expect(page.locator(CHOSEN)).to_have_value(COLUMN, timeout=WAIT)
    facts = page.get_by_role("table").filter(has_text="value (not private)")
    expect(facts.get_by_role("row", name=f"number of values n {len(WAGES)}", exact=True)).to_have_count(1, timeout=WAIT)
    page.wait_for_function("keys => keys.every(k => document.querySelector(`.st-key-${k} .main-svg`))", arg=CHARTS,
                           timeout=PAGE_TIMEOUT)
    assert charts_drawn(page) == dict.fromkeys(CHARTS, True)
    assert_nothing_private_in_the_url(page)

    number_input(page, "upper").fill("60")  # a control change keeps the file, and keeps it out of the URL
    number_input(page, "upper").press("Enter")
    wait_for_run(page)
    expect(page.locator(CHOSEN)).to_have_value(COLUMN, timeout=WAIT)
    assert query(page).get("upper") == "60"
    assert_nothing_private_in_the_url(page)

    snippet = download_snippet(page)
    assert "read_csv_columns(" in snippet and COLUMN in snippet
    assert not any(str(wage) in snippet for wage in WAGES), snippet
    expect(page.locator(EXCEPTION)).to_have_count(0)
    assert console_errors == []


def download_snippet(page: Page) -> str:
    """Open Go deeper and download the first figure's Python snippet."""
    page.locator("summary").filter(has_text="Go deeper").click(timeout=WAIT)
    button = page.get_by_role("button").filter(has_text="Python snippet")
    expect(button).to_be_visible(timeout=PAGE_TIMEOUT)
    wait_for_run(page)
    with page.expect_download(timeout=PAGE_TIMEOUT) as download:
        button.click()
    return Path(download.value.path()).read_text(encoding="utf-8")


@pytest.mark.parametrize("name", [*BAD_FILES, *NOTED])
def test_a_bad_file_gets_its_message_and_a_good_file_then_works(page: Page, base_url: str, console_errors, name):
    open_upload(page, base_url)
    if name in BAD_FILES:
        upload(page, name, BAD_FILES[name])
        expect(page.locator(ERROR)).to_have_count(1, timeout=PAGE_TIMEOUT)
        assert page.locator(ERROR).inner_text().strip()
    else:
        content, note = NOTED[name]
        upload(page, name, content)
        expect(page.locator('[data-testid="stMain"]')).to_contain_text(note, timeout=WAIT)
    expect(page.locator(EXCEPTION)).to_have_count(0)
    assert "cmd|" not in page.locator("body").inner_text()
    upload_good_file(page)  # chosen in place of the bad file
    expect(page.locator(ERROR)).to_have_count(0)
    expect(page.locator(CHOSEN)).to_have_value(COLUMN, timeout=WAIT)
    expect(page.locator(EXCEPTION)).to_have_count(0)
    assert console_errors == []


def test_the_keyboard_reaches_the_data_choice_the_uploader_and_the_bounds(page: Page, base_url: str):
    page.set_viewport_size({"width": 1440, "height": 900})
    open_upload(page, base_url)
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    radio = tab_to(page, lambda stop: stop["type"] == "radio")
    assert "Your own CSV file" in page.evaluate(
        "() => document.activeElement.closest('[data-testid=\"stRadio\"]').innerText")
    assert radio
    browse = tab_to(page, lambda stop: "st-key-upload_file" in stop["keys"])
    assert browse["tag"] == "button", browse  # the uploader's "Browse files"
    upload_good_file(page)
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    for key in ("low", "high", "lower", "upper", "scale"):
        stop = tab_to(page, lambda stop, key=key: f"st-key-w_{key}" in stop["keys"] and stop["tag"] == "input")
        assert stop["type"] in ("number", "text")


def test_a_file_the_browser_refuses_leaves_the_page_saying_which_file_it_shows(page: Page, base_url: str,
                                                                              console_errors):
    """A file over 20 MB is refused by the browser itself (the uploader's red mark) and never sent, so the page
    cannot drop what it shows: it says which file that is, and that a red file changed nothing."""
    page.set_viewport_size({"width": 1440, "height": 900})
    open_upload(page, base_url)
    upload_good_file(page)
    main = page.locator('[data-testid="stMain"]')
    expect(main).to_contain_text(f"The page shows {FILE_NAME} ({len(WAGES)} rows)", timeout=WAIT)
    page.locator(f'{UPLOADER} input[type="file"]').set_input_files(
        {"name": "too_big.csv", "mimeType": "text/csv", "buffer": b"x\n" + b"1" * 25_000_000 + b"\n"},
        timeout=PAGE_TIMEOUT)
    expect(page.locator(UPLOADER)).to_contain_text("File must be", timeout=WAIT)  # refused in the browser
    page.wait_for_timeout(1000)
    wait_for_run(page)
    expect(main).to_contain_text(f"The page shows {FILE_NAME}", timeout=WAIT)
    expect(main).to_contain_text("marks in red", timeout=WAIT)
    assert charts_drawn(page, CHARTS[1:2]) == {CHARTS[1]: True}  # the file shown is the file named
    expect(page.locator(EXCEPTION)).to_have_count(0)
    assert console_errors == []


@pytest.fixture(scope="module")
def axe() -> Axe:
    return Axe()


def blocking(page: Page, axe: Axe) -> list[str]:
    page.wait_for_timeout(500)  # the formulas' fit-to-width pass runs after the last render
    response = axe.run(page, options={"runOnly": {"type": "tag", "values": TAGS},
                                      "resultTypes": ["violations"]}).response
    assert response["testEngine"]["name"] == "axe-core"
    return failures(response)


SCREENS = {"desktop": (dict(width=1440, height=900), ""), "projector": (dict(width=1280, height=720), "&present=1"),
           "phone": (dict(width=390, height=844), "")}


@pytest.mark.parametrize("screen", SCREENS)
def test_the_page_on_each_screen(browser: Browser, base_url: str, axe: Axe, screen, screenshot_dir):
    """A bundled set on each screen: every chart drawn, no horizontal scrolling on the phone, no serious axe
    violation (desktop and phone), a full-page screenshot."""
    viewport, extra = SCREENS[screen]
    context = browser.new_context(viewport=viewport, device_scale_factor=1)
    page = context.new_page()
    try:
        page.goto(f"{base_url}/real-data?data=engel&reveal=1{extra}", timeout=PAGE_TIMEOUT)
        wait_until_rendered(page)
        page.wait_for_function("keys => keys.every(k => document.querySelector(`.st-key-${k} .main-svg`))",
                               arg=CHARTS, timeout=PAGE_TIMEOUT)
        assert charts_drawn(page) == dict.fromkeys(CHARTS, True)
        if screen != "projector":
            assert blocking(page, axe) == []
        if screen == "phone":
            assert page.evaluate("() => document.documentElement.scrollWidth") <= viewport["width"]
        page.screenshot(path=screenshot_dir / f"real-data-{screen}.png", full_page=True)
        for key in ("real_histogram", "real_error_means"):  # the page scrolls inside the app: the charts alone
            page.locator(f".st-key-{key}").screenshot(path=screenshot_dir / f"real-data-{screen}-{key}.png",
                                                      timeout=WAIT)
        expect(page.locator(EXCEPTION)).to_have_count(0)
    finally:
        context.close()


def test_an_uploaded_file_has_no_serious_accessibility_violation(page: Page, base_url: str, axe: Axe,
                                                                  screenshot_dir):
    page.set_viewport_size({"width": 1440, "height": 900})
    open_upload(page, base_url, "&reveal=1")
    upload_good_file(page)
    assert blocking(page, axe) == []
    page.screenshot(path=screenshot_dir / "real-data-upload.png", full_page=True)

"""The offline handout in Chromium with the network off: its formulas (MathML, each bracket stretched to what it holds)
and charts (plotly.js, inlined) draw, nothing is fetched, no console error, no serious accessibility violation
(axe-core); printed to PDF on A4 every chart fits the page. Both editions download by keyboard from a running
server, at the link's settings. Screenshots at 1440 and 390 px wide go to the screenshot folder (the handout's
content: tests/app/test_handout.py)."""

import sys
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from conftest import keep_teacher_key
from playwright.sync_api import expect
from test_axe import TAGS, failures
from test_deep_links import PAGE_TIMEOUT, wait_until_rendered
from test_keyboard import tab_to, wait_for_run

APP = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(APP / "tests" / "app"))
from helpers import handouts, page_path  # noqa: E402  (the AppTest helpers: the page run, its downloads)

A4_PRINTABLE = 680  # px at 96 dpi: A4's 210 mm less the handout's 15 mm margins


@pytest.fixture(scope="module")
def handout_file(tmp_path_factory) -> Path:
    """The truncation page's teacher's edition (every part of a handout), written to a file."""
    _, files = handouts(page_path("truncation.py"), teacher="1")
    path = tmp_path_factory.mktemp("handout") / "truncation-bias-teachers-edition.html"
    path.write_text(files[path.name], encoding="utf-8")
    return path


@pytest.fixture
def offline(page, context):
    """The page with the network off; the addresses it tried to fetch anyway (none expected)."""
    context.set_offline(True)
    fetched = []

    def refuse(route):
        fetched.append(route.request.url)
        route.abort()
    page.route(lambda url: not url.startswith("file:"), refuse)
    return fetched


def drawn(page) -> None:
    """Wait until plotly.js has drawn every chart."""
    page.wait_for_function("document.querySelectorAll('.plot .main-svg').length >= document.querySelectorAll("
                           "'.plot').length")


@pytest.mark.parametrize("width", [1440, 390])
def test_handout_draws_offline(page, offline, console_errors, handout_file, screenshot_dir, width):
    page.set_viewport_size({"width": width, "height": 1000})
    page.goto(handout_file.as_uri())
    drawn(page)
    sizes = page.eval_on_selector_all("math", "all => all.map(m => [m.getBoundingClientRect().width, "
                                              "m.getBoundingClientRect().height])")
    assert len(sizes) == handout_file.read_text().count("<math") and all(w > 0 and h > 0 for w, h in sizes)
    fences = page.eval_on_selector_all(  # each stretchy fence and the tallest thing beside it in its row
        'mo[stretchy="true"][fence="true"]',
        "all => all.map(mo => [mo.getBoundingClientRect().height, Math.max(0, ...[...mo.parentElement.children]"
        ".filter(c => c.tagName.toLowerCase() !== 'mo').map(c => c.getBoundingClientRect().height))])")
    assert len(fences) >= 4 and all(fence >= 0.85 * content for fence, content in fences), fences  # brackets grow
    charts = page.eval_on_selector_all(".plot", "all => all.map(c => { const svg = c.querySelector('.main-svg');"
                                                " return svg ? [svg.getBoundingClientRect().width, "
                                                "svg.getBoundingClientRect().height] : [0, 0]; })")
    assert charts and all(min(width - 60, 600) < w <= width and h > 250 for w, h in charts)
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # nothing wider than the screen
    page.screenshot(path=str(screenshot_dir / f"handout-{width}.png"), full_page=True)
    assert offline == [] and console_errors == []


def test_handout_prints_on_a4(page, offline, console_errors, handout_file, screenshot_dir):
    page.goto(handout_file.as_uri())
    drawn(page)
    page.emulate_media(media="print")
    widths = page.eval_on_selector_all(".plot .main-svg", "all => all.map(svg => svg.getBoundingClientRect().right)")
    assert widths and max(widths) <= A4_PRINTABLE
    notes = page.eval_on_selector_all(".print-only", "all => all.filter(e => e.offsetHeight > 0).length")
    assert notes == page.evaluate("document.querySelectorAll('.slider-container').length") > 0  # one per animation
    assert page.eval_on_selector_all(".modebar-container, .updatemenu-container",
                                     "all => all.every(e => getComputedStyle(e).display === 'none')")
    pdf = page.pdf(format="A4", print_background=True)
    assert pdf.startswith(b"%PDF") and pdf.count(b"/Type /Page") > 3
    (screenshot_dir / "handout.pdf").write_bytes(pdf)
    assert offline == [] and console_errors == []


@pytest.mark.parametrize("width", [1440, 390])
def test_handout_has_no_serious_accessibility_violation(page, offline, handout_file, width):
    page.set_viewport_size({"width": width, "height": 1000})
    page.goto(handout_file.as_uri())
    drawn(page)
    response = Axe().run(page, options={"runOnly": {"type": "tag", "values": TAGS},
                                        "resultTypes": ["violations"]}).response
    assert response["testEngine"]["name"] == "axe-core" and failures(response) == []
    assert offline == []


def test_both_editions_download_by_keyboard(page, base_url, console_errors):
    page.set_viewport_size({"width": 1440, "height": 900})
    keep_teacher_key(page.context, base_url)
    page.goto(f"{base_url}/truncation-bias?teacher=1&eps=0.5", timeout=PAGE_TIMEOUT)
    wait_until_rendered(page)
    page.get_by_text("Go deeper").click()
    expect(page.get_by_text("Handout (offline lesson, HTML)")).to_be_visible(timeout=PAGE_TIMEOUT)
    wait_for_run(page)
    page.get_by_text("Data (CSV)").focus()
    for label, name in (("Handout (offline lesson, HTML)", "handout"), ("Teacher's edition", "teachers-edition")):
        tab_to(page, lambda stop, label=label: stop["tag"] == "button" and label in stop["text"])
        with page.expect_download(timeout=PAGE_TIMEOUT) as download:
            page.keyboard.press("Enter")
        assert download.value.suggested_filename == f"truncation-bias-{name}.html"
        document = Path(download.value.path()).read_text(encoding="utf-8")
        assert "<h1>Truncation bias</h1>" in document and "<math" in document and "Privacy budget ε = 0.5," in document
        assert ("Answer:" in document) == (name == "teachers-edition")
    assert console_errors == []

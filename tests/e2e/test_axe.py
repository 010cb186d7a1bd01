"""An axe-core scan (WCAG 2.0, 2.1 and 2.2, levels A and AA) of every page of the registry, on the three screens the
lab is used on: a laptop at the page's defaults (1440×900), a projector in presentation mode (1280×720,
``?present=1``) and a phone (390×844). Each page is scanned once its charts are drawn and its run has finished; the
bar is no critical and no serious violation, and what fails is printed (rule, impact, the elements and axe's message).

axe-core comes bundled with ``axe-playwright-python`` (requirements-dev.txt) and runs offline in the page. One
server, one browser and one tab per screen: the 21 scans take about two minutes on the 2-core machine.
"""

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser
from test_deep_links import PAGE_TIMEOUT, wait_until_rendered

from registry import PAGES

SCREENS = {"laptop": (dict(width=1440, height=900), ""),
           "projector": (dict(width=1280, height=720), "present=1"),
           "phone": (dict(width=390, height=844), "")}
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]
BLOCKING = ("critical", "serious")


def failures(response: dict) -> list[str]:
    """The blocking violations of one axe run, one line per element: rule (impact): target — axe's message."""
    lines = []
    for violation in response["violations"]:
        if violation["impact"] not in BLOCKING:
            continue
        for node in violation["nodes"]:
            checks = node.get("any", []) + node.get("all", []) + node.get("none", [])
            message = "; ".join(check["message"] for check in checks)[:240]
            lines.append(f"{violation['id']} ({violation['impact']}): {' '.join(map(str, node['target']))[-120:]} "
                         f"— {message}")
    return lines


def test_failures_are_read_from_axes_answer():
    response = {"violations": [
        {"id": "color-contrast", "impact": "serious", "nodes": [
            {"target": ["p.caption"], "any": [{"message": "contrast of 3.88"}]}]},
        {"id": "region", "impact": "moderate", "nodes": [{"target": ["div"], "any": [{"message": "landmark"}]}]}]}
    assert failures(response) == ["color-contrast (serious): p.caption — contrast of 3.88"]


@pytest.fixture(scope="module")
def axe() -> Axe:
    return Axe()


@pytest.mark.parametrize("screen", SCREENS)
def test_no_page_has_a_serious_accessibility_violation(browser: Browser, base_url: str, axe: Axe, screen):
    viewport, query = SCREENS[screen]
    context = browser.new_context(viewport=viewport, device_scale_factor=1)
    page = context.new_page()
    found: dict[str, list[str]] = {}
    scanned = []
    try:
        for info in PAGES:
            page.goto(f"{base_url}/{info.url_path}?{query}", timeout=PAGE_TIMEOUT)
            wait_until_rendered(page)
            page.wait_for_timeout(500)  # the formulas' fit-to-width pass runs after the last render
            response = axe.run(page, options={"runOnly": {"type": "tag", "values": TAGS},
                                              "resultTypes": ["violations"]}).response
            assert response["testEngine"]["name"] == "axe-core" and f"/{info.url_path}" in response["url"]
            scanned.append(info.url_path)
            if failures(response):
                found[info.url_path or "home"] = failures(response)
    finally:
        context.close()
    assert len(scanned) == len(PAGES)
    report = "\n".join(f"{name}:\n  " + "\n  ".join(lines) for name, lines in found.items())
    print(report or f"{screen}: no critical or serious violation on {len(PAGES)} pages")
    assert found == {}, report


@pytest.mark.parametrize("screen", ["projector", "phone"])
def test_share_with_the_class_opened_has_no_serious_violation_and_fits_the_screen(browser: Browser, base_url: str,
                                                                                  axe: Axe, screen, screenshot_dir):
    """"Share with the class" opened by keyboard on the projector and on a phone (the test server says 127.0.0.1,
    so its warning shows too): no blocking violation, the code inside the screen's width, big on the projector."""
    viewport, query = SCREENS[screen]
    context = browser.new_context(viewport=viewport, device_scale_factor=1)
    page = context.new_page()
    try:
        page.goto(f"{base_url}/truncation-bias?eps=0.5&{query}", timeout=PAGE_TIMEOUT)
        wait_until_rendered(page)
        page.locator('[data-testid="stExpander"] summary', has_text="Share with the class").focus()
        page.keyboard.press("Enter")
        qr = page.locator("img.dplab-qr")
        qr.wait_for(timeout=PAGE_TIMEOUT)
        page.wait_for_function("() => document.querySelector('img.dplab-qr').naturalWidth > 0")
        assert page.get_by_text("Students' phones cannot reach 127.0.0.1").count() == 1
        box = qr.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
        assert box["width"] >= (300 if screen == "projector" else 160)
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]  # nothing scrolls sideways
        qr.scroll_into_view_if_needed()
        page.screenshot(path=str(screenshot_dir / f"share_{screen}.png"))
        response = axe.run(page, options={"runOnly": {"type": "tag", "values": TAGS},
                                          "resultTypes": ["violations"]}).response
        assert failures(response) == []
    finally:
        context.close()

"""A link's values are shown as typed, never rendered: through every key of every page (and every older alias), a
value made of a Markdown link, an image, HTML or math shows in the lab's messages as characters in a code span, cut to
about 40 characters, naming the key the link used. Nothing from a URL becomes a link, an image, HTML or a formula in
the lab's own message boxes.
"""

import re

import pytest
from helpers import ROOT, run

from registry import PAGES
from ui.page import PAGE_SPECS
from ui.params import SHOWN_CHARACTERS

PAYLOADS = ["[Session expired: log in again](https://evil.example/login)", "![x](https://evil.example/p.png)",
            "<img src=x onerror=alert(1)> $\\href{https://evil.example}{x}$ \\(x\\)",
            "`$x$`](https://evil.example) " * 400]  # 10 kB
CODE_SPAN = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)", re.DOTALL)


def outside_code(markdown: str) -> str:
    """``markdown`` without its code spans (what Markdown and math would render)."""
    return CODE_SPAN.sub("", markdown)


def test_outside_code_keeps_only_what_renders():
    assert outside_code("Invalid eps in the link: `[a](b)` is not a number.") == "Invalid eps in the link:  is not a "\
                                                                                 "number."
    assert outside_code("`` a`$x$ `` and $y$") == " and $y$"


@pytest.fixture(scope="module", params=PAGES, ids=lambda info: info.url_path or "home")
def specs(request):
    """The page and its controls (with their URL keys and aliases), read from one plain run."""
    at = run(str(ROOT / request.param.script), timeout=300)
    return request.param, at.session_state[PAGE_SPECS]


@pytest.mark.parametrize("payload", range(len(PAYLOADS)))
def test_no_link_image_html_or_math_from_a_link(specs, payload):
    info, page_specs = specs
    raw = PAYLOADS[payload]
    by_alias = payload % 2 == 1  # every other payload goes in through the older keys, where a control has one
    keys = {(spec.aliases[0] if by_alias and spec.aliases else spec.key) for spec in page_specs}
    at = run(str(ROOT / info.script), timeout=300, **dict.fromkeys(keys, raw))
    assert not at.exception
    messages = [element.value for kind in (at.error, at.warning, at.info) for element in kind]
    named = {key for key in keys for message in messages if message.startswith((f"Invalid {key} ", f"{key} = "))}
    assert named == keys, f"every key typed is named in a message: {keys - named} missing"
    for message in messages:
        rendered = outside_code(message)
        assert not re.search(r"\]\(|<|\$|\\\(|https?:", rendered), message
        assert len(message) < 200 + SHOWN_CHARACTERS, message

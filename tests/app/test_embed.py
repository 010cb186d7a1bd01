"""The "Embed" code in every page's "Go deeper" (classroom.embed): an <iframe> of the page at its current settings in
Streamlit's embed mode, presentation mode when ticked, never the teacher view; and the downloads that say how to get
dpcore (the notebook snippet, the CSV)."""

import re
from html import unescape
from urllib.parse import parse_qs, urlsplit

import pytest
from helpers import ROOT, run, teacher_browser

import ui
from classroom import embed
from dpcore import viz
from dpcore.viz.figures import home as home_figures
from ui.drawn import Drawn
from ui.page import INSTALL_NOTE

HOME = str(ROOT / "app_pages" / "home.py")


def iframe_src(at) -> tuple[str, dict[str, list[str]]]:
    codes = [block.value for block in at.code if "<iframe" in block.value]
    assert len(codes) == 1, [block.value[:80] for block in at.code]
    src = unescape(re.search(r'src="([^"]+)"', codes[0]).group(1))
    return src, parse_qs(urlsplit(src).query)


def opened(script: str, **query: str):
    from streamlit.testing.v1 import AppTest

    from classroom import browser
    at = AppTest.from_file(script, default_timeout=600)
    for key, value in query.items():
        at.query_params[key] = value
    if query.get("teacher") == "1":  # the teacher's browser: it keeps the teacher key
        at.session_state[browser.SESSION] = teacher_browser()
    at.session_state["go_deeper"] = True
    return at.run()


def test_the_embed_code_carries_the_page_settings_in_embed_mode_and_never_the_teacher_view():
    at = opened(HOME, eps="0.5", teacher="1")
    assert not at.exception
    src, query = iframe_src(at)
    assert query["eps"] == ["0.5"] and query["embed"] == ["true"]
    assert "teacher" not in query and "present" not in query
    assert urlsplit(src).path == "/"
    box = at.checkbox(key="embed_present")
    assert box.value is False
    box.check().run()
    assert iframe_src(at)[1]["present"] == ["1"]
    assert not at.warning  # no address known outside a browser: no "localhost" warning either


def test_in_presentation_mode_the_embed_starts_in_presentation_mode():
    at = opened(str(ROOT / "app_pages" / "truncation.py"), present="1", eps="2")
    assert not at.exception
    src, query = iframe_src(at)
    assert urlsplit(src).path == "/truncation-bias"
    assert query["present"] == ["1"] and query["eps"] == ["2"] and query["embed"] == ["true"]
    at.checkbox(key="embed_present").uncheck().run()
    assert "present" not in iframe_src(at)[1]


def test_the_embed_code_holds_only_the_page_s_settings_never_a_mode_or_a_poll_room():
    """A projector's page during a class poll (every answer shown, a room, the teacher view, presentation mode): its
    embed holds the page's settings and the chart's frame of the link, none of the viewer's or the poll's keys
    (classroom.share.NOT_SETTINGS); present=1 only while the box is ticked."""
    at = opened(HOME, eps="0.5", frame_home_densities="0.2", reveal="1", room="K7QX2", teacher="1", present="1")
    assert not at.exception
    _, query = iframe_src(at)
    assert query["eps"] == ["0.5"] and query["frame_home_densities"] == ["0.2"] and query["embed"] == ["true"]
    assert not {"reveal", "room", "teacher"} & set(query)
    assert query["present"] == ["1"]  # ticked: the page is in presentation mode
    at.checkbox(key="embed_present").uncheck().run()
    assert not {"reveal", "room", "teacher", "present"} & set(iframe_src(at)[1])


def test_the_embed_code_uses_the_lab_s_public_url(monkeypatch):
    monkeypatch.setenv("DPLAB_PUBLIC_URL", "https://lab.example.edu/dp")
    at = opened(str(ROOT / "app_pages" / "truncation.py"), eps="2")
    assert not at.exception
    src, query = iframe_src(at)
    assert src.startswith("https://lab.example.edu/dp/truncation-bias?") and query["eps"] == ["2"]
    assert not [warning for warning in at.warning if "Embed" in warning.value or "embed" in warning.value]


def test_the_embed_code_is_built_only_when_go_deeper_is_open():
    at = run(HOME)
    assert not [block for block in at.code if "<iframe" in block.value]


def test_the_snippet_and_the_downloads_say_how_to_get_dpcore():
    code = ui.snippet(home_figures.neighbouring_densities, start="1")
    header = code.split('"""')[1]
    assert 'pip install -e ".[viz]"' in header and "README" in header
    assert 'pip install -e ".[viz]"' in INSTALL_NOTE
    table = viz.figure_table_csv(Drawn.of(home_figures.neighbouring_densities(start="1")).figure())
    assert table.splitlines()[0] == "frame,trace,x,y"  # a plain table: a spreadsheet opens it as it is


@pytest.mark.parametrize("address, local", [("http://localhost:8501/x", True), ("http://127.0.0.1:9", True),
                                            ("http://[::1]:8501", True), ("http://192.168.1.20:8501", False),
                                            ("https://lab.example.org/truncation", False)])
def test_local_addresses(address, local):
    assert embed.is_local(address) is local


def test_go_deeper_says_how_to_get_dpcore_under_the_downloads():
    from helpers import open_go_deeper, page_path

    at = open_go_deeper(run(page_path("truncation.py"), timeout=300))
    assert not at.exception
    assert INSTALL_NOTE in [caption.value for caption in at.caption]

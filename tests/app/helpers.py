"""Shared helpers for the AppTest suites (see docs/testing.md §4)."""

import base64
import html
import json
import re
from pathlib import Path

import numpy as np
from streamlit.testing.v1 import AppTest

from classroom import browser, progress_storage, teacher_key
from classroom.progress import Progress

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
SCRIPTS = Path(__file__).resolve().parent / "scripts"


def page_path(file_name: str) -> str:
    """Absolute path of a page script in ``app_pages/``."""
    return str(ROOT / "app_pages" / file_name)


def assert_clean_and_animated(at: AppTest, animated: dict[str, str]) -> dict[str, dict]:
    """No exception, error or warning; every chart in ``animated`` (key -> opening frame) is a working animation
    opening on that frame. Returns the figures by key."""
    assert not at.exception and not at.error and not at.warning
    specs = charts(at)
    for key, start in animated.items():
        assert_animated(specs[key])
        assert active_frame(specs[key]) == start, key
    return specs


def run(script: str, timeout: float = 30, answered: bool = True, keeps: dict[str, str] | None = None,
        progress: Progress | None = None, **query: str) -> AppTest:
    """Run ``script`` (absolute path) once with the given URL query parameters; ``answered`` opens it with every
    predict-then-reveal question revealed (``?reveal=1``), so that the figures behind them are drawn at once.

    ``keeps`` is what the browser keeps (:mod:`classroom.browser`: a voter id, the teacher key's token), as a browser
    sends its cookies when it connects; by default a link that asks for the teacher view (``teacher=1``) comes from
    the teacher's browser, which holds the key (:func:`teacher_browser`), and any other from a new browser.

    ``progress`` is the course progress the browser reported (:mod:`classroom.progress_storage`), by default a fresh
    one of seed 0, so that "Check yourself" is drawn as in a browser (its exercises at their seed 0 variants)."""
    at = AppTest.from_file(script, default_timeout=timeout)
    if answered:
        query = {"reveal": "1", **query}
    for key, value in query.items():
        at.query_params[key] = value
    if keeps is None and query.get("teacher") == "1":
        keeps = teacher_browser()
    if keeps:
        at.session_state[browser.SESSION] = dict(keeps)
    at.session_state[progress_storage.SESSION] = progress if progress is not None else Progress(seed=0)
    return at.run()


def teacher_browser() -> dict[str, str]:
    """What the teacher's browser keeps once the lab's teacher key was typed in it."""
    return {"teacher": teacher_key.browser_token()}


def tables(at: AppTest) -> list[list[dict[str, str]]]:
    """The tables the page drew (``ui.show_table``), in order: each a list of rows, each row column -> cell text as
    shown (HTML entities decoded)."""
    found = []
    for block in at.markdown:
        if 'class="dplab-table"' not in block.value:
            continue
        columns = [html.unescape(name) for name in re.findall(r'<th role="columnheader" scope="col">(.*?)</th>',
                                                              block.value)]
        rows = re.findall(r'<tbody role="rowgroup">(.*)</tbody>', block.value)[0].split('<tr role="row">')[1:]
        found.append([dict(zip(columns, (html.unescape(cell) for cell in re.findall(r'<td [^>]*>(.*?)</td>', row))))
                      for row in rows])
    return found


def plotly_spec(at: AppTest, index: int = 0) -> dict:
    """The figure JSON Streamlit sends to the browser (the PlotlyChart proto's ``spec``)."""
    return json.loads(at.get("plotly_chart")[index].proto.spec)


def decode(array) -> np.ndarray:
    """Plotly >= 6 serialises numpy arrays as ``{"dtype": "f8", "bdata": <base64>}``; plain lists pass through."""
    if isinstance(array, dict) and "bdata" in array:
        out = np.frombuffer(base64.b64decode(array["bdata"]), dtype=np.dtype(array["dtype"]))
        if "shape" not in array:
            return out
        shape = array["shape"]  # "41, 41" in a figure's JSON, a list elsewhere
        return out.reshape([int(n) for n in shape.split(",")] if isinstance(shape, str) else shape)
    return np.asarray(array)


def as_sent(values) -> np.ndarray:
    """``values`` as a figure sends them to the browser: float32 (:attr:`ui.drawn.Drawn.sent`)."""
    return np.asarray(values, dtype=float).astype(np.float32)


def texts(elements) -> list[str]:
    """The ``.value`` of each element (markdown, alerts, captions)."""
    return [element.value for element in elements]


def charts(at: AppTest) -> dict[str, dict]:
    """Figure JSON of every plotly chart on the page, by element key; an animation's frames completed as plotly.js
    draws them (:func:`complete_frames`)."""
    return {chart.key: complete_frames(json.loads(chart.proto.spec)) for chart in at.get("plotly_chart")}


def complete_frames(spec: dict) -> dict:
    """``spec`` with each animation frame's traces as plotly.js draws them: the figure's trace at the same position,
    updated by what the frame names (frames are sent holding only what changes, :mod:`ui.drawn`)."""
    base = spec.get("data") or []
    frames = [{**frame, "data": [{**(base[i] if i < len(base) else {}), **trace}
                                 for i, trace in enumerate(frame.get("data") or [])]}
              for frame in spec.get("frames") or []]
    return {**spec, "frames": frames} if frames else spec


def widget_values(at: AppTest, select_sliders=(), radios=()) -> dict:
    """Current values of a page's controls (widget keys ``w_<key>``), the seed included."""
    values = {key: at.select_slider(key=f"w_{key}").value for key in select_sliders}
    values.update({key: at.radio(key=f"w_{key}").value for key in radios})
    values["seed"] = at.number_input(key="w_seed").value
    return values


def frame_traces(spec: dict, name: str) -> dict[str, dict]:
    """The traces of an animated figure's frame ``name``, by trace name."""
    return {trace["name"]: trace for trace in next(f for f in spec["frames"] if f["name"] == name)["data"]}


def active_frame(spec: dict) -> str:
    """The label of the frame an animated figure opens on (its slider's active step)."""
    slider = spec["layout"]["sliders"][0]
    return slider["steps"][slider["active"]]["label"]


def assert_animated(spec: dict) -> None:
    """Frames, a slider stepping through them, Play/Pause, and the shown data = the slider's frame."""
    names = [frame["name"] for frame in spec["frames"]]
    assert len(names) >= 2
    steps = spec["layout"]["sliders"][0]["steps"]
    assert [step["label"] for step in steps] == names
    assert {step["method"] for step in steps} == {"animate"}
    assert [button["label"] for button in spec["layout"]["updatemenus"][0]["buttons"]] == ["Play", "Pause"]
    shown = spec["frames"][names.index(active_frame(spec))]["data"]
    assert [trace["name"] for trace in spec["data"]] == [trace["name"] for trace in shown]
    for trace, framed in zip(spec["data"], shown):
        np.testing.assert_array_equal(decode(trace["y"]), decode(framed["y"]))


def page_fixture(file_name: str, timeout: float = 300, **query: str):
    """A module-scoped pytest fixture: the page ``app_pages/<file_name>`` run once with the URL ``query``. Assign it
    to the fixture's name in a test module: ``default_page = page_fixture("truncation.py")``."""
    import pytest

    @pytest.fixture(scope="module")
    def page() -> AppTest:
        return run(page_path(file_name), timeout=timeout, **query)
    return page


def assert_message(at: AppTest, level: str, words: str) -> None:
    """The run raised no exception and shows a message of ``level`` ("error", "warning", "info") containing
    ``words`` (e.g. a bad value in the link, reported instead of a traceback)."""
    assert not at.exception
    assert any(words in text for text in texts(getattr(at, level)))


def open_go_deeper(at: AppTest) -> AppTest:
    """The page with "Go deeper" opened, as a click on it does (its content is built only when it is open)."""
    import ui

    at.session_state[ui.page.DEEPER] = True
    return at.run()


def assert_downloads(at: AppTest, keys: list[str]) -> None:
    """The figures offered for download are ``keys`` (in page order): one choice each under "Go deeper", the first
    chosen at first with its three downloads (data, figure, snippet), and choosing the last offers the last's.
    "Go deeper" is closed at first, with no downloads built."""
    import ui

    assert list(at.session_state[ui.FIGURE_CALLS]) == list(keys)
    built = [button for button in at.get("download_button")
             if not button.proto.id.endswith(("-progress_download", "-receipt_download"))]  # Check yourself's own
    assert not built and not [box for box in at.selectbox if box.key == "download_figure"]
    open_go_deeper(at)
    assert len(at.selectbox(key="download_figure").options) == len(keys)
    for key in (keys[0], keys[-1]):
        at.selectbox(key="download_figure").set_value(key).run()
        figure = [button for button in at.get("download_button") if "-download_" in button.proto.id]  # not handouts
        names = [button.proto.id.rpartition("-download_")[2] for button in figure]
        assert names == [f"{key}.{ext}" for ext in ("csv", "html", "py")]
        assert [button.proto.label for button in figure] == ["Data (CSV)", "Figure (HTML)", "Python snippet"]


def handouts(script: str, timeout: float = 300, **query: str) -> tuple[AppTest, dict[str, str]]:
    """Run the page ``script`` (absolute path) with the URL ``query``, every question answered, and "Go deeper" open;
    return it and the files its download buttons hold (file name -> text), read as the server stores them."""
    at = run(script, timeout=timeout, **query)
    return at, downloads(at)


def downloads(at: AppTest) -> dict[str, str]:
    """The files the download buttons of the page ``at`` hold once "Go deeper" is opened (file name -> text), read as
    the server stores them (a file made on click is made here)."""
    from unittest import mock

    from streamlit.runtime.media_file_manager import MediaFileManager

    files: dict[str, str] = {}
    add, add_deferred = MediaFileManager.add, MediaFileManager.add_deferred

    def held(data, file_name) -> None:
        if file_name:
            files[file_name] = data.decode() if isinstance(data, bytes) else data

    def keep(self, data, mimetype, coordinates, file_name=None, is_for_static_download=False):
        held(data, file_name)
        return add(self, data, mimetype, coordinates, file_name, is_for_static_download)

    def click(self, make, mimetype, coordinates, file_name=None, **where):  # a file made on click: clicked here
        held(make(), file_name)
        return add_deferred(self, make, mimetype, coordinates, file_name, **where)
    with (mock.patch.object(MediaFileManager, "add", keep), mock.patch.object(MediaFileManager, "add_deferred", click),
          mock.patch("streamlit.elements.widgets.button.runtime.exists", return_value=True)):  # AppTest's runtime
        open_go_deeper(at)
    return files

"""Every chart of every page (at its defaults, every question revealed) has an accessible name, its title, and an
"In words" paragraph a first-year can read: no float noise, no "-0", never "x is x", and a heat map or a histogram
told as one, not as a line. Its data as a table is built only on request."""

import json
import re

import numpy as np
import pytest

from dpcore.viz.summary import figure_name, figure_summary
from registry import PAGES
from tests.app.helpers import ROOT, active_frame, charts, complete_frames, decode, page_path, run

NUMBER = re.compile(r"(?<![\w.])[−-]?\d[\d,]*(?:\.\d+)?")


def significant_digits(number: str) -> int:
    """The significant digits of a number as written ("2,690" → 3, "0.000827" → 3, "1.9375105" → 8)."""
    digits = number.lstrip("−-").replace(",", "")
    whole, _, decimals = digits.partition(".")
    return len((whole + decimals).lstrip("0")) if decimals else len(whole.strip("0"))


def float_noise(text: str) -> list[str]:
    """The numbers of ``text`` written with 5 significant digits or more (float noise: 2.5250000000000004)."""
    return [number for number in NUMBER.findall(text) if significant_digits(number) >= 5]


def test_the_noise_finder_finds_noise_and_passes_numbers_as_said():
    assert float_noise("-1.9375105320022565 0, -2.5250000000000004 and 2.69e+03") == ["-1.9375105320022565",
                                                                                       "-2.5250000000000004"]
    assert float_noise("n = 1,000,000, d = 1024, 0.000827, 2,690, 4.41 × 10⁻⁷") == []


def _last_place(number: str) -> float:
    """The value of a written number's last digit ("0.0931" → 0.0001, "2,690" → 1)."""
    decimals = number.partition(".")[2]
    return 10.0 ** -len(decimals)


def same_words(told: str, drawn: str) -> bool:
    """Whether the words under a chart (made from the figure at full precision) say what its drawn data says (the
    browser gets the data as float32, ui.drawn): the same text, each number the same or one unit apart in the last
    digit of the longer (0.09305 is "0.093" at full precision and "0.0931" as float32)."""
    told_numbers, drawn_numbers = NUMBER.findall(told), NUMBER.findall(drawn)
    if NUMBER.sub("#", told) != NUMBER.sub("#", drawn) or len(told_numbers) != len(drawn_numbers):
        return False
    value = lambda number: float(number.replace("−", "-").replace(",", ""))  # noqa: E731
    return all(abs(value(a) - value(b)) <= min(_last_place(a), _last_place(b)) * 1.0000001
               for a, b in zip(told_numbers, drawn_numbers))


def test_words_and_drawn_data_agree_up_to_the_last_digit_only():
    assert same_words("from 0.093 at m = 1", "from 0.0931 at m = 1")
    assert same_words("n = 2,690", "n = 2,690")
    assert not same_words("from 0.093 at m = 1", "from 0.0932 at m = 1")
    assert not same_words("lowest at m = 5", "lowest at m = 10")
    assert not same_words("falls from 0.093", "rises from 0.093")


def _containers(node) -> list:
    """Every container under ``node`` (depth first)."""
    found = []
    for child in getattr(node, "children", {}).values():
        if hasattr(child, "children"):
            found += [child, *_containers(child)]
    return found


def _words_boxes(at) -> dict[str, list[str]]:
    """{chart key: the captions of its container keyed ``words_<key>``}: what assets/a11y.js makes the chart's
    description (aria-describedby; in the browser: tests/e2e/test_screen_reader.py)."""
    boxes = {}
    for box in _containers(at.main):
        block_id = getattr(box.proto, "id", "")
        if "-words_" in block_id:
            boxes[block_id.rsplit("-words_", 1)[1]] = [caption.value for caption in box.caption]
    return boxes


@pytest.fixture(scope="module")
def pages():
    """Every page at its defaults with every question revealed: its charts' figures, names and paragraphs, and the
    containers of the paragraphs."""
    shown = {}
    for info in PAGES:
        at = run(str(ROOT / info.script), timeout=300)
        assert not at.exception, (info.url_path, at.exception)
        words = [caption.value.removeprefix("In words: ") for caption in at.caption
                 if caption.value.startswith("In words: ")]
        charts = [(chart.key, complete_frames(json.loads(chart.proto.spec)), chart.proto.alt)
                  for chart in at.get("plotly_chart")]
        shown[info.url_path or "home"] = charts, words, _words_boxes(at)
    return shown


def _y_title(spec: dict, trace: dict) -> str:
    axis = spec["layout"].get(f"yaxis{str(trace.get('yaxis') or 'y')[1:]}") or {}
    title = axis.get("title") or {}
    return str(title.get("text") or "" if isinstance(title, dict) else title)


def _kinds(spec: dict) -> set[str]:
    """The kinds a chart's words must name: a heat map; a histogram, for many bars along a numeric axis that counts
    a sample (count, density, share); bars of a score or a probability are no histogram."""
    kinds = set()
    for trace in spec["data"]:
        if trace.get("type") == "heatmap":
            kinds.add("heat map")
        if trace.get("type") == "bar" and decode(trace.get("x")).dtype.kind in "fiu" and decode(trace["x"]).size >= 8:
            kinds.add("histogram" if re.search(r"count|density|share", _y_title(spec, trace)) else "bars")
    return kinds


def test_every_chart_has_its_title_as_accessible_name(pages):
    for page, (shown, _, _) in pages.items():
        for key, spec, alt in shown:
            assert alt and alt == figure_name(spec), (page, key)
            assert "<" not in alt and alt != "Chart", (page, key, alt)


def test_every_chart_is_told_in_words_a_person_can_read(pages):
    told = 0
    for page, (shown, words, _) in pages.items():
        assert len(words) == len(shown), page  # one paragraph under each chart
        for (key, spec, _), paragraph in zip(shown, words):
            assert same_words(paragraph, figure_summary(spec)), (page, key, paragraph, figure_summary(spec))
            assert not float_noise(paragraph), (page, key, float_noise(paragraph))
            assert " x is x" not in paragraph and "e+0" not in paragraph and "e-0" not in paragraph.replace(
                "1e-06", ""), (page, key, paragraph)  # δ = 1e-06 is a title's own text
            assert not re.search(r"(?<![\w.])[−-]0(?![.\d])", paragraph), (page, key, paragraph)
            for kind in _kinds(spec):
                assert kind in paragraph.lower(), (page, key, kind, paragraph)
            if "histogram" not in _kinds(spec):  # "the middle 80 %" of something that is no sample, nor a band
                assert "middle 80 % between" not in paragraph, (page, key, paragraph)
            for trace in spec["data"]:
                if trace.get("type") in ("bar", "heatmap") and trace.get("name"):
                    assert f"{trace['name']} rises" not in paragraph and f"{trace['name']} falls" not in paragraph
            assert len(paragraph) < 1400, (page, key, len(paragraph))  # one short paragraph
            told += 1
    assert told >= 30


def test_every_paragraph_has_a_container_of_its_own_keyed_by_its_chart(pages):
    """The container ``words_<chart key>`` holds the chart's "In words" paragraph and nothing else."""
    for page, (shown, words, boxes) in pages.items():
        assert boxes == {key: [f"In words: {paragraph}"] for (key, _, _), paragraph in zip(shown, words)}, page


def test_the_clipping_histogram_says_where_its_mass_is_and_marks_the_means(pages):
    shown, words, _ = pages["truncation-bias"]
    paragraph = words[[key for key, _, _ in shown].index("clipping_histogram")]
    assert "A histogram of count against" in paragraph and "the middle 80 % between" in paragraph
    assert "a vertical line marks true mean = 0" in paragraph and "The shaded region runs from −2 to 2." in paragraph


def test_the_data_table_is_built_only_when_asked():
    at = run(page_path("tournament.py"), timeout=300)
    assert not at.table  # closed: nothing built
    assert [box.label for box in at.expander].count("Data as a table") == len(at.get("plotly_chart"))
    at.session_state["table_win_matrix"] = True
    at.session_state["table_tv_vs_n"] = True
    at.run()
    assert not at.exception
    tables = {len(table.value): table.value for table in at.table}
    matrix = tables[41 * 41]
    assert list(matrix.columns)[-1] == "row vs column"
    assert [name.replace("\\", "") for name in matrix.columns[:2]] == ["hypothesis Hᵢ (its mean)",
                                                                        "opponent Hⱼ (its mean)"]
    assert set(matrix.iloc[:, 2]) == {"wins", "tie", "loses"}
    sweep = next(value for size, value in tables.items() if size != 41 * 41)
    assert "10–90 % band" in sweep.columns and not any(float_noise(str(cell)) for cell in np.ravel(sweep.values))
    opening = active_frame(charts(at)["tv_vs_n"])
    assert at.selectbox(key="table_frame_tv_vs_n").value == opening  # the frame the chart opens on

"""The real-data page (app_pages/real_data.py) through AppTest: the bundled columns with their true statistics and
every release's guarantee, deep links, the public bounds reset per data set, a student's CSV read in the session only
(a second session sees nothing of it, nothing is written to disk, the URL and the caches shared by sessions hold
none of it, the notebook snippet reads the student's own file), and every bad file or bound a message, never a
traceback. The browser's view of it: tests/e2e/test_real_data_browser.py.
"""

import math
import os
import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import numpy as np
import pytest
from helpers import ROOT, charts, downloads, page_path, run, tables, texts

from app_pages.settings import real_data as settings
from dpcore import planning
from dpcore.datasets import DATASETS, load_dataset
from dpcore.lessons import real_data as lesson
from dpcore.lessons.plain_words import number_text
from ui import compute

SCRIPT = page_path("real_data.py")
GOOD = b"income,city,age\n1200,Ghent,34\n950,Liege,51\n4100,Ghent,29\n780,Namur,62\n1510,Ghent,45\n"
SECRET = 4100.0  # a value of GOOD that must never leave the session
TYPED_RANGE = dict(low="0", high="10000")  #: an upload's public range, typed (in the link): the page then releases


def open_page(answered: bool = True, **query: str):
    return run(SCRIPT, timeout=180, answered=answered, **query)


def upload(at, content: bytes, name: str = "survey.csv"):
    at.file_uploader(key="upload_file").set_value((name, content, "text/csv")).run()
    return at


def facts(at) -> dict[str, str]:
    [table] = [table for table in tables(at) if "value (not private)" in table[0]]
    return {row["statistic"]: row["value (not private)"] for row in table}


def assert_clean(at):
    assert not at.exception, [element.message for element in at.exception]


@pytest.mark.parametrize("data", list(DATASETS))
def test_a_bundled_column_shows_its_true_statistics_and_every_release_with_its_guarantee(data):
    at = open_page(data=data)
    assert_clean(at)
    assert not at.error and not at.warning
    values = load_dataset(data)
    shown = facts(at)
    assert shown["number of values n"] == f"{values.size:,}"
    assert shown["mean"] == number_text(values.mean()) and shown["median"] == number_text(float(np.median(values)))
    [releases] = [table for table in tables(at) if "guarantee" in table[0]]
    assert len(releases) == len(lesson.METHODS)
    assert all("replace-one" in row["guarantee"] for row in releases)
    assert {row["true value (not private)"] for row in releases[:4]} == {number_text(values.mean())}
    assert set(charts(at)) == {"real_clipping", "real_quantiles", "real_histogram", "real_laplace_gaussian",
                               "real_error_means", "real_error_quantiles"}
    assert any(DATASETS[data].source in text for text in texts(at.caption))  # its source and licence, said


def test_a_deep_link_sets_the_data_bounds_and_budget():
    at = open_page(data="anes96", lower="18", upper="95", eps="0.5")
    assert_clean(at)
    assert at.number_input(key="w_lower").value == 18 and at.number_input(key="w_upper").value == 95
    assert at.query_params["lower"] == "18" and at.query_params["data"] == "anes96"
    assert "ε = 0.5" in charts(at)["real_clipping"]["layout"]["title"]["text"]


def test_bounds_start_again_from_the_new_columns_defaults_when_the_data_change():
    at = open_page(data="engel", upper="5000")
    assert at.number_input(key="w_upper").value == 5000
    at.radio(key="w_data").set_value("anes96").run()
    assert_clean(at)
    assert at.number_input(key="w_upper").value == 120 and at.query_params["upper"] == "120"


def test_bounds_read_off_the_data_are_warned_of_and_bad_bounds_are_a_message():
    ages = load_dataset("anes96")
    warned = open_page(data="anes96", lower=f"{ages.min():g}")
    assert any("look read off the column" in text for text in texts(warned.warning))
    crossed = open_page(data="anes96", lower="90", upper="20")
    assert_clean(crossed)
    assert "The clipping bound U (20) must be greater than the clipping bound L (90): values are moved into the " \
           "window from L to U." in texts(crossed.error)
    assert facts(crossed)["number of values n"] == f"{ages.size:,}"  # what can still run, runs


def test_an_uploaded_column_is_released_and_its_snippet_reads_the_students_file():
    at = upload(open_page(data="upload", **TYPED_RANGE), GOOD)
    assert_clean(at)
    assert at.selectbox(key="upload_column").options == ["income", "age"]
    assert facts(at)["number of values n"] == "5"
    assert facts(at)["largest value"] == number_text(SECRET)
    assert len(charts(at)) == 6
    files = downloads(at)  # Go deeper opened: the first figure's downloads, the handouts
    code = files["real_clipping.py"]
    assert "column = numeric_column(read_csv_columns('my_data.csv'), 'income')" in code
    assert "fig = real_data.clipping_bars(x=column," in code
    assert all(value not in code for value in ("4100", "1200", "Ghent"))  # the data never go into the code


def test_an_upload_stays_in_its_session():
    before = _files_outside_venv()
    at = upload(open_page(data="upload", **TYPED_RANGE), GOOD)
    assert_clean(at)
    other = open_page(data="upload")  # another visitor of the same server process
    assert not [box for box in other.selectbox if box.key == "upload_column"]
    assert not [table for table in tables(other) if "value (not private)" in table[0]]
    url = "&".join(f"{key}={value}" for key, value in at.query_params.items())
    assert "data=upload" in url
    assert "4100" not in url and "income" not in url and "survey" not in url
    for cache in (compute._shared(), compute._figures()):  # no cache shared by sessions holds the column
        for key in list(cache._items):
            assert "4100" not in str(key) and "Ghent" not in str(key)
    assert _files_outside_venv() == before  # nothing written to disk


def test_a_replaced_file_or_another_data_set_leaves_nothing_computed_from_the_old_file():
    at = upload(open_page(data="upload", **TYPED_RANGE), GOOD)
    first = set(at.session_state[compute._PRIVATE]._items)
    assert first  # the file read, its figures and texts: kept in the session
    upload(at, GOOD.replace(b"4100", b"4200"), name="other.csv")
    assert_clean(at)
    assert facts(at)["largest value"] == number_text(4200.0)
    assert not first & set(at.session_state[compute._PRIVATE]._items)
    at.radio(key="w_data").set_value("engel").run()
    assert_clean(at)
    assert compute._PRIVATE not in at.session_state


def _files_outside_venv() -> set[str]:
    skip = {".venv", ".git", "artifacts", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache"}
    found = set()
    for folder, names, files in os.walk(ROOT):
        names[:] = [name for name in names if name not in skip]
        found.update(str(Path(folder, name).relative_to(ROOT)) for name in files)
    return found


@pytest.mark.parametrize("content, message", [
    (b"", "empty"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 4, "not a text CSV"),
    ("name;âge\nRenée;34\nJosé;51\n".encode("latin-1"), "UTF-8"),
    (b"name,city\nAnn,Ghent\nBob,Namur\n", "no column"),
    (b"value\n7\n7\n7\n7\n", "nothing to estimate"),
    (b"x\n" + b"1" * (21 * 1024 * 1024) + b"\n", "MB"),
    (b"x\n1\n" + b"Ghent" * 2_000_000 + b"\n2\n", "longer than 131,072 characters"),  # one 10 MB line
    (b'x,note\n1,"' + b"Ghent" * 2_000_000 + b'"\n2,b\n', "longer than 131,072 characters"),  # a 10 MB quoted cell
])
def test_a_bad_file_gets_a_message_and_the_page_goes_on(content, message):
    at = upload(open_page(data="upload", **TYPED_RANGE), content)
    assert_clean(at)
    assert any(message.lower() in text.lower() for text in texts(at.error)), texts(at.error)
    # the page around the message still runs: its typed controls hold what was typed, the others are empty; no chart
    assert [at.number_input(key=f"w_{spec.key}").value for spec in settings.public_specs(settings.UPLOAD)] == [
        0, 10_000, None, None, None]
    assert not charts(at)
    upload(at, GOOD)  # and a good file afterwards works
    assert_clean(at)
    assert facts(at)["number of values n"] == "5"


def test_cells_that_are_not_numbers_are_counted_and_a_formula_is_never_shown():
    content = b"income\n1200\nnan\ninf\n=cmd|' /C calc'!A0\nabout 900\n950\n4100\n"
    at = upload(open_page(data="upload", **TYPED_RANGE), content)
    assert_clean(at)
    assert facts(at)["number of values n"] == "3"
    notes = " ".join(texts(at.caption))
    assert "left out" in notes or "not numbers" in notes
    page_text = " ".join(texts(at.markdown) + texts(at.caption) + texts(at.error) + texts(at.warning))
    assert "cmd|" not in page_text and "calc" not in page_text


SECRET_CELL = "Zq7Ghent"  #: written in the cells of the files below: no message may quote it
#: Python's words, which no student should meet: a type, an array, a parameter's code name, a traceback
PYTHONISH = re.compile(r"\b(dtype|ndarray|float64|NaN|nan|inf|Traceback|parameter|None|np|got|ndim)\b|_|!r|\bx\b")
#: A good column with a text column holding the secret cell, for the bad typed controls
TYPED = f"income,city\n1200,{SECRET_CELL}\n950,Liege\n4100,{SECRET_CELL}\n780,Namur\n1510,Ghent\n".encode()
#: (file, controls typed in the page or linked, values of the file that must not be said) -> each a message
REFUSED = {
    "empty": (b"", {}, ()),
    "binary": (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + SECRET_CELL.encode() + bytes(range(256)), {}, ()),
    "latin-1": (f"nom;âge\nRenée;{SECRET_CELL}é\n".encode("latin-1"), {}, ()),
    "header-only": (b"income,age\n", {}, ()),
    "no-numbers": (f"name,city\nAnn,{SECRET_CELL}\nBob,Namur\n".encode(), {}, ()),
    "one-number-each": (f"a,b\n1,{SECRET_CELL}\n{SECRET_CELL},2\n".encode(), {}, ()),
    "long-cell": (f'a,b\n1,"{SECRET_CELL * 20_000}",\n2,3\n'.encode(), {}, ()),
    "quote-never-closed": (f'a,b\n1,"{SECRET_CELL}\n'.encode() + b"2,3\n" * 40_000, {}, ()),
    "all-equal": (f"score,note\n4242.125,{SECRET_CELL}\n4242.125,b\n4242.125,c\n".encode(), {}, ("4242",)),
    "huge": (b"income\n3.25e200\n-3.25e200\n7\n", {}, ("3.25", "e200", "e+200")),
    "three-values": (b"income\n1200\n950\n4100\n", TYPED_RANGE, ()),
    "range-crossed": (TYPED, dict(low="100", high="0"), ()),
    "range-empty": (TYPED, dict(low="5", high="5"), ()),
    "clipping-crossed": (TYPED, dict(**TYPED_RANGE, lower="90", upper="20"), ()),
    "clipping-equal": (TYPED, dict(**TYPED_RANGE, lower="50", upper="50"), ()),
    "range-too-wide": (TYPED, dict(low="-1000000000000", high="1000000000000", scale="0.000000001"), ()),
}


def test_every_message_of_the_page_is_in_a_students_words_and_quotes_no_cell():
    """Every bad file, column and typed control the page can meet gives at least one message, never a traceback;
    no message (error or warning) quotes a cell of the file or uses Python's words (types, arrays, code names with
    an underscore, "got", "x")."""
    said = {}
    for case, (content, controls, values) in REFUSED.items():
        at = upload(open_page(data="upload", **controls), content, name="survey.csv")
        assert_clean(at)
        messages = texts(at.error) + texts(at.warning)
        assert messages, case
        for message in messages:
            assert SECRET_CELL not in message and not any(value in message for value in values), (case, message)
            assert not PYTHONISH.search(message), (case, message)
        said[case] = messages
    assert len({message for messages in said.values() for message in messages}) >= 14, said


# ------------------------------------------------------------------------- a student's survey (issue 40, item 2)
def survey(delimiter: str = ",", decimal: str = ".", n: int = 5_000, seed: int = 40) -> bytes:
    """A student's survey as the tour met it: ``respondent_id`` 1…n, then age, income (log-normal, quartiles about
    19,000 / 32,500 / 54,000), hours, visits and region (text), 4–7 % of each of the last five empty.
    ``decimal=","`` writes income and hours with a decimal comma (a spreadsheet set to a European language, which
    also puts a semicolon between values)."""
    rng = np.random.default_rng(seed)
    measures = {
        "age": [f"{v:d}" for v in rng.integers(18, 91, n)],
        "income": [f"{v:.2f}" for v in rng.lognormal(np.log(32_500), 0.76, n)],
        "hours": [f"{v:.1f}" for v in np.clip(rng.normal(38, 9, n), 1, 80)],
        "visits": [f"{v:d}" for v in rng.poisson(3, n)],
        "region": [str(v) for v in rng.choice(["north", "south", "east", "west"], n)],
    }
    for name, cells in measures.items():
        for row in np.flatnonzero(rng.random(n) < rng.uniform(0.04, 0.07)):
            cells[row] = ""
        measures[name] = [cell.replace(".", decimal) for cell in cells]
    rows = zip(range(1, n + 1), *measures.values(), strict=True)
    return (delimiter.join(["respondent_id", *measures]) + "\n"
            + "".join(delimiter.join(map(str, row)) + "\n" for row in rows)).encode()


SURVEY = survey()
SURVEY_COMMAS = survey(";", ",")  #: the same survey from a spreadsheet that writes 2,5 for 2.5
PUBLIC_KEYS = ("low", "high", "lower", "upper", "scale")


def in_order(node):
    """Every element under ``node`` (the page's main block), in the order the page shows them."""
    for child in getattr(node, "children", {}).values():
        yield child
        yield from in_order(child)


def test_a_survey_opens_on_its_first_measured_column_not_on_its_ids():
    at = upload(open_page(data="upload"), SURVEY)
    assert_clean(at)
    chosen = at.selectbox(key="upload_column")
    assert chosen.options == ["respondent_id", "age", "income", "hours", "visits"]
    assert chosen.value == "age"  # 1, 2, …, 5,000: a numbering, not a measure
    assert not any("looks like" in text for text in texts(at.warning) + texts(at.caption))
    chosen.set_value("respondent_id").run()  # chosen on purpose: said
    assert any("looks like row numbers or ids" in text for text in texts(at.warning)), texts(at.warning)
    numbered = upload(open_page(data="upload"), b"case,city\n3,Ghent\n8,Namur\n21,Ghent\n22,Liege\n")
    assert numbered.selectbox(key="upload_column").value == "case"  # the only column: kept, with the note
    assert any("looks like row numbers or ids" in text for text in texts(numbered.warning)), texts(numbered.warning)


def test_an_uploads_public_range_is_the_students_to_type_and_nothing_is_released_before():
    at = upload(open_page(data="upload"), SURVEY)
    assert_clean(at)
    assert [at.number_input(key=f"w_{key}").value for key in PUBLIC_KEYS] == [None] * 5  # no range for every file
    [prompt] = texts(at.info)
    assert "public range" in prompt and "cannot read it off your file" in prompt and "privacy" in prompt
    assert not charts(at) and not [table for table in tables(at) if "value (not private)" in table[0]]
    assert not set(PUBLIC_KEYS) & set(at.query_params)  # an empty box is not in the link
    at.number_input(key="w_low").set_value(0).run()
    assert not charts(at) and texts(at.info) == [prompt]  # one end is not a range
    at.number_input(key="w_high").set_value(120).run()
    assert_clean(at)
    assert not at.info and not at.error and not at.warning
    assert len(charts(at)) == 6 and facts(at)["number of values n"] == "4,678"
    assert (at.query_params["low"], at.query_params["high"]) == ("0", "120")
    assert not {"lower", "upper", "scale"} & set(at.query_params)  # empty: the public range, and (b − a)/2
    assert "Clipping to [0, 120] moves 0 % of the values" in " ".join(texts(at.markdown))  # L and U: a and b


def test_a_range_that_leaves_out_more_than_five_percent_is_warned_of_right_under_the_bounds():
    at = upload(open_page(data="upload", low="0", high="100"), SURVEY)
    at.selectbox(key="upload_column").set_value("income").run()
    assert_clean(at)
    [warned] = texts(at.warning)
    assert "leaves out 100 % of this column's values" in warned and "not private" in warned
    shown = list(in_order(at.main))
    where = {id(node): place for place, node in enumerate(shown)}
    [scale] = [place for place, node in enumerate(shown) if getattr(node, "key", None) == "w_scale"]
    first_table = min(place for place, node in enumerate(shown)
                      if getattr(node, "type", None) == "markdown" and 'class="dplab-table"' in node.value)
    assert scale < where[id(at.warning[0])] < first_table  # under the bounds, above the column's statistics
    fine = open_page(data="upload", low="0", high="1000000")
    upload(fine, SURVEY).selectbox(key="upload_column").set_value("income").run()
    assert not fine.warning


def test_the_columns_that_are_not_offered_are_said_with_why_under_the_uploader():
    at = upload(open_page(data="upload"), SURVEY_COMMAS)
    assert_clean(at)
    assert at.selectbox(key="upload_column").options == ["respondent_id", "age", "visits"]
    assert at.selectbox(key="upload_column").value == "age"
    notes = texts(at.caption)
    for name in ("income", "hours"):
        [said] = [note for note in notes if f"'{name}' is not offered" in note]
        assert "decimal comma" in said and "dot" in said
    [region] = [note for note in notes if "'region' is not offered" in note]
    assert "not numbers" in region
    shown = list(in_order(at.main))
    [uploader] = [place for place, node in enumerate(shown) if getattr(node, "key", None) == "upload_file"]
    [column] = [place for place, node in enumerate(shown) if getattr(node, "key", None) == "upload_column"]
    assert all(uploader < place < column for place, node in enumerate(shown)
               if getattr(node, "value", None) in notes and "is not offered" in node.value)
    assert not any(secret in " ".join(notes) for secret in ("25267", "north", "east"))  # no cell quoted


def test_a_refused_file_leaves_nothing_of_the_previous_file_and_the_page_says_which_file_it_shows():
    at = upload(open_page(data="upload", **TYPED_RANGE), GOOD, name="survey.csv")
    assert_clean(at)
    assert any("survey.csv" in text and "shows" in text for text in texts(at.caption))
    assert charts(at) and facts(at)
    computed = set(at.session_state[compute._PRIVATE]._items)
    too_big = b"x\n" + b"1" * (21 * 1024 * 1024) + b"\n"
    for name, content in (("big.csv", too_big), ("picture.csv", b"\x89PNG\r\n\x1a\n\x00\x00")):
        upload(at, content, name=name)
        assert_clean(at)
        assert at.error and not charts(at)
        assert not [table for table in tables(at) if "value (not private)" in table[0]]
        assert not computed & set(at.session_state[compute._PRIVATE]._items)
        said = " ".join(texts(at.caption))
        assert name in said and "survey.csv" not in said and "no file" in said, said


def test_a_bad_value_for_an_empty_box_in_a_link_leaves_it_empty_and_a_good_one_fills_it():
    at = open_page(data="upload", low="abc", high="120")
    assert_clean(at)
    assert "Invalid low in the link: `abc` is not a number. Leaving it empty." in texts(at.error)
    assert at.number_input(key="w_low").value is None and at.number_input(key="w_high").value == 120
    assert "low" not in at.query_params and at.query_params["high"] == "120"


# ------------------------------------------------------------------------- the releases as a plan ("Choosing ε")
PLAN_LINK = re.compile(r"\]\((/choosing-epsilon\?[^)\s]+)\)")


def plan_link(at) -> str:
    """The link to the planner the page shows under "Plan these releases" (one)."""
    [link] = [found for text in texts(at.caption) for found in PLAN_LINK.findall(text)]
    return link


def linked_plan(link: str) -> tuple[tuple[planning.Release, ...], float]:
    query = parse_qs(urlsplit(link).query, strict_parsing=True)
    return planning.parse_plan(query["plan"][0]), float(query["delta"][0])


def test_the_plan_link_gives_the_planner_this_pages_releases_at_this_pages_epsilon():
    at = open_page(data="anes96", lower="18", upper="95", eps="0.5", delta="1e-08")
    assert_clean(at)
    releases, delta = linked_plan(plan_link(at))
    assert delta == 1e-8
    assert [(release.kind, release.mechanism) for release in releases] == [
        ("mean", "laplace"), ("mean", "gaussian"), *[("quantile", "laplace")] * 3, ("histogram", "laplace")]
    n = load_dataset("anes96").size  # a bundled data set's n is public: it goes in
    assert [(release.lower, release.upper, release.n) for release in releases[:2]] == [(18, 95, n)] * 2
    assert [(release.lower, release.upper) for release in releases[2:5]] == [(0, 120)] * 3
    plan = planning.plan_for(releases, delta)
    assert [item.epsilon for item in plan.items] == pytest.approx([0.5, 0.5, 0.5 / 3, 0.5 / 3, 0.5 / 3, 0.5],
                                                                  abs=1e-6)
    headings = [element.value for element in at.subheader]
    assert headings.index("Plan these releases") == headings.index("What to notice") - 1


def test_an_uploads_plan_link_holds_only_what_was_typed():
    """Two files of different sizes and values, the same typed range and settings: the same link, every n in it the
    planner's default, no value or statistic of either file in it; the page says to type n in the planner."""
    first = upload(open_page(data="upload", **TYPED_RANGE, eps="2"), GOOD)
    assert_clean(first)
    link = plan_link(first)
    other = upload(open_page(data="upload", **TYPED_RANGE, eps="2"),
                   GOOD.replace(b"4100", b"4200") + b"2222,Mons,38\n3333,Mons,41\n")
    assert_clean(other)
    assert plan_link(other) == link
    releases, _ = linked_plan(link)
    assert all(release.n == 1000 for release in releases)  # the planner's default, not the file's 5 values
    assert all((release.lower, release.upper) == (0, 10_000) for release in releases if release.kind != "histogram")
    values = np.array([1200.0, 950.0, 4100.0, 780.0, 1510.0])
    decoded = parse_qs(urlsplit(link).query)["plan"][0]
    numbers = {float(raw) for raw in re.findall(r"=([^,;]+)", decoded) if raw not in ("l", "g")}
    derived = {values.size, *values, values.mean(), float(np.median(values)), values.min(), values.max(),
               *np.quantile(values, [0.25, 0.75]), values.std()}
    assert not {number for number in numbers if any(math.isclose(number, value) for value in derived)}
    note = next(text for text in texts(first.caption) if PLAN_LINK.search(text))
    assert "Type your column's n there" in note and "nothing computed from your file" in note

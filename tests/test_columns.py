"""Numeric columns read from a CSV (dpcore.columns): a round trip, every kind of cell counted exactly, the same table
whatever the size of the blocks the text is split in, a long file read without a list of its cells, every bad file
refused with a plain message that never quotes a cell, nothing written to disk, and bounds taken from the data."""

import builtins
import csv
import io
import tracemalloc

import numpy as np
import pytest

import dpcore
from dpcore.columns import (
    LABEL_LENGTH,
    CsvColumns,
    bounds_from_data,
    default_column,
    looks_like_id,
    not_offered,
    numeric_column,
    read_csv_columns,
)
from dpcore.core.validation import InvalidDataError, InvalidParameterError
from dpcore.datasets import DATASETS, load_dataset

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "read_csv_columns": dict(data=b"age\n36\n20\n", max_bytes=1_000, max_rows=10),
    "numeric_column": dict(columns=read_csv_columns(b"age\n36\n20\n"), name="age", min_values=2),
    "bounds_from_data": dict(values=np.array([19.0, 44.0, 91.0]), lower=18.0, upper=100.0),
    "looks_like_id": dict(values=np.array([1.0, 2.0, 3.0])),
    "default_column": dict(columns=read_csv_columns(b"id,age\n1,36\n2,20\n")),
    "not_offered": dict(columns=read_csv_columns(b"age,city\n36,Lyon\n20,Paris\n")),
}

MARKER = "SECRETCELL"  # written in bad cells: it must appear in no message and no note

NOT_UTF8 = 'This file is not UTF-8 text: in your spreadsheet program, save it again as "CSV UTF-8" and use that file.'
BINARY = ('This file is not a text CSV (it looks like a binary file, e.g. a spreadsheet or an image): export your data '
          'as "CSV UTF-8" and use that file.')
NO_NUMBERS = ("No column of this file holds at least two numbers: the lab estimates statistics of numeric columns "
              "(numbers written with a dot as decimal mark, such as 2.5).")
LONG_CELL = ('A cell of this file is longer than 131,072 characters, which no number is: often a quotation mark (") '
             "that is never closed, so that the rest of the file reads as one cell. Check the file in a text editor, "
             'or save it again from your spreadsheet program as "CSV UTF-8".')
BIG = (MARKER * 1_000_000).encode()  # 10 MB of one cell


def csv_bytes(rows, delimiter=",") -> bytes:
    """``rows`` (the header first) written by the csv module, as UTF-8."""
    buffer = io.StringIO()
    csv.writer(buffer, delimiter=delimiter).writerows(rows)
    return buffer.getvalue().encode("utf-8")


def refusal(data, **limits) -> str:
    """The message of the InvalidDataError that reading ``data`` raises."""
    with pytest.raises(InvalidDataError) as caught:
        read_csv_columns(data, **limits)
    return str(caught.value)


def every_text(table: CsvColumns) -> str:
    """All the notes of a table and of its columns, joined."""
    return " ".join([*table.notes, *(note for column in table.columns.values() for note in column.notes)])


def test_a_generated_csv_round_trips_exactly():
    rng = np.random.default_rng(7)
    values = np.column_stack([rng.normal(size=500), rng.pareto(1.5, size=500), rng.integers(-9, 9, size=500)])
    table = read_csv_columns(csv_bytes([["x", "y", "k"], *([repr(float(v)) for v in row] for row in values)]))
    assert table.rows == 500 and table.numeric == ("x", "y", "k") and table.notes == ()
    for position, name in enumerate(table.numeric):
        column = table.columns[name]
        assert column.values.dtype == np.float64 and np.array_equal(column.values, values[:, position])
        assert (column.cells, column.numeric, column.empty, column.non_finite, column.text, column.notes) == (
            500, 500, 0, 0, 0, ())


@pytest.mark.parametrize("key", list(DATASETS))
def test_the_bundled_csvs_read_as_the_data_sets(key):
    path = dpcore.datasets.bundled.__file__.replace("bundled.py", f"{key}.csv")
    table = read_csv_columns(path)
    assert table.numeric == (DATASETS[key].column,)
    assert np.array_equal(numeric_column(table, DATASETS[key].column), load_dataset(key))


def test_a_path_or_the_bytes_give_the_same_table(tmp_path):
    data = b"age,score\n36,7\n20,9\n"
    (tmp_path / "class.csv").write_bytes(data)
    for source in (data, str(tmp_path / "class.csv"), tmp_path / "class.csv"):
        assert read_csv_columns(source).columns["score"].values.tolist() == [7.0, 9.0]


def test_empty_non_finite_and_text_cells_are_counted_exactly():
    cells = ["1", "", "nan", "NaN", "2.5", "inf", " -Infinity ", MARKER, "3", "  ", "1e3", f"{MARKER} 2", "-2.5"]
    table = read_csv_columns(csv_bytes([["id", "value"], *([str(i), cell] for i, cell in enumerate(cells))]))
    column = table.columns["value"]
    assert column.values.tolist() == [1.0, 2.5, 3.0, 1000.0, -2.5]
    assert (column.cells, column.numeric, column.empty, column.non_finite, column.text, column.formulas) == (
        13, 5, 2, 4, 2, 0)
    assert column.notes == ("2 of 13 cells were empty and left out.",
                            "4 of 13 cells were nan or infinity (written as text) and left out.",
                            "2 of 13 cells were not numbers and left out.")


def test_formula_cells_are_text_counted_and_never_shown():
    formulas = ["=cmd|' /C calc'!A0", f"@SUM({MARKER})", f"+{MARKER}()", f"-{MARKER}", f"={MARKER}"]
    table = read_csv_columns(csv_bytes([["amount"], ["10"], ["12"], *([cell] for cell in formulas)]))
    column = table.columns["amount"]
    assert column.values.tolist() == [10.0, 12.0] and (column.text, column.formulas) == (5, 5)
    assert column.notes == ("5 of 7 cells were not numbers and left out.",
                            "5 of 7 cells were like spreadsheet formulas (starting with =, +, - or @): they were "
                            "treated as text, never evaluated.")
    assert MARKER not in every_text(table) and "calc" not in every_text(table)


def test_a_file_reads_alike_split_plainly_or_by_the_csv_module():
    """A file without quotes is split by plain string splitting; the same file with every cell quoted by the csv
    module: the tables are equal."""
    rows = [["a", "b"], ["1", " 2 "], ["", MARKER], ["nan", "3"], ["-4", "=1"], ["5", "6,5"], ["7", "8"]]
    buffer = io.StringIO()
    csv.writer(buffer, delimiter=";", quoting=csv.QUOTE_ALL).writerows(rows)
    plain, quoted = read_csv_columns(csv_bytes(rows, ";")), read_csv_columns(buffer.getvalue().encode())
    assert b'"' not in csv_bytes(rows, ";") and plain.rows == quoted.rows == 6
    for name in ("a", "b"):
        left, right = plain.columns[name], quoted.columns[name]
        assert np.array_equal(left.values, right.values)
        assert (left.cells, left.empty, left.non_finite, left.text, left.formulas, left.notes) == (
            right.cells, right.empty, right.non_finite, right.text, right.formulas, right.notes)


#: Files whose tables must not depend on where the text is cut into blocks: quoted cells over several lines and with
#: delimiters, CR, CRLF and LF line ends, blank and tab-only lines, ragged rows, text first or last in a numeric
#: column, decimal commas, formulas, a header of numbers, a byte-order mark.
TRICKY = {
    "quoted": b'id,"note, quoted",v\n1,"two\r\nlines",2.5\n2,"a ""b""",nan\r3,"x\ry",-4\n\n4,,1e3\n',
    "ragged": b"a,b,c\r\n1,2,3\r\n4\r\n5,6,7,8\r\n\r\n9,10,11\r\n",
    "tabs": b"a\tb\n1\t2\n\t\t\n   \n3\t=4\n5\t6\n",
    "text-last": b"x;y\n" + b"".join(b"%d;%d,5\n" % (i, i) for i in range(40)) + f"{MARKER};7\n".encode(),
    "text-first": f"x,y\n{MARKER},1\n".encode() + b"".join(b"%d,%d\n" % (i, -i) for i in range(40)),
    "numbers-header": "\ufeff1,2\n".encode() + b"".join(b"%d,%d.5\n" % (i, i) for i in range(30)),
}


@pytest.mark.parametrize("name", list(TRICKY))
@pytest.mark.parametrize("block, rows", [(1, 1), (7, 2), (64, 5)])
def test_a_file_reads_alike_whatever_the_blocks_it_is_split_in(name, block, rows, monkeypatch):
    """The text is split into cells a block of lines at a time (dpcore.columns._BLOCK characters, or _ROWS rows of
    the csv module): blocks of one character (every line its own block) or a few give the table of one block."""
    whole = read_csv_columns(TRICKY[name])
    monkeypatch.setattr(dpcore.columns, "_BLOCK", block)
    monkeypatch.setattr(dpcore.columns, "_ROWS", rows)
    split = read_csv_columns(TRICKY[name])
    assert (split.rows, split.numeric, split.notes, list(split.columns)) == (
        whole.rows, whole.numeric, whole.notes, list(whole.columns))
    for name, column in whole.columns.items():
        other = split.columns[name]
        assert other.values.dtype == np.float64 and np.array_equal(other.values, column.values, equal_nan=True)
        assert (other.cells, other.empty, other.non_finite, other.text, other.formulas, other.notes) == (
            column.cells, column.empty, column.non_finite, column.text, column.formulas, column.notes)


def test_a_long_file_is_read_without_a_list_of_its_cells():
    """300,000 rows of 6 numeric columns (5.7 MB): the reader's peak is its text (5.7 MB), the numbers (14.4 MB) and
    one block's cells (a few MB), under 40 MB; a list of every cell took 120 MB."""
    rng = np.random.default_rng(3)
    numbers = np.column_stack([rng.integers(18, 91, 300_000), rng.integers(150, 201, 300_000),
                               rng.integers(45, 121, 300_000), rng.poisson(1.5, 300_000),
                               rng.integers(0, 2, 300_000), np.round(rng.lognormal(3.3, 0.5, 300_000), 1)])
    lines = (f"{a},{h},{w},{v},{s},{i!r}" for a, h, w, v, s, i in numbers.tolist())
    data = ("age,height,weight,visits,smoker,income\n" + "\n".join(lines) + "\n").encode()
    tracemalloc.start()
    try:
        table = read_csv_columns(data)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert table.rows == 300_000 and len(table.numeric) == 6
    for position, name in enumerate(table.numeric):
        assert np.array_equal(table.columns[name].values, numbers[:, position])
    assert peak < 40e6, f"{peak / 1e6:.0f} MB"


def test_a_quoted_cell_may_span_lines():
    table = read_csv_columns(b'note,n\n"two\nlines",1\nok,2\n', max_rows=2)
    assert table.rows == 2 and table.columns["n"].values.tolist() == [1.0, 2.0]


@pytest.mark.parametrize("delimiter", [";", "\t"], ids=["semicolon", "tab"])
def test_semicolon_and_tab_delimiters_are_sniffed(delimiter):
    table = read_csv_columns(csv_bytes([["age", "income", "city"], ["36", "1200.5", "Lyon, France"],
                                        ["20", "900", "Paris"]], delimiter))
    assert list(table.columns) == ["age", "income", "city"] and table.numeric == ("age", "income")
    assert table.columns["income"].values.tolist() == [1200.5, 900.0]


def test_decimal_commas_are_text_with_a_note_suggesting_a_dot():
    table = read_csv_columns(b"weight;height\n70,5;1.80\n80,25;1.75\n65;1.62\n")
    weight = table.columns["weight"]
    assert weight.values.tolist() == [65.0] and weight.text == 2 and table.numeric == ("height",)
    assert weight.notes == ("2 of 3 cells were not numbers and left out.",
                            "2 of 3 cells were like numbers with a decimal comma (such as 2,5): write decimals with a "
                            "dot (2.5) to have them read.")


def test_a_negative_number_with_a_decimal_comma_is_no_formula():
    column = read_csv_columns(b"change;n\n-2,5;1\n+1,25;2\n=1+1;3\n").columns["change"]
    assert (column.text, column.formulas) == (3, 1)
    assert "2 of 3 cells were like numbers with a decimal comma" in " ".join(column.notes)
    assert "1 of 3 cells was like spreadsheet formulas" in " ".join(column.notes)


@pytest.mark.parametrize("values, numbering", [
    ([1, 2, 3, 4, 5], True), ([0, 1, 2], True), ([3, 8, 21, 22, 1000], True), ([-5, -2, 7], True),
    ([1, 2], False),  # too short to tell
    ([1, 2, 2, 3], False), ([3, 2, 1], False), ([1, 3, 2, 4], False), ([1.5, 2.5, 3.5], False), ([1, 2, 3.25], False),
])
def test_a_column_of_increasing_whole_numbers_looks_like_ids(values, numbering):
    assert looks_like_id(np.array(values, dtype=float)) is numbering


def test_the_default_column_is_the_first_that_is_no_numbering():
    assert default_column(read_csv_columns(b"id,age,income\n1,36,1200\n2,20,950\n3,51,4100\n")) == "age"
    assert default_column(read_csv_columns(b"age,id\n36,1\n20,2\n51,3\n")) == "age"
    assert default_column(read_csv_columns(b"row,case,city\n1,10,a\n2,11,b\n3,12,c\n")) == "row"  # only ids
    assert default_column(read_csv_columns(b"city,k\nLyon,1\nParis,2\n")) == "k"  # too short to be ids


def test_the_columns_not_offered_are_said_with_their_notes_and_no_cell():
    table = read_csv_columns(f"id;income;region;remark;age\n1;32500,25;north;;36\n2;19700,5;{MARKER};;20\n"
                             "3;;south;7;51\n".encode())
    assert table.numeric == ("id", "age")
    said = not_offered(table)
    assert list(said) == ["income", "region", "remark"]
    assert said["income"] == ("The column 'income' is not offered: it holds no numbers (two are needed). 1 of 3 "
                              "cells was empty and left out. 2 of 3 cells were not numbers and left out. 2 of 3 "
                              "cells were like numbers with a decimal comma (such as 2,5): write decimals with a dot "
                              "(2.5) to have them read.")
    assert said["region"].startswith("The column 'region' is not offered: it holds no numbers (two are needed). 3 of 3")
    assert said["remark"] == ("The column 'remark' is not offered: it holds one number (two are needed). 2 of 3 cells "
                              "were empty and left out.")
    assert MARKER not in " ".join(said.values()) and "32500" not in " ".join(said.values())
    assert not_offered(read_csv_columns(b"a,b\n1,2\n3,4\n")) == {}


def test_a_utf8_byte_order_mark_is_dropped():
    table = read_csv_columns("\ufeffâge,n\n36,1\n20,2\n".encode())
    assert list(table.columns) == ["âge", "n"]


def test_quoted_numbers_with_spaces_are_numbers():
    table = read_csv_columns(b'age,"income"\n" 36 ","1e3"\n"20"," -2.5 "\n')
    assert table.columns["age"].values.tolist() == [36.0, 20.0]
    assert table.columns["income"].values.tolist() == [1000.0, -2.5]


def test_blank_repeated_and_unsafe_headers_get_safe_unique_names():
    long = "x" * 200
    table = read_csv_columns(f"age,,age,\x07bad\x1bname,{long},age\n1,2,3,4,5,6\n7,8,9,10,11,12\n".encode())
    assert list(table.columns) == ["age", "column 2", "age (2)", "badname", "x" * (LABEL_LENGTH - 1) + "…", "age (3)"]
    assert table.columns["age (2)"].values.tolist() == [3.0, 9.0]


def test_short_rows_are_padded_and_long_rows_cut_with_a_note():
    table = read_csv_columns(b"a,b\n1,2\n3\n5,6,7\n8,9\n")
    assert table.columns["a"].values.tolist() == [1.0, 3.0, 5.0, 8.0]
    assert table.columns["b"].values.tolist() == [2.0, 6.0, 9.0] and table.columns["b"].empty == 1
    assert table.notes == ("1 of 4 rows had more cells than the header; the extra cells were left out.",)


def test_a_header_of_numbers_is_noted_and_blank_lines_skipped():
    table = read_csv_columns(b"36\n\n20\n  \n41\n")
    assert table.rows == 2 and table.columns["36"].values.tolist() == [20.0, 41.0]
    assert table.notes == ("The first row holds numbers: it was read as the column names, so its values are not in "
                           "the data.",)


@pytest.mark.parametrize("data, limits, message", [
    (b"age\n36\n20\n123456", dict(max_bytes=10),
     "This file is 16 bytes, more than the limit of 10 bytes: use a smaller file (fewer rows or columns)."),
    (b"", {}, "This file is empty: there is nothing to read."),
    (b"\n \r\n\t\n", {}, "This file is empty: there is nothing to read."),
    (b'""\n\n" "\n', {}, "This file is empty: there is nothing to read."),
    ("âge\n36\n20\n".encode("utf-16"), {}, NOT_UTF8),
    ("âge\n36\n20\n".encode("utf-16-le"), {}, NOT_UTF8),
    (f"âge;{MARKER}é\n36;1\n20;2\n".encode("latin-1"), {}, NOT_UTF8),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + MARKER.encode() + bytes(range(256)), {}, BINARY),
    (bytes(range(1, 9)) * 64 + MARKER.encode(), {}, BINARY),
    (b"\xd0\xcf\x11\xe0" + bytes(range(1, 32)) * 20 + b"\xff\xfe\xfd", {}, BINARY),
    (f"n\n1\n2\n3\n{MARKER}\n".encode(), dict(max_rows=3),
     "This file has more than 3 rows, the limit: use a sample of your rows."),
    (b"age,income\n", {}, "This file has a header row but no data rows below it."),
    (f"name,city\nAda,{MARKER}\nBob,Lyon\n".encode(), {}, NO_NUMBERS),
    (b"age,score\n36,\nAda,7\n", {}, NO_NUMBERS),
    (b"age\n36\n" + BIG + b"\n20\n", {}, LONG_CELL),
    (b"age,score\n" + b"36,1\n" * 30 + BIG + b"\n20,2\n", {}, LONG_CELL),
    (b'age,note\n36,"' + BIG + b'",\n20,x\n', {}, LONG_CELL),
    (b'age,note\n36,"' + MARKER.encode() + b"\n20,x\n" * 30_000, {}, LONG_CELL),
], ids=["oversize", "empty", "blank", "blank-quoted", "utf-16", "utf-16-no-bom", "latin-1", "png", "control-bytes",
        "xls", "too-many-rows", "header-only", "no-numeric-column", "one-number-each", "10-MB-line-at-the-top",
        "10-MB-line-in-a-ragged-file", "10-MB-quoted-cell", "quote-never-closed"])
def test_a_bad_file_is_refused_with_a_plain_message(data, limits, message):
    assert refusal(data, **limits) == message
    assert MARKER not in message


def test_a_file_beyond_the_limit_is_refused_in_megabytes_before_it_is_read(tmp_path, monkeypatch):
    path = tmp_path / "big.csv"
    with open(path, "wb") as file:
        file.truncate(25_300_000)  # sparse: a 25.3 MB file of zero bytes

    def refuse_to_open(*args, **kwargs):
        raise AssertionError("the file was opened")

    monkeypatch.setattr(builtins, "open", refuse_to_open)
    assert refusal(path) == "This file is 25.3 MB, more than the limit of 20.0 MB: use a smaller file (fewer rows or " \
                            "columns)."


def test_as_many_rows_as_the_limit_are_read():
    assert read_csv_columns(b"n\n1\n2\n3\n", max_rows=3).rows == 3


def test_a_missing_file_is_named_safely_in_the_message(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert refusal("no\x1b[31m.csv") == ("There is no file at 'no[31m.csv' (data must be the bytes of a CSV file or "
                                         "the path of one).")


def test_a_folder_is_not_a_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "data.csv").mkdir()
    assert refusal("data.csv") == ("There is no file at 'data.csv' (data must be the bytes of a CSV file or the "
                                   "path of one).")


def test_reading_writes_nothing(tmp_path, tmp_path_factory, monkeypatch):
    source = tmp_path_factory.mktemp("source") / "class.csv"
    source.write_bytes(b"age,note\n36,=1+1\n20,x\n")
    real_open = builtins.open

    def read_only_open(file, mode="r", *args, **kwargs):
        assert not set(mode) & set("wax+"), f"opened for writing: {mode}"
        return real_open(file, mode, *args, **kwargs)

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(builtins, "open", read_only_open)
    for data in (source, str(source), source.read_bytes()):
        assert read_csv_columns(data).numeric == ("age",)
    with pytest.raises(InvalidDataError):
        read_csv_columns(b"\x00\x01")
    assert list(tmp_path.iterdir()) == []


def test_no_message_or_note_quotes_a_cell():
    files = [f"a,b\n1,{MARKER}\n2,={MARKER}\n3,{MARKER}\n".encode(), f"a;b\n1;{MARKER}\n".encode(),
             f"{MARKER}\n1\n2\n".encode("utf-16")]
    texts = []
    for data in files:
        try:
            texts.append(every_text(read_csv_columns(data)))
        except InvalidDataError as error:
            texts.append(str(error))
    assert texts[0] and all(MARKER not in text for text in texts)


def test_numeric_column_refuses_an_unknown_name_briefly():
    table = read_csv_columns(b"age,city\n36,Lyon\n20,Paris\n")
    with pytest.raises(InvalidDataError) as caught:
        numeric_column(table, "weight")
    assert str(caught.value) == "This file has no column named 'weight': its columns of numbers are 'age'."
    with pytest.raises(InvalidDataError) as caught:
        numeric_column(table, "\x1b[2J" + "w" * 10_000)
    assert len(str(caught.value)) < 200 and "\x1b" not in str(caught.value)


def test_numeric_column_refuses_too_few_numbers():
    table = read_csv_columns(b"age,city,n\n36,Lyon,1\n20,Paris,x\n41,Nice,2\n")
    with pytest.raises(InvalidDataError) as caught:
        numeric_column(table, "city")
    assert str(caught.value) == ("The column 'city' holds 0 numbers: at least 2 are needed to estimate anything. "
                                 "Pick another column.")
    with pytest.raises(InvalidDataError, match="'n' holds 2 numbers: at least 3 are needed"):
        numeric_column(table, "n", min_values=3)
    assert numeric_column(table, "n").tolist() == [1.0, 2.0]


def test_numeric_column_refuses_a_column_of_equal_values_without_saying_the_value():
    table = read_csv_columns(b"score,age\n42,36\n42.0,20\n4.2e1,41\n")
    with pytest.raises(InvalidDataError) as caught:
        numeric_column(table, "score")
    assert str(caught.value) == ("Every number in the column 'score' is the same: there is nothing to estimate "
                                 "privately (any private statistic of it would be that one number plus noise). Pick a "
                                 "column whose values differ.")


@pytest.mark.parametrize("huge", ["1.0000001e150", "-3e200", "1e308"])
def test_numeric_column_refuses_numbers_too_large_to_compute_with(huge):
    """Beyond dpcore.columns.LARGEST (1e150) the squares of a million deviations would overflow (a standard
    deviation of inf); 1e150 itself is accepted."""
    table = read_csv_columns(f"v,w\n{huge},1e150\n2,-1e150\n".encode())
    with pytest.raises(InvalidDataError) as caught:
        numeric_column(table, "v")
    assert str(caught.value) == ("The column 'v' holds numbers larger than 10¹⁵⁰ (a one and 150 zeros), too large to "
                                 "compute with: pick another column, or divide this one by a power of ten first.")
    assert huge not in str(caught.value)
    assert numeric_column(table, "w").tolist() == [1e150, -1e150]


def test_the_data_error_is_a_parameter_error():
    assert issubclass(InvalidDataError, InvalidParameterError)


@pytest.mark.parametrize("lower, upper, leaks", [
    (18.0, 100.0, False), (19.0, 100.0, True), (18.0, 91.0, True), (19.0 * (1 + 1e-12), 120.0, True),
    (19.001, 91.001, False), (0.0, 91.0, True),
])
def test_bounds_equal_to_the_data_extremes_look_taken_from_the_data(lower, upper, leaks):
    ages = np.array([44.0, 19.0, 91.0, 30.0]) if lower else np.array([0.0, 91.0])
    assert bounds_from_data(ages, lower, upper) is leaks

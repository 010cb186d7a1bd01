"""Numeric columns read from a CSV file (a student's upload or a file on disk), validated and counted.

:func:`read_csv_columns` reads every column of a CSV and keeps, per column, its finite numbers with an account of the
cells left out (empty, ``nan``/``inf`` written as text, text, spreadsheet formulas); :func:`not_offered` says why the
columns with fewer than two numbers are left out; :func:`default_column` is the column a file opens on (the first that
does not :func:`look like ids <looks_like_id>`); :func:`numeric_column` picks one column for estimation;
:func:`bounds_from_data` tells whether bounds a student typed look taken from the data (which
leaks it, as diffprivlib's ``PrivacyLeakWarning`` says). Nothing is written anywhere and no cell is ever quoted in a
message or a note: a file is refused with an :class:`~dpcore.core.validation.InvalidDataError` that says what is wrong
in plain words.

Memory: the file's text is split into cells a block of lines at a time (:data:`_BLOCK` characters, or :data:`_ROWS`
rows of the csv module), and each block's cells are counted, their numbers written into one array per column, and
dropped before the next block is split. A 20 MB file of 1,000,000 rows and 6 numeric columns peaks at about 75 MB
above the file's bytes (its text, 19 MB; the numbers, 48 MB; one block's cells), where a list of every cell took
440 MB (``benchmarks/upload_memory.py``).
"""

from __future__ import annotations

import csv
import io
import itertools
import math
import os
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from .core.validation import Array, InstanceOf, Integer, InvalidDataError, Real, validated

__all__ = ["Column", "CsvColumns", "read_csv_columns", "numeric_column", "looks_like_id", "default_column",
           "not_offered", "bounds_from_data", "DELIMITERS", "LABEL_LENGTH", "LARGEST", "MIN_NUMBERS"]

DELIMITERS = (",", ";", "\t")  #: the delimiters a file may use (the first is the default)
LABEL_LENGTH = 60  #: the longest column name kept (longer header text is cut)
#: The largest size of a number :func:`numeric_column` accepts: the squares of a column's deviations (its standard
#: deviation) stay finite in double precision for a million values.
LARGEST = 1e150
MIN_NUMBERS = 2  #: the fewest numbers a column holds to be offered for estimation (:attr:`CsvColumns.numeric`)
_FORMULA_START = ("=", "+", "-", "@")  # a text cell starting so could be run as a formula by a spreadsheet
_DECIMAL_COMMA = re.compile(r"[+-]?\d+,\d+")  # "2,5": a number written with a decimal comma
_SNIFFED_LINES = 20  # the lines the delimiter is guessed from
_BINARY_SHARE = 0.1  # a file with more control characters than this share of its start is binary
_EMPTY = "This file is empty: there is nothing to read."
_BLOCK = 1 << 18  # characters of text split into cells at a time (about 13,000 rows of a 20-byte-row file)
_ROWS = 10_000  # rows the csv module splits, then counted, at a time
_LINE_END = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True)
class Column:
    r"""One column of a CSV: its finite numbers and what was left out.

    Attributes
    ----------
    name : str
        The column's name: its header text made safe to show (control characters removed, at most
        :data:`LABEL_LENGTH` characters), or ``"column 3"`` for a blank header, ``"age (2)"`` for a repeated one.
    values : numpy.ndarray
        The finite numeric cells, as float64, in the file's order.
    cells : int
        All cells of the column (one per data row).
    empty : int
        Empty (or blank) cells.
    non_finite : int
        Cells holding ``nan`` or an infinity written as text (``NaN``, ``inf``, ``-Infinity``).
    text : int
        Cells that are not numbers (``formulas`` among them).
    formulas : int
        Text cells starting with ``=``, ``+``, ``-`` or ``@``, as a spreadsheet formula does: never evaluated.
    notes : tuple of str
        What was left out, in plain English, e.g. ``"12 of 944 cells were not numbers and were left out."``.

    Examples
    --------
    >>> column = read_csv_columns(b"age\n36\n\n20\n").columns["age"]
    >>> column.values.tolist(), column.cells, column.numeric
    ([36.0, 20.0], 2, 2)
    """

    name: str
    values: np.ndarray
    cells: int
    empty: int
    non_finite: int
    text: int
    formulas: int
    notes: tuple[str, ...]

    @property
    def numeric(self) -> int:
        """The number of numeric cells kept."""
        return int(self.values.size)


@dataclass(frozen=True)
class CsvColumns:
    r"""Every column of a CSV file, read by :func:`read_csv_columns`.

    Attributes
    ----------
    columns : dict of str to Column
        The columns by name, in the file's order.
    numeric : tuple of str
        The names of the columns holding at least two numbers (those worth estimating on).
    rows : int
        The number of data rows (the header and blank lines not counted).
    notes : tuple of str
        Remarks about the whole file, e.g. that its first row holds numbers (it was read as the column names).

    Examples
    --------
    >>> table = read_csv_columns(b"city;visits\nParis;3\nLyon;5\n")
    >>> list(table.columns), table.numeric, table.rows
    (['city', 'visits'], ('visits',), 2)
    """

    columns: dict[str, Column]
    numeric: tuple[str, ...]
    rows: int
    notes: tuple[str, ...]


def _size(nbytes: int) -> str:
    """A file size in words: ``"250 bytes"``, ``"12.5 kB"``, ``"25.3 MB"``."""
    if nbytes < 1_000:
        return f"{nbytes} bytes"
    if nbytes < 1_000_000:
        return f"{nbytes / 1e3:.1f} kB"
    return f"{nbytes / 1e6:.1f} MB"


def _label(text: str) -> str:
    """``text`` safe to show: control and format characters removed, spaces trimmed, cut to :data:`LABEL_LENGTH`."""
    kept = "".join(char for char in text if not unicodedata.category(char).startswith("C")).strip()
    return kept if len(kept) <= LABEL_LENGTH else kept[: LABEL_LENGTH - 1] + "…"


def _check_size(nbytes: int, max_bytes: int) -> None:
    """Refuse a file of ``nbytes`` bytes if it is larger than ``max_bytes``."""
    if nbytes > max_bytes:
        raise InvalidDataError(f"This file is {_size(nbytes)}, more than the limit of {_size(max_bytes)}: use a "
                               "smaller file (fewer rows or columns).")


def _read_bytes(data: bytes | str | os.PathLike, max_bytes: int) -> bytes:
    """The bytes of an upload or of the file at a path, refused beyond ``max_bytes`` (a file is not read then)."""
    if isinstance(data, bytes):
        _check_size(len(data), max_bytes)
        return data
    path = os.fsdecode(data)
    if not os.path.isfile(path):
        raise InvalidDataError(f"There is no file at {_label(path)!r} (data must be the bytes of a CSV file or the "
                               "path of one).")
    _check_size(os.path.getsize(path), max_bytes)
    try:
        with open(path, "rb") as file:
            return file.read(max_bytes + 1)
    except OSError:
        raise InvalidDataError(f"The file at {_label(path)!r} cannot be read: is it yours to read, and not locked by "
                               "another program?") from None


def _looks_utf16(start: bytes) -> bool:
    """Whether ``start`` is UTF-16 text: a UTF-16 byte-order mark, or a zero byte in every other place."""
    if start.startswith((b"\xff\xfe", b"\xfe\xff")):
        return True
    halves = (start[0::2], start[1::2])
    return len(start) >= 4 and any(half.count(0) > 0.9 * len(half) for half in halves)


def _decode(raw: bytes) -> str:
    """The text of a CSV file (a UTF-8 byte-order mark dropped), or :class:`InvalidDataError` saying why not."""
    start = raw[:4096]
    not_utf8 = InvalidDataError('This file is not UTF-8 text: in your spreadsheet program, save it again as '
                                '"CSV UTF-8" and use that file.')
    binary = InvalidDataError('This file is not a text CSV (it looks like a binary file, e.g. a spreadsheet or an '
                              'image): export your data as "CSV UTF-8" and use that file.')
    if _looks_utf16(start):
        raise not_utf8
    if b"\x00" in raw:
        raise binary
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        control = sum(byte < 32 and byte not in b"\t\n\r" for byte in start)
        raise (binary if control > _BINARY_SHARE * len(start) else not_utf8) from None
    sample = text[:4096]
    control = sum(unicodedata.category(char) == "Cc" and char not in "\t\n\r" for char in sample)
    if control > _BINARY_SHARE * len(sample):
        raise binary
    return text


def _delimiter(lines: list[str]) -> str:
    """The delimiter among :data:`DELIMITERS` that splits ``lines`` into the most columns, the same on every line."""
    best, widest = DELIMITERS[0], 1
    for delimiter in DELIMITERS:
        widths = {len(row) for row in csv.reader(lines, delimiter=delimiter) if row}
        if len(widths) == 1 and (width := widths.pop()) > widest:
            best, widest = delimiter, width
    return best


def _names(header: list[str]) -> list[str]:
    """Unique, safe column names: blank ones become ``"column 3"``, repeats ``"age (2)"``."""
    names: list[str] = []
    for position, text in enumerate(header, start=1):
        name = _label(text) or f"column {position}"
        unique, copy = name, 1
        while unique in names:
            copy += 1
            unique = f"{name} ({copy})"
        names.append(unique)
    return names


def _pieces(text: str) -> Iterator[str]:
    """``text`` in consecutive pieces of about :data:`_BLOCK` characters.

    Each piece ends just after a line end (LF, CRLF or CR): no line, and no CRLF, is split between two pieces.
    """
    start = 0
    while start < len(text):
        found = _LINE_END.search(text, start + _BLOCK)
        end = found.end() if found else len(text)
        yield text[start:end]
        start = end


def _line_blocks(text: str) -> Iterator[list[str]]:
    """The non-blank lines of ``text``, one list per piece of it (:func:`_pieces`).

    Lines are split at line ends as the csv module splits them (LF, CRLF, CR).
    """
    for piece in _pieces(text):
        lines = [line for line in piece.replace("\r\n", "\n").replace("\r", "\n").split("\n") if line.strip()]
        if lines:
            yield lines


def _first_lines(text: str, count: int) -> list[str]:
    """The first ``count`` non-blank lines of ``text`` (fewer if it has fewer)."""
    found: list[str] = []
    for lines in _line_blocks(text):
        found += lines[: count - len(found)]
        if len(found) == count:
            break
    return found


class _Tally:
    """One column's account, brought up to date as its cells arrive, a block of rows at a time.

    Its finite numbers are written into one array sized for the most data rows the file can hold (:func:`_most_rows`:
    its memory pages are taken only as they are written), and the cells left out are counted, by kind: the cells
    themselves are never kept, and no array is made per block, so none is left behind between the others.

    Parameters
    ----------
    rows : int
        The most data rows the file can hold.
    """

    def __init__(self, rows: int) -> None:
        self.values = np.empty(rows)
        self.kept = self.cells = self.empty = self.non_finite = self.text = self.formulas = self.decimal_commas = 0

    def add(self, cells: list[str]) -> None:
        """Count the column's next ``cells``.

        All at once when every one is a number (most files: numpy reads them as ``float()`` does), else cell by cell.
        """
        self.cells += len(cells)
        try:
            every = np.array(cells, dtype=np.float64)
        except ValueError:
            self._add_mixed(cells)
            return
        finite = np.isfinite(every)
        kept = int(np.count_nonzero(finite))
        self.non_finite += every.size - kept
        self.values[self.kept:self.kept + kept] = every if kept == every.size else every[finite]
        self.kept += kept

    def _add_mixed(self, cells: list[str]) -> None:
        """Count ``cells``, some of which are not numbers, one by one."""
        values: list[float] = []
        empty = non_finite = text = formulas = decimal_commas = 0
        for cell in cells:
            stripped = cell.strip()
            if not stripped:
                empty += 1
                continue
            try:
                value = float(stripped)
            except ValueError:
                text += 1
                comma = _DECIMAL_COMMA.fullmatch(stripped) is not None  # "-2,5" is a number, no formula
                decimal_commas += comma
                formulas += not comma and stripped.startswith(_FORMULA_START)
                continue
            if math.isfinite(value):
                values.append(value)
            else:
                non_finite += 1
        self.values[self.kept:self.kept + len(values)] = values
        self.kept += len(values)
        self.empty += empty
        self.non_finite += non_finite
        self.text += text
        self.formulas += formulas
        self.decimal_commas += decimal_commas

    def column(self, name: str) -> Column:
        """The :class:`Column` ``name`` of the cells counted, with a note for each kind of cell left out."""
        values = self.values[: self.kept]
        notes = []
        if self.empty:
            notes.append(f"{_cells(self.empty, self.cells)} empty and left out.")
        if self.non_finite:
            notes.append(f"{_cells(self.non_finite, self.cells)} nan or infinity (written as text) and left out.")
        if self.text:
            notes.append(f"{_cells(self.text, self.cells)} not numbers and left out.")
        if self.formulas:
            notes.append(f"{_cells(self.formulas, self.cells)} like spreadsheet formulas (starting with =, +, - or "
                         "@): they were treated as text, never evaluated.")
        if self.decimal_commas and 2 * self.decimal_commas >= self.text:
            notes.append(f"{_cells(self.decimal_commas, self.cells)} like numbers with a decimal comma (such as 2,5): "
                         "write decimals with a dot (2.5) to have them read.")
        return Column(name, values, self.cells, self.empty, self.non_finite, self.text, self.formulas, tuple(notes))


@dataclass(frozen=True)
class _Table:
    """A CSV read into columns: the header, each column's tally (short rows padded with empty cells), and counts."""

    header: list[str]
    tallies: list[_Tally]
    rows: int
    longer: int  # data rows with more cells than the header (the extra cells are dropped)


def _check_rows(rows: int, max_rows: int) -> None:
    """Refuse a file once more than ``max_rows`` data rows have been read (the rest is never split)."""
    if rows > max_rows:
        raise InvalidDataError(f"This file has more than {max_rows:,} rows, the limit: use a sample of your rows.")


def _most_rows(text: str, max_rows: int) -> int:
    """The most data rows ``text`` can hold, up to ``max_rows`` (a file with more is refused as it is read).

    One per line end (LF, CRLF or CR), the header's included: a row ends at one, except perhaps the last.
    """
    return min(text.count("\n") + text.count("\r") - text.count("\r\n"), max_rows)


def _plain(text: str, delimiter: str, max_rows: int) -> _Table | None:
    """The table of a file without quotation marks, or None if a line's cells are not as many as the header's.

    Plain string splitting (fast: no list per row), a block of lines at a time; at the first line of another width
    it stops and :func:`_quoted` reads the file.
    """
    blocks = _line_blocks(text)
    first = next(blocks)
    header = first[0].split(delimiter)
    width = len(header)
    most = _most_rows(text, max_rows)
    tallies = [_Tally(most) for _ in header]
    rows = 0
    for lines in itertools.chain([first[1:]], blocks):
        if any(line.count(delimiter) != width - 1 for line in lines):
            return None
        rows += len(lines)
        _check_rows(rows, max_rows)
        if lines:
            cells = delimiter.join(lines).split(delimiter)
            for position, tally in enumerate(tallies):
                tally.add(cells[position::width])
    return _Table(header, tallies, rows, 0)


def _quoted(text: str, delimiter: str, max_rows: int) -> _Table:
    """The table of a file the csv module splits (quoted fields, ragged rows), :data:`_ROWS` rows at a time.

    Blank rows are skipped, short rows padded with empty cells, the extra cells of long rows dropped and counted.
    """
    lines = itertools.chain.from_iterable(io.StringIO(piece, newline="") for piece in _pieces(text))
    rows = (row for row in csv.reader(lines, delimiter=delimiter) if len(row) > 1 or (row and row[0].strip()))
    header = next(rows, None)
    if header is None:  # only blank quoted cells
        raise InvalidDataError(_EMPTY)
    width = len(header)
    most = _most_rows(text, max_rows)
    tallies = [_Tally(most) for _ in header]
    count = longer = 0
    while batch := list(itertools.islice(rows, _ROWS)):
        count += len(batch)
        _check_rows(count, max_rows)
        columns: list[list[str]] = [[] for _ in header]
        appends = [column.append for column in columns]
        for row in batch:
            longer += len(row) > width
            for append, cell in zip(appends, row + [""] * (width - len(row))):
                append(cell)
        for tally, cells in zip(tallies, columns):
            tally.add(cells)
    return _Table(header, tallies, count, longer)


def _table(text: str, max_rows: int) -> _Table:
    """Every column of ``text`` counted (blank lines skipped).

    Refused if empty, header-only, too long, or if the csv module cannot split it.
    """
    try:
        start = _first_lines(text, _SNIFFED_LINES)
        if not start:
            raise InvalidDataError(_EMPTY)
        delimiter = _delimiter(start)
        table = _plain(text, delimiter, max_rows) if '"' not in text else None
        if table is None:
            table = _quoted(text, delimiter, max_rows)
    except csv.Error:  # the one csv.Error text without NUL can raise here: a cell beyond the module's field limit
        raise InvalidDataError(f"A cell of this file is longer than {csv.field_size_limit():,} characters, which no "
                               'number is: often a quotation mark (") that is never closed, so that the rest of the '
                               "file reads as one cell. Check the file in a text editor, or save it again from your "
                               'spreadsheet program as "CSV UTF-8".') from None
    if table.rows == 0:
        raise InvalidDataError("This file has a header row but no data rows below it.")
    return table


def _cells(count: int, total: int) -> str:
    """``"1 of 944 cells was"`` or ``"12 of 944 cells were"``."""
    return f"{count:,} of {total:,} cells {'was' if count == 1 else 'were'}"


def _header_is_numbers(header: list[str]) -> bool:
    """Whether every non-blank header cell is a number (the file probably has no header row)."""
    cells = [cell.strip() for cell in header if cell.strip()]
    try:
        return bool(cells) and all(math.isfinite(float(cell)) for cell in cells)
    except ValueError:
        return False


@validated(data=InstanceOf((bytes, str, os.PathLike), "the bytes of a CSV file or the path of one"),
           max_bytes=Integer(low=1), max_rows=Integer(low=1))
def read_csv_columns(data: bytes | str | os.PathLike, *, max_bytes: int = 20_000_000,
                     max_rows: int = 1_000_000) -> CsvColumns:
    r"""Read every column of a CSV file: the finite numbers of each, and an account of the cells left out.

    The first row is the header. The delimiter is the one of :data:`DELIMITERS` (comma, semicolon, tab) that splits
    the first lines into the most columns, a comma if none does; quoted fields are read as the csv module reads them
    and a UTF-8 byte-order mark is dropped. A cell is a number if ``float()`` reads it once spaces are trimmed
    (``1e3``, ``-2.5``; ``2,5`` is text). Empty cells, ``nan``/``inf`` written as text, and text cells (spreadsheet
    formulas among them, never evaluated) are left out, counted, and described in the column's notes. Nothing is
    written anywhere, and no message or note quotes a cell. The text is split a block of lines at a time and only the
    numbers are kept (the module's docstring says how much memory that takes).

    Parameters
    ----------
    data : bytes, str or os.PathLike
        The file's bytes (an upload, in memory) or its path.
    max_bytes : int
        The largest file read, in bytes (a larger file is refused before it is read).
    max_rows : int
        The most data rows read.

    Returns
    -------
    CsvColumns
        The columns by name, the names of the numeric ones, the number of rows, and notes about the file.

    Raises
    ------
    InvalidDataError
        If the file is missing, larger than ``max_bytes``, empty, not UTF-8 text, binary, longer than ``max_rows``
        (refused as soon as a row beyond it is read), has a cell longer than the csv module's field limit
        (``csv.field_size_limit()``, 131,072 characters: often a quotation mark never closed), has a header but no
        data row, or has no column holding at least two numbers.

    Examples
    --------
    >>> table = read_csv_columns(b"name,age\nAda,36\nBob,\nCy,NaN\nDee,20\n")
    >>> table.numeric, table.columns["age"].values.tolist()
    (('age',), [36.0, 20.0])
    >>> table.columns["age"].notes
    ('1 of 4 cells was empty and left out.', '1 of 4 cells was nan or infinity (written as text) and left out.')
    """
    table = _table(_decode(_read_bytes(data, max_bytes)), max_rows)
    columns = {name: tally.column(name) for name, tally in zip(_names(table.header), table.tallies)}
    numeric = tuple(name for name, column in columns.items() if column.numeric >= MIN_NUMBERS)
    if not numeric:
        raise InvalidDataError("No column of this file holds at least two numbers: the lab estimates statistics of "
                               "numeric columns (numbers written with a dot as decimal mark, such as 2.5).")
    notes = []
    if _header_is_numbers(table.header):
        notes.append("The first row holds numbers: it was read as the column names, so its values are not in the data.")
    if table.longer:
        notes.append(f"{table.longer:,} of {table.rows:,} rows had more cells than the header; the extra cells were "
                     "left out.")
    return CsvColumns(columns, numeric, table.rows, tuple(notes))


@validated(columns=InstanceOf(CsvColumns, "columns read by read_csv_columns"),
           name=InstanceOf(str, "the name of a column"), min_values=Integer(low=1))
def numeric_column(columns: CsvColumns, name: str, *, min_values: int = 2) -> np.ndarray:
    r"""The numbers of one column, checked to be enough, not too large, and not all equal, to estimate something on.

    Parameters
    ----------
    columns : CsvColumns
        A file's columns, from :func:`read_csv_columns`.
    name : str
        The column's name (a key of ``columns.columns``).
    min_values : int
        The fewest numbers accepted.

    Returns
    -------
    numpy.ndarray
        The column's finite numbers, float64.

    Raises
    ------
    InvalidDataError
        If there is no column ``name``, it holds fewer than ``min_values`` numbers, a number larger than
        :data:`LARGEST` in size, or all its numbers are equal. The message names the column, never one of its
        values.

    Examples
    --------
    >>> table = read_csv_columns(b"age,score\n36,7\n20,7\n")
    >>> numeric_column(table, "age").tolist()
    [36.0, 20.0]
    >>> numeric_column(table, "score")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    dpcore.core.validation.InvalidDataError: Every number in the column 'score' is the same: there is nothing to ...
    """
    if name not in columns.columns:
        choices = ", ".join(repr(choice) for choice in columns.numeric)
        raise InvalidDataError(f"This file has no column named {_label(name)!r}: its columns of numbers are "
                               f"{choices}.")
    values = columns.columns[name].values
    if values.size < min_values:
        raise InvalidDataError(f"The column {name!r} holds {values.size} number{'' if values.size == 1 else 's'}: at "
                               f"least {min_values} are needed to estimate anything. Pick another column.")
    if np.max(np.abs(values)) > LARGEST:
        raise InvalidDataError(f"The column {name!r} holds numbers larger than 10¹⁵⁰ (a one and 150 zeros), too large "
                               "to compute with: pick another column, or divide this one by a power of ten first.")
    if np.all(values == values[0]):
        raise InvalidDataError(f"Every number in the column {name!r} is the same: there is nothing to estimate "
                               "privately (any private statistic of it would be that one number plus noise). Pick a "
                               "column whose values differ.")
    return values


@validated(values=Array(ndim=(1,)))
def looks_like_id(values: np.ndarray) -> bool:
    """Whether a column looks like row numbers or ids rather than something measured.

    That is: at least 3 values, every one a whole number, each larger than the one before (1, 2, …, n, or any
    increasing numbering). Its statistics describe the numbering, not the people (the median of 1, …, 5,000 is
    2,500.5), so a page opens a file on another column when it has one (:func:`default_column`).

    Parameters
    ----------
    values : numpy.ndarray
        The column's numbers, in the file's order.

    Returns
    -------
    bool

    Examples
    --------
    >>> looks_like_id(np.array([1.0, 2.0, 3.0, 7.0])), looks_like_id(np.array([36.0, 20.0, 51.0]))
    (True, False)
    """
    return bool(values.size >= 3 and np.all(values == np.floor(values)) and np.all(np.diff(values) > 0))


@validated(columns=InstanceOf(CsvColumns, "columns read by read_csv_columns"))
def default_column(columns: CsvColumns) -> str:
    r"""The column a file opens on: the first numeric column that does not look like ids, else the first.

    Ids are row numbers or any increasing numbering (:func:`looks_like_id`): their statistics say nothing of the
    people in the file.

    Parameters
    ----------
    columns : CsvColumns
        A file's columns, from :func:`read_csv_columns`.

    Returns
    -------
    str
        A name of ``columns.numeric``.

    Examples
    --------
    >>> default_column(read_csv_columns(b"id,age\n1,36\n2,20\n3,51\n"))
    'age'
    """
    return next((name for name in columns.numeric if not looks_like_id(columns.columns[name].values)),
                columns.numeric[0])


@validated(columns=InstanceOf(CsvColumns, "columns read by read_csv_columns"))
def not_offered(columns: CsvColumns) -> dict[str, str]:
    r"""Why each column that is not offered for estimation is left out, in plain words.

    A column is not offered when it holds fewer than :data:`MIN_NUMBERS` numbers (text, numbers with a decimal
    comma, a column mostly empty): its sentence names it, says how many numbers it holds, and adds its notes
    (:attr:`Column.notes`). No cell is quoted.

    Parameters
    ----------
    columns : CsvColumns
        A file's columns, from :func:`read_csv_columns`.

    Returns
    -------
    dict of str to str
        One sentence or a few per column left out, by name, in the file's order.

    Examples
    --------
    >>> not_offered(read_csv_columns(b"age,city\n36,Lyon\n20,Paris\n"))["city"][:64]
    "The column 'city' is not offered: it holds no numbers (two are n"
    """
    counts = {0: "no numbers", 1: "one number"}
    return {name: " ".join([f"The column {name!r} is not offered: it holds {counts[column.numeric]} (two are "
                            "needed).", *column.notes])
            for name, column in columns.columns.items() if name not in columns.numeric}


@validated(values=Array(ndim=(1,), min_size=1), lower=Real(), upper=Real())
def bounds_from_data(values: np.ndarray, lower: float, upper: float) -> bool:
    """Whether public bounds look taken from the data: ``lower`` is its minimum or ``upper`` its maximum.

    Bounds read off the data leak it (the largest value is published with no noise), as diffprivlib's
    ``PrivacyLeakWarning`` warns; public bounds should come from what is known before seeing the data (an age is
    between 0 and 120). A bound that is public and also attained (0 visits, for a count) is flagged too: the page's
    warning should say "look taken from the data", not "are".

    Parameters
    ----------
    values : numpy.ndarray
        The column's values.
    lower, upper : float
        The bounds the student typed.

    Returns
    -------
    bool
        True if ``lower`` equals ``min(values)`` or ``upper`` equals ``max(values)`` to a relative 1e-9.

    Examples
    --------
    >>> ages = np.array([19.0, 44.0, 91.0])
    >>> bounds_from_data(ages, 18, 100), bounds_from_data(ages, 18, 91), bounds_from_data(ages, 19.0000000001, 120)
    (False, True, True)
    """
    return (math.isclose(lower, float(np.min(values)), rel_tol=1e-9)
            or math.isclose(upper, float(np.max(values)), rel_tol=1e-9))

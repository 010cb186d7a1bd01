"""A student's own CSV file, read in this browser tab's session only.

Streamlit keeps an uploaded file in the server's memory for the session that sent it, bounded as
:mod:`ui.upload_limits` says (at most :data:`MAX_MEGABYTES` MB, in memory only, one file per tab, gone about a minute
after the tab); the page reads its numeric columns with :func:`dpcore.columns.read_csv_columns` (from the bytes, in
memory) and keeps them in this session's own cache (:func:`ui.compute.in_session`). Nothing of the file is written
to disk, logged, put in the URL or in a cache shared by sessions: the page's figures and texts of an uploaded column
are private calls too (arrays are no JSON values, :mod:`ui.compute`). When the uploader's file is replaced or removed,
or a bundled data set is chosen, everything computed from the old file is dropped from the session; a removed file
leaves the server's memory (the browser deletes it), and so does the file of an uploader no longer shown (a bundled
data set chosen: Streamlit forgets the widget's state). A bad file gets the reader's message (it never quotes a
cell) and the page goes on.

Under the uploader the page says which file it shows (its name and rows, or that it shows none because the file was
not read): a file the browser refuses itself (over :data:`MAX_MEGABYTES` MB, or not .csv, .txt, .tsv) gets the
uploader's red mark, is never sent, and changes nothing here, so the page must say what it still shows. Then the
notes of the file and of each column not offered (text, decimal commas, mostly empty:
:func:`dpcore.columns.not_offered`); the column offered first is the first that does not look like ids
(:func:`dpcore.columns.default_column`), and a column that does is said to.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import streamlit as st

from dpcore.columns import default_column, looks_like_id, not_offered, numeric_column, read_csv_columns
from dpcore.core import InvalidParameterError
from dpcore.datasets import DATASETS

from .compute import forget_private, in_session
from .params import as_typed
from .upload_limits import drop_session_files

__all__ = ["MAX_MEGABYTES", "MAX_ROWS", "LIMITS", "UploadedColumn", "uploaded_column", "column_of"]

#: The largest file the page reads, in megabytes: the uploader's limit and the server's (``server.maxUploadSize`` in
#: ``.streamlit/config.toml``, the same number; :mod:`ui.upload_limits`), and the reader's (in bytes of 10⁶)
MAX_MEGABYTES = 20
MAX_ROWS = 1_000_000  #: the most rows it reads
LIMITS = (f"A CSV file (comma, semicolon or tab between values, UTF-8) of at most {MAX_MEGABYTES} MB and "
          f"{MAX_ROWS:,} rows, with a header row. It stays in the server's memory for this browser tab only: never "
          "written to disk, logged, shared or put in the link. A new file replaces it; removing it, or choosing "
          "another data set, deletes it, and closing the tab deletes it about a minute later (the server waits that "
          "long in case the connection comes back).")
FILE = "upload_file"  #: widget key of the file uploader
PATH = "upload_path"  #: widget key of the file's name on the student's computer (for the notebook code)
COLUMN = "upload_column"  #: widget key of the column's choice
_HELD = "upload_held"  # session-state key: the id of the file the session's results were computed from (None: none)
#: What a file marked in red by the uploader means (the browser refused it: the server never sees it)
REFUSED_BY_BROWSER = (f"A file the uploader marks in red (over {MAX_MEGABYTES} MB, or not a .csv, .txt or .tsv file) "
                      "was refused by your browser and never sent: it changes nothing here.")
#: Said of a column that looks like row numbers or ids
LOOKS_LIKE_IDS = ("This column looks like row numbers or ids (whole numbers, each larger than the one before): its "
                  "statistics describe the numbering, not the people. Pick a column that measures something, if your "
                  "file has one.")


@dataclass(frozen=True)
class UploadedColumn:
    """The column a student chose in their file: its name (the file's header), its numeric values, and the notes on
    the cells left out."""

    name: str
    values: np.ndarray
    notes: tuple[str, ...]


def uploaded_column() -> UploadedColumn | None:
    """The file uploader and, once a file is read, the choice of its numeric column; the column chosen, or None
    (no file yet, or a file the reader refuses: its message is shown)."""
    file = st.file_uploader("Your CSV file", type=["csv", "txt", "tsv"], key=FILE, max_upload_size=MAX_MEGABYTES,
                            help=LIMITS)
    st.caption(LIMITS)
    _hold(None if file is None else file.file_id)
    if file is None:
        return None
    try:
        columns = in_session(read_csv_columns, file.getvalue(), max_bytes=MAX_MEGABYTES * 1_000_000,
                             max_rows=MAX_ROWS)
    except InvalidParameterError as refused:
        st.caption(f"The page shows no file: {as_typed(file.name)} was not read (the message below). "
                   f"{REFUSED_BY_BROWSER}")
        st.error(str(refused), icon=":material/error:")
        return None
    st.caption(f"The page shows {as_typed(file.name)} ({columns.rows:,} rows). {REFUSED_BY_BROWSER}")
    for note in (*columns.notes, *not_offered(columns).values()):
        st.caption(note)
    name = st.selectbox("Column", columns.numeric, index=columns.numeric.index(default_column(columns)), key=COLUMN)
    try:
        values = numeric_column(columns, name)
    except InvalidParameterError as refused:
        st.error(str(refused), icon=":material/error:")
        return None
    notes = tuple(columns.columns[name].notes)
    for note in notes:
        st.caption(note)
    if looks_like_id(values):
        st.warning(LOOKS_LIKE_IDS, icon=":material/format_list_numbered:")
    return UploadedColumn(name, values, notes)


def column_of(dataset: str | None, page: Any) -> str | np.ndarray | None:
    """The column the page works on: the key of a bundled data set (``dataset``: every session shares its results),
    said with its source and licence; or, with ``dataset`` None, the student's uploaded column (private: its results
    stay in this session), whose notebook code then reads the student's own file (``page.column_code``). None until a
    usable file is chosen."""
    if dataset is not None:
        _hold(None)  # the uploader is not shown: Streamlit forgets its state, so its file is dropped too
        drop_session_files()
        about = DATASETS[dataset]
        st.caption(f"**{about.title}**: {about.description}; {about.rows:,} values in {about.unit}. "
                   f"{about.teaches[0].upper()}{about.teaches[1:]}. Source: {about.source}; {about.licence}.")
        return dataset
    uploaded = uploaded_column()
    if uploaded is None:
        return None
    path = st.text_input("Your file's name on your computer (for the Python code under Go deeper)",
                         value="my_data.csv", key=PATH, max_chars=200)
    page.column_code = column_code(path, uploaded.name)
    return uploaded.values


def _hold(file_id: str | None) -> None:
    """The session's results now come from the uploaded file ``file_id`` (None: no file): when it changes, every
    result computed from the previous file is dropped."""
    if st.session_state.get(_HELD) != file_id:
        forget_private()
        st.session_state.pop(COLUMN, None)  # a new file opens on its own default column
        st.session_state[_HELD] = file_id


def column_code(path: str, name: str) -> str:
    """Python lines that read the column ``name`` of the CSV file at ``path`` into ``column`` (the notebook code of
    an uploaded column: the file is read on the student's computer, never embedded).

    >>> print(column_code("my_data.csv", "income"))
    from dpcore.columns import default_column, looks_like_id, not_offered, numeric_column, read_csv_columns
    column = numeric_column(read_csv_columns('my_data.csv'), 'income')  # your file, read on your computer
    """
    return ("from dpcore.columns import default_column, looks_like_id, not_offered, numeric_column, read_csv_columns\n"
            f"column = numeric_column(read_csv_columns({path!r}), {name!r})  # your file, read on your computer")

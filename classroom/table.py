"""Tables that fit every screen: a lesson's rows drawn as an HTML table whose cells wrap.

Streamlit's data grid (``st.dataframe``) keeps each column's width and scrolls the rest out of sight: on a laptop a
wide table lost its last columns, on a phone it showed only the first. :func:`show_table` draws the rows as an HTML
table instead: on a laptop and a projector every column stays in view (the cells wrap), and on a phone each row becomes
a card of "column: value" lines (``.dplab-table`` in ``assets/style.css``). Explicit ARIA roles keep it a table for
screen readers in both layouts; every value is escaped, so a table never renders what its cells contain.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape
from typing import Any

import streamlit as st

__all__ = ["cell_text", "reflowing_table", "show_table"]


def cell_text(value: Any) -> str:
    """A cell's value as the table shows it: a float below 1,000 to four significant digits, a larger one as a whole
    number with thousands separated; anything else as it is.

    >>> cell_text(0.123456), cell_text(12345.678), cell_text(2.5e-7), cell_text(1_000_000), cell_text("exact")
    ('0.1235', '12,346', '2.5e-07', '1000000', 'exact')
    """
    if isinstance(value, float) and math.isfinite(value):
        return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.4g}"
    return str(value)


def reflowing_table(rows: Sequence[dict]) -> str:
    """``rows`` (one dict per row, the same keys in each) as the HTML of a table that fits its column on every screen.

    >>> reflowing_table([{"a": 1, "b": "<x>"}]).count('role="cell"'), "&lt;x&gt;" in reflowing_table([{"b": "<x>"}])
    (2, True)
    """
    head = "".join(f'<th role="columnheader" scope="col">{escape(name)}</th>' for name in rows[0])
    body = "".join('<tr role="row">' + "".join(f'<td role="cell" data-label="{escape(name)}">'
                                               f"{escape(cell_text(value))}</td>" for name, value in row.items())
                   + "</tr>" for row in rows)
    return (f'<div class="dplab-table"><table role="table"><thead role="rowgroup"><tr role="row">{head}</tr></thead>'
            f'<tbody role="rowgroup">{body}</tbody></table></div>')


def show_table(rows: Sequence[dict]) -> None:
    """Draw ``rows`` as a :func:`reflowing_table`."""
    if rows:
        st.markdown(reflowing_table(rows), unsafe_allow_html=True)

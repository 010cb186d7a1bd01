"""Downloads (dpcore.viz.export): a self-contained HTML figure and the figure's data as CSV."""

from __future__ import annotations

import csv
import io
import re

import numpy as np
import plotly.io as pio
import pytest

from dpcore.viz import Series, figure_html, figure_table_csv, line_figure
from tests.viz.frames import EXAMPLE_FIGURE, N

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "figure_html": dict(fig=EXAMPLE_FIGURE),
    "figure_table_csv": dict(fig=EXAMPLE_FIGURE),
}


# ------------------------------------------------------------------ downloads

def test_figure_html_is_self_contained(fig):
    html = figure_html(fig)
    assert len(html.encode()) > 1_000_000
    assert re.search(r"\* plotly\.js v\d+\.\d+\.\d+", html)  # the library's own header: plotly.js embedded
    assert not re.search(r"<script[^>]+src=", html)  # nothing loaded from elsewhere
    # The only CDN address is the geo-map topojson default inside plotly.js's own source (unused by
    # these figures); remove it and no CDN reference remains.
    topojson_default = 'dflt:"https://cdn.plot.ly/un/"'
    assert "cdn.plot.ly" not in html.replace(topojson_default, "")
    assert "Plotly.animate(" not in html  # opens paused on the first frame


def read_csv(text: str) -> list[dict]:
    rows = list(csv.DictReader(io.StringIO(text)))
    assert rows and list(rows[0]) == ["frame", "trace", "x", "y"]
    return rows


def test_figure_table_csv_round_trips_the_frames(fig):
    rows = read_csv(figure_table_csv(fig))
    assert len(rows) == sum(len(t.x) for f in fig.frames for t in f.data)
    for frame in fig.frames:
        for trace in frame.data:
            mine = [r for r in rows if r["frame"] == frame.name and r["trace"] == trace.name]
            np.testing.assert_array_equal([float(r["x"]) for r in mine], trace.x)
            np.testing.assert_array_equal([float(r["y"]) for r in mine], trace.y)


def test_figure_table_csv_static_figure_has_empty_frame():
    series = [Series("Laplace, clipped", N, 1 / N)]  # a comma in the name is quoted
    rows = read_csv(figure_table_csv(line_figure(series, x_title="n", y_title="error")))
    assert {r["frame"] for r in rows} == {""}
    assert {r["trace"] for r in rows} == {"Laplace, clipped"}
    np.testing.assert_array_equal([float(r["y"]) for r in rows], 1 / N)


def test_figure_table_csv_decodes_typed_arrays(fig):
    from_json = pio.from_json(fig.to_json())
    assert isinstance(from_json.frames[0].data[0].y, dict)  # Plotly >= 6 keeps {dtype, bdata} here
    assert figure_table_csv(from_json) == figure_table_csv(fig)


def test_downloads_reject_non_figures():
    with pytest.raises(TypeError, match="fig must be a plotly.graph_objects.Figure"):
        figure_html({"data": []})
    with pytest.raises(TypeError, match="fig must be a plotly"):
        figure_table_csv(None)

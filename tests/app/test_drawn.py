"""ui.drawn: a figure is kept as Plotly's own dictionary of it, and Streamlit draws that dictionary as it is."""

import plotly.io
import plotly.tools
import pytest

from dpcore import viz
from dpcore.viz.figures import home
from ui import drawn


@pytest.fixture
def figure():
    return home.neighbouring_densities(start="1")  # animated: frames, a slider, typed arrays


def test_it_is_plotlys_dictionary_and_serialises_as_the_figure_does(figure):
    kept = drawn.Drawn.of(figure)
    assert kept == figure.to_dict()
    assert plotly.io.to_json(kept, validate=False) == plotly.io.to_json(figure, validate=False)


def test_the_figure_comes_back_with_the_same_data_and_downloads(figure):
    again = drawn.Drawn.of(figure).figure()
    assert again.to_dict() == figure.to_dict()
    assert viz.figure_table_csv(again) == viz.figure_table_csv(figure)
    assert len(again.frames) == len(figure.frames) > 1


def test_the_title_is_one_line():
    assert drawn.Drawn({"layout": {"title": {"text": "Error<br>versus n"}}}).title == "Error versus n"
    assert drawn.Drawn({"data": []}).title == ""


def test_streamlit_draws_it_as_it_is_and_converts_anything_else(monkeypatch, figure):
    monkeypatch.setattr(plotly.tools, "return_figure_from_figure_or_data", drawn._PLOTLY_CONVERSION)
    drawn.install()
    kept = drawn.Drawn.of(figure)
    assert plotly.tools.return_figure_from_figure_or_data(kept, True) is kept  # no validation, no copy
    assert plotly.tools.return_figure_from_figure_or_data(figure, True) == figure.to_dict()
    assert plotly.tools.return_figure_from_figure_or_data([{"type": "scatter", "x": [1], "y": [2]}], False) == {
        "data": [{"type": "scatter", "x": [1], "y": [2]}]}

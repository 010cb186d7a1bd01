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


def test_streamlit_draws_it_as_it_is_and_plotly_is_left_alone(figure):
    """st.plotly_chart converts what it is given with plotly.tools.return_figure_from_figure_or_data: a Drawn's
    chart comes out as the kept dictionary itself (no validation, no copy), serialised as the figure would be; that
    function is Plotly's own (nothing is replaced)."""
    kept = drawn.Drawn.of(figure)
    converted = plotly.tools.return_figure_from_figure_or_data(kept.chart(), validate_figure=True)
    assert converted is kept
    assert plotly.io.to_json(converted, validate=False) == plotly.io.to_json(figure, validate=False)
    assert plotly.tools.return_figure_from_figure_or_data.__module__ == "plotly.tools"

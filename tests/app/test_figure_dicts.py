"""ui.figure_dicts: a figure is turned into its Plotly dictionary once, and that dictionary is exactly Plotly's."""

import gc

import plotly.graph_objects as go
import plotly.io
import plotly.tools

from dpcore.viz.figures import home
from ui import figure_dicts


def test_the_dictionary_is_plotlys_and_is_computed_once_per_figure():
    fig = home.neighbouring_densities(start="1")
    first = figure_dicts.figure_dict(fig, True)
    assert first == fig.to_dict()
    assert figure_dicts.figure_dict(fig, True) is first  # remembered, not recomputed
    other = home.neighbouring_densities(start="2")
    assert figure_dicts.figure_dict(other, True) is not first
    assert figure_dicts.figure_dict(other, True) == other.to_dict()


def test_serialising_the_remembered_dictionary_leaves_it_unchanged():
    fig = home.neighbouring_densities(start="1")
    remembered = figure_dicts.figure_dict(fig, True)
    spec = plotly.io.to_json(remembered, validate=False)  # what st.plotly_chart does with it
    assert remembered == fig.to_dict()
    assert plotly.io.to_json(figure_dicts.figure_dict(fig, True), validate=False) == spec


def test_anything_but_a_figure_goes_through_plotlys_own_conversion():
    assert figure_dicts.figure_dict([{"type": "scatter", "x": [1], "y": [2]}], False) == {
        "data": [{"type": "scatter", "x": [1], "y": [2]}]}


def test_a_figure_no_longer_referenced_is_forgotten():
    fig = go.Figure(go.Scatter(x=[0], y=[1]))
    key = id(fig)
    figure_dicts.figure_dict(fig, True)
    assert key in figure_dicts._DICTS
    del fig
    gc.collect()
    assert key not in figure_dicts._DICTS


def test_install_routes_streamlit_through_it(monkeypatch):
    monkeypatch.setattr(plotly.tools, "return_figure_from_figure_or_data", figure_dicts._ORIGINAL)
    figure_dicts.install()
    assert plotly.tools.return_figure_from_figure_or_data is figure_dicts.figure_dict

"""Plotly's dictionary made without Plotly's objects (dpcore.viz.plotly_dict) is Plotly's own, figure by figure."""

import json
import pkgutil

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
import pytest

from dpcore.viz import figures, template
from dpcore.viz.plotly_dict import dictionaries, figure, plotly_dict
from tests.examples import valid_calls

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "decode_array": dict(values={"dtype": "f8", "bdata": "AAAAAAAA8D8="}),
    "dictionaries": dict(),
    "figure": dict(data=[dict(type="bar", x=[1], y=[2])], layout=dict(template="plotly")),
    "plotly_dict": dict(data=[dict(type="bar", x=[1], y=[2])], layout=dict(template="plotly"),
                        frames=[dict(name="a", data=[dict(type="bar", x=[1], y=[3])])]),
}


# Every figure builder's valid call: the figure modules', the charts' and the animated sweep's (test_public_functions.py
# checks that every public function has one).
FIGURE_MODULES = sorted(info.name.removeprefix("dpcore.") for info in pkgutil.iter_modules(figures.__path__,
                                                                                          "dpcore.viz.figures."))
BUILDER_CALLS = valid_calls([*FIGURE_MODULES, "viz.charts", "viz.animation"])
BUILDERS = sorted(name for name in BUILDER_CALLS
                  if name.startswith(("viz.figures.", "viz.charts.")) or name in ("viz.animation.animated_sweep",
                                                                 "viz.animation.line_figure"))


def _function(name: str):
    module, _, function = f"dpcore.{name}".rpartition(".")
    return getattr(__import__(module, fromlist=[function]), function)


def _json(spec) -> str:
    """The JSON a browser receives, keys sorted."""
    return json.dumps(json.loads(pio.to_json(spec, validate=False)), sort_keys=True)


def test_every_figure_builder_is_covered():
    assert len(BUILDERS) >= 40, BUILDERS  # each figure module's builders have a valid call in its test module


@pytest.mark.parametrize("name", BUILDERS)
def test_the_dictionary_is_what_plotly_makes_of_the_figure(name):
    """Inside ``dictionaries()`` a builder returns a dict whose JSON equals that of the validated ``go.Figure`` it
    returns outside: the same data (typed arrays included), layout, template and frames."""
    function = _function(name)
    validated = function(**BUILDER_CALLS[name])
    with dictionaries():
        drawn = function(**BUILDER_CALLS[name])
    assert isinstance(validated, go.Figure) and isinstance(drawn, dict) and not isinstance(drawn, go.Figure)
    assert _json(drawn) == _json(validated.to_dict())
    assert _json(go.Figure(drawn).to_dict()) == _json(drawn)  # Plotly validates it unchanged


def test_arrays_become_typed_arrays_and_nothing_is_shared():
    x = np.array([1.0, 2.0, 3.0])
    trace = dict(type="scatter", x=x, y=np.array([3, 1, 2]), name="a")
    layout = dict(template=template(), title=dict(text="t"), xaxis=dict(range=(0, 4)))
    made = plotly_dict([trace], layout, [dict(name="f", data=[trace])])
    assert made["data"][0]["x"]["dtype"] == "f8" and made["data"][0]["y"]["dtype"] == "i1"  # int64 narrowed, as Plotly
    assert made["layout"]["xaxis"]["range"] == [0, 4]  # a range stays a list, as in Plotly
    assert made["frames"][0]["name"] == "f" and made == go.Figure(data=[trace], layout=layout,
                                                                  frames=[dict(name="f", data=[trace])]).to_dict()
    made["layout"]["title"]["text"] = "changed"
    assert layout["title"]["text"] == "t" and trace["x"] is x and x[0] == 1.0


ARRAYS = [np.array([1, 2**40]), np.array([3, 70_000], dtype=np.uint64), np.arange(12.0)[::3], np.array([-5, 300]),
          np.array([], dtype=float), np.array([1.5, 2.5], dtype=np.float32), np.array([True, False]),
          np.array(["a", "b"])]


@pytest.mark.parametrize("array", ARRAYS, ids=lambda array: str(array.dtype))
def test_every_kind_of_array_is_encoded_as_plotly_encodes_it(array):
    """Data arrays of 64-bit integers narrowed (or left alone when they do not fit 32 bits), views, empty, 32-bit,
    boolean and text arrays, and a 2-D view: the JSON is Plotly's. (Properties that are not data arrays, such as a
    trace's ``text``, are converted by Plotly's validators first: the builders give them lists.)"""
    traces = [dict(type="scatter", x=array, y=array),
              dict(type="heatmap", z=np.arange(12.0).reshape(3, 4)[:, ::2])]
    layout = dict(template=template())
    assert _json(plotly_dict(traces, layout)) == _json(go.Figure(data=traces, layout=layout).to_dict())


def test_the_context_is_local_and_ends_with_its_block():
    spec = ([dict(type="bar", x=[1], y=[2])], dict(template=template()))
    with dictionaries():
        assert isinstance(figure(*spec), dict)
    assert isinstance(figure(*spec), go.Figure)


def test_a_layout_without_its_template_is_refused():
    with pytest.raises(ValueError, match="template"):
        plotly_dict([dict(type="bar", x=[1], y=[2])], dict(title=dict(text="t")))


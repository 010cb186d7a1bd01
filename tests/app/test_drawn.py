"""ui.drawn: a figure is kept as Plotly's own dictionary of it, and Streamlit draws that dictionary as it is."""

import numpy as np
import plotly.graph_objects as go
import plotly.io
import plotly.tools
import pytest

from dpcore import viz
from dpcore.viz.figures import home
from dpcore.viz.plotly_dict import decode_array
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
    assert converted is kept.sent
    assert plotly.tools.return_figure_from_figure_or_data.__module__ == "plotly.tools"


def _arrays(value) -> list[dict]:
    """Every typed array (``{"dtype", "bdata"}``) in a figure's dictionary, in order."""
    if isinstance(value, dict):
        return [value] if "bdata" in value else [array for item in value.values() for array in _arrays(item)]
    if isinstance(value, list):
        return [array for item in value for array in _arrays(item)]
    return []


def test_the_browser_gets_each_float_array_as_float32_and_everything_else_as_it_is(figure):
    """Sent: every 64-bit float array (traces and animation frames) as the float32 of its values, half the bytes;
    the rest the same objects; made once. Kept: full precision (downloads, words, tables)."""
    kept = drawn.Drawn.of(figure)
    full, sent = _arrays(kept), _arrays(drawn._as_drawn(kept))  # frames whole (their lean form: the next test)
    assert len(full) == len(sent) > 10 and {array["dtype"] for array in full} == {"f8"}
    assert {array["dtype"] for array in sent} == {array["dtype"] for array in _arrays(kept.sent)} == {"f4"}
    for before, after in zip(full, sent):
        values = decode_array(before)
        assert np.array_equal(decode_array(after), values.astype(np.float32).astype(np.float64))
        assert np.allclose(decode_array(after), values, rtol=1e-7, atol=0)
        assert len(after["bdata"]) <= len(before["bdata"]) // 2 + 4
    assert kept.sent is kept.sent and kept.sent["layout"] is kept["layout"]
    assert _arrays(kept) == full  # the kept dictionary is untouched
    assert plotly.io.to_json(kept.figure(), validate=False) == plotly.io.to_json(figure, validate=False)


@pytest.mark.parametrize("values", [[1.0, 1e39], [1.0, -1e-39], [3e-300, 2.0]])
def test_an_array_float32_cannot_hold_is_sent_as_it_is(values):
    kept = drawn.Drawn.of(go.Figure(go.Scatter(x=np.array(values), y=np.array([0.0, np.nan]))))
    assert kept.sent["data"][0]["x"] is kept["data"][0]["x"]  # beyond float32's range: left at 64 bits
    assert kept.sent["data"][0]["y"]["dtype"] == "f4"  # zero and NaN are float32's too
    assert np.isnan(decode_array(kept.sent["data"][0]["y"])[1])


def test_frames_are_sent_with_only_what_changes_and_complete_to_the_frames_kept(figure):
    """plotly.js draws a frame as the trace at its position updated by what the frame names: the lean frames,
    completed so, are the kept frames as sent (float32), and hold fewer bytes."""
    kept = drawn.Drawn.of(figure)
    full = drawn._as_drawn(kept)  # float32, frames whole
    sent = kept.sent
    for whole, lean in zip(full["frames"], sent["frames"]):
        assert [{**base, **trace} for base, trace in zip(sent["data"], lean["data"])] == [
            {**base, **trace} for base, trace in zip(full["data"], whole["data"])]
        assert all("type" in trace for trace in lean["data"])
    assert len(plotly.io.to_json(sent, validate=False)) < 0.8 * len(plotly.io.to_json(full, validate=False))
    assert [frame["name"] for frame in sent["frames"]] == [frame["name"] for frame in kept["frames"]]


def test_a_property_one_frame_changes_stays_in_every_frame():
    frames = [go.Frame(name=str(k), data=[go.Scatter(x=[0, 1], y=[k, k], name="a" if k else "b")]) for k in range(3)]
    kept = drawn.Drawn.of(go.Figure(data=[go.Scatter(x=[0, 1], y=[0, 0], name="b")], frames=frames))
    lean = [frame["data"][0] for frame in kept.sent["frames"]]
    assert all("name" in trace and "y" in trace and "x" not in trace for trace in lean)


def test_a_new_layout_reuses_what_is_sent_of_the_figure(figure):
    """Marking an animated chart's layout (every run, ui.frames) converts no array again: the new figure sends the
    same data and frames objects, with the new layout."""
    kept = drawn.Drawn.of(figure)
    layout = {**kept["layout"], "meta": {"mark": 1}}
    marked = kept.with_layout(layout)
    assert marked == {**kept, "layout": layout} and marked.sent["layout"] == layout
    assert marked.sent["data"] is kept.sent["data"] and marked.sent["frames"] is kept.sent["frames"]
    assert marked.sent == {**_lean(kept), "layout": layout}


def _lean(kept: drawn.Drawn) -> dict:
    """What ``kept`` sends, made afresh."""
    return drawn._lean_frames(drawn._as_drawn(kept))

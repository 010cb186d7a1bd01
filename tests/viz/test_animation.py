"""The animated sweep and the line figure (dpcore.viz.animation): structure, slider and buttons, ranges and log
axes, bands, line styles and colours, and bad input.
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from dpcore import viz
from dpcore.lessons.methods import label
from dpcore.viz import FrameData, Series, animated_sweep, line_figure
from dpcore.viz.style import TITLE_WIDTH
from tests.viz.frames import EPSILONS, EXAMPLE_FRAME, N, make_figure, make_frames

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "figure_height": dict(presentation=False, animated=True, legend_entries=3),
    "animated_sweep": dict(
        frames=[EXAMPLE_FRAME],
        x_title="n",
        y_title="error",
        frame_title="d",
        title="t",
        log_x=True,
        log_y=True,
        presentation=False,
    ),
    "line_figure": dict(
        series=EXAMPLE_FRAME.series,
        x_title="n",
        y_title="error",
        title="t",
        log_x=False,
        log_y=False,
        presentation=False,
    ),
    "theory_series": dict(method="Laplace", x=np.array([1.0, 2.0]), y=np.array([0.5, 0.25])),
    "sweep_frames": dict(
        result=importlib.import_module("dpcore.lessons.noise_tradeoff").error_sweep(
            np.array([10.0, 100.0]), np.array([1.0, 2.0]), np.array([1.0]), 1e-6, 5, 0
        ),
        x="n",
        frame="dimension",
        fixed={"epsilon": 1.0},
        statistic="rmse",
    ),
}


def all_plotted_y(frames: list[FrameData]) -> np.ndarray:
    return np.concatenate([a for f in frames for s in f.series
                           for a in (s.y, s.lower, s.upper) if a is not None])


# ------------------------------------------------------------------ structure of the animation

def test_one_plotly_frame_per_frame_named_by_label(fig):
    assert [f.name for f in fig.frames] == [f"{e:g}" for e in EPSILONS]


def test_initial_data_equals_first_frame(fig):
    first = fig.frames[0].data
    assert len(fig.data) == len(first)
    for shown, framed in zip(fig.data, first):
        assert shown.name == framed.name
        assert shown.mode == framed.mode and shown.fill == framed.fill
        np.testing.assert_array_equal(np.asarray(shown.x, float), np.asarray(framed.x, float))
        np.testing.assert_array_equal(np.asarray(shown.y, float), np.asarray(framed.y, float))


def test_every_frame_has_the_same_trace_layout(fig):
    layouts = [[(t.name, t.mode, t.fill) for t in f.data] for f in fig.frames]
    assert all(layout == layouts[0] for layout in layouts)
    # band: lower + upper edge; then the three lines
    assert len(layouts[0]) == 5


def test_frames_hold_the_data_of_their_series(fig):
    for frame, data in zip(make_frames(), fig.frames):
        line = next(t for t in data.data if t.name == "Laplace")
        np.testing.assert_allclose(line.y, frame.series[0].y)


def test_slider_has_one_animate_step_per_frame(fig):
    (slider,) = fig.layout.sliders
    assert len(slider.steps) == len(fig.frames)
    for step, frame in zip(slider.steps, fig.frames):
        assert step.method == "animate"
        assert step.label == frame.name
        names, options = step.args
        assert list(names) == [frame.name]
        assert options["mode"] == "immediate"
        assert options["frame"]["redraw"] is True
        assert options["transition"]["duration"] == 0
    assert slider.currentvalue.prefix == "ε = "
    assert slider.active == 0


def test_play_and_pause_buttons(fig):
    (menu,) = fig.layout.updatemenus
    assert [b.label for b in menu.buttons] == ["Play", "Pause"]
    play, pause = menu.buttons
    assert play.method == pause.method == "animate"
    assert play.args[0] is None  # all frames
    assert play.args[1]["fromcurrent"] is True
    assert play.args[1]["frame"]["duration"] > 0
    assert list(pause.args[0]) == [None]  # an array holding null: stop


def test_uirevision_is_constant():
    assert make_figure().layout.uirevision == make_figure(log_x=False).layout.uirevision == "dplab"


def test_legend_lies_below_everything_so_the_plot_keeps_the_figure_width(fig):
    legend = fig.layout.template.layout.legend
    slider, menu = fig.layout.sliders[0], fig.layout.updatemenus[0]
    assert legend.orientation == "h" and legend.yref == "container"  # rows at the figure's bottom edge
    assert legend.y == 0 and legend.yanchor == "bottom" and legend.x == 0
    assert slider.y <= 0 and slider.yanchor == "top" and menu.y <= 0  # below the plot area
    assert slider.x == 0 and slider.len == 1  # the whole width: long enough on a phone
    assert menu.x == 0 and menu.xanchor == "left"  # Play is never cut off at the left edge
    assert slider.pad.t > menu.pad.t  # the buttons' row, then the slider


def test_the_controls_clear_an_x_title_of_two_lines():
    """The Play/Pause row and the slider lie below the x title as the server wraps it: one line further down for a
    title of two lines, the slider still a button row below the buttons (the browser moves both again when it wraps
    the title once more: assets/fit_formulas.js)."""
    frames = make_frames()
    short = animated_sweep(frames, x_title="n", y_title="e", frame_title="ε")
    long_title = "type-I error α (says X′ when the data are X) and more"
    long = animated_sweep(frames, x_title=long_title, y_title="e", frame_title="ε")
    assert long.layout.xaxis.title.text.count("<br>") == 1
    lift = long.layout.updatemenus[0].pad.t - short.layout.updatemenus[0].pad.t
    assert lift == long.layout.sliders[0].pad.t - short.layout.sliders[0].pad.t == round(1.45 * 16)


def test_the_slider_prefix_is_short():
    """The slider shows "<frame_title> = <frame>": a long name ran out of a phone's screen, so it is refused."""
    frames = make_frames()
    name = "x" * viz.animation.FRAME_TITLE_WIDTH
    assert animated_sweep(frames, x_title="n", y_title="e", frame_title=name).layout.sliders[0].currentvalue.prefix \
        == f"{name} = "
    with pytest.raises(ValueError, match="frame_title is the slider's prefix"):
        animated_sweep(frames, x_title="n", y_title="e", frame_title=name + "x")


def test_play_starts_from_the_frame_the_figure_opens_on():
    frames = make_frames()
    labels = [frame.label for frame in frames]
    opened = animated_sweep(frames, x_title="n", y_title="error", frame_title="ε", start=labels[1])
    play = opened.layout.updatemenus[0].buttons[0]
    assert list(play.args[0]) == labels[1:] and play.args[1]["fromcurrent"] is True
    assert opened.layout.sliders[0].active == 1
    last = animated_sweep(frames, x_title="n", y_title="error", frame_title="ε", start=labels[-1])
    assert last.layout.updatemenus[0].buttons[0].args[0] is None  # nothing after the last frame: replay them all


def test_a_frame_may_carry_its_own_title():
    frames = [FrameData(f.label, f.series, title=f"at {f.label}") for f in make_frames()]
    fig = animated_sweep(frames, x_title="n", y_title="error", frame_title="ε", title="overall", start=frames[1].label)
    assert fig.layout.title.text == f"at {frames[1].label}"
    assert [frame.layout.title.text for frame in fig.frames] == [f"at {f.label}" for f in frames]
    plain = animated_sweep(make_frames(), x_title="n", y_title="error", frame_title="ε", title="overall")
    assert plain.layout.title.text == "overall" and all(frame.layout.title.text is None for frame in plain.frames)


def test_long_titles_wrap_into_lines_that_fit_a_phone():
    fig = line_figure([Series("a", [1, 2], [1, 2])], x_title="x", y_title="y",
                      title="A title far too long for a phone held upright in one hand")
    lines = fig.layout.title.text.split("<br>")
    assert len(lines) == 2 and all(len(line) <= TITLE_WIDTH for line in lines)
    assert " ".join(lines) == "A title far too long for a phone held upright in one hand"


# ------------------------------------------------------------------ axes

@pytest.mark.parametrize("log_x, log_y", [(True, True), (False, True), (True, False), (False, False)])
def test_axis_types(log_x, log_y):
    figure = make_figure(log_x=log_x, log_y=log_y)
    assert figure.layout.xaxis.type == ("log" if log_x else "linear")
    assert figure.layout.yaxis.type == ("log" if log_y else "linear")


@pytest.mark.parametrize("log_y", [True, False])
def test_y_range_is_fixed_and_contains_every_frame(log_y):
    figure = make_figure(log_y=log_y)
    values = all_plotted_y(make_frames())
    if log_y:
        values = np.log10(values)
    low, high = figure.layout.yaxis.range
    assert figure.layout.yaxis.autorange is False
    assert low < values.min() and values.max() < high  # padded, not tight
    assert all(frame.layout.yaxis.range is None for frame in figure.frames)  # frames do not move it


def test_x_range_in_log10_units():
    figure = make_figure()
    low, high = figure.layout.xaxis.range
    assert low < np.log10(N.min()) and np.log10(N.max()) < high


def test_nan_is_a_gap_and_is_ignored_by_the_range():
    y = np.array([1.0, np.nan, 0.1, 0.01])
    figure = line_figure([Series("Laplace", N, y)], x_title="n", y_title="error", log_x=True, log_y=True)
    low, high = figure.layout.yaxis.range
    assert low < -2 and 0 < high < 1


# ------------------------------------------------------------------ trace styles

def test_band_is_a_fill_trace_down_to_its_lower_edge(fig):
    traces = list(fig.data)
    names = [t.name for t in traces]
    upper = names.index("Laplace (band upper)")
    assert names[upper - 1] == "Laplace (band lower)"
    assert traces[upper].fill == "tonexty"
    assert traces[upper].fillcolor.startswith("rgba(") and traces[upper].fillcolor.endswith(", 0.2)")
    assert all(t.showlegend is False and t.hoverinfo == "skip" for t in traces[upper - 1:upper + 1])
    assert all(t.fill is None for t in traces if "band" not in t.name)
    np.testing.assert_allclose(traces[upper].y, make_frames()[0].series[0].upper)


def test_bands_are_outlined_and_lighter_when_three_or_more_share_the_plot():
    """Each band's edges are thin lines of its colour (half strength), so its reach shows where bands overlap; from
    three bands on, the fills are lighter (three at 0.2 summed to one brown)."""
    def bands(count):
        series = [Series(f"method {i}", [1.0, 2.0], [1.0, 2.0], [0.5, 1.0], [2.0, 4.0], color="#0072B2")
                  for i in range(count)]
        figure = line_figure(series, x_title="n", y_title="error")
        return [trace for trace in figure.data if "(band" in trace.name]
    for count, opacity in ((1, 0.2), (2, 0.2), (3, 0.12), (4, 0.12)):
        edges = bands(count)
        assert len(edges) == 2 * count
        assert all(edge.line.width == 1 and edge.line.color == "rgba(0, 114, 178, 0.5)" for edge in edges)
        assert all(edge.fillcolor.endswith(f", {opacity})") for edge in edges if edge.fill == "tonexty")


def test_bands_are_drawn_below_all_lines(fig):
    names = [t.name for t in fig.data]
    assert names == ["Laplace (band lower)", "Laplace (band upper)", "Laplace", "theory", "non-private"]


def test_kind_sets_the_line_style(fig):
    by_name = {t.name: t for t in fig.data}
    assert by_name["Laplace"].mode == "lines+markers" and by_name["Laplace"].line.dash == "solid"
    assert by_name["theory"].mode == "lines" and by_name["theory"].line.dash == "dash"
    assert by_name["non-private"].mode == "lines" and by_name["non-private"].line.dash == "dot"


def test_series_colour_defaults_to_the_registry(fig):
    by_name = {t.name: t for t in fig.data}
    for method in ("laplace", "theory", "non_private"):
        assert by_name[label(method)].line.color == viz.METHOD_COLORS[method]
    assert Series("Laplace", N, N, color="#123456").color == "#123456"


def test_presentation_figures_use_the_presentation_template():
    assert make_figure(presentation=True).layout.template.layout.font.size >= 22


# ------------------------------------------------------------------ static figure

def test_line_figure_is_static_with_the_same_styling():
    series = make_frames()[0].series
    figure = line_figure(series, x_title="n", y_title="error", title="One run", log_x=True, log_y=True)
    assert not figure.frames and not figure.layout.sliders and not figure.layout.updatemenus
    assert [t.name for t in figure.data] == [t.name for t in make_figure().data]
    assert figure.layout.template.layout.font.size == viz.template().layout.font.size
    assert figure.layout.title.text == "One run"


# ------------------------------------------------------------------ bad inputs

def test_no_frames():
    with pytest.raises(ValueError, match="frames must be a non-empty list of FrameData"):
        animated_sweep([], x_title="n", y_title="e", frame_title="ε")


def test_frames_with_different_series_names():
    frames = make_frames()
    frames[1] = FrameData("0.1", [Series("Gaussian (analytic)", N, N), *frames[1].series[1:]])
    with pytest.raises(ValueError, match=r"same series.*frame '0.1'"):
        animated_sweep(frames, x_title="n", y_title="e", frame_title="ε")


def test_frames_with_different_series_counts():
    frames = make_frames()
    frames[2] = FrameData("0.01", frames[2].series[:2])
    with pytest.raises(ValueError, match=r"same series.*frame '0.01'"):
        animated_sweep(frames, x_title="n", y_title="e", frame_title="ε")


def test_frames_with_series_in_another_order():
    frames = make_frames()
    frames[1] = FrameData("0.1", frames[1].series[::-1])
    with pytest.raises(ValueError, match="same order"):
        animated_sweep(frames, x_title="n", y_title="e", frame_title="ε")


def test_frames_where_a_band_appears():
    frames = make_frames()
    laplace = frames[1].series[0]
    frames[1] = FrameData("0.1", [Series("Laplace", N, laplace.y), *frames[1].series[1:]])
    with pytest.raises(ValueError, match="band"):
        animated_sweep(frames, x_title="n", y_title="e", frame_title="ε")


def test_duplicate_frame_labels():
    frames = make_frames((1.0, 1.0))
    with pytest.raises(ValueError, match="frame labels must be unique"):
        animated_sweep(frames, x_title="n", y_title="e", frame_title="ε")


def test_duplicate_series_names_in_a_frame():
    with pytest.raises(ValueError, match="duplicate series names"):
        FrameData("a", [Series("Laplace", N, N), Series("Laplace", N, N)])


def test_x_and_y_length_mismatch():
    with pytest.raises(ValueError, match=r"series 'Laplace' x and series 'Laplace' y must have the same length"):
        Series("Laplace", N, N[:-1])


def test_band_length_mismatch():
    with pytest.raises(ValueError, match="same length"):
        Series("Laplace", N, N, lower=N[:-1], upper=N[:-1])


def test_band_needs_both_edges():
    with pytest.raises(ValueError, match="both lower and upper"):
        Series("Laplace", N, N, lower=N)


def test_band_edges_in_order():
    with pytest.raises(ValueError, match="lower edge exceeds its upper edge"):
        Series("Laplace", N, N, lower=2 * N, upper=N)


@pytest.mark.parametrize("field", ["x", "y"])
def test_empty_arrays(field):
    arrays = {"x": N, "y": N} | {field: []}
    with pytest.raises(ValueError, match=f"series 'Laplace' {field} must be a real array"):
        Series("Laplace", **arrays)


def test_infinite_values():
    with pytest.raises(ValueError, match="series 'Laplace' y must not contain ±inf"):
        Series("Laplace", N, np.array([1.0, np.inf, 1.0, 1.0]))
    with pytest.raises(ValueError, match="series 'Laplace' x must be a real array .* of finite values"):
        Series("Laplace", np.array([1.0, np.nan, 2.0, 3.0]), N)


def test_bad_kind_and_colour():
    with pytest.raises(ValueError, match="series 'Laplace' kind must be one of"):
        Series("Laplace", N, N, kind="bar")
    with pytest.raises(ValueError, match="series 'Laplace' color must be a colour '#RRGGBB'"):
        Series("Laplace", N, N, color="red")


def test_non_positive_values_on_a_log_axis():
    frames = make_frames()
    frames[2] = FrameData("0.01", [Series("Laplace", N, N, lower=0 * N, upper=N), *frames[2].series[1:]])
    with pytest.raises(ValueError, match="log_y needs positive y values; series 'Laplace' in frame '0.01'"):
        animated_sweep(frames, x_title="n", y_title="e", frame_title="ε")
    animated_sweep(frames, x_title="n", y_title="e", frame_title="ε", log_y=False)  # fine on a linear axis


def test_all_nan():
    with pytest.raises(ValueError, match="no finite y values"):
        line_figure([Series("Laplace", N, np.full(4, np.nan))], x_title="n", y_title="e")

# Bad input for every public function (with the constraints it declares) is checked for the whole library
# in tests/test_public_functions.py.


def test_theory_series_joins_its_method_in_the_legend():
    theory = viz.theory_series("Laplace", [1.0, 10.0], [1.0, 0.1])
    figure = line_figure([Series("Laplace", [1.0, 10.0], [1.1, 0.09]), theory], x_title="n", y_title="e")
    line, dashed = figure.data
    assert (theory.name, theory.kind, theory.color) == ("Laplace (theory)", "theory", viz.method_color("Laplace"))
    assert dashed.legendgroup == line.legendgroup == "Laplace"
    assert (line.showlegend, dashed.showlegend, dashed.line.dash) == (True, False, "dash")


def test_log_axis_never_spans_more_than_twelve_decades():
    tiny = Series("Laplace", [1.0, 10.0, 100.0], [1.0, 1e-300, 1e-5])
    low, high = line_figure([tiny], x_title="n", y_title="e", log_x=True, log_y=True).layout.yaxis.range
    assert high - low <= 1.1 * viz.MAX_LOG_DECADES + 1e-9  # 12 decades plus 5 % padding on each side
    assert low > -13 and high >= 0  # the largest value stays on the chart, 1e-300 leaves it


def test_short_log_axes_label_nice_values_in_full():
    """Under two decades a log axis is labelled at 1-2-5 values written out (20, 50, 100, 200), or 1-1.5-2-3-5-7
    when that gives fewer than three labels; two decades or more keep the powers of ten."""
    fig = line_figure([Series("Laplace", [21, 321], [300, 1000])], x_title="k", y_title="n", log_x=True, log_y=True)
    assert fig.layout.xaxis.ticktext == ("20", "50", "100", "200")
    assert fig.layout.yaxis.ticktext == ("300", "500", "700", "1000")
    wide = line_figure([Series("Laplace", [1, 1000], [1, 2])], x_title="n", y_title="e", log_x=True, log_y=False)
    assert wide.layout.xaxis.dtick == 1 and wide.layout.xaxis.tickvals is None


def test_a_short_log_axis_reaching_ten_thousand_counts_in_thousands():
    """1,000 to 32,000: "10000" and "20000" overlapped on a phone; in thousands they fit."""
    fig = line_figure([Series("MLE", [1000, 32_000], [0.1, 0.01])], x_title="n", y_title="e", log_x=True)
    assert fig.layout.xaxis.ticktext == ("1k", "2k", "5k", "10k", "20k")
    assert fig.layout.xaxis.tickvals == (1000, 2000, 5000, 10_000, 20_000)


def test_a_log_axis_over_many_decades_labels_every_other_power():
    """Thirteen decades (the bias-noise trade-off) labelled at every power stacked the labels when presenting: at most
    seven labels, the other powers kept as minor grid lines."""
    fig = line_figure([Series("bias²", [1, 100], [1.0, 1e-13])], x_title="t", y_title="e", log_x=True, log_y=True)
    low, high = fig.layout.yaxis.range
    assert fig.layout.yaxis.dtick == 2 and (high - low) / 2 <= 7 and fig.layout.yaxis.minor.dtick == 1
    assert fig.layout.xaxis.dtick == 1  # two decades: every power

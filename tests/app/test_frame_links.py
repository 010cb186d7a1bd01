"""A chart's frame in the link (ui.frames): ``?frame_<chart>=<frame>`` opens an animated chart on that frame and says
so; a frame the chart lacks gets a message naming the key, its value shown as typed, and leaves the link; a key naming
the frame the page opens on anyway leaves the link; moving a control that changes where the page opens the chart wins
over the link's frame. Every animated chart carries the mark the browser script needs (layout.meta.dplab_frame)."""

from helpers import ROOT, active_frame, assert_animated, charts, run

from ui.drawn import Drawn
from ui.frames import frame_labels, on_frame, opening_frame

HOME = str(ROOT / "app_pages" / "home.py")
TRUNCATION = str(ROOT / "app_pages" / "truncation.py")
KEY = "frame_home_densities"


def linked_captions(at) -> list[str]:
    return [caption.value for caption in at.caption if "as the link asks" in caption.value]


def test_a_link_with_a_frame_opens_the_chart_on_it_and_says_so():
    at = run(HOME, eps="1", **{KEY: "0.2"})
    assert not at.exception and not at.error and not at.warning
    spec = charts(at)["home_densities"]
    assert_animated(spec)  # the shown traces are the frame's, the slider is on it
    assert active_frame(spec) == "0.2"
    assert spec["layout"]["meta"]["dplab_frame"] == {"key": KEY, "start": "1"}
    play = spec["layout"]["updatemenus"][0]["buttons"][0]
    assert play["args"][0] == frame_labels(spec)[frame_labels(spec).index("0.2"):]  # Play runs on from 0.2
    assert linked_captions(at) == ["This chart opens on ε = 0.2, as the link asks (it would open on ε = 1); the "
                                   "sidebar and the rest of the page keep their own settings."]
    assert at.query_params[KEY] == "0.2" and at.query_params["eps"] == "1"  # the address still reproduces it


def test_a_frame_the_chart_lacks_gets_a_message_and_leaves_the_link():
    for raw in ("0.25", "abc", "[x](http://e.org)", ""):
        at = run(HOME, **{KEY: raw})
        assert not at.exception
        assert [error.value for error in at.error] and f"Invalid {KEY} in the link" in at.error[0].value
        assert "(http" not in at.error[0].value.replace("`[x](http://e.org)`", "")  # shown as typed, in code
        assert active_frame(charts(at)["home_densities"]) == "1"
        assert KEY not in at.query_params and not linked_captions(at)


def test_the_page_s_own_frame_in_the_link_is_dropped():
    at = run(HOME, eps="0.5", **{KEY: "0.5"})
    assert not at.error and not linked_captions(at) and KEY not in at.query_params
    assert active_frame(charts(at)["home_densities"]) == "0.5"


def test_moving_the_sidebar_wins_over_the_link_s_frame():
    at = run(HOME, eps="1", **{KEY: "0.2"})
    assert active_frame(charts(at)["home_densities"]) == "0.2"
    at.select_slider(key="w_eps").set_value(3).run()
    assert not at.exception and not at.error
    assert active_frame(charts(at)["home_densities"]) == "3"
    assert KEY not in at.query_params and not linked_captions(at)


def test_every_animated_chart_of_a_page_is_marked_for_the_browser_script():
    at = run(TRUNCATION)
    animated = {key: spec for key, spec in charts(at).items() if spec.get("frames")}
    assert animated
    for key, spec in animated.items():
        assert spec["layout"]["meta"]["dplab_frame"] == {"key": f"frame_{key}", "start": active_frame(spec)}, key


def test_on_frame_changes_nothing_of_the_figure_it_is_given():
    from dpcore.viz.figures import home
    fig = Drawn.of(home.neighbouring_densities(start="1"))
    before = repr(fig)
    moved = on_frame(fig, "0.1")
    assert repr(fig) == before and opening_frame(fig) == "1" and opening_frame(moved) == "0.1"
    assert moved["layout"]["updatemenus"][0]["buttons"][0]["args"][0] is None  # the first frame plays them all
    assert moved["data"] == fig["frames"][0]["data"]

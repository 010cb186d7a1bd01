"""ui: URL parsing (pure), controls <-> URL sync through AppTest, guard, presentation mode."""

import helpers
import pytest
from helpers import SCRIPTS, texts
from streamlit.testing.v1 import AppTest

import ui


def run(script: str, **query: str) -> AppTest:
    """The test scripts are not lab pages: no predict-then-reveal question, so no ``reveal`` key in their URL."""
    return helpers.run(script, answered=False, **query)


CONTROLS = str(SCRIPTS / "controls_page.py")
GUARD = str(SCRIPTS / "guard_page.py")
EPS = ui.epsilon_spec()  # log grid on [0.01, 10], default 1
METHOD = ui.ParamSpec("method", "Method", "choice", "laplace", options=("laplace", "gaussian"))
BOUND = ui.ParamSpec("upper", "Upper bound (francs)", "number", 5000.0, low=-1e9, high=1e9)


# ------------------------------------------------------------------------------------ pure parsing
def test_log_grid_is_nice_and_inside_the_range():
    assert ui.log_grid(0.01, 10)[:7] == (0.01, 0.015, 0.02, 0.03, 0.05, 0.07, 0.1)
    assert ui.log_grid(0.01, 10)[-1] == 10.0
    assert ui.log_grid(10, 100_000, integer=True)[:4] == (10, 15, 20, 30)
    assert ui.delta_spec().options == tuple(10.0**e for e in range(-12, -2))


def test_nearest_frame_is_nearest_on_a_log_scale():
    assert ui.nearest((0.1, 0.3, 1.0), 0.5) == 0.3  # |log(0.5/0.3)| < |log(1/0.5)|
    assert ui.nearest((0.1, 0.3, 1.0), 0.6) == 1.0
    assert ui.nearest((1_000, 10_000), 3_000) == 1_000 and ui.nearest((1_000, 10_000), 3_200) == 10_000


@pytest.mark.parametrize("raw, value, level, text", [
    (None, 1.0, None, None),
    ("0.5", 0.5, None, None),
    ("abc", 1.0, "error", "Invalid eps in the link: `abc` is not a number. Using the default 1."),
    ("nan", 1.0, "error", "Invalid eps in the link: `nan` is not a finite number. Using the default 1."),
    ("inf", 1.0, "error", "not a finite number"),
    ("-inf", 1.0, "error", "not a finite number"),
    ("1e309", 1.0, "error", "not a finite number"),  # overflows to inf
    ("", 1.0, "error", "not a number"),
    ("-1", 0.01, "warning", "eps = `-1` in the link is outside [0.01, 10]; clamped to 0.01."),
    ("0", 0.01, "warning", "clamped to 0.01"),
    ("1e308", 10.0, "warning", "clamped to 10."),
    ("0.04", 0.05, "info", "eps = `0.04` in the link is not one of this page's values; using the nearest, 0.05."),
    ("4", 5.0, "info", "using the nearest, 5."),  # log-nearest (linear distance would tie with 3)
    ("1.005", 1.0, None, None),  # snapped by less than 1 %: silently
])
def test_parse_epsilon(raw, value, level, text):
    parsed, notes = ui.parse_param(EPS, raw)
    assert parsed == value
    assert [lvl for lvl, _ in notes] == ([level] if level else [])
    if text:
        assert text in notes[0][1]


@pytest.mark.parametrize("spec, raw, value, levels", [
    (ui.n_spec(), "1234", 1500, ["info"]),  # ln(1500/1234) < ln(1234/1000)
    (ui.n_spec(), "1e9", 100_000, ["warning"]),
    (ui.delta_spec(), "3e-7", 1e-7, ["info"]),
    (ui.delta_spec(), "0.5", 1e-3, ["warning"]),
    (ui.seed_spec(), "42", 42, []),
    (ui.seed_spec(), "12.7", 13, ["info"]),
    (ui.seed_spec(), "-5", 0, ["warning"]),
    (ui.seed_spec(), "99999999999", 2**31 - 1, ["warning"]),
    (METHOD, "gaussian", "gaussian", []),
    (METHOD, "gauss", "laplace", ["error"]),
    (BOUND, "1234.5678", 1234.5678, []),  # a typed number is kept as typed, never snapped
    (BOUND, "-3e12", -1e9, ["warning"]),
    (BOUND, "nan", 5000.0, ["error"]),
    (BOUND, "1e400", 5000.0, ["error"]),
])
def test_parse_other_kinds(spec, raw, value, levels):
    parsed, notes = ui.parse_param(spec, raw)
    assert parsed == value and type(parsed) is type(value)
    assert [level for level, _ in notes] == levels


def test_clamped_then_snapped_gives_one_warning_with_the_final_value():
    spec = ui.epsilon_spec(low=0.012)  # the grid starts at 0.015
    assert ui.parse_param(spec, "0.001") == (0.015, [("warning", "eps = `0.001` in the link is outside [0.012, 10]; "
                                                                 "clamped to 0.015.")])


def test_spec_rejects_a_default_off_its_grid():
    with pytest.raises(ValueError, match="not one of its options"):
        ui.epsilon_spec(default=0.9)


# ------------------------------------------------------------------------------------ controls in a page
DEFAULT_URL = {"eps": "1", "delta": "1e-06", "n": "1000", "seed": "0", "method": "laplace", "d": "10", "k": "2",
               "upper": "5000"}


def test_defaults_are_written_to_the_url():
    at = run(CONTROLS)
    assert not at.exception
    assert dict(at.query_params) == DEFAULT_URL
    assert not at.error and not at.warning and not at.info


def test_url_seeds_every_kind_of_widget():
    at = run(CONTROLS, eps="0.2", delta="1e-9", n="20000", seed="7", method="gaussian", d="3", k="4.5",
             upper="1234.5")
    assert not at.exception and not at.error and not at.warning and not at.info
    assert at.select_slider(key="w_eps").value == 0.2
    assert at.select_slider(key="w_delta").value == 1e-9
    assert at.select_slider(key="w_n").value == 20_000
    assert at.number_input(key="w_seed").value == 7
    assert at.radio(key="w_method").value == "gaussian"
    assert at.slider(key="w_d").value == 3
    assert at.slider(key="w_k").value == 4.5
    assert at.number_input(key="w_upper").value == 1234.5
    assert at.query_params["n"] == "20000" and at.query_params["delta"] == "1e-09"


@pytest.mark.parametrize("raw", ["abc", "nan", "inf"])
def test_non_numbers_give_one_error_and_the_default(raw):
    at = run(CONTROLS, eps=raw)
    assert not at.exception
    assert texts(at.error) == [f"Invalid eps in the link: `{raw}` is not {'a' if raw == 'abc' else 'a finite'} number. "
                               "Using the default 1."]
    assert at.select_slider(key="w_eps").value == 1.0
    assert at.query_params["eps"] == "1"  # the URL is repaired


@pytest.mark.parametrize("raw, clamped", [("-1", 0.01), ("1e308", 10.0)])
def test_out_of_range_is_clamped_with_a_warning(raw, clamped):
    at = run(CONTROLS, eps=raw)
    assert not at.exception and not at.error and not at.info
    assert len(at.warning) == 1 and f"clamped to {clamped:g}" in at.warning[0].value
    assert at.select_slider(key="w_eps").value == clamped


def test_off_grid_value_is_snapped_with_an_info():
    at = run(CONTROLS, eps="0.04", n="1001")
    assert not at.exception and not at.error and not at.warning
    assert texts(at.info) == ["eps = `0.04` in the link is not one of this page's values; using the nearest, 0.05."]
    assert at.select_slider(key="w_eps").value == 0.05
    assert at.select_slider(key="w_n").value == 1000  # 0.1 % away: snapped without a message


def test_bad_choice_is_an_error():
    at = run(CONTROLS, method="exponential")
    assert len(at.error) == 1 and "not one of laplace, gaussian" in at.error[0].value
    assert at.radio(key="w_method").value == "laplace"


def test_user_moves_win_over_the_url_and_the_url_follows():
    at = run(CONTROLS, eps="2", seed="5")
    at.select_slider(key="w_eps").set_value(0.3).run()
    assert at.select_slider(key="w_eps").value == 0.3
    assert at.query_params["eps"] == "0.3" and at.query_params["seed"] == "5"
    at.number_input(key="w_seed").set_value(123).run()
    assert at.select_slider(key="w_eps").value == 0.3  # not reset to the URL's first value
    assert at.query_params["seed"] == "123" and at.query_params["eps"] == "0.3"
    assert not at.exception


def test_arriving_from_another_page_reseeds_from_the_url():
    at = run(CONTROLS, eps="2")
    at.select_slider(key="w_eps").set_value(0.3).run()
    at.session_state["_ui_page"] = "Some other page"  # as if the user navigated here
    at.query_params["eps"] = "7"
    at.run()
    assert at.select_slider(key="w_eps").value == 7.0


def test_message_is_shown_once_then_the_page_is_clean():
    at = run(CONTROLS, eps="abc")
    assert len(at.error) == 1
    at.select_slider(key="w_eps").set_value(0.5).run()
    assert not at.error


def test_presentation_mode_adds_its_stylesheet_and_keeps_the_flag_in_the_url():
    """(That it hides the prose and keeps the formulas: tests/app/test_home.py, through ui.Page.)"""
    plain, present = run(CONTROLS), run(CONTROLS, present="1")
    assert len(present.get("html")) == len(plain.get("html")) + 1  # the presentation stylesheet
    assert present.query_params["present"] == "1" and present.query_params["eps"] == "1"


# ------------------------------------------------------------------------------------ guard
def test_guard_shows_dpcore_errors_and_the_page_goes_on():
    at = run(GUARD)
    assert not at.exception
    assert texts(at.error) == ["epsilon must be a real number > 0; got -1.0"]
    assert texts(at.markdown) == ["after the guard"]


def test_guard_does_not_hide_bugs():
    def page():
        import ui

        with ui.guard():
            raise RuntimeError("a bug, not a bad parameter")

    at = AppTest.from_function(page, default_timeout=30).run()
    assert not at.error
    assert len(at.exception) == 1 and "a bug" in at.exception[0].message


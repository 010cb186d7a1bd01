"""The page "Audit studio" (app_pages/audit_studio.py) through AppTest: the defaults show the library's numbers at
seed 0, a planted bug is caught at a fixed seed in every section, every control in the link reproduces the page, a
bad value in the link is a message (never a traceback), guesses beyond the canaries are scaled down with words, and
the question holds its figure and its takeaway back."""

import pytest
from helpers import active_frame, assert_animated, charts, page_path, run, tables, texts

from dpcore.lessons import audit_studio as lesson
from dpcore.one_run_audit import one_run_audit, threshold_honesty

SCRIPT = page_path("audit_studio.py")


def open_page(answered: bool = True, **query: str):
    return run(SCRIPT, timeout=180, answered=answered, **query)


def assert_clean(at):
    assert not at.exception, [element.message for element in at.exception]


def table_with(at, column: str) -> list[dict[str, str]]:
    [found] = [table for table in tables(at) if column in table[0]]
    return found


def captions(at) -> str:
    return "\n".join(texts(at.caption))


@pytest.fixture(scope="module")
def default_page():
    return open_page()


def test_the_defaults_show_the_librarys_numbers(default_page):
    at = default_page
    assert_clean(at)
    assert not at.error and not at.warning
    audit = one_run_audit(1000, 100, 100, 1.0, seed=0)
    assert f"was right {audit.correct} times of {audit.guesses}" in captions(at)
    assert f"ε ≥ {audit.epsilon_lower_bound:.2f}" in captions(at) and "**Not caught.**" in captions(at)
    assert set(charts(at)) == {"bound_vs_guesses", "seed_band", "tradeoff", "honesty"}
    figure = charts(at)["bound_vs_guesses"]
    assert_animated(figure)
    assert active_frame(figure) == "1,000"
    gaussian = table_with(at, "μ at least")
    assert [row["ε at δ = 10⁻⁵ from μ (assumes a Gaussian curve)"] for row in gaussian] == \
        ["4.31 (above the claim)", "0.854 (within the claim)"]
    assert gaussian[0]["ε, Clopper–Pearson (assumes nothing)"] == "0.952 (within the claim)"
    honest = threshold_honesty(1.0, 500, 200, 30, 0.95, 0)
    rates = [row["bound above the claimed ε"] for row in table_with(at, "bound above the claimed ε")]
    assert rates == [f"{100 * rate:.0f} %" for rate in (honest.naive_rate, honest.bonferroni_rate,
                                                          honest.split_rate)]
    assert "None of the 41 boxes lies wholly below" in captions(at)
    assert {key: at.query_params[key] for key in ("m", "k_in", "k_out", "eps", "delta", "conf", "mode", "bug",
                                                  "draws", "seed", "curve")} == {
        "m": "1000", "k_in": "100", "k_out": "100", "eps": "1", "delta": "0", "conf": "0.95",
        "mode": "randomized-response", "bug": "correct", "draws": "50000", "seed": "0", "curve": "laplace-count"}


@pytest.mark.parametrize("mode", ["randomized-response", "laplace"])
def test_a_planted_bug_is_caught_in_every_section(mode):
    at = open_page(bug="bug", mode=mode, curve="gaussian-mean")
    assert_clean(at)
    said = captions(at)
    assert "**Caught.**" in said  # one run, isolated canaries
    assert all(row["ε, Clopper–Pearson (assumes nothing)"].endswith("(above the claim)")
               for row in table_with(at, "μ at least"))  # Gaussian DP, and the assumption-free bound beside it
    assert "wholly below the curve of ε = 1, δ = 10⁻⁵" in said and "Caught." in said  # the trade-off boxes
    assert "tests wholly below the claim (caught)" in {trace["name"] for trace in charts(at)["tradeoff"]["data"]}
    rows = table_with(at, "bound above the claimed ε")  # the honest thresholds catch it too
    assert all(int(row["bound above the claimed ε"].rstrip(" %")) > 50 for row in rows[1:])


def test_one_noisy_sum_is_not_caught_even_with_a_bug():
    at = open_page(bug="bug", mode="aggregate")
    assert_clean(at)
    assert "**Not caught.**" in captions(at)


def test_every_control_in_the_link_reproduces_the_page():
    query = dict(m="300", k_in="50", k_out="20", eps="2", delta="1e-06", conf="0.99", mode="laplace", bug="bug",
                 draws="20000", seed="5", curve="gaussian-mean")
    first, again = open_page(**query), open_page(**query)
    assert_clean(first)
    assert not first.error and not first.warning
    assert {key: first.query_params[key] for key in query} == query
    assert charts(first) == charts(again) and tables(first) == tables(again)
    assert active_frame(charts(first)["bound_vs_guesses"]) == "300"
    audit = lesson.one_run("laplace", 300, 50, 20, 2.0, 1e-6, 0.99, "bug", 5)
    assert f"was right {audit['correct']} times of 70" in captions(first)
    assert "20,000 draws each" in charts(first)["tradeoff"]["layout"]["title"]["text"]
    other = open_page(**{**query, "seed": "6"})
    assert charts(other)["bound_vs_guesses"] != charts(first)["bound_vs_guesses"]
    assert charts(other)["seed_band"] == charts(first)["seed_band"]  # the band keeps its own seeds
    assert charts(other)["honesty"] == charts(first)["honesty"]  # and so do the repeated audits of the thresholds


def test_guesses_beyond_the_canaries_are_scaled_down_with_a_message():
    at = open_page(m="100", k_in="300", k_out="100")
    assert_clean(at)
    assert texts(at.warning) == [lesson.guesses_warning(100, 300, 100)]
    assert "said \"in\" 75 times and \"out\" 25 times" in captions(at)


@pytest.mark.parametrize("key, raw", [("m", "12"), ("m", "abc"), ("k_in", "-5"), ("k_out", "1e9"),
                                      ("eps", "zero"), ("delta", "0.5"), ("conf", "2"), ("mode", "evil"),
                                      ("bug", "<script>"), ("draws", "7"), ("seed", "-1"), ("curve", "nothing")])
def test_a_bad_value_in_the_link_is_a_message_not_a_traceback(key, raw):
    at = open_page(**{key: raw})
    assert_clean(at)
    shown = texts(at.error) + texts(at.warning) + texts(at.info)
    assert any(message.startswith((f"{key} = `{raw}`", f"Invalid {key} in the link: `{raw}`")) for message in shown), \
        shown
    assert set(charts(at)) == {"bound_vs_guesses", "seed_band", "tradeoff", "honesty"}


def test_the_question_holds_its_figure_and_its_takeaway_back():
    at = open_page(answered=False)
    assert_clean(at)
    assert "seed_band" not in charts(at)
    question = lesson.interference_question(1.0, 0.0, 0.95, "correct")
    assert f"**Predict first:** {question.prompt}" in texts(at.markdown)
    notice = lesson.takeaways("randomized-response", 1000, 100, 100, 1.0, 0.0, 0.95, "correct", 0, 50_000)
    assert notice[1] not in "\n".join(texts(at.markdown))
    at.radio(key=f"guess_{lesson.QUESTION}").set_value(question.choices[question.answer])
    at.button(key=f"reveal_{lesson.QUESTION}").click().run()
    assert "seed_band" in charts(at)
    assert texts(at.success) == [question.feedback(question.answer)]
    assert any(notice[1] in text for text in texts(at.markdown))

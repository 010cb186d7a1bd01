"""The page "Choosing ε" (app_pages/choosing_epsilon.py) through AppTest: the worked example at the defaults, a plan
from a link reproduced, a bad plan a message (never a traceback), the editor's plain widgets (change, add, remove,
a refused change) mirrored into the link, the budget's split and the question that holds its figure back."""

import pytest
from helpers import charts, page_path, run, tables, texts

from dpcore import planning
from dpcore.lessons import choosing_epsilon as lesson

SCRIPT = page_path("choosing_epsilon.py")
MIXED = "count:t=10;mean:t=1,m=g,hi=120;histogram:t=5,bins=20;quantile:t=20,hi=100"


def open_page(answered: bool = True, **query: str):
    return run(SCRIPT, timeout=180, answered=answered, **query)


def table_with(at, column: str) -> list[dict[str, str]]:
    [found] = [table for table in tables(at) if column in table[0]]
    return found


def releases_table(at) -> list[dict[str, str]]:
    return table_with(at, "smallest ε, pure (Laplace)")


def assert_clean(at):
    assert not at.exception, [element.message for element in at.exception]


def test_the_defaults_show_the_worked_example():
    at = open_page()
    assert_clean(at)
    assert not at.error and not at.warning
    rows = releases_table(at)
    assert [row["smallest ε, pure (Laplace)"] for row in rows] == ["0.300", "0.359"]  # ln(20)/10, 0.12·ln(20)
    assert rows[0]["release"] == "1. a count within ±10 at 95 %"
    assert rows[1]["noise chosen"] == "Laplace noise of scale b = 0.334"
    assert all(row["within ±t in 10,000 simulated releases"].endswith("(asked: 95 %)") for row in rows)
    totals = table_with(at, "total ε")
    assert totals[0]["total ε"] == "0.659" and totals[0]["smallest"] == "smallest"
    assert at.query_params["plan"] == lesson.WORKED and at.query_params["budget"] == "1"
    assert set(charts(at)) == {"mechanisms", "coverage", "epsilon_vs_target", "attacker_roc"}
    roc = charts(at)["attacker_roc"]
    assert "total ε = 0.659" in roc["layout"]["title"]["text"]
    assert roc["layout"]["sliders"][0]["steps"][roc["layout"]["sliders"][0]["active"]]["label"] == "×1"


def test_a_plan_from_a_link_reproduces_the_page():
    query = dict(plan=MIXED, delta="1e-08", budget="2", seed="3")
    first, again = open_page(**query), open_page(**query)
    assert_clean(first)
    assert not first.error and not first.warning
    assert {key: first.query_params[key] for key in query} == query
    rows = releases_table(first)
    assert [row["release"] for row in rows] == [f"{index + 1}. {release.describe()}"
                                                for index, release in enumerate(planning.parse_plan(MIXED))]
    assert rows[1]["ε with Gaussian noise"].endswith("at δ = 1e-08")
    assert first.selectbox(key="plan_3_kind").value == "quantile"
    assert first.radio(key="plan_1_mechanism").value == "gaussian"
    assert first.number_input(key="plan_2_bins").value == 20
    assert first.select_slider(key="w_budget").value == 2.0
    assert tables(first) == tables(again) and charts(first) == charts(again)
    seeded = open_page(**{**query, "seed": "4"})
    assert charts(seeded)["coverage"] != charts(first)["coverage"]  # the seed draws the simulated releases


@pytest.mark.parametrize("raw", ["count:t=0", "nonsense", "[log in](https://evil.example)", "count:t=1;" * 9])
def test_a_bad_plan_in_the_link_is_a_message_and_the_worked_example(raw):
    at = open_page(plan=raw)
    assert_clean(at)
    [message] = texts(at.error)
    assert message.startswith("Invalid plan in the link: `")
    assert "Using the worked example: a count within ±10" in message
    assert "https://" not in message.split("`")[-1]
    assert [row["smallest ε, pure (Laplace)"] for row in releases_table(at)] == ["0.300", "0.359"]
    assert at.query_params["plan"] == lesson.WORKED


def test_a_plan_at_the_ends_of_every_range_is_words_not_a_traceback():
    extreme = "count:t=1e-09;mean:t=1e+12,lo=-1e+12,hi=1e+12,n=1e+09;histogram:t=1,c=0.999,bins=100;" \
              "quantile:t=1,c=0.5,n=1,grid=1e+06"
    at = open_page(plan=extreme)
    assert_clean(at)
    assert at.query_params["plan"] == extreme
    assert texts(at.error) == [lesson._too_large(3e9)]  # what it risks: said in words, the rest of the page drawn
    assert texts(at.subheader)[:5] == ["From accuracy to ε", "The plan's total", "A fixed budget", "What it risks",
                                       "What to notice"]
    assert at.number_input(key="plan_0_error").value == 1e-9  # a target below the box's usual least, kept


def test_the_editor_changes_a_target_and_the_link_follows():
    at = open_page()
    at.number_input(key="plan_0_error").set_value(5.0).run()
    assert_clean(at)
    assert at.query_params["plan"] == "count:t=5;mean:t=1,hi=120"
    assert releases_table(at)[0]["smallest ε, pure (Laplace)"] == "0.599"
    at.radio(key="plan_0_mechanism").set_value("gaussian").run()
    assert at.query_params["plan"] == "count:t=5,m=g;mean:t=1,hi=120"
    assert "Gaussian noise" in releases_table(at)[0]["noise chosen"]
    at.selectbox(key="plan_1_kind").set_value("quantile").run()
    assert at.query_params["plan"] == "count:t=5,m=g;quantile:t=50,hi=120"
    assert at.number_input(key="plan_1_grid").value == 1000 and not at.radio(key="plan_0_mechanism").disabled


def test_add_and_remove_a_release():
    at = open_page()
    at.button(key="plan_add").click().run()
    assert_clean(at)
    assert at.query_params["plan"] == "count:t=10;mean:t=1,hi=120;histogram:t=20"
    assert len(releases_table(at)) == 3 and at.selectbox(key="plan_2_kind").value == "histogram"
    at.button(key="plan_remove_0").click().run()
    assert_clean(at)
    assert at.query_params["plan"] == "mean:t=1,hi=120;histogram:t=20"
    assert [row["release"][:9] for row in releases_table(at)] == ["1. a mean", "2. a hist"]
    assert at.selectbox(key="plan_0_kind").value == "mean"  # the widgets follow the plan, not their old place
    at.button(key="plan_remove_1").click().run()
    assert at.button(key="plan_remove_0").disabled  # the last release stays


def test_a_change_that_makes_no_release_is_refused_with_a_message():
    at = open_page()
    at.number_input(key="plan_1_lower").set_value(200.0).run()  # above the highest value U = 120
    assert_clean(at)
    assert texts(at.warning) == ["The highest value U must be greater than the lowest value L."]
    assert at.query_params["plan"] == lesson.WORKED and at.number_input(key="plan_1_lower").value == 0
    at.run()
    assert not at.warning  # said once


def test_the_budgets_split_table():
    at = open_page(budget="0.2")
    rows = table_with(at, "accuracy reached")
    assert [row["accuracy reached"] for row in rows] == ["±33 (target ±10)", "±3.3 (target ±1)"]
    assert {row["error ÷ target"] for row in rows} == {"3.3"}
    assert any("every release reaches 3.3 times its target, worse than its target" in text for text in
               texts(at.caption))
    gaussian = open_page(plan=MIXED, budget="5")
    assert len({row["error ÷ target"] for row in table_with(gaussian, "accuracy reached")}) == 1
    assert any("spent by zCDP" in text for text in texts(gaussian.caption))


def test_the_question_holds_its_figure_and_its_takeaway_back():
    at = open_page(answered=False)
    assert_clean(at)
    assert "epsilon_vs_target" not in charts(at)
    question = lesson.halving_question(lesson.WORKED, 1e-6)
    assert f"**Predict first:** {question.prompt}" in texts(at.markdown)
    assert not any("0.599" in text for text in texts(at.markdown))
    at.radio(key=f"guess_{lesson.QUESTION}").set_value(question.choices[question.answer])
    at.button(key=f"reveal_{lesson.QUESTION}").click().run()
    assert "epsilon_vs_target" in charts(at)
    assert texts(at.success) == [question.feedback(question.answer)]
    assert any("0.599" in text for text in texts(at.markdown))

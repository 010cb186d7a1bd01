"""The teacher view (``?teacher=1``) never spoils (AppTest; the browser's look at it:
tests/e2e/test_teacher_view_browser.py).

A teacher runs the class from it, often on the projector (``?present=1&teacher=1``): every predict question waits for
its own "Reveal" as it does for a student (the class guesses first); the teacher's notes (discussion questions with
their answers, settings to show live) and each question's answer for the teacher are folded, and nothing of them is
sent to the screen until opened; the notes' links keep presentation mode and the page's current settings; "Leave
teacher view" drops the flag and keeps every other setting; ``?reveal=1`` still shows everything. The home page's
"How to use it" explains the three modes.
"""

from urllib.parse import parse_qsl, urlsplit

import pytest
from helpers import APP, charts, page_path, run, texts
from test_predict import LINK, QUESTIONS, TOPIC_PAGES, block_table_shown, keyed

from deploy.public_url import ENV
from dpcore.lessons import truncation
from ui.page import ANSWER, NOTES, PEEK, live_links
from ui.text import PageText

NOTES_LABEL = "Teacher view: questions for discussion, settings to show live"
PEEK_LABEL = "For the teacher: the answer, before the class sees it"


def open_page(script: str, **query: str):
    return run(page_path(script), timeout=120, answered=False, **query)


def script_of(info) -> str:
    return info.script.removeprefix("app_pages/")


def expander(at, label: str):
    """The one expander labelled ``label`` (an error if there is none, or more than one)."""
    [found] = [box for box in at.expander if box.label == label]
    return found


def labels(at) -> list[str]:
    return [box.label for box in at.expander]


def words(node) -> list[str]:
    """Every text under ``node`` (an AppTest or a container): Markdown, captions and alerts."""
    return [element.value for kind in ("markdown", "caption", "success", "error", "info", "warning")
            for element in getattr(node, kind)]


def raw_links(info) -> list[str]:
    """The "settings to show live" links as the page's Markdown writes them."""
    return LINK.findall(PageText.load(page_path(script_of(info)).removesuffix(".py") + ".md").parts["teacher"])


@pytest.mark.parametrize("info", TOPIC_PAGES, ids=lambda info: info.url_path)
def test_on_the_projector_the_teacher_view_shows_no_answer_until_the_teacher_reveals_it(info, monkeypatch):
    key, chart, expected = QUESTIONS[script_of(info)]
    question = expected()
    monkeypatch.setenv(ENV, "https://lab.example.edu")  # a poll another test has open here: its link is no loopback
    at = open_page(script_of(info), present="1", teacher="1")
    assert not at.exception and not at.error and not at.warning
    assert at.radio(key=f"guess_{key}").value is None  # asked, not answered
    assert chart not in charts(at) if chart else not block_table_shown(at)
    assert not keyed(at, f"{ANSWER}{key}") and not at.success
    shown = "\n".join(words(at))
    assert question.explanation not in shown and "The answer:" not in shown
    assert "Answer:" not in shown and "Questions for discussion" not in shown  # the notes: folded and not sent
    notes, peek = expander(at, NOTES_LABEL), expander(at, PEEK_LABEL)
    assert not notes.proto.expanded and not words(notes)
    assert not peek.proto.expanded and not words(peek)
    [box] = keyed(at, f"question_{key}")
    assert keyed(box, f"{PEEK}{key}")  # the teacher's copy of the answer sits in the question's box
    # the class has guessed: the teacher reveals, and only then the answer and the figure appear
    wrong = question.choices[(question.answer + 1) % len(question.choices)]
    at.radio(key=f"guess_{key}").set_value(wrong)
    at.button(key=f"reveal_{key}").click().run()
    assert not at.exception
    assert chart in charts(at) if chart else block_table_shown(at)
    assert texts(at.error) == [question.feedback(question.choices.index(wrong))]
    assert not [box for box in at.expander if box.label == PEEK_LABEL]  # answered: no more need of it
    assert at.query_params["teacher"] == "1" and at.query_params["present"] == "1"


def test_the_teacher_reads_the_answer_alone_without_revealing_it_to_the_class():
    at = open_page("truncation.py", present="1", teacher="1")
    question = truncation.radius_question("lomax", 3, 10_000, 1.0)
    at.session_state[f"{PEEK}radius"] = True  # as a click on the folded box does
    at.run()
    peek = expander(at, PEEK_LABEL)
    assert texts(peek.markdown) == [f":material/lightbulb: {question.feedback(None)}"]
    assert question.explanation in question.feedback(None)
    assert "bias_noise_tradeoff" not in charts(at) and not keyed(at, f"{ANSWER}radius")  # the class sees nothing
    assert at.radio(key="guess_radius").value is None
    at.session_state[f"{PEEK}radius"] = False  # folded again: gone from the screen
    at.run()
    assert not words(expander(at, PEEK_LABEL))


def test_a_student_sees_neither_the_notes_nor_the_teachers_answer():
    at = open_page("truncation.py")
    assert not [box for box in at.expander if box.label in (NOTES_LABEL, PEEK_LABEL)]
    assert not [button for button in at.button if button.key == "leave_teacher"]


@pytest.mark.parametrize("info", TOPIC_PAGES, ids=lambda info: info.url_path)
def test_the_opened_notes_discuss_and_their_links_keep_presentation_mode_and_the_settings(info):
    at = open_page(script_of(info), present="1", teacher="1", seed="7")
    at.session_state[NOTES] = True  # as a click on the folded notes does
    at.run()
    assert not at.exception and not at.error
    shown = "\n".join(texts(expander(at, NOTES_LABEL).markdown))
    assert "Questions for discussion" in shown and shown.count("Answer:") >= 3
    current = dict(at.query_params)
    assert current["seed"] == "7" and current["present"] == "1"
    links, raw = LINK.findall(shown), raw_links(info)
    assert len(links) == len(raw) >= 2
    for link, written in zip(links, raw):
        parts, setting = urlsplit(link), dict(parse_qsl(urlsplit(written).query))
        query = dict(parse_qsl(parts.query))
        assert parts.path == f"/{info.url_path}"
        assert query == {**current, **setting}, link  # what the link sets, over everything else on screen
        assert query["present"] == "1" and query["teacher"] == "1" and query["seed"] == "7", link


def test_the_links_follow_a_control_moved_in_the_page_in_the_same_run():
    """The composed releases k are drawn beside their figure, after the notes' place under the intro: the notes are
    filled last, so their links carry the value just chosen, not the one before."""
    at = open_page("noise_tradeoff.py", teacher="1", reveal="1")
    at.session_state[NOTES] = True
    at.select_slider(key="w_releases").set_value(10)
    at.run()
    assert at.query_params["releases"] == "10"
    links = LINK.findall("\n".join(texts(expander(at, NOTES_LABEL).markdown)))
    assert links and all(dict(parse_qsl(urlsplit(link).query))["releases"] == "10" for link in links)
    assert not [link for link in links if "present=" in link]  # not presenting: the links do not turn it on


def test_live_links_keep_the_current_settings_or_only_the_modes_on_another_page():
    current = {"eps": "0.5", "n": "1000", "present": "1", "teacher": "1", "seed": "4"}
    text = "- [a](/here?eps=3&teacher=1)\n- [b](/elsewhere?d=8)\n- [c](/here)\n- [not the lab](https://example.org/x)"
    assert live_links(text, "here", current) == (
        "- [a](/here?eps=3&teacher=1&n=1000&present=1&seed=4)\n"
        "- [b](/elsewhere?d=8&present=1&teacher=1)\n"
        "- [c](/here?eps=0.5&n=1000&present=1&teacher=1&seed=4)\n"
        "- [not the lab](https://example.org/x)")
    assert live_links("[home](/?present=0)", "", {"present": "1", "eps": "2"}) == "[home](/?present=0&eps=2)"
    assert live_links("[a](/here?eps=3)", "here", {}) == "[a](/here?eps=3)"


def test_a_forged_value_in_the_url_cannot_write_markdown_into_the_teachers_links():
    """A key the page does not know stays in the URL as typed; in the links it is percent-encoded, never Markdown."""
    forged = {"x": ") [click](https://evil.example) ![img](/a)", "teacher": "1"}
    text = live_links("- [a](/here?eps=3&teacher=1)", "here", forged)
    assert text == "- [a](/here?eps=3&teacher=1&x=%29+%5Bclick%5D%28https:%2F%2Fevil.example%29+%21%5Bimg%5D%28%2Fa%29)"
    assert text.count("](") == 1 and "evil.example)" not in text
    at = open_page("truncation.py", teacher="1", x=forged["x"])
    at.session_state[NOTES] = True
    at.run()
    shown = "\n".join(texts(expander(at, NOTES_LABEL).markdown))
    assert len(LINK.findall(shown)) == 3 and "https://evil" not in shown and "[click]" not in shown


def test_leave_teacher_view_drops_the_flag_and_keeps_every_other_setting():
    at = open_page("truncation.py", present="1", teacher="1", eps="0.5")
    leave = at.button(key="leave_teacher")
    assert leave.label == "Leave teacher view" and at.button(key="leave_presentation")
    leave.click().run()
    assert not at.exception and not at.error
    assert "teacher" not in at.query_params
    assert at.query_params["present"] == "1" and at.query_params["eps"] == "0.5"
    assert at.select_slider(key="w_eps").value == 0.5
    assert not [box for box in at.expander if box.label in (NOTES_LABEL, PEEK_LABEL)]
    assert not [button for button in at.button if button.key == "leave_teacher"]
    assert at.button(key="leave_presentation")  # presentation mode is still on
    at.run()  # and the teacher view stays off in this tab
    assert "teacher" not in at.query_params and not [b for b in at.button if b.key == "leave_teacher"]


def test_the_teacher_view_stays_on_across_pages_until_left():
    """Streamlit's page links start the next page with an empty query: the view stays on (written back into the
    URL) until "Leave teacher view"; then it stays off."""
    at = run(APP, timeout=300, answered=False, teacher="1", present="1")
    assert at.button(key="leave_teacher")
    at.query_params.clear()
    at.switch_page("app_pages/truncation.py").run()
    assert not at.exception
    assert at.query_params["teacher"] == "1" and at.query_params["present"] == "1"
    assert NOTES_LABEL in labels(at) and at.button(key="leave_teacher")
    at.button(key="leave_teacher").click().run()
    at.query_params.clear()
    at.switch_page("app_pages/noise_tradeoff.py").run()
    assert not at.exception
    assert "teacher" not in at.query_params and at.query_params["present"] == "1"
    assert not [box for box in at.expander if box.label in (NOTES_LABEL, PEEK_LABEL)]


def test_reveal_still_shows_everything_in_the_teacher_view():
    """``?reveal=1`` keeps its meaning (a handout, a test): every answer and figure at once, also for a teacher."""
    at = open_page("truncation.py", teacher="1", reveal="1")
    question = truncation.radius_question("lomax", 3, 10_000, 1.0)
    assert not at.exception and "bias_noise_tradeoff" in charts(at)
    [answer] = keyed(at, f"{ANSWER}radius")
    assert texts(answer.markdown) == [f":material/lightbulb: {question.feedback(None)}"]
    assert not [radio for radio in at.radio if radio.key == "guess_radius"]
    assert not [box for box in at.expander if box.label == PEEK_LABEL]
    assert NOTES_LABEL in labels(at)  # still folded: reveal=1 answers the questions, it does not open the notes
    assert not words(expander(at, NOTES_LABEL))


def test_the_home_page_explains_the_three_modes_in_plain_words():
    at = run(APP, timeout=300, answered=False)
    [how_to] = [text for text in texts(at.markdown) if text.startswith("### How to use it")]
    for mode in ("`present=1`", "`teacher=1`", "`reveal=1`"):
        assert mode in how_to, mode
    assert "**Leave presentation mode**" in how_to and "**Leave teacher view**" in how_to
    assert "waits for **Reveal**" in how_to  # the teacher view does not answer the questions
    assert not any("How to use it" in text for text in texts(run(APP, timeout=300, present="1").markdown))

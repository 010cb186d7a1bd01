"""What a browser keeps (classroom.browser): read from the cookies the browser sent, or what the session kept; written
once, by one script, at the end of the run; only known names and plain values."""

import pytest
from streamlit.testing.v1 import AppTest

from classroom import browser


def page():
    """A page that keeps a voter id, forgets the teacher key, and reads both back in the same run."""
    import streamlit as st

    from classroom import browser

    if st.session_state.get("step") is None:
        browser.keep("voter", "A1b2C3d4E5f6G7h8I9j0K_")
        browser.forget("teacher")
        st.session_state.step = 1
    st.markdown(f"voter={browser.read('voter')} teacher={browser.read('teacher')}")
    browser.write_kept()


def scripts(at):
    return [element.proto.body for element in at.get("html") if "<script>" in element.proto.body]


def test_a_kept_value_is_read_at_once_and_written_into_the_browser_once():
    at = AppTest.from_function(page)
    at.session_state[browser.SESSION] = {"teacher": "a-token-the-browser-sent"}
    at.run()
    assert at.markdown[0].value == "voter=A1b2C3d4E5f6G7h8I9j0K_ teacher=None"
    [script] = scripts(at)
    assert "document.cookie = 'dplab_voter=A1b2C3d4E5f6G7h8I9j0K_; Max-Age=15552000; Path=/; SameSite=Strict'" in script
    assert "document.cookie = 'dplab_teacher=; Max-Age=0; Path=/; SameSite=Strict'" in script
    assert "'https:' ? '; Secure'" in script and "<" not in script.removeprefix("<script>").removesuffix("</script>")
    at.run()
    assert scripts(at) == []  # written once: the next run sends nothing
    assert at.markdown[0].value == "voter=A1b2C3d4E5f6G7h8I9j0K_ teacher=None"


@pytest.mark.parametrize("name, value", [("name", "abc"), ("voter", ""), ("voter", "a;b"), ("voter", "x" * 129),
                                         ("voter", "'; alert(1); '"), ("teacher", "a b")])
def test_only_known_names_and_plain_values_are_kept(name, value):
    with pytest.raises(ValueError):
        browser.keep(name, value)

"""Home: what differential privacy promises, seen on the Laplace mechanism, and a map of the lab."""


import streamlit as st

import registry
import ui
from app_pages.settings import home as settings
from classroom import check_yourself, course_map, poll, progress_storage
from dpcore.lessons import home
from dpcore.viz.figures import home as figures
from registry import PAGES, TITLES, papers

TITLES_BY_PATH = {info.url_path: info.title for info in PAGES}


def course(present: bool) -> None:
    """The course: every topic page of the registry in teaching order, as a link in this tab, with this student's
    state on it (kept in their browser) and the page to take next, what it teaches, what a student can do after it
    (not on a projector: ``present``), the time it takes in class, what to know first, and its papers."""
    topics = [info for info in PAGES if info.url_path]
    progress = progress_storage.sync("progress_storage")
    following = course_map.next_step(progress, [info.url_path for info in topics])
    if progress is not None and following is not None:
        ui.page_link(registry.by_url_path(following), f"Next for you: {TITLES_BY_PATH[following]}",
                     ":material/arrow_forward:")
        st.caption("Your progress through the course is kept in this browser only; each page's exercises are at its "
                   "end, under Check yourself.")
    for number, info in enumerate(topics, start=1):
        state = "" if progress is None else f": {course_map.STATE_WORDS[course_map.state_of(progress, info.url_path)]}"
        ui.page_link(info, f"{number}. {info.title} (about {info.minutes} minutes){state}")
        st.caption(f"{info.summary}. First: {info.needs}. Papers: {'; '.join(info.papers)}.")
        if not present:
            st.markdown("After it you can " + "; ".join(info.objectives) + ".")


page = ui.Page(__file__, settings.SPECS)
epsilon = page["eps"]
page.intro()
if not page.present:  # students type the projector's room code here
    poll.join_box()
with page.section("one-count", count=home.COUNT, count_prime=home.COUNT + 1):
    page.figure("home_densities", figures.neighbouring_densities, animated=True, download=True, start=f"{epsilon:g}")
    page.takeaways(home.takeaways, epsilon)
with page.section("deployments"):
    ui.show_table(home.deployment_table())
with page.section("lab"):
    st.fragment(course)(page.present)
    if page.teacher:
        check_yourself.check_receipt_box(TITLES_BY_PATH)
page.prose("how-to")
page.prose("papers", papers="\n".join(f"- {paper}. {TITLES[paper]}." for paper in papers()))
page.go_deeper()

"""Home: what differential privacy promises, seen on the Laplace mechanism, and a map of the lab."""


import streamlit as st

import ui
from app_pages.settings import home as settings
from dpcore.lessons import home
from dpcore.viz.figures import home as figures
from registry import PAGES, TITLES, papers


def course(present: bool) -> None:
    """The course: every topic page of the registry in teaching order, as a link in this tab, with what it teaches,
    what a student can do after it (not on a projector: ``present``), the time it takes in class, what to know
    first, and its papers."""
    for number, info in enumerate((info for info in PAGES if info.url_path), start=1):
        ui.page_link(info, f"{number}. {info.title} (about {info.minutes} minutes)")
        st.caption(f"{info.summary}. First: {info.needs}. Papers: {'; '.join(info.papers)}.")
        if not present:
            st.markdown("After it you can " + "; ".join(info.objectives) + ".")


page = ui.Page(__file__, settings.SPECS)
epsilon = page["eps"]
page.intro()
if not page.present:  # students type the projector's room code here
    ui.join_box()
with page.section("one-count", count=home.COUNT, count_prime=home.COUNT + 1):
    page.figure("home_densities", figures.neighbouring_densities, animated=True, download=True, start=f"{epsilon:g}")
    page.takeaways(home.takeaways, epsilon)
with page.section("deployments"):
    ui.show_table(home.deployment_table())
with page.section("lab"):
    course(page.present)
page.prose("how-to")
page.prose("papers", papers="\n".join(f"- {paper}. {TITLES[paper]}." for paper in papers()))
page.go_deeper()

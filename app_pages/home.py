"""Home: what differential privacy promises, seen on the Laplace mechanism, and a map of the lab."""

import streamlit as st
from streamlit.errors import StreamlitPageNotFoundError

import ui
from dpcore.lessons import home
from dpcore.viz.figures import home as figures
from registry import PAGES

EPSILON = ui.epsilon_spec(default=1.0, low=0.1, high=5.0)


def lab_map() -> None:
    """The map of the lab: every topic page of the registry, in teaching order, as a link in this browser tab (so
    its session, and presentation mode, go along), with what it teaches and its papers."""
    for number, info in enumerate((info for info in PAGES if info.url_path), start=1):
        label = f"{number}. {info.title}"
        try:
            st.page_link(info.script, label=label, icon=info.icon)
        except StreamlitPageNotFoundError:  # the page run on its own, outside the app's navigation (a test, precompute)
            st.markdown(f"[{label}](/{info.url_path})")
        st.caption(f"{info.summary}. Papers: {'; '.join(info.papers)}.")


page = ui.Page(__file__, [EPSILON])
epsilon = page["eps"]
page.intro()
with page.section("one-count", count=home.COUNT, count_prime=home.COUNT + 1):
    page.figure("home_densities", figures.neighbouring_densities, animated=True, download=True, start=f"{epsilon:g}")
    page.takeaways(home.takeaways, epsilon)
with page.section("lab"):
    lab_map()
page.prose("how-to")
page.prose("papers")
page.go_deeper()

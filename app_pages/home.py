"""Home: what differential privacy promises, seen on the Laplace mechanism, and a map of the lab."""

import streamlit as st

import ui
from dpcore.lessons import home
from dpcore.viz.figures import home as figures
from registry import PAGES

EPSILON = ui.epsilon_spec(default=1.0, low=0.1, high=5.0)


def lab_map() -> str:
    """The map of the lab: every topic page of the registry, in teaching order, linked to its URL path."""
    rows = [f"| [{page.title}](/{page.url_path}) | {page.summary} | {'; '.join(page.papers)} |"
            for page in PAGES if page.url_path]
    return "\n".join(["| topic | what it teaches | seed papers |", "|---|---|---|", *rows])


page = ui.Page(__file__, [EPSILON])
epsilon = page["eps"]
page.intro()
with page.section("one-count", count=home.COUNT, count_prime=home.COUNT + 1):
    page.figure("home_densities", figures.neighbouring_densities, animated=True, download=True, start=f"{epsilon:g}")
    page.takeaways(home.takeaways, epsilon)
with page.section("lab"):
    st.markdown(lab_map())
page.prose("how-to")
page.prose("papers")
page.go_deeper()

"""Home: what differential privacy promises, seen on the Laplace mechanism, and a map of the lab."""

from html import escape

import streamlit as st

import ui
from app_pages.settings import home as settings
from dpcore.lessons import home
from dpcore.viz.figures import home as figures
from registry import PAGES


def course(present: bool) -> None:
    """The course: every topic page of the registry in teaching order, as a link in this tab, with what it teaches,
    what a student can do after it (not on a projector: ``present``), the time it takes in class, what to know
    first, and its papers."""
    for number, info in enumerate((info for info in PAGES if info.url_path), start=1):
        ui.page_link(info, f"{number}. {info.title} (about {info.minutes} minutes)")
        st.caption(f"{info.summary}. First: {info.needs}. Papers: {'; '.join(info.papers)}.")
        if not present:
            st.markdown("After it you can " + "; ".join(info.objectives) + ".")


def reflowing_table(rows: list[dict]) -> str:
    """``rows`` as an HTML table that fits its column on every screen: its cells wrap, so no column is cut or
    scrolled out of sight on a laptop or a projector, and on a phone each row becomes a card of "column: value"
    lines (assets/style.css, ``.dplab-table``). Explicit ARIA roles keep it a table for screen readers in both
    layouts; every value is escaped.
    """
    head = "".join(f'<th role="columnheader" scope="col">{escape(name)}</th>' for name in rows[0])
    body = "".join('<tr role="row">' + "".join(f'<td role="cell" data-label="{escape(name)}">{escape(str(value))}</td>'
                                               for name, value in row.items()) + "</tr>" for row in rows)
    return (f'<div class="dplab-table"><table role="table"><thead role="rowgroup"><tr role="row">{head}</tr></thead>'
            f'<tbody role="rowgroup">{body}</tbody></table></div>')


page = ui.Page(__file__, settings.SPECS)
epsilon = page["eps"]
page.intro()
with page.section("one-count", count=home.COUNT, count_prime=home.COUNT + 1):
    page.figure("home_densities", figures.neighbouring_densities, animated=True, download=True, start=f"{epsilon:g}")
    page.takeaways(home.takeaways, epsilon)
with page.section("deployments"):
    st.markdown(reflowing_table(home.deployment_table()), unsafe_allow_html=True)
with page.section("lab"):
    course(page.present)
page.prose("how-to")
page.prose("papers")
page.go_deeper()

"""What every page shares around its content: the stylesheet, presentation mode, the title, the footer, and the
guard that turns a dpcore ``ValueError`` into a message in the page instead of a traceback."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import streamlit as st

__all__ = ["ASSETS", "presentation_mode", "setup_page", "guard", "footer"]

ASSETS = Path(__file__).resolve().parents[1] / "assets"


def presentation_mode() -> bool:
    """Whether the page was opened with ``?present=1`` (bigger fonts, no prose)."""
    return st.query_params.get("present", "").lower() in ("1", "true", "yes", "on")


def setup_page(title: str, icon: str) -> None:
    """Shared chrome: CSS (larger in presentation mode) and the page title. Call it first in every page.

    When the session arrives from another page, the widget values left from there are dropped, so
    the URL (not the previous page) seeds this page's controls.
    """
    if st.session_state.get("_ui_page") != title:
        for key in [key for key in st.session_state if str(key).startswith("w_")]:
            del st.session_state[key]
        st.session_state["_ui_page"] = title
    st.html(ASSETS / "style.css")
    if presentation_mode():
        st.html(ASSETS / "present.css")
    st.title(f"{icon} {title}")


@contextmanager
def guard() -> Iterator[None]:
    """Show a dpcore ``ValueError``/``TypeError`` as ``st.error`` and let the page go on."""
    try:
        yield
    except (ValueError, TypeError) as exc:
        st.error(str(exc))


def footer() -> None:
    """The shared footnote on what the numbers are (and are not)."""
    st.divider()
    st.caption(
        "Results are Monte Carlo simulations with seeded NumPy PCG64 random numbers: reproducible, "
        "and a simulation-grade generator, not a hardened release mechanism (it is not protected "
        "against floating-point or timing attacks). Use it to learn and to experiment, not to publish private data."
    )

"""Private Estimation Lab: the entry point. It loads what the pages import (before any page runs: see ui.preload),
declares the pages and the shared chrome, and starts the shared sweep worker; nothing else.

Run with ``streamlit run app.py``. The pages, their titles, URL paths and order come from ``registry.PAGES``.
"""

import copy

import streamlit as st

import ui
from registry import PAGES
from ui import drawn
from ui.preload import preload

preload()
drawn.install()
st.set_page_config(page_title="Private Estimation Lab", page_icon="🔒", layout="wide",
                   initial_sidebar_state="collapsed" if ui.presentation_mode() else "auto")


@st.cache_resource(show_spinner=False)
def _pages() -> list[st.Page]:
    """The registry's pages, declared once per server (declaring one resolves its script's path on disk)."""
    return [st.Page(info.script, title=info.title, url_path=info.url_path, icon=info.icon, default=info.url_path == "")
            for info in PAGES]


page = st.navigation([copy.copy(declared) for declared in _pages()])  # copies: navigation marks the one it runs
ui.compute.start_worker()
page.run()
ui.footer()

"""Private Estimation Lab: the entry point. It loads what the pages import (before any page runs: see ui.preload),
declares the pages and the shared chrome, and starts the shared sweep worker; nothing else.

Run with ``streamlit run app.py``. The pages, their titles, URL paths and order come from ``registry.PAGES``.
"""

import streamlit as st

import ui
from registry import PAGES
from ui import figure_dicts
from ui.preload import preload

preload()
figure_dicts.install()
st.set_page_config(page_title="Private Estimation Lab", page_icon="🔒", layout="wide",
                   initial_sidebar_state="collapsed" if ui.presentation_mode() else "auto")
page = st.navigation([
    st.Page(info.script, title=info.title, url_path=info.url_path, icon=info.icon, default=info.url_path == "")
    for info in PAGES
])
ui.compute.start_worker()
page.run()
ui.footer()

"""Private Estimation Lab: the entry point. It loads what the pages import (before any page runs: see ui.preload),
bounds the uploads the server keeps (before any page draws an uploader: ui.upload_limits), declares the pages and the
shared chrome, and starts the shared sweep worker; nothing else.

Run with ``streamlit run app.py``. The pages, their titles, URL paths and order come from ``registry.PAGES``.
"""

import streamlit as st

import ui
from ui.preload import preload
from ui.upload_limits import bound_uploads

preload()
bound_uploads()
st.set_page_config(page_title="Private Estimation Lab", page_icon="🔒", layout="wide",
                   initial_sidebar_state="collapsed" if ui.presentation_mode() else "auto")

page = st.navigation(ui.navigation_pages())
ui.compute.start_worker()
page.run()
ui.footer()

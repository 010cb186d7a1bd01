"""Private Estimation Lab: the entry point. It declares the pages and the shared chrome, nothing else.

Run with ``streamlit run app.py``. Topic pages are registered here as they are added.
"""

import streamlit as st

import ui

st.set_page_config(page_title="Private Estimation Lab", page_icon="🔒", layout="wide")
page = st.navigation([
    st.Page("app_pages/home.py", title="Home", default=True, icon=":material/home:"),
    st.Page("app_pages/truncation.py", title="Truncation bias", url_path="truncation-bias", icon=":material/content_cut:"),
    st.Page("app_pages/noise_tradeoff.py", title="Pure vs approximate DP", url_path="pure-vs-approximate",
            icon=":material/balance:"),
    st.Page("app_pages/partition_rounds.py", title="Partitioning rounds", url_path="partitioning-rounds",
            icon=":material/view_column:"),
    st.Page("app_pages/tournament.py", title="Tournament selection", url_path="scheffe-tournament",
            icon=":material/emoji_events:"),
    st.Page("app_pages/exponential_mechanism.py", title="Exponential mechanism", url_path="exponential-mechanism",
            icon=":material/casino:"),
])
page.run()
ui.footer()

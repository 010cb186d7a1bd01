"""A page where dpcore rejects a parameter inside ui.guard(); the rest of the page must still run."""

import streamlit as st

import ui
from dpcore import mechanisms

with ui.guard():
    mechanisms.laplace(1.0, 1.0, -1.0)
    st.markdown("not reached")
st.markdown("after the guard")

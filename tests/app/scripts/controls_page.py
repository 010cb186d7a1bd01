"""A page with one control of every kind, for testing ui.controls through AppTest."""

import streamlit as st

import ui

SPECS = [
    ui.epsilon_spec(),
    ui.delta_spec(),
    ui.n_spec(),
    ui.seed_spec(),
    ui.ParamSpec("method", "Method", "choice", "laplace", options=("laplace", "gaussian")),
    ui.ParamSpec("d", "Dimension d", "int", 10, low=1, high=100, step=1),
    ui.ParamSpec("k", "Moment order k", "float", 2.0, low=1.5, high=8.0, step=0.5),
    ui.ParamSpec("upper", "Upper bound (francs)", "number", 5000.0, low=-1e9, high=1e9),
]

ui.setup_page("Controls test", "🧪")
values = ui.controls(SPECS)
st.markdown(f"values: {values!r}")

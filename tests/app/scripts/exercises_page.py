"""A topic page's controls and its "Check yourself" alone (``?page=<url path>``, default the first page with
exercises), for testing classroom.check_yourself through AppTest without drawing the page's figures."""

import importlib

import streamlit as st

import registry
import ui
from classroom import check_yourself
from dpcore import exercises
from ui.chrome import teacher_mode

url_path = st.query_params.get("page", sorted(exercises.PAGES)[0])
info = registry.by_url_path(url_path)
settings = importlib.import_module(info.script.removesuffix(".py").replace("app_pages/", "app_pages.settings."))
ui.setup_page(info.title, info.icon)
params = ui.controls(settings.SPECS)
check_yourself.show(url_path, params, teacher_mode())

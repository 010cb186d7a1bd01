"""The lab's pages: one script per page (run by Streamlit, in the order of ``registry.py``), its prose beside it
(``<page>.md``), its controls and sweeps in :mod:`app_pages.settings`."""

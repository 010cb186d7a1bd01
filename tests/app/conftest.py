"""tests/app/scripts holds small Streamlit pages that the tests run through AppTest: they are not test modules (and
importing one outside a Streamlit run would execute it)."""

collect_ignore = ["scripts"]

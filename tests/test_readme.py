"""The README's "Pages" table lists exactly the registry's pages: same titles, same URL paths, same (teaching) order."""

import re
from pathlib import Path

from registry import PAGES

ROOT = Path(__file__).resolve().parents[1]


def readme_pages_table() -> list[tuple[str, str]]:
    """(page, URL path) of each row of the table under the README's "## Pages" heading."""
    readme = (ROOT / "README.md").read_text()
    section = re.search(r"^## Pages\n(.*?)(?=^## )", readme, flags=re.MULTILINE | re.DOTALL).group(1)
    rows = [line for line in section.splitlines() if line.startswith("|")][2:]  # skip the header and the rule
    return [tuple(cell.strip().strip("`") for cell in row.strip("|").split("|")[:2]) for row in rows]


def test_readme_pages_table_is_the_registry():
    assert readme_pages_table() == [(page.title, f"/{page.url_path}") for page in PAGES]

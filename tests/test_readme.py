"""The README, the changelog, the licence and the version tell the same story as the code.

* The README's "Pages" table lists exactly the registry's pages: same titles, same URL paths, same (teaching) order;
  its "The papers behind it" names every paper a page draws on; it names "Go deeper"'s handouts and Embed code by
  the labels the app shows.
* Every ``./lab.sh`` command the README names is one ``lab.sh`` runs, and every file or folder it names exists.
* One version: ``dpcore.__version__``, the changelog's latest release and the package's metadata (as setuptools
  builds it from ``pyproject.toml``) agree; ``pyproject.toml`` writes no version of its own.
* ``LICENSE`` is the BSD 3-Clause licence, and the metadata says so.
"""

import email.parser
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import dpcore
import registry
from registry import PAGES

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def readme_pages_table() -> list[tuple[str, str]]:
    """(page, URL path) of each row of the table under the README's "## Pages" heading."""
    section = re.search(r"^## Pages\n(.*?)(?=^## )", README, flags=re.MULTILINE | re.DOTALL).group(1)
    rows = [line for line in section.splitlines() if line.startswith("|")][2:]  # skip the header and the rule
    return [tuple(cell.strip().strip("`") for cell in row.strip("|").split("|")[:2]) for row in rows]


def test_readme_pages_table_is_the_registry():
    assert readme_pages_table() == [(page.title, f"/{page.url_path}") for page in PAGES]


def test_readme_names_every_paper_of_the_registry():
    section = re.search(r"^## The papers behind it\n(.*?)(?=^## )", README, flags=re.MULTILINE | re.DOTALL).group(1)
    listed = re.sub(r"\s+", " ", section)
    assert not [paper for paper in registry.papers() if paper not in listed]


def test_readme_names_the_handouts_and_the_embed_code():
    """What a teacher takes out of the lab: both handouts by the labels of their buttons (``ui/page.py``), and the
    Embed code; the URL keys' history is the changelog's (issue 40)."""
    page = (ROOT / "ui" / "page.py").read_text()
    editions = re.findall(r'\("([^"]+)", "(?:student|teacher)", "[\w-]+"\)', page)
    assert editions == ["Handout (offline lesson, HTML)", "Teacher's edition (with answers)"]
    assert all(f"**{label}**" in README for label in editions) and "**Embed** code" in README
    assert "`k` read as `releases`" in (ROOT / "CHANGELOG.md").read_text()


def test_readme_commands_are_lab_commands():
    """Each ``./lab.sh COMMAND`` in the README is a branch of lab.sh's ``case`` (``app)``, ``test)``, …)."""
    commands = set(re.findall(r"^  ([a-z]+)\)$", (ROOT / "lab.sh").read_text(), flags=re.MULTILINE))
    named = set(re.findall(r"\./lab\.sh ([a-z]+)", README))
    assert {"app", "test", "serve", "sweep", "precompute", "load", "bench"} <= named
    assert named <= commands, named - commands


def test_readme_names_existing_files():
    """Relative links, and code spans that are paths in the repository (``deploy/warm.py``, ``benchmarks/bench_*.py``;
    a placeholder such as ``app_pages/<page>.py`` is not one), point at files or folders that exist."""
    top = {path.name for path in ROOT.iterdir()}
    links = {target for target in re.findall(r"\]\(([^)#:]+)\)", README)}
    spans = {span.rstrip("/") for span in re.findall(r"`([\w.*/-]+/[\w.*/-]*)`", README)
             if span.split("/")[0] in top}
    assert "docs/img/home.png" in links and "LICENSE" in links and "CHANGELOG.md" in links
    missing = sorted(name for name in links | spans if not any(ROOT.glob(name)))
    assert missing == []
    assert {"docs/design.md", "docs/algorithms.md", "docs/testing.md", "docs/papers.md"} <= links


@pytest.fixture(scope="module")
def metadata(tmp_path_factory) -> email.message.Message:
    """The package's core metadata as setuptools builds it from pyproject.toml (egg_info, written outside the tree)."""
    out = tmp_path_factory.mktemp("metadata")
    build = "import sys, setuptools; setuptools.setup(script_args=['-q', 'egg_info', '--egg-base', sys.argv[1]])"
    subprocess.run([sys.executable, "-c", build, str(out)], cwd=ROOT, check=True, capture_output=True)
    return email.parser.Parser().parsestr((out / "dpcore.egg-info" / "PKG-INFO").read_text())


def latest_release() -> str:
    """The version of the changelog's first release heading, ``## [X.Y.Z] - YYYY-MM-DD`` (after "Unreleased")."""
    changelog = (ROOT / "CHANGELOG.md").read_text()
    headings = re.findall(r"^## \[([^]]+)\](.*)$", changelog, flags=re.MULTILINE)
    assert headings[0] == ("Unreleased", "")
    version, dated = headings[1]
    assert re.fullmatch(r" - \d{4}-\d{2}-\d{2}", dated), dated
    return version


def test_one_version(metadata):
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert "version" not in project and "version" in project["dynamic"]  # the version is written once
    assert re.fullmatch(r"\d+\.\d+\.\d+", dpcore.__version__)
    assert dpcore.__version__ == latest_release() == metadata["Version"]


def test_license_is_bsd_3_clause(metadata):
    text = " ".join((ROOT / "LICENSE").read_text().split())
    assert text.startswith("BSD 3-Clause License Copyright (c) 2026, the Private Estimation Lab developers ")
    clauses = ["1. Redistributions of source code must retain the above copyright notice, this list of conditions and "
               "the following disclaimer.",
               "2. Redistributions in binary form must reproduce the above copyright notice, this list of conditions "
               "and the following disclaimer in the documentation and/or other materials provided with the "
               "distribution.",
               "3. Neither the name of the copyright holder nor the names of its contributors may be used to endorse "
               "or promote products derived from this software without specific prior written permission.",
               'THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS "AS IS"']
    assert all(clause in text for clause in clauses)
    assert "4." not in text  # not the four-clause (advertising) licence
    assert metadata["License"] == "BSD-3-Clause" and metadata.get_all("License-File") == ["LICENSE"]

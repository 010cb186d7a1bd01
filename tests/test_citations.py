"""Every citation in the repository resolves (docs/testing.md §10): a section of ``docs/`` that exists, or a paper
listed in ``docs/papers.md``.

The repository's text files (``.py``, ``.md``, ``.sh``, ``.toml``; not ``.venv``, ``artifacts``, ``.git`` or the
stored sweeps) are scanned line by line. A failure names the file, the line and the text. Checks:

* a ``docs/<file>.md §<n>`` reference (and every ``§`` that follows it in the same citation, as in ``§1.2, §1.9.1``
  or ``§1.3–§1.6``) names a file of ``docs/`` and a numbered heading of it;
* a path to ``docs/`` is the repository's own, not another checkout's;
* no source paper is cited by the number of the file it came in;
* a ``docs/`` file name is never written without its folder;
* no algorithm is cited by a bare label of the old scheme (a letter and a number);
* every author–year citation (``Ghazi et al. 2023``, ``Bun & Steinke 2016``, ``Smith (2011)``, ``Singhal's (2023)``)
  names authors whose surnames appear in ``docs/papers.md``;
* one year per paper: each paper of ``docs/papers.md`` (a §1 heading, a row of §2's table) is cited with one year,
  and every citation of those authors in the repository uses it (a preprint's year on one page and the journal's
  on another were two).

>>> sorted(section_numbers("## 1. Setting\\n### 1.2 More\\n#### 1.2.3 Most\\n## Appendix A. Times\\n"))
['1', '1.2', '1.2.3', 'A']
>>> [match.group("file") for match in DOCS_REFERENCE.finditer("see docs/design.md §4 and docs/testing.md")]
['design', 'testing']
>>> cited_sections(next(DOCS_REFERENCE.finditer("docs/algorithms.md §1.3–§1.6, §1.9.1 and §2")))
['1.3', '1.6', '1.9.1', '2']
>>> [match.group("authors") for match in AUTHOR_YEAR.finditer("Kamath, Singhal & Ullman 2020; Ghazi et al.'s (2023)")]
['Kamath, Singhal & Ullman', 'Ghazi']
>>> [(entry.group("authors"), entry.group("years")) for entry in map(PAPER.match, ("Wasserman & Zhou 2010; 2011",
...                                                                                "Ghazi et al. 2023 (key GHAZI23)"))]
[('Wasserman & Zhou', '2010; 2011'), ('Ghazi', '2023')]
"""

import os
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
DOC_NAMES = ("algorithms", "design", "testing", "papers")  #: the files of docs/, by name
PAPERS = DOCS / f"{DOC_NAMES[-1]}.md"
SUFFIXES = (".py", ".md", ".sh", ".toml")
SKIPPED_FOLDERS = {".venv", "artifacts", ".git", "__pycache__", ".pytest_cache", ".ruff_cache"}
SKIPPED_PATHS = {Path("assets") / "precomputed"}

#: ``docs/<file>.md``, then the sections it cites: ``§n`` joined by commas, "and", or an en dash (a range).
_SECTION = r"§\s*\d+(?:\.\d+)*"
DOCS_REFERENCE = re.compile(r"(?<![\w.-])docs/(?P<file>[\w-]+)\.md(?P<sections>(?:\s*(?:[,;]\s*(?:and\s+)?|\s+and\s+)"
                            rf"{_SECTION}|\s*{_SECTION}|\s*–\s*§?\s*\d+(?:\.\d+)*)*)")
#: A path to a docs folder outside this repository (another checkout, the shared drive).
FOREIGN_DOCS = re.compile(r"(?:\.\./|/work/|shared/)[\w./-]*docs/[\w-]+\.md")
#: A source paper cited by the number of its file (the word "seed" and a three-digit number from 000, also joined by an
#: underscore as in a variable's name, or such a number followed by a theorem, lemma, section, ... of the paper).
FILE_NUMBER = re.compile(r"\bseeds?[\s_]+0{2}\d|\b0{2}[0-4](?:['’]s)?\s+(?:Lemma|Thm|Theorem|Prop|Def|Alg|Algorithm|"
                         r"Condition|Claim|App|Cor|§|slides|table)\b", re.IGNORECASE)
#: A file of docs/ named without its folder.
BARE_DOCS_FILE = re.compile(r"(?<![\w/.-])(?:algorithms|design|testing|papers)\.md\b")
#: The old scheme's algorithm labels: S, E, T or M with a number (and a or b), the partition variants (P1, a hyphen,
#: L or G) and the partitioning baselines (B with 0 to 3).
OLD_LABEL = re.compile(r"\b(?:[SETM]\d{1,2}[ab]?|P1-[LG]|B[0-3])\b")
#: An author–year citation: surnames joined by ", ", " & ", " and " or a dash, optionally "et al.", optionally a
#: possessive, then the year (in parentheses or not).
_SURNAME = r"[A-Z][a-zà-öø-ÿ]+(?:[A-Z][a-zà-öø-ÿ]+)?"
AUTHOR_YEAR = re.compile(rf"\b(?P<authors>{_SURNAME}(?:(?:,\s+|\s+&\s+|\s+and\s+|[–—]){_SURNAME})*)"
                         r"(?P<etal>\s+et\s+al\.)?(?:['’]s)?,?\s+\(?(?P<year>(?:19|20)\d\d)[a-z]?(?![\d-])")
#: A paper as docs/papers.md lists it: its authors ("et al." after the first), then its year(s); any "(key …)" after.
PAPER = re.compile(r"(?P<authors>[^\d|]+?)(?P<etal>\s+et\s+al\.)?\s+"
                   r"(?P<years>(?:1[5-9]|20)\d\d(?:\s*[;,]\s*(?:1[5-9]|20)\d\d)*)\b")
#: Capitalised words that precede a year without being an author ("In 2020", "Since 2006").
NOT_AUTHORS = {"In", "On", "At", "By", "From", "Since", "Until", "Before", "After", "Of", "The", "For", "And", "To",
               "Python", "Version"}


def text_files() -> list[Path]:
    found = []
    for folder, subfolders, files in os.walk(ROOT):
        relative = Path(folder).relative_to(ROOT)
        subfolders[:] = sorted(name for name in subfolders
                               if name not in SKIPPED_FOLDERS and relative / name not in SKIPPED_PATHS)
        found += [Path(folder) / name for name in sorted(files) if name.endswith(SUFFIXES)]
    return found


@cache
def lines() -> list[tuple[str, int, str]]:
    """(file relative to the repository, line number, line) of every scanned line."""
    return [(str(path.relative_to(ROOT)), number, line) for path in text_files()
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)]


def section_numbers(markdown: str) -> set[str]:
    """The numbers of a Markdown file's headings ("1", "1.2", "1.2.3") and its appendix letters ("A")."""
    numbers = set(re.findall(r"^#{1,6}\s+(\d+(?:\.\d+)*)\.?\s", markdown, re.MULTILINE))
    return numbers | set(re.findall(r"^#{1,6}\s+Appendix\s+([A-Z])\b", markdown, re.MULTILINE))


@cache
def docs_sections() -> dict[str, set[str]]:
    return {path.stem: section_numbers(path.read_text(encoding="utf-8")) for path in sorted(DOCS.glob("*.md"))}


def cited_sections(match: re.Match) -> list[str]:
    return re.findall(r"\d+(?:\.\d+)*", match.group("sections"))


@cache
def papers_words() -> set[str]:
    return set(re.findall(r"[^\W\d_]+", PAPERS.read_text(encoding="utf-8")))


def surnames(authors: str) -> tuple[str, ...]:
    """The surnames of an author list as cited: "Kamath, Singhal & Ullman" -> ("Kamath", "Singhal", "Ullman")."""
    return tuple(re.split(r",\s+|\s+&\s+|\s+and\s+|[–—]", authors.strip()))


@cache
def papers() -> list[tuple[str, tuple[str, ...], bool, list[str]]]:
    """Each paper of docs/papers.md as (its citation there, surnames, "et al.", years): the §1 headings and the first
    cell of each row of §2's table."""
    cited = re.findall(r"^###\s+1\.\d+\s+(.+)$", PAPERS.read_text(encoding="utf-8"), re.MULTILINE)
    cited += [cell for cell in re.findall(r"^\|\s*([^|]+?)\s*\|", PAPERS.read_text(encoding="utf-8"), re.MULTILINE)
              if cell != "citation" and not set(cell) <= set("-: ")]
    found = []
    for citation in cited:
        entry = PAPER.match(citation)
        assert entry, f"docs/papers.md: {citation!r} names no year"
        found.append((citation, surnames(entry.group("authors")), bool(entry.group("etal")),
                      re.findall(r"\d{4}", entry.group("years"))))
    return found


def _report(failures: list[str]) -> str:
    return f"{len(failures)} unresolved citation(s):\n" + "\n".join(failures)


def test_the_docs_exist_and_number_their_sections():
    assert set(DOC_NAMES) <= set(docs_sections())
    for name, sections in docs_sections().items():
        assert sections, f"docs/{name}.md has no numbered section"
        text = (DOCS / f"{name}.md").read_text(encoding="utf-8")
        headings = re.findall(r"^#{1,6}\s+(\d+(?:\.\d+)*)\.?\s", text, re.MULTILINE)
        assert len(headings) == len(set(headings)), f"docs/{name}.md numbers two sections alike"


def test_docs_references_name_existing_files_and_sections():
    failures = []
    for file, number, line in lines():
        for match in DOCS_REFERENCE.finditer(line):
            sections = docs_sections().get(match.group("file"))
            if sections is None:
                failures.append(f"{file}:{number}: {match.group(0).strip()!r}: no such file in docs/")
                continue
            missing = [section for section in cited_sections(match) if section not in sections]
            if missing:
                failures.append(f"{file}:{number}: {match.group(0).strip()!r}: no section "
                                f"{', '.join('§' + section for section in missing)} in docs/{match.group('file')}.md")
        failures += [f"{file}:{number}: {match.group(0)!r}: outside this repository"
                     for match in FOREIGN_DOCS.finditer(line)]
    assert not failures, _report(failures)


@pytest.mark.parametrize("pattern, what", [
    (FILE_NUMBER, "a source paper cited by its file number: name it by author and year"),
    (BARE_DOCS_FILE, "a docs file without its folder: write docs/<file>.md"),
    (OLD_LABEL, "an algorithm label of the old scheme: name the algorithm (paper and result, or a docs/ section)"),
], ids=["file-number", "bare-docs-file", "old-label"])
def test_no_citation_of_the_old_scheme(pattern, what):
    failures = [f"{file}:{number}: {match.group(0)!r}: {what}"
                for file, number, line in lines() for match in pattern.finditer(line)]
    assert not failures, _report(failures)


def test_author_year_citations_are_in_papers_md():
    failures = []
    for file, number, line in lines():
        for match in AUTHOR_YEAR.finditer(line):
            surnames = re.split(r",\s+|\s+&\s+|\s+and\s+|[–—]", match.group("authors"))
            unknown = [name for name in surnames if name not in NOT_AUTHORS and name not in papers_words()]
            if unknown:
                failures.append(f"{file}:{number}: {match.group(0)!r}: {', '.join(unknown)} not in docs/papers.md")
    assert not failures, _report(failures)


def test_each_paper_has_one_year():
    """docs/papers.md cites each paper with one year: the version the lab follows (a preprint's year goes in the
    work's description, as "arXiv:1905.02383, 2019")."""
    twice = [citation for citation, _, _, years in papers() if len(years) != 1]
    assert not twice, f"docs/papers.md cites these with more than one year: {twice}"
    assert len(papers()) > 40


def test_every_citation_uses_the_year_of_papers_md():
    """A citation of a paper's authors (all of them, or the first with "et al.") gives the year docs/papers.md does:
    one year per paper everywhere, never the preprint's on one page and the journal's on another."""
    exact = {(names, etal): {year for other, other_etal, years in ((n, e, y) for _, n, e, y in papers())
                             if (other, other_etal) == (names, etal) for year in years}
             for _, names, etal, _ in papers()}
    first = {}
    for _, names, _, years in papers():
        first.setdefault(names[0], set()).update(years)
    failures, before = [], ("", "")
    for file, number, line in lines():
        # the end of the line before, so that an author list wrapped across lines is read whole
        tail = before[1][-100:].lstrip(" #*/\"'") + " " if before[0] == file else ""
        before = (file, line)
        for match in AUTHOR_YEAR.finditer(tail + line.lstrip(" #*/\"'")):
            if match.end() <= len(tail):
                continue  # the line before's own citation, checked there
            names, etal = surnames(match.group("authors")), bool(match.group("etal"))
            years = exact.get((names, etal)) or (first.get(names[0]) if etal else None)
            if years and match.group("year") not in years:
                failures.append(f"{file}:{number}: {match.group(0)!r}: docs/papers.md cites it as "
                                f"{' or '.join(sorted(years))}")
    assert not failures, _report(failures)

"""A page's static prose, read from the Markdown file beside its script.

The file is cut into named parts by marker lines ``<!-- name -->``. A part may open with a ``## heading`` line (the
section's title); its other blocks (separated by blank lines) are prose, except ``$$ … $$`` blocks, which are
displayed formulas. ``{{field}}`` placeholders are filled with values computed by the page (numbers the text quotes).

>>> text = PageText.parse("<!-- intro -->\\nA mean of {{n}} points.\\n\\n$$\\\\bar x$$\\n")
>>> text.blocks("intro", n=10)
[('prose', 'A mean of 10 points.'), ('formula', '\\\\bar x')]
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

__all__ = ["PageText"]

_MARKER = re.compile(r"^<!--\s*([\w-]+)\s*-->\s*$", re.M)
_FIELD = re.compile(r"\{\{(\w+)\}\}")


@dataclass(frozen=True)
class PageText:
    """The named parts of one page's Markdown: ``{name: text}``."""

    parts: dict[str, str]

    @classmethod
    def parse(cls, markdown: str) -> PageText:
        pieces = _MARKER.split(markdown)
        return cls({name: body.strip() for name, body in zip(pieces[1::2], pieces[2::2])})

    @classmethod
    def load(cls, path: str | Path) -> PageText:
        """The parts of the Markdown file ``path``, read once per server (the parts are never changed)."""
        return _load(str(path))

    def _part(self, name: str, fields: dict) -> str:
        if name not in self.parts:
            raise KeyError(f"the page's Markdown has no part <!-- {name} --> (it has {sorted(self.parts)})")
        missing = sorted(set(_FIELD.findall(self.parts[name])) - set(fields))
        if missing:
            raise KeyError(f"part {name!r} needs the fields {missing}")
        return _FIELD.sub(lambda match: str(fields[match.group(1)]), self.parts[name])

    def heading(self, name: str) -> str | None:
        """The part's ``## heading``, if it has one."""
        first = self.parts.get(name, "").split("\n", 1)[0]
        return first[3:].strip() if first.startswith("## ") else None

    def blocks(self, name: str, **fields) -> list[tuple[str, str]]:
        """``[(kind, text)]`` of the part after its heading: ``"formula"`` (the LaTeX inside ``$$``) or ``"prose"``."""
        body = self._part(name, fields)
        if body.startswith("## "):
            body = body.split("\n", 1)[1] if "\n" in body else ""
        found = []
        for block in re.split(r"\n\s*\n", body.strip()):
            block = block.strip()
            if block.startswith("$$") and block.endswith("$$") and len(block) > 4:
                found.append(("formula", block[2:-2].strip()))
            elif block:
                found.append(("prose", block))
        return found


@functools.lru_cache(maxsize=64)
def _load(path: str) -> PageText:
    return PageText.parse(Path(path).read_text(encoding="utf-8"))

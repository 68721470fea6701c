"""Passages: prose as the audit reads it, with its lines, its code spans and its sentences.

A :class:`Passage` is one paragraph of text from a page, a chapter or a
docstring, however it was written: the line breaks of the source kept (so an
offset gives a line), and the spans that were code, a role or a link marked, so
that names are read there and figures are not. :func:`sentences` splits it where
a sentence ends, never after an abbreviation or inside a number or code.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field


def words(text: str) -> list[str]:
    """The words of ``text``: a set of words written as one string."""
    return text.split()


ROLE_SYNTAX = ("myst", "rst", "text")
"""How a page spells a role: MyST Markdown, reStructuredText, or neither (LaTeX, text)."""


@dataclass(frozen=True)
class Passage:
    """A paragraph of prose, where it is, and what in it is code."""

    text: str
    path: str
    line: int
    """The line of ``text[0]``; each ``\\n`` in ``text`` is one line further."""
    code: tuple[tuple[int, int], ...] = ()
    """Spans (start, end) of code, roles and links: names count there, figures do not."""
    subject: str = ""
    """The registry entry the passage is about (an entry's own docstring), named or not."""
    syntax: str = "myst"
    """How the page spells a role: one of :data:`ROLE_SYNTAX`."""

    def line_at(self, offset: int) -> int:
        return self.line + self.text.count("\n", 0, offset)

    def in_code(self, start: int, end: int) -> bool:
        return any(start < high and low < end for low, high in self.code)


@dataclass
class PassageBuilder:
    """A passage put together piece by piece: text, then code, then text again."""

    path: str
    line: int
    syntax: str = "myst"
    subject: str = ""
    parts: list[str] = field(default_factory=list)
    code: list[tuple[int, int]] = field(default_factory=list)
    length: int = 0

    def text(self, text: str) -> None:
        self.parts.append(text)
        self.length += len(text)

    def code_span(self, text: str) -> None:
        """Code, a role or a link: kept for its names, never read for figures."""
        self.code.append((self.length, self.length + len(text)))
        self.text(text)

    def passage(self) -> Passage | None:
        """The passage, or None when it holds no letters or no digits (nothing to audit)."""
        text = "".join(self.parts)
        if not any(c.isdigit() for c in text) and not self.subject:
            return None
        return Passage(text, self.path, self.line, tuple(self.code), self.subject, self.syntax)


ABBREVIATIONS = frozenset(
    words(
        "e.g i.e al fig figs sec secs eq eqs cf vs approx ca resp incl nos pp vol ch ref refs "
        "dr mr mrs eds"
    )
)
"""Words a full stop follows without ending the sentence (compared without case)."""

_END = re.compile(r"[.!?][)\]\"'”’]*(?=\s+[\"'“‘(\[]?[A-Z0-9{`:\\]|\s*$)|\n[ \t]*\n")
_WORD_BEFORE = re.compile(r"([\w.]+)$")


@dataclass(frozen=True)
class Sentence:
    """A sentence of a passage: ``passage.text[start:end]``."""

    passage: Passage
    start: int
    end: int

    @property
    def text(self) -> str:
        return self.passage.text[self.start : self.end]


def sentences(passage: Passage) -> Iterator[Sentence]:
    """The sentences of ``passage``, in order; each keeps its offsets in the passage."""
    start = 0
    for match in _END.finditer(passage.text):
        if match.group(0).startswith((".", "!", "?")) and not _ends_sentence(passage, match):
            continue
        end = match.end()
        if passage.text[start:end].strip():
            yield Sentence(passage, start, end)
        start = end
    if passage.text[start:].strip():
        yield Sentence(passage, start, len(passage.text))


def _ends_sentence(passage: Passage, match: re.Match[str]) -> bool:
    """A full stop that ends a sentence: not inside code, not after an abbreviation or
    a single letter (an initial)."""
    if passage.in_code(match.start(), match.start() + 1):
        return False
    before = _WORD_BEFORE.search(passage.text, 0, match.start())
    word = before.group(1).strip(".") if before else ""
    return not (word.lower() in ABBREVIATIONS or (len(word) == 1 and word.isupper()))

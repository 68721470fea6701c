"""Docstring sections: split a scenario or helper docstring into structured parts.

The convention is numpydoc's: a summary line, a description, then sections
headed by an underlined title. numpydoc's own parser
(:class:`numpydoc.docscrape.NumpyDocString`) reads the sections that have a
structure: the ``name : type`` lists (Parameters, Returns, Yields, Receives,
Other Parameters, Raises, Warns, Attributes, Methods) and See Also. It keeps
no line numbers, so refgen finds the sections itself, by numpydoc's rule (a
title that opens a paragraph, underlined with at least as many dashes or
equals signs), and maps each section and entry back to its line: warnings and
failing examples point at the ``.py`` file and not at a generated page. The
prose parts (the description, Notes, Warnings, References, Examples) are kept
line for line as written. Notes holds the scenario convention's labelled
entries (``Equation:``, ``Assumptions:``, ``Excludes:``) and free paragraphs.

The parser never raises: a section numpydoc does not know, one given twice,
an underline shorter than its title, and whatever numpydoc refuses or warns
about become :class:`~refgen.analysis.model.Problem` records on the result;
numpydoc's own warnings are not shown.
"""

from __future__ import annotations

import itertools
import re
import textwrap
import warnings
from dataclasses import dataclass

from numpydoc.docscrape import NumpyDocString

from refgen.analysis.model import (
    ENTRY_SECTIONS,
    Docstring,
    ExampleBlock,
    NoteEntry,
    ParameterEntry,
    Passage,
    Problem,
    Reference,
    SeeAlsoEntry,
    SeeAlsoName,
    SourceLocation,
    WarningKind,
)

_NOT_SECTIONS = ("Signature", "Summary", "Extended Summary", "index")
"""Parts numpydoc keeps under a title that are not sections a docstring writes."""
KNOWN_SECTIONS = tuple(title for title in NumpyDocString.sections if title not in _NOT_SECTIONS)
"""Every standard numpydoc section, in numpydoc's order."""
NOTE_LABELS = ("Equation", "Assumptions", "Excludes")

_READ_AS = {"Receives": "Returns"}
"""numpydoc reads a Receives list as it reads Returns, but refuses one on its own
(without Yields in the same docstring): refgen checks that pairing itself."""
_UNDERLINE_WARNING = "potentially wrong underline length"
"""numpydoc's warning about an underline of the wrong length: refgen reports the short
ones itself (the title is then no section) and accepts the long ones."""

_NOTE_LABEL = re.compile(r"^([A-Z][A-Za-z /-]{0,40}):(?:\s+(.*))?$")
_BULLET = re.compile(r"^[-*]\s+(.*)$")
_DOTTED_PATH = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$")
_XREF = re.compile(r"^:(?:py:)?(?:func|class|meth|attr|obj|mod):`~?([^`<>]+)`$")


@dataclass(frozen=True)
class _Section:
    written: str
    """The title as written."""
    title: str
    """The title as numpydoc spells it (``See also`` is ``See Also``)."""
    lines: list[str]
    first_line: int
    """File line of ``lines[0]``; the title is two lines above."""


@dataclass(frozen=True)
class _Context:
    """Where a docstring is, and where its problems go."""

    path: str
    subject: str
    problems: list[Problem]

    def at(self, line: int) -> SourceLocation:
        return SourceLocation(self.path, line)

    def report(self, message: str, line: int) -> None:
        self.problems.append(Problem(WarningKind.DOCSTRING, message, self.at(line), self.subject))


def docstring_lines(raw: str) -> list[str]:
    """The docstring's lines with the common indentation removed.

    Unlike :func:`inspect.cleandoc` no line is dropped, so line ``i`` of the
    result is line ``i`` of the docstring literal in the file.
    """
    lines = raw.expandtabs().split("\n")
    indents = [len(line) - len(line.lstrip()) for line in lines[1:] if line.strip()]
    margin = min(indents, default=0)
    return [lines[0].strip()] + [line[margin:].rstrip() for line in lines[1:]]


def numpydoc_title(written: str) -> str:
    """A section title as numpydoc reads it: each word capitalised."""
    return " ".join(word.capitalize() for word in written.split(" "))


def parse_docstring(raw: str | None, path: str, first_line: int, subject: str = "") -> Docstring:
    """Parse ``raw``, whose first line is line ``first_line`` of ``path``."""
    if not raw or not raw.strip():
        return Docstring()
    lines = docstring_lines(raw)
    context = _Context(path, subject, [])
    headings = _headings(lines, first_line, context)
    summary, description, described = _summary_and_description(
        lines[: headings[0] if headings else len(lines)]
    )
    sections = _sections(lines, headings, first_line, context)
    entries = {
        title: _entries(sections[title], context) for title in ENTRY_SECTIONS if title in sections
    }
    return Docstring(
        summary=summary,
        description=description,
        description_location=context.at(first_line + described) if description else None,
        parameters=entries.get("Parameters", ()),
        returns=entries.get("Returns", ()),
        yields=entries.get("Yields", ()),
        receives=entries.get("Receives", ()),
        other_parameters=entries.get("Other Parameters", ()),
        raises=entries.get("Raises", ()),
        warns=entries.get("Warns", ()),
        attributes=entries.get("Attributes", ()),
        methods=entries.get("Methods", ()),
        warnings=_passage(sections["Warnings"], path) if "Warnings" in sections else None,
        see_also=_see_also(sections["See Also"], context) if "See Also" in sections else (),
        notes=_notes(sections["Notes"], path) if "Notes" in sections else (),
        references=_references(sections["References"], path) if "References" in sections else (),
        examples=_examples(sections["Examples"], path) if "Examples" in sections else None,
        problems=tuple(context.problems),
    )


def summary(text: str | None) -> str:
    """The first paragraph of an attribute docstring, on one line."""
    if not text:
        return ""
    lines = docstring_lines(text)
    headings = _headings(lines, 1, None)
    return _summary_and_description(lines[: headings[0] if headings else len(lines)])[0]


# ---------------------------------------------------------------------- sections


def _headings(lines: list[str], first_line: int, context: _Context | None) -> list[int]:
    """Indices of the section titles, by numpydoc's rule: a line that opens a paragraph,
    underlined (on the next line) by at least as many ``-`` or ``=``. As in numpydoc,
    the underline need not stop there: ``- item`` under a one-letter line is one.

    A title whose underline of three or more is shorter is no section: with
    ``context``, that is a problem.
    """
    headings = []
    for index in range(len(lines) - 1):
        title = lines[index].strip()
        if not title or (index and lines[index - 1].strip()):
            continue
        rule = lines[index + 1].strip()
        if rule.startswith("-" * len(title)) or rule.startswith("=" * len(title)):
            headings.append(index)
        elif context is not None and len(rule) >= 3 and set(rule) in ({"-"}, {"="}):
            context.report(
                f"the underline of {title!r} is shorter than the title, so it is not read "
                "as a section heading",
                first_line + index,
            )
    return headings


def _sections(
    lines: list[str], headings: list[int], first_line: int, context: _Context
) -> dict[str, _Section]:
    """The known sections by numpydoc title; unknown and repeated ones are problems."""
    sections: dict[str, _Section] = {}
    for position, index in enumerate(headings):
        end = headings[position + 1] if position + 1 < len(headings) else len(lines)
        written = lines[index].strip()
        section = _Section(
            written, numpydoc_title(written), lines[index + 2 : end], first_line + index + 2
        )
        if section.title not in KNOWN_SECTIONS:
            context.report(
                f"unknown docstring section {written!r}; "
                f"known sections are {', '.join(KNOWN_SECTIONS)}",
                first_line + index,
            )
        elif section.title in sections:
            context.report(
                f"docstring section {written!r} appears twice; the second one is ignored",
                first_line + index,
            )
        else:
            sections[section.title] = section
    receives = sections.get("Receives")
    if receives is not None and "Yields" not in sections:
        context.report(
            f"a {receives.written!r} section needs a Yields section in the same docstring",
            receives.first_line - 2,
        )
    return sections


def _paragraphs(lines: list[str]) -> list[str]:
    """Blank-line separated paragraphs, each folded onto one line."""
    paragraphs: list[list[str]] = [[]]
    for line in lines:
        if line.strip():
            paragraphs[-1].append(line.strip())
        elif paragraphs[-1]:
            paragraphs.append([])
    return [" ".join(p) for p in paragraphs if p]


def _summary_and_description(preamble: list[str]) -> tuple[str, str, int]:
    """The first paragraph, folded onto one line, and the rest as written (the
    description is reST, whose lists, directives and literal blocks need their
    lines), with the index of the description's first line."""
    start = next((index for index, line in enumerate(preamble) if line.strip()), None)
    if start is None:
        return "", "", 0
    end = next(
        (index for index in range(start, len(preamble)) if not preamble[index].strip()),
        len(preamble),
    )
    summary = " ".join(line.strip() for line in preamble[start:end])
    described = next((i for i in range(end, len(preamble)) if preamble[i].strip()), end)
    return summary, "\n".join(preamble[described:]).rstrip("\n"), described


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _heads(lines: list[str]) -> list[int]:
    """Indices of the lines that start an entry: those at the section's own indentation."""
    margin = min((_indent(line) for line in lines if line.strip()), default=0)
    return [index for index, line in enumerate(lines) if line.strip() and _indent(line) == margin]


# ---------------------------------------------------------------------- numpydoc


def _numpydoc(
    title: str, lines: list[str], what: str, line: int, context: _Context
) -> NumpyDocString | None:
    """numpydoc's reading of ``lines`` as the body of section ``title``; None, and a
    problem at ``line`` about ``what``, when numpydoc refuses it. numpydoc's
    warnings become problems too."""
    text = "\n".join([title, "-" * len(title), *lines])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            parsed = NumpyDocString(text)
        except Exception as error:  # numpydoc raises ValueError, and more on odd input
            context.report(f"numpydoc cannot read {what}: {_first_line(error)}", line)
            return None
    for warning in caught:
        message = str(warning.message)
        if not message.startswith(_UNDERLINE_WARNING):
            context.report(f"numpydoc, reading {what}: {_first_line(message)}", line)
    return parsed


def _first_line(error: object) -> str:
    text = str(error).strip().split("\n")[0]
    return text if len(text) <= 200 else text[:199] + "…"


def _entries(section: _Section, context: _Context) -> tuple[ParameterEntry, ...]:
    """A ``name : type`` list, as numpydoc reads it, each entry at its line."""
    read_as = _READ_AS.get(section.title, section.title)
    title_line = section.first_line - 2
    what = f"the {section.written!r} section"
    parsed = _numpydoc(read_as, section.lines, what, title_line, context)
    if parsed is None:
        return ()
    found = parsed[read_as]
    heads = _heads(section.lines)
    lines = (
        [section.first_line + head for head in heads]
        if len(heads) == len(found)
        else [title_line] * len(found)
    )
    return tuple(
        ParameterEntry(entry.name, entry.type, "\n".join(entry.desc), context.at(line))
        for entry, line in zip(found, lines, strict=True)
    )


def _see_also(section: _Section, context: _Context) -> tuple[SeeAlsoEntry, ...]:
    """See Also as numpydoc reads it, entry by entry (an entry numpydoc cannot read is a
    problem at its line; the others are kept)."""
    heads = _heads(section.lines)
    starts = sorted({0, *heads}) if section.lines else []
    entries: list[SeeAlsoEntry] = []
    for position, start in enumerate(starts):
        end = starts[position + 1] if position + 1 < len(starts) else len(section.lines)
        block = section.lines[start:end]
        if not any(line.strip() for line in block):
            continue
        opening = start + next(i for i, part in enumerate(block) if part.strip())
        first, *rest = [part.strip() for part in block if part.strip()]
        what = f"the See Also entry {first!r}" + (
            f" (continued {' '.join(rest)!r})" if rest else ""
        )
        line = section.first_line + opening
        parsed = _numpydoc("See Also", block, what, line, context)
        if parsed is None:
            continue
        for names, description in parsed["See Also"]:
            entries.append(
                SeeAlsoEntry(
                    tuple(SeeAlsoName(name, role or "") for name, role in names),
                    " ".join(description),
                    context.at(line),
                )
            )
    return tuple(entries)


# ---------------------------------------------------------------------- prose sections


def _text(section: _Section) -> tuple[str, int] | None:
    """The section's text as written, from its first line with words to its last, and
    the file line it starts on; None when it is empty."""
    lines = section.lines
    start = next((i for i, line in enumerate(lines) if line.strip()), None)
    if start is None:
        return None
    end = max(i for i, line in enumerate(lines) if line.strip()) + 1
    return "\n".join(lines[start:end]), section.first_line + start


def _passage(section: _Section, path: str) -> Passage | None:
    found = _text(section)
    return Passage(textwrap.dedent(found[0]), SourceLocation(path, found[1])) if found else None


def _examples(section: _Section, path: str) -> ExampleBlock | None:
    found = _text(section)
    return ExampleBlock(found[0], SourceLocation(path, found[1])) if found else None


def _join_entry(lines: list[str]) -> str:
    return "\n\n".join(_paragraphs(lines))


def _notes(section: _Section, path: str) -> tuple[NoteEntry, ...]:
    """Labelled entries (a known label opens one; indented lines, and unindented ones
    with no blank line before, continue it) and free paragraphs, kept as written."""
    entries: list[tuple[str, list[str], int]] = []
    margin = min((_indent(line) for line in section.lines if line.strip()), default=0)
    gap = False
    for offset, written in enumerate(section.lines):
        line = written[margin:]
        if not line.strip():
            if entries:
                entries[-1][1].append("")
            gap = True
            continue
        label = _NOTE_LABEL.match(line)
        labelled = bool(entries) and entries[-1][0] != ""
        if label and label.group(1) in NOTE_LABELS:
            entries.append((label.group(1), [label.group(2) or ""], offset))
        elif entries and (not labelled or line.startswith(" ") or not gap):
            entries[-1][1].append(line)
        else:
            entries.append(("", [line], offset))
        gap = False
    return tuple(
        NoteEntry(
            label,
            _join_entry(body) if label else "\n".join(body).strip("\n"),
            SourceLocation(path, section.first_line + offset),
        )
        for label, body, offset in entries
    )


def _references(section: _Section, path: str) -> tuple[Reference, ...]:
    lines = section.lines
    items: list[tuple[int, list[str]]] = []
    bulleted = any(_BULLET.match(line) for line in lines)
    for offset, line in enumerate(lines):
        bullet = _BULLET.match(line)
        if bullet:
            items.append((offset, [bullet.group(1)]))
        elif not line.strip():
            if not bulleted:
                items.append((offset + 1, []))
        elif items and (bulleted or line.startswith(" ")):
            items[-1][1].append(line)
        else:  # an unbulleted item, or text before the first bullet: kept as an item
            items.append((offset, [line]))
    references = []
    for offset, item in items:
        text = " ".join(part.strip() for part in item if part.strip())
        if text:
            location = SourceLocation(path, section.first_line + offset)
            references.append(Reference(text, _reference_target(text), location))
    return tuple(references)


def _reference_target(text: str) -> str | None:
    xref = _XREF.match(text)
    if xref:
        return xref.group(1)
    return text if _DOTTED_PATH.match(text) else None


def attribute_description(text: str | None) -> str:
    """An attribute's (or registry entry's) docstring as reST, indentation removed: every
    paragraph, list and directive up to the first section title (an underlined
    ``Parameters``, say), which belongs to no description shown in a table cell."""
    if not text:
        return ""
    lines = docstring_lines(text)
    for number, (line, underline) in enumerate(itertools.pairwise(lines)):
        if line.strip() and _is_underline(underline, line):
            lines = lines[:number]
            break
    return "\n".join(lines).strip()


def described_at(path: str, line: int | None, text: str | None) -> SourceLocation | None:
    """Where the :func:`attribute_description` of ``text``, a string literal that begins at
    ``line`` of ``path``, begins in the file (None when the source does not show it)."""
    if line is None or not text or not text.strip():
        return None
    lines = docstring_lines(text)
    return SourceLocation(path, line + next(n for n, row in enumerate(lines) if row.strip()))


def _is_underline(line: str, title: str) -> bool:
    stripped = line.strip()
    return len(stripped) >= len(title.strip()) and len(set(stripped)) == 1 and stripped[0] in "-="

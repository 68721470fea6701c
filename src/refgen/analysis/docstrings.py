"""Docstring sections: split a scenario or helper docstring into structured parts.

The convention is numpydoc-shaped: a summary line, a description, then
sections headed by an underlined title (``Notes``, ``References``,
``Examples``, and for helpers ``Parameters`` and ``Returns``). Every part keeps
the file line it came from, so warnings and failing examples point at the
``.py`` file and not at a generated page.

The parser never raises: anything it cannot make sense of becomes a
:class:`~refgen.analysis.model.Problem` on the result.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from refgen.analysis.model import (
    Docstring,
    ExampleBlock,
    NoteEntry,
    ParameterEntry,
    Problem,
    Reference,
    SourceLocation,
    WarningKind,
)

KNOWN_SECTIONS = ("Parameters", "Returns", "Notes", "References", "Examples")
NOTE_LABELS = ("Equation", "Assumptions", "Excludes")

_UNDERLINE = re.compile(r"^-{3,}\s*$")
_SECTION_TITLE = re.compile(r"^[A-Z][A-Za-z ]*$")
_NOTE_LABEL = re.compile(r"^([A-Z][A-Za-z /-]{0,40}):(?:\s+(.*))?$")
_BULLET = re.compile(r"^[-*]\s+(.*)$")
_DOTTED_PATH = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$")
_XREF = re.compile(r"^:(?:py:)?(?:func|class|meth|attr|obj|mod):`~?([^`<>]+)`$")
_PARAMETER_HEAD = re.compile(r"^([\w*]+(?:\s*,\s*[\w*]+)*)\s*(?::\s*(.*))?$")


@dataclass(frozen=True)
class _Section:
    title: str
    lines: list[str]
    first_line: int
    """File line of ``lines[0]``."""


def docstring_lines(raw: str) -> list[str]:
    """The docstring's lines with the common indentation removed.

    Unlike :func:`inspect.cleandoc` no line is dropped, so line ``i`` of the
    result is line ``i`` of the docstring literal in the file.
    """
    lines = raw.expandtabs().split("\n")
    indents = [len(line) - len(line.lstrip()) for line in lines[1:] if line.strip()]
    margin = min(indents, default=0)
    return [lines[0].strip()] + [line[margin:].rstrip() for line in lines[1:]]


def parse_docstring(raw: str | None, path: str, first_line: int, subject: str = "") -> Docstring:
    """Parse ``raw``, whose first line is line ``first_line`` of ``path``."""
    if not raw or not raw.strip():
        return Docstring()
    lines = docstring_lines(raw)
    preamble, sections = _split_sections(lines, first_line)
    summary, description, described = _summary_and_description(preamble)
    problems: list[Problem] = []
    parsed: dict[str, object] = {}
    for section in sections:
        location = SourceLocation(path, section.first_line - 2)
        if section.title not in KNOWN_SECTIONS:
            problems.append(
                Problem(
                    WarningKind.DOCSTRING,
                    f"unknown docstring section {section.title!r}; "
                    f"known sections are {', '.join(KNOWN_SECTIONS)}",
                    location,
                    subject,
                )
            )
            continue
        if section.title in parsed:
            problems.append(
                Problem(
                    WarningKind.DOCSTRING,
                    f"docstring section {section.title!r} appears twice; the second one is ignored",
                    location,
                    subject,
                )
            )
            continue
        parsed[section.title] = _parse_section(section, path, subject, problems)
    return Docstring(
        summary=summary,
        description=description,
        description_location=SourceLocation(path, first_line + described) if description else None,
        parameters=parsed.get("Parameters", ()),  # type: ignore[arg-type]
        returns=parsed.get("Returns", ()),  # type: ignore[arg-type]
        notes=parsed.get("Notes", ()),  # type: ignore[arg-type]
        references=parsed.get("References", ()),  # type: ignore[arg-type]
        examples=parsed.get("Examples"),  # type: ignore[arg-type]
        problems=tuple(problems),
    )


def _split_sections(lines: list[str], first_line: int) -> tuple[list[str], list[_Section]]:
    headers = [
        index
        for index in range(len(lines) - 1)
        if _SECTION_TITLE.match(lines[index])
        and _UNDERLINE.match(lines[index + 1])
        and (index == 0 or not lines[index - 1].strip())
    ]
    if not headers:
        return lines, []
    sections = []
    for position, index in enumerate(headers):
        end = headers[position + 1] if position + 1 < len(headers) else len(lines)
        body_start = index + 2
        sections.append(
            _Section(lines[index].strip(), lines[body_start:end], first_line + body_start)
        )
    return lines[: headers[0]], sections


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


def _parse_section(section: _Section, path: str, subject: str, problems: list[Problem]) -> object:
    if section.title == "Notes":
        return _parse_notes(section.lines)
    if section.title == "References":
        return _parse_references(section.lines)
    if section.title == "Examples":
        return _parse_examples(section, path)
    return _parse_parameters(section, path, subject, problems)


def _join_entry(lines: list[str]) -> str:
    return "\n\n".join(_paragraphs(lines))


def _parse_notes(lines: list[str]) -> tuple[NoteEntry, ...]:
    entries: list[tuple[str, list[str]]] = []
    for line in lines:
        match = _NOTE_LABEL.match(line)
        if match and match.group(1) in NOTE_LABELS:
            entries.append((match.group(1), [match.group(2) or ""]))
        elif entries:
            entries[-1][1].append(line)
        elif line.strip():
            entries.append(("", [line]))
    return tuple(NoteEntry(label, _join_entry(body)) for label, body in entries)


def _parse_references(lines: list[str]) -> tuple[Reference, ...]:
    items: list[list[str]] = []
    bulleted = any(_BULLET.match(line) for line in lines)
    for line in lines:
        bullet = _BULLET.match(line)
        if bullet:
            items.append([bullet.group(1)])
        elif not line.strip():
            if not bulleted:
                items.append([])
        elif items and (bulleted or line.startswith(" ")):
            items[-1].append(line)
        else:  # an unbulleted item, or text before the first bullet: kept as an item
            items.append([line])
    references = []
    for item in items:
        text = " ".join(part.strip() for part in item if part.strip())
        if text:
            references.append(Reference(text, _reference_target(text)))
    return tuple(references)


def _reference_target(text: str) -> str | None:
    xref = _XREF.match(text)
    if xref:
        return xref.group(1)
    return text if _DOTTED_PATH.match(text) else None


def _parse_examples(section: _Section, path: str) -> ExampleBlock | None:
    lines = section.lines
    start = next((i for i, line in enumerate(lines) if line.strip()), None)
    if start is None:
        return None
    end = max(i for i, line in enumerate(lines) if line.strip()) + 1
    return ExampleBlock(
        "\n".join(lines[start:end]), SourceLocation(path, section.first_line + start)
    )


def _parse_parameters(
    section: _Section, path: str, subject: str, problems: list[Problem]
) -> tuple[ParameterEntry, ...]:
    entries: list[tuple[str, str, list[str]]] = []

    def unreadable(offset: int, line: str, expected: str) -> None:
        problems.append(
            Problem(
                WarningKind.DOCSTRING,
                f"cannot read {line.strip()!r} in {section.title}: {expected}",
                SourceLocation(path, section.first_line + offset),
                subject,
            )
        )

    for offset, line in enumerate(section.lines):
        if not line.strip():
            if entries:
                entries[-1][2].append("")
            continue
        if line.startswith(" "):
            if entries:
                entries[-1][2].append(line)
            else:
                unreadable(offset, line, "an indented description before any 'name : type'")
            continue
        if section.title == "Returns" and ":" not in line:
            entries.append(("", line.strip(), []))  # numpydoc allows a bare return type
            continue
        head = _PARAMETER_HEAD.match(line.strip())
        if head is None:
            unreadable(offset, line, "expected 'name : type'")
            continue
        entries.append((head.group(1), (head.group(2) or "").strip(), []))
    return tuple(ParameterEntry(name, type_, _join_entry(body)) for name, type_, body in entries)


def summary(text: str | None) -> str:
    """The first paragraph of an attribute docstring, on one line."""
    return parse_docstring(text, "", 1).summary if text else ""


def attribute_description(text: str | None) -> str:
    """An attribute's (or registry entry's) whole docstring as reST, indentation removed:
    every paragraph, list and directive, not only the first line."""
    return "\n".join(docstring_lines(text)).strip() if text else ""

"""Docstrings as prose: what the reference shows of the author's words, at their .py lines.

The audit reads what the reference shows of the author's own words: each
scenario class's summary, description, Notes and Warnings, each input's and
derived attribute's description, and the registry's and each entry's
description. An entry's description is about that entry, so its sentences
quote it even where they do not name it ("Its 2.36 s sync_time ..."). Each
passage starts at the line of the ``.py`` file its first line is on.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from refgen.analysis.model import ScenarioDoc, SourceLocation
from refgen.prose.formats import passages_of_text
from refgen.prose.passages import Passage

if TYPE_CHECKING:
    from refgen.project import Project


ClassText = tuple[str, SourceLocation | None]
"""A piece of a class's own words, and where its first line is written."""


def docstring_passages(
    project: Project, class_texts: Iterable[ClassText] | None = None
) -> list[Passage]:
    """The passages of every docstring the project's reference renders.

    ``class_texts``: the classes' words when the caller already has them (a build
    keeps them with its class outlines, :mod:`refgen.site.outline`); otherwise every
    class is analysed to find them."""
    found: list[Passage] = []
    lines: dict[str, tuple[str, ...]] = {}
    for text, location in _all_class_texts(project) if class_texts is None else class_texts:
        found += _passages(text, location, lines)
    registry = project.registry
    if registry is not None:
        found += _passages(registry.description, registry.location, lines)
        for entry in registry.entries:
            at = entry.description_location or entry.location
            found += _passages(entry.description, at, lines, subject=entry.name)
    return found


def _all_class_texts(project: Project) -> Iterator[ClassText]:
    for scenario in project.scenarios():
        yield from scenario_texts(scenario)


def scenario_texts(scenario: ScenarioDoc) -> Iterator[ClassText]:
    """What the reference shows of the class's author's words: summary, description,
    Notes, Warnings and each attribute's description."""
    docstring = scenario.docstring
    yield docstring.summary, scenario.location
    yield docstring.description, docstring.description_location or scenario.location
    for note in docstring.notes:
        yield note.text, note.location
    if docstring.warnings is not None:
        yield docstring.warnings.text, docstring.warnings.location
    for item in scenario.inputs:
        yield item.description, item.description_location or item.location
    for derived in scenario.derived:
        yield derived.description, derived.description_location or derived.location


def _passages(
    text: str,
    location: SourceLocation | None,
    lines: dict[str, tuple[str, ...]],
    subject: str = "",
) -> list[Passage]:
    if not text.strip() or location is None:
        return []
    if location.path not in lines:
        lines[location.path] = _file_lines(location.path)
    first = _first_line(lines[location.path], location.line, text)
    return [
        Passage(p.text, p.path, p.line + first - 1, p.code, subject, p.syntax)
        for p in passages_of_text(text, location.path, "rst")
    ]


def _file_lines(path: str) -> tuple[str, ...]:
    try:
        return tuple(Path(path).read_text(encoding="utf-8").splitlines())
    except (OSError, UnicodeDecodeError):
        return ()


def _first_line(lines: tuple[str, ...], start: int, text: str) -> int:
    """The line of the file, at ``start`` or after it, that holds the text's first line."""
    opening = next((line.strip() for line in text.splitlines() if line.strip()), "")
    for number in range(max(start, 1), min(len(lines), start + 200) + 1):
        if opening and opening in lines[number - 1]:
            return number
    return start

"""Composing pages: each planned page's records and values, asked of the Project and laid out.

This is the use-case layer of a page: :func:`compose` asks the Project for the
analysed records and evaluated values the page shows and hands them to the
page builders of :mod:`refgen.render`, which lay out what they are given and
compute nothing. The Sphinx directives show the result, and the incremental
build compares its :func:`page_digest` with the last build's to decide
whether a page needs reading again. Nothing here reports or prints: problems
and examples come back as data, and so does a page the user's code keeps
from being composed: the Project's reason (:mod:`refgen.project`), which the
front end shows.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any
from xml.etree import ElementTree as ET

from refgen.analysis.model import ExampleBlock, Problem
from refgen.analysis.scenarios import without_docstrings_in_one
from refgen.evaluate.values import EntryValues, raising_properties
from refgen.project import Project
from refgen.render.blocks import Markup, Page
from refgen.render.downloads import RenderedEntry, download_paths, rendered_entry
from refgen.render.markdown import MarkdownWriter
from refgen.render.markup import serialize
from refgen.render.pages import (
    INDEX_INTRO,
    category_page,
    helpers_page,
    index_page,
    registry_page,
)
from refgen.render.scenario_page import scenario_page
from refgen.site.plan import PlannedPage


@dataclass(frozen=True)
class ComposedPage:
    """A page's blocks, the problems of what it shows, and its examples to run."""

    page: Page
    problems: tuple[Problem, ...] = ()
    examples: tuple[tuple[str, ExampleBlock], ...] = field(default=())
    """``(subject, block)`` of each Examples section the page shows."""
    summary: str = ""
    """What the page is about, in one line (for ``llms.txt``)."""
    values: tuple[EntryValues, ...] = ()
    """The registry values the page computes (a class page's), for the site's downloads."""


@dataclass(frozen=True)
class RecordedPage:
    """A composed page with what the build records of it: its digest, its Markdown and its
    registry values laid out for the downloads.

    All three are None for a page whose worker gives them later, while the pages are
    written (:mod:`refgen.sphinx.finishing`)."""

    composed: ComposedPage
    digest: str | None
    markdown: str | None
    downloads: tuple[RenderedEntry, ...] | None = None


def recorded_page(project: Project, planned: PlannedPage, stub_path: str) -> RecordedPage | str:
    """:func:`compose`, with the page's digest and Markdown; or why it cannot be composed."""
    composed = compose(project, planned, stub_path)
    return composed if isinstance(composed, str) else recorded(composed, planned.docname)


def recorded(composed: ComposedPage, docname: str) -> RecordedPage:
    markdown = MarkdownWriter(docname).page(composed.page)
    downloads = tuple(map(rendered_entry, composed.values))
    return RecordedPage(composed, page_digest(composed), markdown, downloads)


def compose(project: Project, planned: PlannedPage, stub_path: str) -> ComposedPage | str:
    """The page ``planned`` describes, or why the user's code keeps it from being
    composed; ``stub_path`` is the file Sphinx reads for it."""
    match planned.kind:
        case "scenario":
            return _scenario(project, planned.argument)
        case "category":
            return _category(project, planned.argument, planned.children)
        case "helpers":
            return _helpers(project, planned.argument)
        case "registry":
            registry = project.registry_at(planned.argument)
            if isinstance(registry, str):
                return registry
            if planned.children:  # split: the parts list the entries
                registry = dataclasses.replace(registry, entries=())
            downloads = download_paths(planned.docname)
            page = registry_page(registry, parts=planned.children, downloads=downloads)
            return ComposedPage(page, summary=one_line(registry.title))
        case "registry-part":
            assert planned.part is not None  # a registry part's page has one
            start, stop = planned.part.start, planned.part.stop
            registry = project.registry_at(planned.part.registry)
            if isinstance(registry, str):
                return registry
            part = dataclasses.replace(registry, entries=registry.entries[start:stop])
            title = f"Registry, entries {start + 1} to {stop}"
            return ComposedPage(registry_page(part, title=title, described=False))
        case "index":
            page = index_page(planned.argument, list(planned.children), stub_path)
            return ComposedPage(page, summary=one_line(INDEX_INTRO))
    raise ValueError(f"not a page kind: {planned.kind!r}")


def one_line(text: str) -> str:
    """The first paragraph of ``text``, its lines joined."""
    return " ".join(text.strip().split("\n\n")[0].split())


def _scenario(project: Project, argument: str) -> ComposedPage | str:
    scenario = project.scenario_named(argument)
    if isinstance(scenario, str):
        return scenario
    values = project.values(scenario)
    if isinstance(values, str):
        return values
    sensitivities = project.sensitivities(scenario)
    if isinstance(sensitivities, str):
        return sensitivities
    # Each missing docstring is kept for the build's count ("summary") or its own
    # warning ("each"); "warn" shows a class's several as one warning at its class line.
    own = scenario.problems
    if project.settings.missing_docstrings == "warn":
        own = without_docstrings_in_one(scenario)
    problems = (*own, *raising_properties(scenario, values))
    examples: tuple[tuple[str, ExampleBlock], ...] = ()
    if scenario.docstring.examples and project.settings.run_examples:
        examples = ((scenario.qualname, scenario.docstring.examples),)
    page = scenario_page(
        scenario,
        values,
        project.settings.value_precision,
        project.units,
        project.documented_classes(),
        sensitivities,
    )
    summary = one_line(scenario.docstring.summary)
    return ComposedPage(page, problems, examples, summary, values)


def _category(project: Project, module_name: str, children: Iterable[str]) -> ComposedPage | str:
    doc = project.module(module_name)
    if isinstance(doc, str):
        return doc
    scenarios = project.scenarios_of(module_name)
    if isinstance(scenarios, str):
        return scenarios
    headlines = {}
    for scenario in scenarios:
        found = project.headline(scenario)
        if isinstance(found, str):
            return found
        if found is not None and found[1].available:
            headlines[scenario.qualname] = found
    page = category_page(doc, scenarios, headlines, list(children))
    return ComposedPage(page, summary=one_line(doc.description))


def _helpers(project: Project, module_name: str) -> ComposedPage | str:
    doc = project.module(module_name)
    if isinstance(doc, str):
        return doc
    helpers = project.helpers_of(module_name)
    if isinstance(helpers, str):
        return helpers
    problems = tuple(problem for helper in helpers for problem in helper.docstring.problems)
    page = helpers_page(doc, helpers, project.units)
    return ComposedPage(page, problems, summary=one_line(doc.description))


# ---------------------------------------------------------------------- digests


def page_digest(composed: ComposedPage) -> str:
    """A fingerprint of everything the page shows and reports, locations included."""
    pieces: list[str] = []
    _add_pieces(composed, pieces)
    return hashlib.sha256("\0".join(pieces).encode("utf-8", "surrogateescape")).hexdigest()


def values_differ(old: tuple[EntryValues, ...], new: tuple[EntryValues, ...]) -> bool:
    """Whether a class page's registry values differ as :func:`page_digest` reads them: if
    they do, so do the digests of the pages that show them."""
    before: list[str] = []
    after: list[str] = []
    _add_pieces(old, before)
    _add_pieces(new, after)
    return before != after


def _add_pieces(value: Any, pieces: list[str]) -> None:
    """``value`` as a deterministic sequence of strings (blocks, elements, mappings)."""
    # Called for every part of every page: the commonest kinds are tested first, by type.
    kind = type(value)
    if kind is str:
        pieces.append(repr(value))
    elif isinstance(value, tuple | list):
        pieces.append(f"[{len(value)}")
        for item in value:
            _add_pieces(item, pieces)
    elif (names := _field_names(kind)) is not None:
        pieces.append(kind.__name__)
        for name in names:
            pieces.append(name)
            _add_pieces(getattr(value, name), pieces)
    elif kind is Markup:
        pieces += ("Markup", value.markup, repr(value.classes), repr(value.searchable))
    elif isinstance(value, ET.Element):
        pieces.append(serialize(value))
    elif isinstance(value, Mapping):
        for key in sorted(value, key=repr):
            pieces.append(repr(key))
            _add_pieces(value[key], pieces)
    else:
        pieces.append(repr(value))


_FIELD_NAMES: dict[type, tuple[str, ...] | None] = {}


def _field_names(kind: type) -> tuple[str, ...] | None:
    """The field names of a dataclass, None for any other type (looked up once per type)."""
    try:
        return _FIELD_NAMES[kind]
    except KeyError:
        names = (
            tuple(spec.name for spec in dataclasses.fields(kind))
            if dataclasses.is_dataclass(kind)
            else None
        )
        _FIELD_NAMES[kind] = names
        return names

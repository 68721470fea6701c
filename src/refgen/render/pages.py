"""The category, helper-module, registry and index pages, as blocks."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from refgen.analysis.model import (
    HelperDoc,
    ModuleDoc,
    RegistryDoc,
    ScenarioDoc,
    SourceLocation,
)
from refgen.evaluate.units import UnitSymbols
from refgen.evaluate.values import Value
from refgen.render.blocks import (
    Block,
    BulletList,
    Cell,
    CodeBlock,
    DocLink,
    Field,
    FieldList,
    FileLink,
    Page,
    Paragraph,
    Prose,
    PyObject,
    Rubric,
    Table,
    Text,
    TocTree,
    Xref,
    text,
)
from refgen.render.common import (
    EQUATION_CLASS,
    code,
    docstring_notes,
    docstring_references,
    docstring_sections,
    entry_list,
    joined,
    opening_prose,
    prose,
)
from refgen.render.mathml import typeset
from refgen.site.plan import page_name

INDEX_INTRO = (
    "Every page below is compiled from the scenario code: inputs, derived "
    "attributes and their equations are read from the source, and the examples "
    "run at every build."
)
DOWNLOADS_LEAD = (
    "Every input and derived value of every entry, computed at this build, to download: "
)
COPY_LABEL = "Copy as Python"
PYTHON_CLASS = "refgen-python"
"""Class of a registry entry's Python: its imports and its construction as written."""
HELPER_STEPS_INTRO = "The same accounting as the function body computes it, line by line:"


FILTER_ABOVE = 30
"""Rows above which a category's table gets a filter box (``refgen-filter.js``)."""
FILTERABLE_CLASS = "refgen-filterable"
HEADLINE_CLASS = "refgen-headline"


def category_page(
    module: ModuleDoc,
    scenarios: Sequence[ScenarioDoc],
    headlines: Mapping[str, tuple[str, Value]],
    pages: Sequence[str] = (),
) -> Page:
    """A category: its description and a table of its scenarios with their headline figure.

    ``headlines`` maps a class's dotted path to the registry entry and value of
    its headline attribute (the figure its example shows); ``pages`` names
    every class page of the category, for the table of contents. A column that
    would be empty in most rows (no summaries, no headline figures) is left out;
    a table of more than :data:`FILTER_ABOVE` rows is marked for the filter box.
    """
    links: list[Cell] = [(text(DocLink(page_name(s.name), s.name)),) for s in scenarios]
    summaries: list[Cell] = [
        (prose(s.docstring.summary, s.location, None, s.qualname),) if s.docstring.summary else ()
        for s in scenarios
    ]
    figures = [_headline_cell(s, headlines.get(s.qualname)) for s in scenarios]
    columns: list[tuple[str, list[Cell], tuple[str, ...]]] = [("Scenario", links, ())]
    if _mostly_filled(summaries):
        columns.append(("Summary", summaries, ()))
    if _mostly_filled(figures):
        columns.append(("Headline figure", figures, (HEADLINE_CLASS,)))
    table = Table(
        tuple((text(title),) for title, _, _ in columns),
        tuple(zip(*(cells for _, cells, _ in columns), strict=True)),
        ("refgen-category", *((FILTERABLE_CLASS,) if len(scenarios) > FILTER_ABOVE else ())),
        cell_classes=tuple(tuple(classes for _, _, classes in columns) for _ in scenarios),
    )
    described = prose(module.description, module.location, None, module.name)
    description = (described,) if module.description else ()
    # Every class page, also of a class that could not be analysed (its page says why).
    toctree = TocTree(tuple(pages) or tuple(page_name(s.name) for s in scenarios), hidden=True)
    return Page(module.title, (*description, table, toctree), module.location)


def _headline_cell(scenario: ScenarioDoc, headline: tuple[str, Value] | None) -> Cell:
    if headline is None:
        return ()
    entry, value = headline
    target = f"{scenario.qualname}.{value.name}"
    return (text(Xref("attr", target, value.name), f" = {value.text} ({entry})"),)


def _mostly_filled(cells: Sequence[Cell]) -> bool:
    """At least half the cells have something in them."""
    return 2 * sum(1 for cell in cells if cell) >= len(cells)


def helpers_page(
    module: ModuleDoc, helpers: Iterable[HelperDoc], units: UnitSymbols | None = None
) -> Page:
    """A module of helper functions: each with its signature, equation and assumptions."""
    blocks: list[Block] = [PyObject("module", module.name, module.name)]
    if module.description:
        blocks.append(prose(module.description, module.location, None, module.name))
    units = units or UnitSymbols()
    blocks += [helper_entry(helper, units) for helper in helpers]
    return Page(module.title, tuple(blocks), module.location, module.name)


def _steps(helper: HelperDoc, units: UnitSymbols) -> tuple[Block, ...]:
    """Each assignment of the helper's body as a formula, and what it returns as a
    formula named after the helper (code where none fits)."""
    if not helper.steps:
        return ()
    items = []
    for step in helper.steps:
        written = (
            f"{step.target} = {step.expression}" if step.target else f"return {step.expression}"
        )
        item: tuple[Block, ...] = (code(" ".join(written.split()), (EQUATION_CLASS,)),)
        math = typeset(step.expression, units, step.target or helper.name)
        if math is not None:
            item += (math,)
        items.append(item)
    intro = Paragraph((Text(HELPER_STEPS_INTRO),), ("refgen-steps",))
    return (intro, BulletList(tuple(items)))


def helper_entry(helper: HelperDoc, units: UnitSymbols) -> PyObject:
    doc = helper.docstring
    location = helper.location
    subject = helper.qualname
    body = opening_prose(
        doc.summary, doc.description, location, None, doc.description_location, subject
    )
    fields = [
        Field(title, (entry_list(found, {}, subject),)) for title, found in doc.entry_sections
    ]
    if fields:
        body.append(FieldList(tuple(fields)))
    if doc.notes:
        body += [Rubric("Notes"), *docstring_notes(doc, location, {}, subject)]
    body += _steps(helper, units)
    for title, blocks in docstring_sections(doc, {}, entries=False, subject=subject):
        body += [Rubric(title), *blocks]
    if doc.references:
        body += [Rubric("References"), *docstring_references(doc, location, subject)]
    if doc.examples:
        example = Prose(doc.examples.text, doc.examples.location, subject=subject)
        body += [Rubric("Examples"), example]
    module = helper.qualname.rpartition(".")[0]
    return PyObject(
        "function",
        module,
        helper.name,
        signature=helper.signature,
        body=tuple(body),
        location=location,
    )


def registry_nature(registry: RegistryDoc) -> str:
    """What the registry object is and how many entries it names: "A dict of 3 entries."."""
    count = len(registry.entries)
    article = "An" if registry.kind[0] in "aeiou" else "A"
    return f"{article} {registry.kind} of {count} entr{'y' if count == 1 else 'ies'}."


def registry_page(
    registry: RegistryDoc,
    title: str = "Registry",
    described: bool = True,
    parts: Sequence[str] = (),
    downloads: Sequence[str] = (),
) -> Page:
    """Every named scenario of ``registry`` with its class and the Python that builds it
    (its stated inputs, when the source shows no such statement); the registry itself
    when ``described``, and a table of contents of ``parts`` (the pages of a registry
    too large for one); ``downloads`` are the files of every entry's values (paths
    from the site's root), linked under the registry."""
    module, _, name = registry.qualname.rpartition(".")
    location = registry.location
    intro = opening_prose(registry.title, registry.description, location, subject=registry.qualname)
    blocks: list[Block] = []
    if described:
        objtype = "class" if registry.kind == "class" else "data"
        said = (text(registry_nature(registry)), *intro)
        blocks.append(PyObject(objtype, module, name, body=said, location=location))
    if downloads:
        links = [FileLink(path, path.rpartition("/")[2]) for path in downloads]
        shown = text(DOWNLOADS_LEAD, *joined(links, " and ", " and "), ".")
        blocks.append(Paragraph(shown.inlines, ("refgen-downloads",)))
    if parts:
        blocks.append(TocTree(tuple(parts)))
    for entry in registry.entries:
        fields = [
            Field(
                "Scenario",
                (text(Xref("class", entry.scenario, entry.scenario.rpartition(".")[2])),),
            )
        ]
        if entry.python:
            python = CodeBlock(entry.python, "none", (PYTHON_CLASS,), COPY_LABEL)
            fields.append(Field("Python", (python,)))
        elif entry.inputs:
            items = tuple((code(f"{key}={value}"),) for key, value in entry.inputs)
            fields.append(Field("Stated inputs", (BulletList(items),)))
        body: tuple[Block, ...] = (
            prose(
                entry.description,
                entry.description_location or entry.location,
                None,
                f"{registry.qualname}.{entry.name}",
            ),
            FieldList(tuple(fields)),
        )
        blocks.append(
            PyObject(
                "attribute",
                module,
                f"{name}.{entry.name}",
                annotation=entry.scenario,
                body=body,
                location=entry.location,
                as_section=True,
            )
        )
    page_location = location or _nowhere(registry.qualname)
    return Page(title, tuple(blocks), page_location, module or None)


def failure_page(target: str, reason: str, location: SourceLocation) -> Page:
    """The page of something that could not be documented: its name and why."""
    return Page(target.rpartition(".")[2], (text(reason),), location)


def index_page(title: str, entries: Sequence[str], location_path: str) -> Page:
    """The reference's root page: a table of contents of category and helper pages."""
    blocks = (text(INDEX_INTRO), TocTree(tuple(entries), maxdepth=1))
    return Page(title, blocks, SourceLocation(location_path, 1))


def _nowhere(qualname: str) -> SourceLocation:
    return SourceLocation(f"<{qualname}>", 0)

"""Summaries for the command line: an entry, a class, an attribute or a helper, as blocks.

``refgen show`` prints these with :class:`refgen.render.text.SummaryWriter`;
they are shorter than the site's pages (no tables of every figure, no
diagrams) but made of the same blocks. Everything shown arrives computed:
values from :mod:`refgen.evaluate`, file locations already written as the
terminal should show them (``where``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from refgen.analysis.model import (
    DerivedDoc,
    Docstring,
    HelperDoc,
    InputDoc,
    RegistryEntryDoc,
    ScenarioDoc,
    SourceLocation,
)
from refgen.evaluate.values import NOT_AVAILABLE, EntryValues, Value
from refgen.render.blocks import (
    HANGING,
    SUBTITLE,
    Block,
    CodeBlock,
    Definitions,
    Field,
    FieldList,
    Page,
    Paragraph,
    Section,
    Table,
    Text,
    text,
)

Where = Callable[[SourceLocation | None], str]
"""Writes a source location as the terminal shows it (``file:line``)."""


@dataclass(frozen=True)
class HelperOrFailure:
    """A helper that carries an equation, or why it could not be read."""

    path: str
    helper: HelperDoc | None = None
    failure: str = ""


def names(items: Iterable[str]) -> str:
    """``a, b, c``, or ``nothing``."""
    return ", ".join(items) or "nothing"


def value_text(value: Value | None) -> str:
    """A computed value, or ``not available`` with the reason."""
    if value is None:
        return NOT_AVAILABLE
    return value.text if value.available else f"{value.text}: {value.reason}"


def _subtitle(line: str) -> Paragraph:
    return Paragraph((Text(line),), (SUBTITLE,))


def _hanging(line: str) -> Paragraph:
    return Paragraph((Text(line),), (HANGING,))


def _row(*cells: str) -> tuple[tuple[Block, ...], ...]:
    return tuple((text(cell),) for cell in cells)


def _summary_and_notes(doc: Docstring) -> list[Block]:
    """The summary, Notes, and the Warnings and See Also a reader should not miss (the
    other sections are on the page, ``refgen show --page``)."""
    blocks: list[Block] = [text(doc.summary)] if doc.summary else []
    if doc.notes:
        notes = [
            _hanging(f"{note.label}: {note.text}" if note.label else note.text)
            for note in doc.notes
        ]
        blocks.append(Section("Notes", tuple(notes)))
    if doc.warnings is not None:
        blocks.append(Section("Warnings", (_hanging(doc.warnings.text),)))
    if doc.see_also:
        related = []
        for entry in doc.see_also:
            listed = ", ".join(name.target or name.path for name in entry.names)
            related.append(
                _hanging(f"{listed}: {entry.description}" if entry.description else listed)
            )
        blocks.append(Section("See Also", tuple(related)))
    return blocks


def entry_summary(
    scenario: ScenarioDoc, entry: RegistryEntryDoc, computed: EntryValues, where: Where
) -> Page:
    """An entry's class and description, and every input and derived value."""
    stated = dict(entry.inputs)
    rows = []
    for item in scenario.inputs:
        if item.name in stated:
            note = f"stated as {stated[item.name]}"
        elif item.default is not None:
            note = f"default {item.default}"
        else:
            note = "not stated"
        rows.append(_row(item.name, value_text(computed.value(item.name)), note))
    derived = [_row(d.name, value_text(computed.value(d.name))) for d in scenario.derived]
    blocks: list[Block] = [
        _subtitle(f"registry entry {entry.registry}.{entry.name} ({where(entry.location)})"),
        _subtitle(f"class {scenario.qualname}"),
    ]
    if entry.description:
        blocks.append(text(entry.description))
    blocks += [
        Section("Inputs", (Table((), tuple(rows)),)),
        Section("Derived", (Table((), tuple(derived)),)),
    ]
    return Page(entry.name, tuple(blocks), entry.location or scenario.location)


def _input_term(item: InputDoc) -> str:
    default = f" = {item.default}" if item.default is not None else " (required)"
    return f"{item.name}: {item.annotation}{default}"


def _equation(derived: DerivedDoc) -> Block:
    equation = derived.equation
    if equation.expression is not None:
        return CodeBlock(_continued(equation.expression, "= ", "  "))
    if equation.helpers:
        return _hanging(f"computed by {names(equation.helpers)} ({equation.reason})")
    return _hanging(f"no equation shown: {equation.reason}")


def _continued(source: str, first: str, rest: str) -> str:
    head, *tail = source.split("\n")
    return "\n".join([first + head, *(rest + line for line in tail)])


def class_summary(scenario: ScenarioDoc, where: Where) -> Page:
    """A class: summary, Notes, inputs, and derived attributes with their equations."""
    inputs = tuple(
        (_input_term(item), (text(item.description),) if item.description else ())
        for item in scenario.inputs
    )
    derived = []
    for item in scenario.derived:
        returns = f" -> {item.return_annotation}" if item.return_annotation else ""
        described = (text(item.description),) if item.description else ()
        derived.append((f"{item.name}{returns}", (*described, _equation(item))))
    blocks: list[Block] = [
        _subtitle(f"class {scenario.qualname} ({where(scenario.location)})"),
        _subtitle(f"category: {scenario.category}"),
        *_summary_and_notes(scenario.docstring),
        Section("Inputs", (Definitions(inputs),)),
        Section("Derived attributes", (Definitions(tuple(derived)),)),
    ]
    if scenario.registry_entries:
        entries = names(e.name for e in scenario.registry_entries)
        blocks.append(text(f"Registry entries: {entries}"))
    return Page(scenario.name, tuple(blocks), scenario.location)


def attribute_summary(
    scenario: ScenarioDoc,
    name: str,
    owner: str,
    entry_values: Sequence[tuple[RegistryEntryDoc, Value]],
    helpers: Sequence[HelperOrFailure],
    where: Where,
    one_entry: bool,
) -> Page:
    """One attribute: its description, equation, data flow and values."""
    item = scenario.attribute(name)
    assert item is not None
    if isinstance(item, InputDoc):
        default = f" = {item.default}" if item.default is not None else " (required)"
        kind = f"input {scenario.qualname}.{name}: {item.annotation}{default}"
    else:
        returns = f" -> {item.return_annotation}" if item.return_annotation else ""
        kind = f"derived attribute {item.qualname}{returns}"
    blocks: list[Block] = [_subtitle(kind), _subtitle(f"defined at {where(item.location)}")]
    if item.inherited_from:
        blocks.append(_subtitle(f"inherited from {item.inherited_from}"))
    if item.description:
        blocks.append(text(item.description))
    fields = []
    if isinstance(item, DerivedDoc):
        fields += [
            _equation_field(item, helpers, where),
            Field("Reads", (text(names(item.reads)),)),
        ]
    fields.append(Field("Feeds", (text(names(item.feeds)),)))
    blocks.append(FieldList(tuple(fields)))
    if entry_values:
        rows = []
        for each, value in entry_values:
            stated = dict(each.inputs).get(name)
            rows.append(
                _row(each.name, value_text(value) + (f" (stated as {stated})" if stated else ""))
            )
        blocks.append(Section("Value" if one_entry else "Values", (Table((), tuple(rows)),)))
    return Page(f"{owner}.{name}", tuple(blocks), item.location)


def _equation_field(derived: DerivedDoc, helpers: Sequence[HelperOrFailure], where: Where) -> Field:
    equation = derived.equation
    if equation.expression is not None:
        return Field("Equation", (CodeBlock(equation.expression),))
    if not equation.helpers:
        return Field("Equation", (text(f"none shown ({equation.reason})"),))
    carriers: list[tuple[str, tuple[Block, ...]]] = []
    for found in helpers:
        if found.helper is None:
            carriers.append((f"{found.path} (cannot be read: {found.failure})", ()))
            continue
        stated = found.helper.docstring.note("Equation")
        carriers.append(
            (
                f"{found.helper.qualname} ({where(found.helper.location)})",
                (text(stated),) if stated else (),
            )
        )
    return Field(
        "Equation",
        (text(f"carried by a helper ({equation.reason})"), Definitions(tuple(carriers))),
    )


def helper_summary(helper: HelperDoc, where: Where) -> Page:
    """A helper: signature, summary, Notes and its arithmetic step by step."""
    blocks: list[Block] = [
        _subtitle(f"helper {helper.qualname}{helper.signature}"),
        _subtitle(f"defined at {where(helper.location)}"),
        *_summary_and_notes(helper.docstring),
    ]
    if helper.steps:
        steps = tuple(
            CodeBlock(
                _continued(step.expression, f"{step.target} = " if step.target else "return ", "  ")
            )
            for step in helper.steps
        )
        blocks.append(Section("Steps", steps))
    return Page(helper.name, tuple(blocks), helper.location)


def search_results(rows: Iterable[tuple[str, str, str]]) -> Page:
    """``name kind description`` rows, one a match."""
    table = Table((), tuple(_row(*row) for row in rows))
    return Page("", (table,), SourceLocation("<search>", 0))

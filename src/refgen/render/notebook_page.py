"""A scenario instance in a notebook: the core of its class page, as blocks.

What a notebook shows of one instance (:mod:`refgen.notebook`): whose instance it
is (and which registry entry, when it is one), the class's summary, then two
tables, its inputs and its derived attributes, each with the value computed for
this instance. Numbers line up on the decimal point with their units in a column
of their own, as in the site's Registry values
(:func:`~refgen.render.figures.figure_columns`); a value that cannot be computed
says why; each derived attribute has its equation as on the class page
(:func:`~refgen.render.scenario_page.equation_blocks`: MathML, the code folded
under it). Values arrive computed; nothing here runs scenario code.
"""

from __future__ import annotations

from refgen.analysis.model import DerivedDoc, InputDoc, RegistryEntryDoc, ScenarioDoc
from refgen.evaluate.units import UnitSymbols
from refgen.evaluate.values import EntryValues
from refgen.render.blocks import (
    SUBTITLE,
    Block,
    Cell,
    Code,
    Page,
    Paragraph,
    Section,
    Table,
    Text,
    text,
)
from refgen.render.figures import figure_columns
from refgen.render.scenario_page import equation_blocks

NUMBER_CLASS = "refgen-number"
"""Class of a table cell holding a number (right-aligned, digits of equal width)."""
UNIT_CELL_CLASS = "refgen-unit-cell"
"""Class of a table cell holding a number's unit."""
INPUTS_CLASS = "refgen-notebook-inputs"
DERIVED_CLASS = "refgen-notebook-derived"


def instance_page(
    scenario: ScenarioDoc,
    computed: EntryValues,
    units: UnitSymbols,
    entry: RegistryEntryDoc | None = None,
) -> Page:
    """The page of one instance of ``scenario``, its values ``computed``; ``entry`` is
    the registry entry the instance is, if it is one."""
    if entry is not None:
        lead: tuple[Text | Code, ...] = (
            Text("Registry entry "),
            Code(f"{entry.registry}.{entry.name}"),
            Text(", an instance of "),
        )
    else:
        lead = (Text("An instance of "),)
    blocks: list[Block] = [Paragraph((*lead, Code(scenario.qualname)), (SUBTITLE,))]
    if scenario.docstring.summary:
        blocks.append(text(_one_line(scenario.docstring.summary)))
    if scenario.inputs:
        blocks.append(Section("Inputs", (_inputs_table(scenario, computed),)))
    if scenario.derived:
        derived = _derived_table(scenario, computed, units)
        blocks.append(Section("Derived attributes", (derived,)))
    title = entry.name if entry is not None else scenario.name
    return Page(title, tuple(blocks), scenario.location, scenario.module)


def _one_line(source: str) -> str:
    return " ".join(source.split())


def _value_cells(
    items: tuple[InputDoc, ...] | tuple[DerivedDoc, ...], computed: EntryValues
) -> tuple[list[Cell], list[Cell]]:
    return figure_columns([computed.value(item.name) for item in items])


def _name(item: InputDoc | DerivedDoc) -> Cell:
    return (Paragraph((Code(item.name),)),)


def _description(item: InputDoc | DerivedDoc) -> Cell:
    return (text(_one_line(item.description)),) if item.description else ()


def _inputs_table(scenario: ScenarioDoc, computed: EntryValues) -> Table:
    numbers, units = _value_cells(scenario.inputs, computed)
    rows = tuple(
        (_name(item), number, unit, _description(item))
        for item, number, unit in zip(scenario.inputs, numbers, units, strict=True)
    )
    header = ((text("Name"),), (text("Value"),), (text("Description"),))
    classes = ((), (NUMBER_CLASS,), (UNIT_CELL_CLASS,), ())
    return Table(
        header,
        rows,
        (INPUTS_CLASS,),
        stub_columns=1,
        header_spans=(1, 2, 1),
        cell_classes=(classes,) * len(rows),
    )


def _derived_table(scenario: ScenarioDoc, computed: EntryValues, units: UnitSymbols) -> Table:
    numbers, value_units = _value_cells(scenario.derived, computed)
    rows = tuple(
        (_name(item), number, unit, equation_blocks(item.equation, units), _description(item))
        for item, number, unit in zip(scenario.derived, numbers, value_units, strict=True)
    )
    header = ((text("Name"),), (text("Value"),), (text("Equation"),), (text("Description"),))
    classes = ((), (NUMBER_CLASS,), (UNIT_CELL_CLASS,), (), ())
    return Table(
        header,
        rows,
        (DERIVED_CLASS,),
        stub_columns=1,
        header_spans=(1, 2, 1, 1),
        cell_classes=(classes,) * len(rows),
    )

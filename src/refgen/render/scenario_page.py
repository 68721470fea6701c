"""The page of one scenario class, as blocks.

In order: provenance, the class entry with its summary, Notes, References,
Examples, the Attributes table, the data-flow diagram, the Registry values
table, then an entry per input and per derived attribute. Values arrive
computed (:mod:`refgen.evaluate.values`); nothing here runs scenario code.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from refgen.analysis.model import DerivedDoc, Equation, InputDoc, ScenarioDoc
from refgen.evaluate.values import EntryValues, Value
from refgen.render.blocks import (
    AnchorLink,
    Block,
    Code,
    DocLink,
    Field,
    FieldList,
    Inline,
    Markup,
    Page,
    Paragraph,
    Prose,
    PyObject,
    Section,
    SourceLink,
    Table,
    Text,
    Xref,
    text,
)
from refgen.render.common import (
    BODY_EQUATION,
    BODY_EQUATION_NO_HELPER,
    EQUATION_CLASS,
    code,
    docstring_notes,
    docstring_references,
    joined,
    opening_prose,
    prose,
)
from refgen.render.diagram import data_flow_svg
from refgen.render.math_elements import UnitSymbols
from refgen.render.mathml import expression_to_mathml

CONSTRUCTION_NOTE = (
    "Build this scenario with keyword arguments only. "
    "Each input below gives the type it is annotated with and its declared default."
)
EXAMPLES_INTRO = (
    "{entries} {verb} the inputs. The figures are what the model computes from them, "
    "not measurements."
)
DATA_FLOW_INTRO = (
    "Inputs on the left; each derived attribute stands to the right of everything "
    "it reads. Every box links to its entry."
)
VALUES_INTRO = (
    "Computed from the registry at this build; numbers to {precision} significant figures."
)
QUALNAME_CLASS = "refgen-qualname"


def scenario_page(
    scenario: ScenarioDoc,
    values: Sequence[EntryValues] = (),
    precision: int = 5,
    units: UnitSymbols | None = None,
) -> Page:
    """The whole reference page of one scenario class.

    ``units`` spells the units of equations (see :func:`expression_to_mathml`).
    """
    units = units or UnitSymbols()
    doc = scenario.docstring
    mentions = scenario_mentions(scenario)
    blocks: list[Block] = [
        Paragraph(
            (
                DocLink("index", scenario.category),
                Text(" · Implementation: "),
                SourceLink(scenario.qualname, scenario.source_path),
            ),
            ("refgen-provenance",),
        ),
        Paragraph((Text(CONSTRUCTION_NOTE),), ("refgen-construction",)),
        PyObject(
            "class",
            scenario.module,
            scenario.name,
            signature=_signature(scenario),
            body=tuple(
                opening_prose(
                    doc.summary,
                    doc.description,
                    scenario.location,
                    mentions,
                    doc.description_location,
                )
            ),
            location=scenario.location,
        ),
    ]
    if doc.notes:
        blocks.append(Section("Notes", docstring_notes(doc, scenario.location, mentions)))
    if doc.references:
        blocks.append(Section("References", docstring_references(doc, scenario.location)))
    if doc.examples:
        intro = _examples_intro(scenario)
        example = Prose(doc.examples.text, doc.examples.location)
        blocks.append(Section("Examples", (*intro, example)))
    blocks.append(Section("Attributes", (_attribute_table(scenario, mentions),)))
    blocks += _data_flow(scenario)
    blocks += _registry_values(scenario, values, precision)
    if scenario.inputs:
        entries = tuple(_input_entry(scenario, item, mentions) for item in scenario.inputs)
        blocks.append(Section("Inputs", entries))
    if scenario.derived:
        entries = tuple(
            _derived_entry(scenario, item, mentions, units) for item in scenario.derived
        )
        blocks.append(Section("Derived attributes", entries))
    return Page(scenario.name, tuple(blocks), scenario.location, scenario.module)


def attribute_link(scenario: ScenarioDoc, name: str) -> AnchorLink:
    """A link to an attribute's entry on the class's own page."""
    return AnchorLink(f"{scenario.qualname}.{name}", name)


def _helpers(scenario: ScenarioDoc) -> list[str]:
    helpers = [r.target for r in scenario.docstring.implementation_references if r.target]
    return helpers + [h for d in scenario.derived for h in d.equation.helpers]


def scenario_mentions(scenario: ScenarioDoc) -> dict[str, Inline]:
    """Names the class's prose may mention (attributes, helpers) and the links for them."""
    mentions: dict[str, Inline] = {
        name: attribute_link(scenario, name) for name in scenario.attribute_names
    }
    for helper in _helpers(scenario):
        name = helper.rpartition(".")[2]
        mentions.setdefault(name, Xref("func", helper, name))
    return mentions


def _signature(scenario: ScenarioDoc) -> str:
    parts = []
    for item in scenario.inputs:
        default = f"={' '.join(item.default.split())}" if item.default is not None else ""
        parts.append(f"{item.name}{default}")
    return f"(*, {', '.join(parts)})" if parts else ""


def _examples_intro(scenario: ScenarioDoc) -> tuple[Block, ...]:
    entries = scenario.registry_entries
    if not entries:
        return ()
    links = [Xref("attr", f"{e.registry}.{e.name}", e.name) for e in entries]
    if len(entries) == 1:
        lead, verb = "The registry entry ", "supplies"
    else:
        lead, verb = "The registry entries ", "supply"
    tail = EXAMPLES_INTRO.format(entries="", verb=verb)
    return (text(lead, *joined(links), tail),)


def _attribute_table(scenario: ScenarioDoc, mentions: Mapping[str, Inline]) -> Table:
    rows = [(i.name, i.description) for i in scenario.inputs]
    rows += [(d.name, d.description) for d in scenario.derived]
    rows.sort()
    return Table(
        header=((text("Name"),), (text("Description"),)),
        rows=tuple(
            ((Paragraph((attribute_link(scenario, name),)),), (prose(desc, None, mentions),))
            for name, desc in rows
        ),
        classes=("refgen-attributes",),
    )


def _data_flow(scenario: ScenarioDoc) -> list[Block]:
    svg = data_flow_svg(scenario, lambda name: f"{scenario.qualname}.{name}")
    if svg is None:
        return []
    diagram = Markup(svg, ("refgen-diagram",), searchable=False)
    return [Section("Data flow", (text(DATA_FLOW_INTRO), diagram))]


def _value_text(value: Value | None) -> str:
    if value is None:
        return ""
    return f"{value.text} ({value.reason})" if value.reason else value.text


def _registry_values(
    scenario: ScenarioDoc, values: Sequence[EntryValues], precision: int
) -> list[Block]:
    """One column per registry scenario, one row per attribute."""
    if not values:
        return []
    header = ((text("Attribute"),), *((text(Xref("attr", v.qualname, v.entry)),) for v in values))
    rows = tuple(
        (
            (Paragraph((attribute_link(scenario, name),)),),
            *((text(_value_text(v.value(name))),) for v in values),
        )
        for name in scenario.attribute_names
    )
    table = Table(header, rows, ("refgen-values",), stub_columns=1, searchable=False)
    intro = text(VALUES_INTRO.format(precision=precision))
    return [Section("Registry values", (intro, table))]


def _flow_fields(scenario: ScenarioDoc, reads: Iterable[str], feeds: Iterable[str]) -> list[Field]:
    found = []
    for label, names in (("Reads", list(reads)), ("Feeds", list(feeds))):
        if names:
            links = joined([attribute_link(scenario, name) for name in names], ", ", ", ")
            found.append(Field(label, (text(*links),)))
    return found


def _inherited_fields(base: str | None, name: str) -> list[Field]:
    if base is None:
        return []
    links = text(
        Xref("class", base, base.rpartition(".")[2]),
        " (",
        Xref("attr", f"{base}.{name}", name),
        ")",
    )
    return [Field("Inherited from", (links,))]


def _input_entry(scenario: ScenarioDoc, item: InputDoc, mentions: Mapping[str, Inline]) -> Block:
    default = code(item.default) if item.default is not None else text("required")
    fields = [
        Field("Type", (code(item.annotation),)),
        Field("Declared default", (default,)),
        *_flow_fields(scenario, (), item.feeds),
        *_inherited_fields(item.inherited_from, item.name),
    ]
    body = (prose(item.description, item.location, mentions), FieldList(tuple(fields)))
    return PyObject(
        "attribute",
        scenario.module,
        f"{scenario.name}.{item.name}",
        body=body,
        location=item.location,
        as_section=True,
    )


def equation_blocks(equation: Equation, units: UnitSymbols) -> tuple[Block, ...]:
    """The Equation field: code and MathML, or the sentence naming the helpers."""
    if equation.expression is None:
        if equation.helpers:
            links = [Xref("func", h, h.rpartition(".")[2]) for h in equation.helpers]
            lead, _, tail = BODY_EQUATION.partition("{helpers}")
            return (text(lead, *joined(links, " and ", " and "), tail),)
        return (text(BODY_EQUATION_NO_HELPER.format(reason=equation.reason)),)
    shown = code(equation.expression, (EQUATION_CLASS,))
    math = expression_to_mathml(equation.expression, units).element
    return (shown,) if math is None else (shown, Markup(math, ("refgen-math",)))


def _derived_entry(
    scenario: ScenarioDoc, item: DerivedDoc, mentions: Mapping[str, Inline], units: UnitSymbols
) -> Block:
    fields = [
        Field("Equation", equation_blocks(item.equation, units)),
        *_flow_fields(scenario, item.reads, item.feeds),
        *_inherited_fields(item.inherited_from, item.name),
    ]
    body = (
        Paragraph((Code(item.qualname, (QUALNAME_CLASS,)),)),
        prose(item.description, item.location, mentions),
        FieldList(tuple(fields)),
    )
    return PyObject(
        "property",
        scenario.module,
        f"{scenario.name}.{item.name}",
        annotation=item.return_annotation,
        body=body,
        location=item.location,
        as_section=True,
    )

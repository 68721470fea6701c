"""The page of one scenario class, as blocks.

In order: provenance, the class entry with its summary, the Inputs and Derived
attributes tables (one row per attribute: the attribute's own link target), the
Registry values table, Notes, the docstring's other numpydoc sections (Parameters to
See Also), References, Examples, then the data-flow diagram,
folded. Values arrive computed (:mod:`refgen.evaluate.values`); nothing here
runs scenario code.
"""

from __future__ import annotations

from collections.abc import Container, Mapping, Sequence

from refgen.analysis.model import DerivedDoc, Equation, InputDoc, ScenarioDoc
from refgen.evaluate.sensitivity import Sensitivity
from refgen.evaluate.units import UnitSymbols
from refgen.evaluate.values import EntryValues
from refgen.render.blocks import (
    AnchorLink,
    Block,
    Cell,
    Code,
    Collapsible,
    DocLink,
    Inline,
    Markup,
    ObjectName,
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
    docstring_sections,
    joined,
    opening_prose,
    prose,
)
from refgen.render.comparison import COMPARED_ENTRIES, DIFFERS, differences_sentence, differing
from refgen.render.diagram import data_flow_svg
from refgen.render.figures import entry_values_table
from refgen.render.mathml import typeset
from refgen.render.sensitivity import sensitivity_section

CONSTRUCTION_NOTE = (
    "Build this scenario with keyword arguments only. "
    "Each input below gives the type it is annotated with and its declared default."
)
EXAMPLES_INTRO = (
    "{entries} {verb} the inputs. The figures are what the model computes from them, "
    "not measurements."
)
DATA_FLOW_SUMMARY = "Diagram: what each derived attribute reads"
CODE_SUMMARY = "Code"
CALLS = "Calls "
DATA_FLOW_INTRO = (
    "Inputs on the left; each derived attribute stands to the right of everything "
    "it reads. Every box links to its row in the tables above."
)
VALUES_INTRO = (
    "Computed from the registry at this build; numbers to {precision} significant figures."
)


def scenario_page(
    scenario: ScenarioDoc,
    values: Sequence[EntryValues] = (),
    precision: int = 5,
    units: UnitSymbols | None = None,
    documented: Container[str] = (),
    sensitivities: Sequence[Sensitivity] = (),
) -> Page:
    """The whole reference page of one scenario class.

    ``units`` spells the units of equations (see :func:`refgen.render.mathml.typeset`).
    ``documented`` holds the classes with pages of their own: what the class
    inherits from one of them is described there, and only linked here.
    ``sensitivities`` are the entries' elasticities, shown after their values.
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
                    scenario.qualname,
                )
            ),
            location=scenario.location,
        ),
    ]
    if scenario.inputs:
        inputs = _inputs_table(scenario, mentions, documented)
        blocks.append(Section("Inputs", (inputs,)))
    if scenario.derived:
        derived = _derived_table(scenario, mentions, units, documented)
        blocks.append(Section("Derived attributes", (derived,)))
    blocks += _registry_values(scenario, values, precision)
    blocks += sensitivity_section(sensitivities)
    if doc.notes:
        notes = docstring_notes(doc, scenario.location, mentions, scenario.qualname)
        blocks.append(Section("Notes", notes))
    sections = docstring_sections(doc, mentions, subject=scenario.qualname)
    blocks += [Section(title, body) for title, body in sections]
    if doc.references:
        cited = docstring_references(doc, scenario.location, scenario.qualname)
        blocks.append(Section("References", cited))
    if doc.examples:
        intro = _examples_intro(scenario)
        example = Prose(doc.examples.text, doc.examples.location, subject=scenario.qualname)
        blocks.append(Section("Examples", (*intro, example)))
    blocks += _data_flow(scenario)
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


def _data_flow(scenario: ScenarioDoc) -> list[Block]:
    svg = data_flow_svg(scenario, lambda name: f"{scenario.qualname}.{name}")
    if svg is None:
        return []
    diagram = Markup(svg, ("refgen-diagram",), searchable=False)
    shown = Collapsible(DATA_FLOW_SUMMARY, (diagram,), ("refgen-data-flow",))
    return [Section("Data flow", (text(DATA_FLOW_INTRO), shown))]


def _registry_values(
    scenario: ScenarioDoc, values: Sequence[EntryValues], precision: int
) -> list[Block]:
    """One column per registry scenario, one row per attribute, figures lined up; with two
    entries or more, the rows whose values differ are named and, unless every row
    differs, marked (:mod:`refgen.render.comparison`)."""
    if not values:
        return []
    names = scenario.attribute_names
    intro: list[Block] = [text(VALUES_INTRO.format(precision=precision))]
    marked: list[str] = []
    if len(values) >= COMPARED_ENTRIES:
        differences = differing(names, values)
        intro.append(differences_sentence(differences, len(names)))
        marked = differences if len(differences) < len(names) else []
    table = entry_values_table(
        names,
        values,
        lambda name: attribute_link(scenario, name),
        marked=marked,
        mark=DIFFERS,
    )
    return [Section("Registry values", (*intro, table))]


def _inherited(base: str | None, name: str) -> tuple[Block, ...]:
    if base is None:
        return ()
    return (
        text(
            "Inherited from ",
            Xref("class", base, base.rpartition(".")[2]),
            " (",
            Xref("attr", f"{base}.{name}", name),
            ").",
        ),
    )


def _name_cell(
    scenario: ScenarioDoc, item: InputDoc | DerivedDoc, objtype: str, annotation: str = ""
) -> Cell:
    name = ObjectName(objtype, scenario.module, f"{scenario.name}.{item.name}", item.location)
    shown = " ".join(annotation.split())
    return (Paragraph((name, Text(" : "), Code(shown))) if shown else Paragraph((name,)),)


def _description_cell(
    scenario: ScenarioDoc,
    item: InputDoc | DerivedDoc,
    mentions: Mapping[str, Inline],
    documented: Container[str],
) -> Cell:
    inherited = _inherited(item.inherited_from, item.name)
    if item.inherited_from in documented:  # described once, on the base's page
        return inherited
    described_at = item.description_location or item.location
    subject = f"{scenario.qualname}.{item.name}"
    return (prose(item.description, described_at, mentions, subject), *inherited)


def _inputs_table(
    scenario: ScenarioDoc, mentions: Mapping[str, Inline], documented: Container[str]
) -> Table:
    """One row per input, in the order the class declares them."""
    rows = tuple(
        (
            _name_cell(scenario, item, "attribute"),
            (code(item.annotation),),
            (code(item.default) if item.default is not None else text("required"),),
            _description_cell(scenario, item, mentions, documented),
        )
        for item in scenario.inputs
    )
    header = ((text("Name"),), (text("Type"),), (text("Declared default"),), (text("Description"),))
    return Table(header, rows, ("refgen-inputs",), stub_columns=1)


def _derived_table(
    scenario: ScenarioDoc,
    mentions: Mapping[str, Inline],
    units: UnitSymbols,
    documented: Container[str],
) -> Table:
    """One row per derived attribute, in source order: its equation typeset, the code folded."""
    rows = tuple(
        (
            _name_cell(scenario, item, "property", item.return_annotation),
            equation_blocks(item.equation, units),
            _description_cell(scenario, item, mentions, documented),
        )
        for item in scenario.derived
    )
    header = ((text("Name"),), (text("Equation"),), (text("Description"),))
    return Table(header, rows, ("refgen-derived",), stub_columns=1)


def equation_blocks(equation: Equation, units: UnitSymbols) -> tuple[Block, ...]:
    """The Equation cell: the MathML with the code folded under it (the code alone where
    no MathML fits), or the sentence naming the helpers; an equation that calls helpers
    links to their entries, wherever they were imported (a module or the method body)."""
    links = [Xref("func", h, h.rpartition(".")[2]) for h in equation.helpers]
    if equation.expression is None:
        if links:
            lead, _, tail = BODY_EQUATION.partition("{helpers}")
            return (text(lead, *joined(links, " and ", " and "), tail),)
        return (text(BODY_EQUATION_NO_HELPER.format(reason=equation.reason)),)
    calls = (text(CALLS, *joined(links, ", ", " and "), "."),) if links else ()
    shown = code(equation.expression, (EQUATION_CLASS,))
    math = typeset(equation.expression, units)
    if math is None:
        return (shown, *calls)
    return (math, *calls, Collapsible(CODE_SUMMARY, (shown,), ("refgen-code",)))

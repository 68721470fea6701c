"""The comparison page of a class: its registry entries side by side, differences marked.

A class with two or more registry entries gets one: a table of its inputs and
one of its derived figures, one row per attribute and one column (a number and
its unit) per entry, computed at this build. A row whose entries do not all
show the same value is a difference: its cells get :data:`DIFFERS` (the site
highlights them) and the page names those rows in words. Values are compared
as shown, so a difference the table cannot show is none.
"""

from __future__ import annotations

from collections.abc import Sequence

from refgen.analysis.model import ScenarioDoc
from refgen.evaluate.values import EntryValues
from refgen.project import page_name
from refgen.render.blocks import (
    Block,
    Code,
    DocLink,
    Page,
    Paragraph,
    Section,
    Table,
    Text,
    Xref,
    text,
)
from refgen.render.common import joined
from refgen.render.figures import entry_values_table, value_text

DIFFERS = "refgen-differs"
COMPARISON_INTRO = (
    "The {count} registry entries of {name} side by side, every value computed at this "
    "build. Rows whose values differ between the entries are highlighted."
)
LINK_LEAD = "Side by side, with their differences highlighted: "


def comparison_title(class_name: str) -> str:
    return f"{class_name}: entries compared"


def comparison_link(class_name: str, docname: str) -> Paragraph:
    """The class page's link to its comparison page, ``docname`` (relative to the class page)."""
    link = DocLink(docname, comparison_title(class_name))
    return Paragraph((Text(LINK_LEAD), link), ("refgen-comparison-link",))


def differing(names: Sequence[str], values: Sequence[EntryValues]) -> list[str]:
    """The attributes of ``names`` whose values, as shown, are not the same for every entry."""
    return [name for name in names if len({value_text(v.value(name)) for v in values}) > 1]


def comparison_page(scenario: ScenarioDoc, values: Sequence[EntryValues]) -> Page:
    """The entries of ``scenario`` compared, from their computed ``values``."""
    inputs = tuple(item.name for item in scenario.inputs)
    derived = tuple(item.name for item in scenario.derived)
    differences = differing((*inputs, *derived), values)
    intro = COMPARISON_INTRO.format(count=len(values), name="{name}")
    lead, _, tail = intro.partition("{name}")
    blocks: list[Block] = [
        Paragraph(
            (
                DocLink(page_name(scenario.name), scenario.name),
                Text(" · "),
                DocLink("index", scenario.category),
            ),
            ("refgen-provenance",),
        ),
        text(lead, Xref("class", scenario.qualname, scenario.name), tail),
        _differences(differences, len(inputs) + len(derived)),
    ]
    for title, names in (("Inputs", inputs), ("Derived attributes", derived)):
        if names:
            blocks.append(Section(title, (_table(scenario, names, values, differences),)))
    return Page(comparison_title(scenario.name), tuple(blocks), scenario.location, scenario.module)


def _differences(differences: Sequence[str], compared: int) -> Paragraph:
    if not differences:
        return text("No value differs between the entries.")
    if len(differences) == compared:
        return text("Every value differs between the entries.")
    count = len(differences)
    lead = f"{count} value{'s' if count != 1 else ''} differ{'s' if count == 1 else ''}: "
    return text(lead, *joined([Code(name) for name in differences]), ".")


def _table(
    scenario: ScenarioDoc,
    names: Sequence[str],
    values: Sequence[EntryValues],
    differences: Sequence[str],
) -> Table:
    """One row per attribute of ``names``, a number and a unit column per entry."""
    return entry_values_table(
        names,
        values,
        lambda name: Xref("attr", f"{scenario.qualname}.{name}", name),
        ("refgen-values", "refgen-comparison"),
        marked=differences,
        mark=DIFFERS,
    )

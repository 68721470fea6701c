"""The Sensitivity section of a class page: each entry's elasticities as a table.

One table per registry entry, one row per numeric derived figure and one
column per numeric input, each cell the elasticity computed in
:mod:`refgen.evaluate.sensitivity`. Elasticities of 0.5 or more either way
are marked strong, zeros faint; a long table is folded. Why a cell or a
column has no number is said under the table.
"""

from __future__ import annotations

from collections.abc import Sequence

from refgen.evaluate.sensitivity import STRONG, Elasticity, Sensitivity
from refgen.render.blocks import (
    Block,
    BulletList,
    Cell,
    Code,
    Collapsible,
    Figure,
    Paragraph,
    Section,
    Table,
    Text,
    Xref,
    text,
)
from refgen.render.figures import aligned_figures

SENSITIVITY_INTRO = (
    "How much each derived figure moves when one input is 1 % larger and the others stay "
    "as the entry states them: the elasticity ln(y′/y) / ln(1.01), computed at this build "
    "by building the scenario again with that input scaled. −1 means the figure falls by "
    "about 1 % (it is inversely proportional to the input), 2 that it rises by about 2 %, "
    "0 that it does not depend on the input. Elasticities of {strong} or more either way "
    "are in bold."
)
STRONG_CLASS = "refgen-strong"
NONE_CLASS = "refgen-none"
UNAVAILABLE_CLASS = "refgen-unavailable"
FOLD_ABOVE = 8
"""Rows above which an entry's table is folded."""


def sensitivity_section(found: Sequence[Sensitivity]) -> list[Block]:
    """The section, or nothing when no entry has a figure that an input moves."""
    shown = [s for s in found if s.reason or (s.inputs and s.figures)]
    if not shown:
        return []
    blocks: list[Block] = [text(SENSITIVITY_INTRO.format(strong=f"{STRONG:g}"))]
    for sensitivity in shown:
        blocks += _entry(sensitivity)
    return [Section("Sensitivity", tuple(blocks), ("refgen-sensitivity",))]


def _entry(sensitivity: Sensitivity) -> list[Block]:
    link = Xref("attr", sensitivity.qualname, sensitivity.entry)
    if sensitivity.reason:
        return [text(link, f": not available ({sensitivity.reason}).")]
    table = _table(sensitivity)
    notes = _notes(sensitivity)
    rows, columns = len(sensitivity.figures), len(sensitivity.inputs)
    if rows > FOLD_ABOVE:
        summary = (
            f"{sensitivity.entry}: {rows} figures against {columns} "
            f"input{'s' if columns != 1 else ''}"
        )
        return [Collapsible(summary, (table, *notes), ("refgen-sensitivity-table",))]
    return [text(link, ":"), table, *notes]


def _table(sensitivity: Sensitivity) -> Table:
    header: tuple[Cell, ...] = (
        (text("Figure"),),
        *((Paragraph((Code(name),)),) for name in sensitivity.inputs),
    )
    # Each input's column lined up on the decimal point, as the values table is.
    columns = [
        aligned_figures([cell.text if cell.available else None for cell in column])
        for column in zip(*sensitivity.cells, strict=True)
    ]
    rows = []
    classes = []
    for index, (figure, cells) in enumerate(
        zip(sensitivity.figures, sensitivity.cells, strict=True)
    ):
        numbers = (
            _number_cell(cell, column[index]) for cell, column in zip(cells, columns, strict=True)
        )
        # Names as code, not links: the tables above link each; a table of numbers stays small.
        rows.append(((Paragraph((Code(figure),)),), *numbers))
        classes.append(
            ((), *(_cell_class(cell.strong, cell.none, cell.available) for cell in cells))
        )
    return Table(
        header,
        tuple(rows),
        ("refgen-elasticities",),
        stub_columns=1,
        searchable=False,
        cell_classes=tuple(classes),
    )


def _number_cell(cell: Elasticity, figure: Figure | None) -> Cell:
    return (Paragraph((figure,)),) if figure is not None else (text(cell.text),)


def _cell_class(strong: bool, none: bool, available: bool) -> tuple[str, ...]:
    if not available:
        return (UNAVAILABLE_CLASS,)
    if strong:
        return (STRONG_CLASS,)
    return (NONE_CLASS,) if none else ()


def _notes(sensitivity: Sensitivity) -> list[Block]:
    """Why cells have no number: once per input none of whose cells has one, once per other cell."""
    whole = dict(sensitivity.column_reasons())
    items: list[tuple[Block, ...]] = [
        (Paragraph((Code(name), Text(f": {reason}"))),) for name, reason in whole.items()
    ]
    for figure, cells in zip(sensitivity.figures, sensitivity.cells, strict=True):
        for name, cell in zip(sensitivity.inputs, cells, strict=True):
            if not cell.available and name not in whole:
                items.append(
                    (
                        Paragraph(
                            (Code(figure), Text(" against "), Code(name), Text(f": {cell.reason}"))
                        ),
                    )
                )
    if not items:
        return []
    return [text("Not available (n/a):"), BulletList(tuple(items), ("refgen-sensitivity-notes",))]

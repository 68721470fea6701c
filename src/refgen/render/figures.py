"""Figures in tables: a column of values as numbers lined up on the decimal point, then units.

Used by the class page's table of registry values (:func:`entry_values_table`),
by sweep tables and by the Sensitivity tables (:func:`aligned_figures`). The
numbers arrive formatted (:class:`~refgen.evaluate.values.Value`); this only
splits them where the decimal point goes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Sequence

from refgen.evaluate.values import EntryValues, Value
from refgen.render.blocks import Cell, Figure, Inline, Paragraph, Table, Text, Xref, text


def value_text(value: Value | None) -> str:
    """A value as its table cell reads, the reason with it when it has none."""
    if value is None:
        return ""
    return f"{value.text} ({value.reason})" if value.reason else value.text


UNIT_CLASS = "refgen-unit"
FIGURE_CLASS = "refgen-figure"
WIDEST_FIGURE_PART = 24
"""Widths (in characters) the stylesheet has a ``refgen-w<N>`` class for."""


def figure_parts(item: Figure) -> tuple[tuple[str, tuple[str, str]], ...]:
    """The whole part and the fraction of a figure, each with its classes (its kind, and its
    column's width in characters): what every HTML form of a figure is made of."""
    return tuple(
        (text, (f"refgen-{kind}", f"refgen-w{min(width, WIDEST_FIGURE_PART)}"))
        for text, kind, width in (
            (item.whole, "whole", item.whole_width),
            (item.fraction, "fraction", item.fraction_width),
        )
    )


_WHOLE_PART = re.compile(r"[-\u2212]?[0-9\u2009]*")


def _split_number(number: str) -> tuple[str, str]:
    """``("1", ".5×10⁹")`` for ``1.5×10⁹``: the part before the decimal point, and the rest."""
    match = _WHOLE_PART.match(number)
    end = match.end() if match else 0
    return number[:end], number[end:]


def aligned_figures(numbers: Sequence[str | None]) -> list[Figure | None]:
    """A column of formatted numbers as figures lined up on the decimal point; None where
    the column has no number."""
    parts = [_split_number(number) if number is not None else None for number in numbers]
    wholes = [whole for whole, _ in filter(None, parts)]
    fractions = [fraction for _, fraction in filter(None, parts)]
    whole_width = max(map(len, wholes), default=0)
    # "×" is a little wider than a digit in most fonts: one character to spare
    fraction_width = max(map(len, fractions), default=0) + any("×" in f for f in fractions)
    return [
        Figure(*part, whole_width, fraction_width) if part is not None else None for part in parts
    ]


def figure_columns(values: Sequence[Value | None]) -> tuple[list[Cell], list[Cell]]:
    """Two columns for a column of values: numbers lined up on the decimal point, then units.

    A value that is not a number (not available, None, text) fills the first column.
    """
    figures = aligned_figures(
        [v.number if v is not None and v.magnitude is not None else None for v in values]
    )
    numbers: list[Cell] = []
    units: list[Cell] = []
    for value, figure in zip(values, figures, strict=True):
        if value is None or figure is None:
            numbers.append((text(value_text(value)),))
            units.append(())
            continue
        numbers.append((Paragraph((figure,)),))
        units.append((Paragraph((Text(value.unit),), (UNIT_CLASS,)),) if value.unit else ())
    return numbers, units


def entry_values_table(
    names: Sequence[str],
    values: Sequence[EntryValues],
    attribute: Callable[[str], Inline],
    marked: Container[str] = (),
    mark: str = "",
) -> Table:
    """One row per attribute of ``names``, headed by its link (``attribute``), and a number
    and a unit column per entry under the entry's heading; every cell of a row in
    ``marked`` gets the class ``mark``."""
    header = ((text("Attribute"),), *((text(Xref("attr", v.qualname, v.entry)),) for v in values))
    columns = [
        column for entry in values for column in figure_columns([entry.value(n) for n in names])
    ]
    rows = tuple(
        ((Paragraph((attribute(name),)),), *(column[i] for column in columns))
        for i, name in enumerate(names)
    )
    cell_classes = tuple(
        ((mark,) if name in marked else (),) * (1 + len(columns)) for name in names
    )
    spans = (1, *(2 for _ in values))  # each entry's heading over its numbers and units
    return Table(
        header,
        rows,
        ("refgen-values",),
        stub_columns=1,
        searchable=False,
        header_spans=spans,
        cell_classes=cell_classes,
    )

"""A parameter sweep as blocks: what was swept, its plot, and its data as a table.

:func:`sweep_blocks` lays out a :class:`~refgen.evaluate.sweeps.Sweep` that
evaluation computed: a sentence naming the figures, the registry entry and
the varied input (each a link to its entry), the plot (:mod:`refgen.render.plots`)
and a table with a row per point, whose header gives each column's unit and
whose numbers line up on the decimal point. A point that could not be computed
reads "not available", with the reason.
"""

from __future__ import annotations

from refgen.evaluate.sweeps import Series, Sweep
from refgen.evaluate.values import NOT_AVAILABLE, Value
from refgen.render.blocks import Block, Cell, Markup, Paragraph, Table, Text, Xref, text
from refgen.render.figures import figure_columns
from refgen.render.plots import sweep_svg

PLOT_CLASS = "refgen-sweep-plot"
TABLE_CLASSES = ("refgen-values", "refgen-sweep-data")


def sweep_blocks(sweep: Sweep, prefix: str) -> tuple[Block, ...]:
    """The sweep's sentence, plot and table; ``prefix`` starts the plot's SVG ids."""
    assert sweep.input is not None
    plot = Markup(sweep_svg(sweep, prefix), (PLOT_CLASS,), searchable=False)
    return (_sentence(sweep), plot, data_table(sweep))


def _sentence(sweep: Sweep) -> Paragraph:
    assert sweep.input is not None
    parts: list[str | Xref] = []
    for number, series in enumerate(sweep.figures):
        if number:
            parts.append(" and " if number == len(sweep.figures) - 1 else ", ")
        parts.append(_link(series))
    parts += [" of ", Xref("attr", sweep.entry, sweep.entry_name), " as ", _link(sweep.input)]
    parts.append(" varies, computed when this page was built:")
    return text(*parts)


def _link(series: Series) -> Xref:
    return Xref("attr", series.target, series.name)


def _heading(series: Series) -> Cell:
    unit = (Text(f" ({series.unit})"),) if series.unit else ()
    return (Paragraph((_link(series), *unit)),)


def data_table(sweep: Sweep) -> Table:
    """One row per point: the input's value, then each figure, in its column's unit."""
    assert sweep.input is not None
    reasons: dict[tuple[int, str], str] = {(g.point, g.figure): g.reason for g in sweep.gaps}
    columns = [_numbers(sweep.input, {})]
    for series in sweep.figures:
        failed = {
            point: reasons.get((point, series.name)) or reasons.get((point, ""), "")
            for point, magnitude in enumerate(series.magnitudes)
            if magnitude is None
        }
        columns.append(_numbers(series, failed))
    header = tuple(_heading(series) for series in (sweep.input, *sweep.figures))
    rows = tuple(tuple(column[point] for column in columns) for point in range(len(columns[0])))
    return Table(header, rows, TABLE_CLASSES, stub_columns=1, searchable=False)


def _numbers(series: Series, failed: dict[int, str]) -> list[Cell]:
    """The series as a column of numbers lined up on the decimal point."""
    values = [
        Value(series.name, NOT_AVAILABLE, False, failed.get(point, ""))
        if magnitude is None
        else Value(series.name, shown, number=shown, magnitude=magnitude)
        for point, (magnitude, shown) in enumerate(
            zip(series.magnitudes, series.texts, strict=True)
        )
    ]
    numbers, _units = figure_columns(values)
    return numbers

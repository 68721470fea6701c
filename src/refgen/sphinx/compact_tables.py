"""Compact tables: a table's cells of plain data kept as page-model data until it is written.

Tables of figures are most of a class page's nodes. :class:`NodeBuilder
<refgen.sphinx.node_builder.NodeBuilder>` makes a table a
:class:`~refgen.sphinx.nodes.refgen_table` holding its layout, with only its
live cells (:func:`live_cells`: links elsewhere, prose) built as nodes. The
names of the rows' objects stay data too: the table registers their targets
when the page is read and keeps their ids (:data:`ANCHORS`) and index entries.
At ``doctree-resolved`` :func:`expand_tables` makes it the docutils
table every writer and the search index know, except for HTML, which writes it
straight from its layout (:mod:`refgen.sphinx.html_tables`).
``tests/sphinx/test_compact_tables.py`` holds both ways to the same output.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from docutils import nodes

from refgen.render import blocks as b
from refgen.sphinx.nodes import (
    NOT_SEARCHED,
    DataInline,
    data_inline,
    paragraph,
    refgen_search_words,
    refgen_table,
)
from refgen.sphinx.private import event_listeners, splits_as_sphinx_does

HEADER_ROW = -1
"""Row number of a table's header in :func:`live_cells`; body rows count from 0."""

ANCHORS = "anchors"
"""Attribute of a :class:`refgen_table`: the target ids of the objects named in its data
cells, in the order of :func:`every_cell`."""


def is_data(cell: b.Cell) -> bool:
    """Whether a cell holds plain data only (blank prose, an undocumented attribute's
    description, is no nodes at all)."""
    return all(
        (isinstance(block, b.Paragraph) and all(isinstance(i, DataInline) for i in block.inlines))
        or (isinstance(block, b.Prose) and not block.text.strip())
        for block in cell
    )


def every_cell(table: b.Table) -> Iterator[tuple[tuple[int, int], b.Cell]]:
    """Every cell of ``table`` with its ``(row, column)``, header first, row by row."""
    for row, cells in enumerate((table.header, *table.rows), start=HEADER_ROW):
        for column, cell in enumerate(cells):
            yield (row, column), cell


def live_cells(table: b.Table) -> list[tuple[int, int]]:
    """Where the cells that are not plain data are, in the order of :func:`every_cell`:
    the cells built as nodes when the page is read."""
    return [at for at, cell in every_cell(table) if not is_data(cell)]


def object_names(cell: b.Cell) -> Iterator[b.ObjectName]:
    """The objects a cell of plain data names, in order."""
    for block in cell:
        if isinstance(block, b.Paragraph):
            yield from (item for item in block.inlines if isinstance(item, b.ObjectName))


def data_cell(cell: b.Cell, anchors: Iterator[str]) -> list[nodes.Node]:
    """The nodes of a cell of plain data (:func:`is_data`); the objects it names take
    their target ids from ``anchors``."""
    return [
        paragraph(block, [data_inline(item, anchors) for item in block.inlines])  # type: ignore[arg-type]
        for block in cell
        if isinstance(block, b.Paragraph)
    ]


def table_anchors(compact: refgen_table) -> Iterator[str]:
    """The target ids of the objects named in ``compact``'s data cells, in order."""
    return iter(compact.get(ANCHORS, ()))


def table_classes(table: b.Table) -> list[str]:
    return [
        "colwidths-auto",
        *table.classes,
        *([] if table.searchable else [NOT_SEARCHED]),
    ]


def expand(compact: refgen_table) -> nodes.table:
    """The docutils table of a :class:`refgen_table`: its data cells built, its live
    cells' nodes moved into their places."""
    item: b.Table = compact["layout"]
    live = dict(zip(live_cells(item), live_entries(compact), strict=True))
    anchors = table_anchors(compact)

    def entry(row: int, column: int, cell: b.Cell) -> nodes.entry:
        built = live.get((row, column))
        if built is None:
            return nodes.entry("", *data_cell(cell, anchors))
        assert isinstance(built, nodes.entry)  # what NodeBuilder._table put there
        return built

    group = nodes.tgroup(cols=item.columns)
    for column, colwidth in enumerate(column_widths(item)):
        group += nodes.colspec(colwidth=colwidth, stub=int(column < item.stub_columns))
    head, body = nodes.thead(), nodes.tbody()
    header = [entry(HEADER_ROW, column, cell) for column, cell in enumerate(item.header)]
    for built, span in zip(header, item.header_spans, strict=False):
        if span > 1:
            built["morecols"] = span - 1
    head += nodes.row("", *header)
    for number, cells in enumerate(item.rows):
        row = [entry(number, column, cell) for column, cell in enumerate(cells)]
        for column, built in enumerate(row):
            built["classes"] += item.classes_of(number, column)
        body += nodes.row("", *row)
    group += [head, body]
    table = nodes.table("", group, classes=compact["classes"])
    table.source, table.line = compact.source, compact.line
    return table


NO_NESTED_TABLES = frozenset({"text", "man"})
"""Output formats whose Sphinx writers stop the build at a table inside a table."""


def live_entries(compact: refgen_table) -> list[nodes.entry]:
    """The cells of ``compact`` built as nodes when the page was read (:func:`live_cells`)."""
    return [child for child in compact.children if isinstance(child, nodes.entry)]


def data_texts(table: b.Table) -> list[str]:
    """The texts of every data cell of ``table``, one per text node the expanded table has."""
    pieces = []
    for _, cell in every_cell(table):
        if is_data(cell):
            for block in cell:
                if isinstance(block, b.Paragraph):
                    pieces += [text for item in block.inlines for text in inline_texts(item)]
    return [piece for piece in pieces if piece]


def inline_texts(item: b.Inline) -> tuple[str, ...]:
    match item:
        case b.Text() | b.Code():
            return (item.text,)
        case b.Figure():
            return (item.whole, item.fraction)
        case b.AnchorLink() | b.ObjectName():
            return (item.label,)
    return ()


def expand_tables(app: object, doctree: nodes.document, docname: str = "") -> None:
    """``doctree-resolved``: every :class:`refgen_table` of the page as a docutils table,
    after the links in it are resolved and before any writer or the search index reads it.

    HTML writes a compact table from its layout (:mod:`refgen.sphinx.html_tables`): there
    it stays compact, and the search index gets its data cells' text, unless a handler
    of this event that runs later may read or change table cells (another extension's,
    or conf.py's). Where the writer cannot nest tables, a table a docstring put in a
    cell (a ``list-table`` in an attribute's description) becomes a list of its rows.
    """
    output = getattr(getattr(app, "builder", None), "format", "")
    if output == "html" and not later_handlers_may_read_cells(app):
        whole = splits_words_alone(app)
        for compact in doctree.findall(refgen_table):
            texts = data_texts(compact["layout"])
            pieces = [" ".join(texts)] if whole and texts else texts
            compact += refgen_search_words("", *(nodes.Text(piece) for piece in pieces))
        return
    flat = output in NO_NESTED_TABLES
    for compact in list(doctree.findall(refgen_table)):
        table = expand(compact)
        compact.replace_self(table)
        if flat:
            rows_as_lists(table)


def splits_words_alone(app: object) -> bool:
    """Whether the search index splits text into words by their own characters only
    (Sphinx's default, runs of word characters, for English and every language without
    a splitter of its own): then a table's data texts go to it as one text, a space
    between each, and give the same words as one text node each. Japanese and Chinese
    split by context, and a language of an extension may split its own way: there each
    text stays apart, as its node would be."""
    language = getattr(getattr(getattr(app, "builder", None), "indexer", None), "lang", None)
    return language is not None and splits_as_sphinx_does(language)


QUIET_HANDLERS = ("refgen.", "sphinx.ext.todo", "sphinx.ext.ifconfig")
"""Modules whose ``doctree-resolved`` handlers look only at nodes of their own, never in a
table cell of plain data."""


def later_handlers_may_read_cells(app: object) -> bool:
    """Whether a ``doctree-resolved`` handler that runs after :func:`expand_tables` comes
    from anywhere but :data:`QUIET_HANDLERS` (when unsure: yes)."""
    listeners = event_listeners(app, "doctree-resolved")
    if not listeners:
        return True
    ordered = sorted(listeners, key=lambda listener: listener.priority)
    ours = [index for index, listener in enumerate(ordered) if listener.handler is expand_tables]
    if not ours:
        return True
    return any(
        not str(getattr(listener.handler, "__module__", "")).startswith(QUIET_HANDLERS)
        for listener in ordered[ours[0] + 1 :]
    )


def rows_as_lists(table: nodes.table) -> None:
    """Each table inside ``table``'s cells as a bullet list, an item per row holding the
    row's cells one after another (innermost first, so every level is flattened)."""
    nested = [inner for inner in table.findall(nodes.table) if inner is not table]
    for inner in reversed(nested):
        items = []
        for row in inner.findall(nodes.row):
            item = nodes.list_item()
            for entry in row.children:
                item += list(entry.children)
            items.append(item)
        inner.replace_self(nodes.bullet_list("", *items, bullet="-"))


def visit_compact_table(translator: Any, node: refgen_table) -> None:
    """A writer that meets a table not yet expanded (a page written without
    ``doctree-resolved``) writes the expanded one."""
    table = expand(node)
    node.replace_self(table)
    table.walkabout(translator)
    raise nodes.SkipNode


WIDEST_COLUMN = 50
"""Characters; the text builder wraps longer cells, LaTeX reads widths as proportions."""


def column_widths(table: b.Table) -> list[int]:
    """Each column's widest cell as text (HTML ignores this: the table is ``colwidths-auto``)."""
    rows = [table.spread_header(), *table.rows]
    return [
        min(
            WIDEST_COLUMN,
            max(1, *(len(cell_text(row[column])) for row in rows if column < len(row))),
        )
        for column in range(table.columns)
    ]


def cell_text(cell: b.Cell) -> str:
    """The text a cell shows, for sizing its column."""
    parts = []
    for block in cell:
        if isinstance(block, b.Paragraph):
            for item in block.inlines:
                shown = getattr(item, "text", getattr(item, "label", ""))
                # the text builder puts code (and links shown as code) in quotes
                quoted = isinstance(item, b.Code | b.AnchorLink | b.ObjectName) or getattr(
                    item, "code", False
                )
                parts.append(f'"{shown}"' if quoted else shown)
        elif isinstance(block, b.Prose):
            parts.append(block.text)
        elif isinstance(block, b.Collapsible):
            parts.append(cell_text(block.blocks))
    return " ".join(" ".join(parts).split())

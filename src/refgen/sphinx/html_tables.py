"""Compact tables written straight to HTML, as Sphinx's HTML writer writes them expanded.

A class page is mostly tables of figures (:class:`~refgen.sphinx.nodes.refgen_table`).
Expanded into docutils nodes, every cell becomes an ``entry``, a ``paragraph``
and its inlines, each built, walked by the ``doctree-resolved`` handlers and
the search index, and dispatched one by one through the translator: about
half of the nodes an HTML build writes. Here the cells of plain data go from
the page model to the same markup without nodes in between, through the
translator's own ``starttag`` and ``encode`` (the one escaping path); cells
built as nodes when the page was read (links elsewhere, prose) are
walked by the translator as usual.

Many cells of plain data are alike (``required``, ``n/a``, an elasticity of
``1.00``): on the deep bench library, 60 % of them are one of the first thousand
cells written. The markup of a cell of plain data depends on nothing but the cell,
its place (header, stub, span, classes) and the translator's class, so each build
writes each such cell once (:data:`MOST_CELLS_KEPT` of them) and copies it after.
A cell naming a row's object holds that row's own anchor and is always written.

The markup is the stock HTML5 translator's. A translator that changes how any
of the parts involved is written (a theme's own ``visit_table``, say) gets the
expanded table instead (:func:`writes_tables_as_sphinx`), so what it writes is
its own. ``tests/sphinx/test_compact_tables.py`` holds the two ways to the same bytes.
"""

from __future__ import annotations

import weakref
from typing import Any, assert_never

from docutils import nodes
from sphinx.writers.html5 import HTML5Translator

from refgen.render import blocks as b
from refgen.render.figures import FIGURE_CLASS, figure_parts
from refgen.sphinx import compact_tables
from refgen.sphinx import nodes as refgen_nodes
from refgen.sphinx.private import HTML_BASE_MODULE, table_row_indices

WRITER_METHODS = (
    "dispatch_visit",
    "dispatch_departure",
    "unknown_visit",
    "unknown_departure",
    "visit_table",
    "depart_table",
    "visit_tgroup",
    "depart_tgroup",
    "visit_colspec",
    "depart_colspec",
    "visit_thead",
    "depart_thead",
    "visit_tbody",
    "depart_tbody",
    "visit_row",
    "depart_row",
    "visit_entry",
    "depart_entry",
    "visit_paragraph",
    "depart_paragraph",
    "visit_Text",
    "depart_Text",
    "visit_literal",
    "depart_literal",
    "visit_inline",
    "depart_inline",
    "visit_reference",
    "depart_reference",
    "visit_target",
    "depart_target",
    "visit_index",
    "starttag",
    "encode",
    "attval",
    "report_messages",
)
"""What writing an expanded table calls on the translator: all must be Sphinx's own."""

WRITERS_MODULES = frozenset(
    {
        "sphinx.writers.html5",
        "sphinx.util.docutils",
        HTML_BASE_MODULE,
        "docutils.writers.html5_polyglot",
        "docutils.nodes",
    }
)
"""Where Sphinx's HTML5 translator and the classes it extends define their methods."""

REFGEN_VISITORS = {"visit_refgen_identifier": refgen_nodes.visit_identifier_html}

MOST_CELLS_KEPT = 1024
"""Cells of plain data whose markup a build keeps, the first ones written: on the deep bench
library these catch 60 % of the cells; keeping every one, 65 %."""

CellKey = tuple[type, str, tuple[str, ...], tuple[str, ...], int, b.Cell]
"""What a cell's markup depends on: the translator's class, the tag, the cell's classes
and kinds, its span and its blocks."""

_written_cells: weakref.WeakKeyDictionary[object, dict[CellKey, str]] = weakref.WeakKeyDictionary()
"""Each build's cells of plain data written so far, by its builder."""

_STOCK: dict[type, bool] = {}


def writes_tables_as_sphinx(translator: Any) -> bool:
    """Whether ``translator`` writes tables, paragraphs and inlines exactly as Sphinx's
    HTML5 translator does, refgen's names included: its class changes none of
    :data:`WRITER_METHODS`, and no extension replaced one on it (``app.add_node`` with
    ``override=True`` sets visitors on the translator itself)."""
    own = vars(translator)
    return (
        is_stock_writer(type(translator))
        and not any(name in own for name in WRITER_METHODS)
        and all(
            getattr(getattr(translator, name, None), "__func__", None) is visitor
            for name, visitor in REFGEN_VISITORS.items()
        )
    )


def is_stock_writer(kind: type) -> bool:
    """Whether translators of class ``kind`` are Sphinx's HTML5 translator, or a subclass
    that changes none of :data:`WRITER_METHODS`, and no one replaced those on Sphinx's
    or docutils' classes either."""
    if kind not in _STOCK:
        _STOCK[kind] = (
            issubclass(kind, HTML5Translator)
            and all(
                getattr(kind, name) is getattr(HTML5Translator, name) for name in WRITER_METHODS
            )
            and all(
                getattr(getattr(kind, name), "__module__", None) in WRITERS_MODULES
                for name in WRITER_METHODS
            )
            and kind.words_and_spaces is HTML5Translator.words_and_spaces
        )
    return _STOCK[kind]


def visit_compact_table_html(translator: Any, node: refgen_nodes.refgen_table) -> None:
    """The HTML writer's visitor of :class:`~refgen.sphinx.nodes.refgen_table`."""
    if writes_tables_as_sphinx(translator):
        TableWriter(translator, node).write()
        raise nodes.SkipNode
    compact_tables.visit_compact_table(translator, node)  # writes the expanded table instead


class TableWriter:
    """Writes one compact table into ``translator.body``."""

    def __init__(self, translator: Any, node: refgen_nodes.refgen_table) -> None:
        self.translator = translator
        self.body: list[str] = translator.body
        self.node = node
        self.layout: b.Table = node["layout"]
        self.live = dict(
            zip(
                compact_tables.live_cells(self.layout),
                compact_tables.live_entries(node),
                strict=True,
            )
        )
        self.tags: dict[tuple[str, tuple[str, ...], tuple[str, ...], int], str] = {}
        self.anchors = compact_tables.table_anchors(node)
        self.cells = _written_cells.setdefault(translator.builder, {})

    def write(self) -> None:
        translator, layout = self.translator, self.layout
        translator.visit_table(self.node)  # the table's own tag, classes and ids, as written
        stubs = [column < layout.stub_columns for column in range(layout.columns)]
        self.body.append("<thead>\n")
        self._row(compact_tables.HEADER_ROW, layout.header, stubs, layout.header_spans)
        self.body.append("</thead>\n<tbody>\n")
        for number, cells in enumerate(layout.rows):
            self._row(number, cells, stubs, ())
        self.body.append("</tbody>\n")
        translator.depart_table(self.node)

    def _row(
        self, number: int, cells: tuple[b.Cell, ...], stubs: list[bool], spans: tuple[int, ...]
    ) -> None:
        indices = table_row_indices(self.translator)
        indices[-1] += 1
        self.body.append(self._tag("tr", ("row-even" if indices[-1] % 2 == 0 else "row-odd",)))
        column = 0
        for index, cell in enumerate(cells):
            span = spans[index] if index < len(spans) else 1
            self._cell(number, index, column, cell, stubs, span)
            column += span
        self.body.append("</tr>\n")

    def _cell(
        self, number: int, index: int, column: int, cell: b.Cell, stubs: list[bool], span: int
    ) -> None:
        header = number == compact_tables.HEADER_ROW
        kinds = [*(["head"] if header else []), *(["stub"] if stubs[column] else [])]
        tagname = "th" if kinds else "td"
        extra = () if header else self.layout.classes_of(number, index)
        spans = {"colspan": span} if span > 1 else {}
        live = self.live.get((number, index))
        if live is None:
            self._plain_cell(tagname, extra, tuple(kinds), span, cell)
        else:
            attributes = {"classes": [*live["classes"], *extra], "ids": list(live["ids"])}
            self.body.append(
                self.translator.starttag(attributes, tagname, "", classes=kinds, **spans)
            )
            for child in live.children:
                child.walkabout(self.translator)
        self.body.append(f"</{tagname}>\n")

    def _plain_cell(
        self, tagname: str, extra: tuple[str, ...], kinds: tuple[str, ...], span: int, cell: b.Cell
    ) -> None:
        """A cell of plain data: copied when the build wrote one like it, else written."""
        key: CellKey = (type(self.translator), tagname, extra, kinds, span, cell)
        try:
            found = self.cells.get(key)
        except TypeError:  # a block that cannot be hashed: written, never kept
            found, keep = None, False
        else:
            keep = len(self.cells) < MOST_CELLS_KEPT
        if found is not None:
            self.body.append(found)
            return
        start = len(self.body)
        self.body.append(self._tag(tagname, extra, kinds, span))
        paragraphs = [block for block in cell if isinstance(block, b.Paragraph)]
        for paragraph in paragraphs:
            self._paragraph(paragraph, alone=len(paragraphs) == 1)
        if keep and not any(compact_tables.object_names(cell)):  # a row's own anchor: never
            self.cells[key] = "".join(self.body[start:])

    def _paragraph(self, paragraph: b.Paragraph, alone: bool) -> None:
        self.body.append(self._tag("p", paragraph.classes))
        for item in paragraph.inlines:
            assert isinstance(item, refgen_nodes.DataInline)  # in a cell of plain data only
            self._inline(item)
        self.body.append("</p>" if alone else "</p>\n")

    def _inline(self, item: refgen_nodes.DataInline) -> None:
        translator = self.translator
        match item:
            case b.Text():
                self._text(item.text)
            case b.Code():
                self._code(item)
            case b.Figure():
                self.body.append(self._tag("span", (FIGURE_CLASS,)))
                for text, classes in figure_parts(item):
                    self.body.append(self._tag("span", classes))
                    self._text(text)
                    self.body.append("</span>")
                self.body.append("</span>")
            case b.AnchorLink():
                link: dict[str, list[str]] = {"classes": []}
                atts = {"class": "reference internal", "href": f"#{item.anchor}"}
                self.body.append(translator.starttag(link, "a", "", **atts))
                code = [*refgen_nodes.ATTRIBUTE_LINK_CLASSES, refgen_nodes.IDENTIFIER_CLASS]
                label = nodes.Text(item.label).astext()
                refgen_nodes.write_identifier(translator, {"classes": code}, label)
                self.body.append("</a>")
            case b.ObjectName():
                self._object_name(item)
            case _:
                assert_never(item)

    def _object_name(self, item: b.ObjectName) -> None:
        """A row's object as the translator writes :func:`refgen.sphinx.nodes.object_name`:
        its index entry nothing, its target an empty ``span`` holding the id."""
        translator = self.translator
        self.body.append(self._tag("span", (refgen_nodes.OBJECT_CLASS,)))
        target = {"classes": [], "ids": [next(self.anchors)]}
        self.body.append(translator.starttag(target, "span", "", CLASS="target"))
        self.body.append("</span>")
        name = [refgen_nodes.NAME_CLASS, refgen_nodes.IDENTIFIER_CLASS]
        label = nodes.Text(item.label).astext()
        refgen_nodes.write_identifier(translator, {"classes": name}, label)
        self.body.append("</span>")

    def _text(self, text: str) -> None:
        """``text`` written by the translator's own ``visit_Text``, as the text node would be."""
        self.translator.visit_Text(nodes.Text(text))

    def _code(self, item: b.Code) -> None:
        """Code as Sphinx's ``visit_literal`` writes it: in ``<kbd>``, or in ``<code>`` with
        its words kept from wrapping."""
        translator = self.translator
        attributes = {"classes": list(item.classes)}
        keyboard = "kbd" in item.classes
        tagname = "kbd" if keyboard else "code"
        self.body.append(
            translator.starttag(attributes, tagname, "", CLASS="docutils literal notranslate")
        )
        if not keyboard:
            translator.protect_literal_text += 1
        self._text(item.text)
        if not keyboard:
            translator.protect_literal_text -= 1
        self.body.append(f"</{tagname}>")

    def _tag(
        self, tagname: str, classes: tuple[str, ...], kinds: tuple[str, ...] = (), span: int = 1
    ) -> str:
        """A start tag with classes only (and a data cell's kinds and span), made by the
        translator once per table: most cells of a table share a handful."""
        key = (tagname, classes, kinds, span)
        found = self.tags.get(key)
        if found is None:
            spans = {"colspan": span} if span > 1 else {}
            node = {"classes": list(classes)}
            found = self.translator.starttag(node, tagname, "", classes=list(kinds), **spans)
            self.tags[key] = found
        return found

"""Blocks to docutils nodes: the page model as Sphinx's doctree.

Data becomes :class:`docutils.nodes.Text` (escaped by every writer); links are
real ``pending_xref`` nodes, resolved by Sphinx's domains, so intersphinx,
``nitpicky`` and ``objects.inv`` see them; MathML and SVG become
:class:`refgen_markup` nodes holding what :func:`refgen.render.markup.serialize`
made of their element trees. Only :class:`~refgen.render.blocks.Prose` is
parsed as reST (:mod:`refgen.sphinx.prose`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from docutils import nodes
from docutils.statemachine import StringList
from sphinx import addnodes
from sphinx.util import docname_join
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import make_id
from sphinx.util.osutil import relative_uri
from sphinx.util.parsing import nested_parse_to_nodes

from refgen.analysis.model import SourceLocation
from refgen.render import blocks as b
from refgen.render.markup import escape, serialize
from refgen.sphinx.private import event_listeners
from refgen.sphinx.prose import is_verbatim, link_mentions, plain_paragraphs, unlink_scripts
from refgen.sphinx.sandbox import disarm, guarded_directives

NOT_SEARCHED = "no-search"
"""Sphinx's class for content its search index skips: figures and diagrams, not prose."""


class refgen_markup(nodes.General, nodes.Element):
    """MathML or SVG, serialised by :mod:`refgen.render.markup`; HTML builders only."""


class pending_source_link(nodes.Inline, nodes.TextElement):
    """A link to the highlighted source of an object, resolved after reading."""


class refgen_identifier(nodes.literal):
    """A Python name shown as code that wraps, when it must, only after ``_`` or ``.``."""


IDENTIFIER_CLASS = "refgen-identifier"
OPTIONAL = "refgen_optional"
"""Attribute of a ``pending_xref`` that is a link only when its target is documented."""


def quiet_optional_link(app: object, domain: object, node: addnodes.pending_xref) -> bool | None:
    """``warn-missing-reference``: an optional link (a See Also name) that resolves to
    nothing stays its label, without a warning, even under ``nitpicky``."""
    return True if node.get(OPTIONAL) else None


def visit_identifier_html(translator: Any, node: refgen_identifier) -> None:
    write_identifier(translator, node, node.astext())
    raise nodes.SkipNode


def write_identifier(translator: Any, node: Any, name: str) -> None:
    """``name`` as HTML code with the classes and ids of ``node`` (a node, or a mapping
    holding them)."""
    translator.body.append(translator.starttag(node, "code", "", CLASS="docutils literal"))
    translator.body.append(breakable(name))
    translator.body.append("</code>")


def breakable(name: str) -> str:
    """``name`` escaped for HTML, a line-break opportunity (``<wbr>``) after each ``_``
    or ``.`` that has more of the name after it; copying the name copies no extra
    character."""
    escaped = escape(name)
    return re.sub(r"(?<=[^_.])([_.]+)(?=[^_.])", r"\1<wbr>", escaped)


def visit_identifier_as_literal(translator: Any, node: refgen_identifier) -> None:
    translator.visit_literal(node)


def depart_identifier_as_literal(translator: Any, node: refgen_identifier) -> None:
    translator.depart_literal(node)


class refgen_details(nodes.General, nodes.Element):
    """Content a reader unfolds (HTML's ``details``); other formats show it unfolded."""


def visit_details_html(translator: Any, node: refgen_details) -> None:
    translator.body.append(translator.starttag(node, "details"))
    translator.body.append(f"<summary>{escape(node['summary'])}</summary>\n")


def depart_details_html(translator: Any, node: refgen_details) -> None:
    translator.body.append("</details>\n")


class refgen_file_link(nodes.Inline, nodes.TextElement):
    """A link to a file built with the site, ``path`` from the site's root; HTML links it
    (made relative to the page when it is written), other formats show its label."""


def visit_file_link_html(translator: Any, node: refgen_file_link) -> None:
    builder = translator.builder
    href = relative_uri(builder.get_target_uri(builder.current_docname), node["path"])
    translator.body.append(
        f'<a class="reference download refgen-download" href="{escape(href)}" download="">'
        f"{escape(node.astext())}</a>"
    )
    raise nodes.SkipNode


def visit_file_link_elsewhere(translator: Any, node: refgen_file_link) -> None:
    translator.visit_inline(node)


def depart_file_link_elsewhere(translator: Any, node: refgen_file_link) -> None:
    translator.depart_inline(node)


class refgen_copy_button(nodes.General, nodes.Element):
    """A button that copies the text of the code block beside it (``refgen-copy.js``);
    HTML only."""


COPY_CLASS = "refgen-copyable"
"""Class of the box holding a code block and its copy button."""


def visit_copy_button_html(translator: Any, node: refgen_copy_button) -> None:
    label = escape(node["label"])
    translator.body.append(
        f'<button type="button" class="refgen-copy" data-refgen-copy="">{label}</button>'
        '<span class="refgen-copy-status" role="status" aria-live="polite"></span>\n'
    )
    raise nodes.SkipNode


def unfolded(translator: Any, node: nodes.Node) -> None:
    """Other builders show a collapsible's content where it stands."""


def visit_markup_html(translator: Any, node: refgen_markup) -> None:
    classes = " ".join(node["classes"])
    translator.body.append(f'<div class="{escape(classes)}">{node["markup"]}</div>')
    raise nodes.SkipNode


def skip_node(translator: Any, node: nodes.Node) -> None:
    """Other builders leave MathML and SVG out; the code or text beside them stays."""
    raise nodes.SkipNode


class NodeBuilder:
    """Turns the blocks of one page into nodes, in the context of the directive reading it."""

    def __init__(self, directive: SphinxDirective) -> None:
        self.directive = directive
        self.env = directive.env
        self.document = directive.state.document
        self.page_location: SourceLocation | None = None

    # ------------------------------------------------------------------ pages

    def page(self, page: b.Page) -> list[nodes.Node]:
        self.page_location = page.location
        if page.module:
            self.env.ref_context["py:module"] = page.module
        section = self._section(page.title, page.blocks)
        locate_references([section], page.location)
        return [section]

    def blocks(self, items: Iterable[b.Block]) -> list[nodes.Node]:
        return [node for item in items for node in self.block(item)]

    def block(self, item: b.Block) -> list[nodes.Node]:
        match item:
            case b.Paragraph():
                return [paragraph(item, self.inlines(item.inlines))]
            case b.Prose():
                return self.prose(item)
            case b.CodeBlock():
                block = nodes.literal_block(item.text, item.text, classes=list(item.classes))
                block["language"] = item.language
                if not item.copy_label:
                    return [block]
                box = nodes.container("", block, classes=[COPY_CLASS])
                box += refgen_copy_button(label=item.copy_label)
                return [box]
            case b.Markup():
                classes = [*item.classes, *([] if item.searchable else [NOT_SEARCHED])]
                return [refgen_markup(markup=serialize(item.element), classes=classes)]
            case b.FieldList():
                return [self._field_list(item)]
            case b.Definitions():
                entries = [
                    nodes.definition_list_item(
                        "", nodes.term(term, term), nodes.definition("", *self.blocks(body))
                    )
                    for term, body in item.items
                ]
                return [nodes.definition_list("", *entries)]
            case b.BulletList():
                items = [nodes.list_item("", *self.blocks(body)) for body in item.items]
                return [nodes.bullet_list("", *items, bullet="-", classes=list(item.classes))]
            case b.Table():
                return [self._table(item)]
            case b.Rubric():
                return [nodes.rubric(item.text, item.text)]
            case b.Section():
                return [self._section(item.title, item.blocks, item.classes)]
            case b.PyObject():
                return self._py_object(item)
            case b.Collapsible():
                details = refgen_details(summary=item.summary, classes=list(item.classes))
                details += self.blocks(item.blocks)
                return [details]
            case b.TocTree():
                return [self._toctree(item)]
        raise TypeError(f"not a block: {item!r}")

    # ------------------------------------------------------------------ inline

    def inlines(self, items: Iterable[b.Inline]) -> list[nodes.Node]:
        return [self.inline(item) for item in items]

    def inline(self, item: b.Inline) -> nodes.Node:
        if isinstance(item, DATA_INLINES):
            return data_inline(item)
        match item:
            case b.Xref():
                return self._xref(item)
            case b.DocLink():
                label = nodes.inline(item.label, item.label, classes=["doc"])
                return addnodes.pending_xref(
                    "",
                    label,
                    refdomain="std",
                    reftype="doc",
                    reftarget=item.docname,
                    refexplicit=True,
                    refdoc=self.env.docname,
                    refwarn=True,
                )
            case b.SourceLink():
                link = pending_source_link("", "", nodes.literal(item.label, item.label))
                link["reftarget"] = item.target
                return link
            case b.ObjectName():
                return self._object_name(item)
            case b.FileLink():
                return refgen_file_link(item.label, item.label, path=item.path)
        raise TypeError(f"not an inline item: {item!r}")

    def _xref(self, item: b.Xref) -> nodes.Node:
        classes = ["xref", "py", f"py-{item.role}"]
        label: nodes.Node = (
            identifier(item.label, classes)
            if item.code
            else nodes.inline(item.label, item.label, classes=classes)
        )
        link = addnodes.pending_xref(
            "",
            label,
            refdomain="py",
            reftype=item.role,
            reftarget=item.target,
            refexplicit=True,
            refdoc=self.env.docname,
        )
        if item.optional:
            link[OPTIONAL] = True
        return link

    # ------------------------------------------------------------------ prose

    def prose(self, item: b.Prose) -> list[nodes.Node]:
        source = item.text.strip("\n")
        if not source.strip():
            return []
        if is_verbatim(source):
            parsed: list[nodes.Node] = [nodes.paragraph(source, source)]
        else:
            parsed = unlink_scripts(self._parse(source, item))
            disarm(parsed, self.env, item.location)
        if item.mentions:
            mentions = item.mentions
            link_mentions(parsed, mentions, lambda name: self.inline(mentions[name]))
        return parsed

    def _parse(self, source: str, item: b.Prose) -> list[nodes.Node]:
        path, first = (
            (item.location.path, item.location.line - 1)
            if item.location is not None
            else (self.env.doc2path(self.env.docname).as_posix(), self.directive.lineno - 1)
        )
        lines = StringList()
        for offset, written in enumerate(source.split("\n")):
            lines.append(written, path, first + offset)
        paragraphs = plain_paragraphs(lines)
        if paragraphs is None:
            with guarded_directives():
                return nested_parse_to_nodes(self.directive.state, lines)
        parsed: list[nodes.Node] = []
        for paragraph, line in paragraphs:
            inline, messages = self.directive.parse_inline(paragraph, lineno=line)
            node = nodes.paragraph(paragraph, "", *inline)
            for element in node.findall(nodes.Element):  # its links and roles: at the docstring
                element.source, element.line = path, line + 1
            parsed += [node, *messages]
        return parsed

    # ------------------------------------------------------------------ structure

    def _section(
        self, title: str, items: Iterable[b.Block], classes: tuple[str, ...] = ()
    ) -> nodes.section:
        section = nodes.section(classes=list(classes))
        section += nodes.title(title, title)
        section["names"].append(nodes.fully_normalize_name(title))
        self.document.note_implicit_target(section, section)
        section += self.blocks(items)
        return section

    def _field_list(self, item: b.FieldList) -> nodes.field_list:
        fields = [
            nodes.field(
                "",
                nodes.field_name(field.label, field.label),
                nodes.field_body("", *self.blocks(field.body)),
            )
            for field in item.fields
        ]
        return nodes.field_list("", *fields)

    def _table(self, item: b.Table) -> refgen_table:
        """The table with its cells of plain data left as data (:class:`refgen_table`);
        cells with links, targets or prose are built now, for the domains to see."""
        table = refgen_table("", classes=table_classes(item), layout=item)
        table += [nodes.entry("", *self.blocks(cell_at(item, *at))) for at in live_cells(item)]
        return table

    def _toctree(self, item: b.TocTree) -> nodes.compound:
        docnames = [docname_join(self.env.docname, entry) for entry in item.entries]
        toctree = addnodes.toctree()
        toctree["parent"] = self.env.docname
        toctree["entries"] = [(None, docname) for docname in docnames]
        toctree["includefiles"] = docnames
        toctree["maxdepth"] = item.maxdepth
        toctree["caption"] = None
        toctree["glob"] = False
        toctree["hidden"] = item.hidden
        toctree["includehidden"] = False
        toctree["numbered"] = 0
        toctree["titlesonly"] = False
        self.directive.set_source_info(toctree)
        return nodes.compound("", toctree, classes=["toctree-wrapper"])

    # ------------------------------------------------------------------ Python objects

    def _py_object(self, item: b.PyObject) -> list[nodes.Node]:
        if item.objtype in ("attribute", "property"):
            built = self._attribute(item)
        else:
            built = self._domain_directive(item)
        page = self.page_location
        if item.location is not None and page is not None and item.location.path == page.path:
            locate_references(built, item.location)  # an entry of this file: at its own line
        return built

    def _domain_directive(self, item: b.PyObject) -> list[nodes.Node]:
        """Run the Python domain's own directive (class, function, module) on the signature."""
        directive_class = self.env.get_domain("py").directive(item.objtype)
        assert directive_class is not None
        if item.objtype == "module":
            argument, options = item.module, {}
        else:
            argument, options = f"{item.name}{item.signature}", {"module": item.module}
            self.env.ref_context["py:module"] = item.module
        state = self.directive.state
        directive = directive_class(
            f"py:{item.objtype}",
            [argument],
            options,
            StringList(),
            self.directive.lineno,
            self.directive.content_offset,
            "",
            state,
            self.directive.state_machine,
        )
        result = list(directive.run())
        body = self.blocks(item.body)
        for node in result:
            content = (
                node.next_node(addnodes.desc_content) if isinstance(node, addnodes.desc) else None
            )
            if content is not None:
                content.extend(body)
                return result
        return [*result, *body]

    def _attribute(self, item: b.PyObject) -> list[nodes.Node]:
        """An attribute or property entry, built without the directive's signature parsing."""
        owner, _, attribute = item.name.rpartition(".")
        signature = addnodes.desc_signature("", "", module=item.module, fullname=item.name)
        signature["class"] = owner
        self.directive.set_source_info(signature)
        if item.objtype == "property":
            signature += addnodes.desc_annotation("property ", "property ")
        signature += addnodes.desc_addname(f"{owner}.", f"{owner}.")
        signature += addnodes.desc_name(attribute, attribute)
        annotation = " ".join(item.annotation.split())
        if annotation:
            signature += addnodes.desc_annotation(f": {annotation}", f": {annotation}")
        index = self._register(signature, item.objtype, item.module, item.name)
        content = addnodes.desc_content("", *self.blocks(item.body))
        description = addnodes.desc(
            "",
            signature,
            content,
            domain="py",
            objtype=item.objtype,
            desctype=item.objtype,
            classes=["py", item.objtype],
        )
        if not item.as_section:
            return [index, description]
        section = self._section(attribute, ())
        section += [index, description]
        return [section]

    def _object_name(self, item: b.ObjectName) -> nodes.Node:
        """A table row's object: its name as code after a target (a label in LaTeX, an
        anchor in HTML) that its links point at."""
        target = nodes.target("", "")
        if item.location is not None:
            target.source, target.line = item.location.path, item.location.line
        else:
            self.directive.set_source_info(target)
        index = self._register(target, item.objtype, item.module, item.name)
        name = identifier(item.label, ["refgen-name"])
        return nodes.inline("", "", index, target, name, classes=["refgen-object"])

    def _register(
        self, node: nodes.Element, objtype: str, module: str, name: str
    ) -> addnodes.index:
        """Make ``node`` the target of ``module.name`` in the Python domain; its index entry.

        The id is the dotted name as written, which is what the page's own links and
        the diagram point at; Sphinx's id (ASCII only: ``Größe`` becomes ``Grosze``)
        only where the two agree, so that ``café`` and ``cafe`` keep ids of their own.
        """
        fullname = f"{module}.{name}" if module else name
        node_id = make_id(self.env, self.document, "", fullname)
        if node_id != fullname and fullname not in self.document.ids:
            node_id = fullname
        node["ids"].append(node_id)
        self.document.note_explicit_target(node)
        domain: Any = self.env.get_domain("py")
        domain.note_object(fullname, objtype, node_id, location=node)
        owner, _, attribute = fullname.rpartition(".")
        entry = ("single", f"{attribute} ({owner} {objtype})", node_id, "", None)
        return addnodes.index(entries=[entry])


class refgen_table(nodes.table):
    """A table whose cells of plain data (text, code, figures, links on the page) stay
    page-model data until the page is resolved for writing.

    Tables of figures are most of a class page's nodes, and while a page is read
    every docutils and Sphinx transform walks every node, then the doctree is
    pickled and read back. Cells holding links to other pages, object targets or
    parsed prose are built when the page is read (this node's children, one
    ``entry`` each, in the order of :func:`live_cells`), so the domains register
    and resolve them as usual. ``layout`` is the :class:`~refgen.render.blocks.Table`.
    :func:`expand_tables` turns it into the docutils table every writer and the
    search index know, the same nodes a table built whole would have.
    """


HEADER_ROW = -1
"""Row number of a table's header in :func:`live_cells`; body rows count from 0."""

DATA_INLINES = (b.Text, b.Code, b.Figure, b.AnchorLink)
"""Inline items made into nodes without the environment: plain data, kept as data in tables."""


def is_data(cell: b.Cell) -> bool:
    return all(
        isinstance(block, b.Paragraph)
        and all(isinstance(item, DATA_INLINES) for item in block.inlines)
        for block in cell
    )


def live_cells(table: b.Table) -> list[tuple[int, int]]:
    """Where the cells that are not plain data are, as ``(row, column)``, header first:
    the cells built as nodes when the page is read."""
    return [
        (row, column)
        for row, cells in enumerate((table.header, *table.rows), start=HEADER_ROW)
        for column, cell in enumerate(cells)
        if not is_data(cell)
    ]


def cell_at(table: b.Table, row: int, column: int) -> b.Cell:
    return (table.header if row == HEADER_ROW else table.rows[row])[column]


def data_inline(item: b.Text | b.Code | b.Figure | b.AnchorLink) -> nodes.Node:
    match item:
        case b.Text():
            return nodes.Text(item.text)
        case b.Code():
            return nodes.literal(item.text, item.text, classes=list(item.classes))
        case b.Figure():
            return figure(item)
        case b.AnchorLink():
            code = identifier(item.label, list(ATTRIBUTE_LINK_CLASSES))
            return nodes.reference("", "", code, refid=item.anchor, internal=True)


def paragraph(item: b.Paragraph, inlines: list[nodes.Node]) -> nodes.paragraph:
    # Data is shown exactly as computed: no curly quotes, dashes or ellipses.
    built = nodes.paragraph("", "", *inlines)
    built["classes"] = list(item.classes)
    built["support_smartquotes"] = False
    return built


def data_cell(cell: b.Cell) -> list[nodes.Node]:
    """The nodes of a cell of plain data (:func:`is_data`)."""
    return [
        paragraph(block, [data_inline(item) for item in block.inlines])  # type: ignore[arg-type]
        for block in cell
        if isinstance(block, b.Paragraph)
    ]


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

    def entry(row: int, column: int, cell: b.Cell) -> nodes.entry:
        built = live.get((row, column))
        if built is None:
            return nodes.entry("", *data_cell(cell))
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


class refgen_search_words(nodes.Invisible, nodes.Element):
    """The text of a compact table's data cells, for the search index only: HTML writes
    the table from its layout (:mod:`refgen.sphinx.html_tables`), never this."""


def data_texts(table: b.Table) -> list[str]:
    """The texts of every data cell of ``table``, one per text node the expanded table has."""
    live = set(live_cells(table))
    pieces = []
    for row, cells in enumerate((table.header, *table.rows), start=HEADER_ROW):
        for column, cell in enumerate(cells):
            if (row, column) not in live:
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
        case b.AnchorLink():
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
        for compact in doctree.findall(refgen_table):
            texts = [nodes.Text(text) for text in data_texts(compact["layout"])]
            compact += refgen_search_words("", *texts)
        return
    flat = output in NO_NESTED_TABLES
    for compact in list(doctree.findall(refgen_table)):
        table = expand(compact)
        compact.replace_self(table)
        if flat:
            rows_as_lists(table)


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


WIDEST_FIGURE_PART = 24
"""Widths (in characters) the stylesheet has a ``refgen-w<N>`` class for."""


FIGURE_CLASS = "refgen-figure"
ATTRIBUTE_LINK_CLASSES = ("xref", "py", "py-attr")
"""Classes of a link to an attribute on the same page (with :data:`IDENTIFIER_CLASS`)."""


def figure(item: b.Figure) -> nodes.inline:
    """A number as two boxes of its column's widths, the whole part right-aligned and the
    fraction left-aligned, so the column's decimal points line up."""
    shown = nodes.inline("", "", classes=[FIGURE_CLASS])
    for text, classes in figure_parts(item):
        shown += nodes.inline(text, text, classes=list(classes))
    return shown


def figure_parts(item: b.Figure) -> tuple[tuple[str, tuple[str, str]], ...]:
    """The whole part and the fraction of a figure, each with its classes (its kind, and its
    column's width in characters)."""
    return tuple(
        (text, (f"refgen-{kind}", f"refgen-w{min(width, WIDEST_FIGURE_PART)}"))
        for text, kind, width in (
            (item.whole, "whole", item.whole_width),
            (item.fraction, "fraction", item.fraction_width),
        )
    )


def identifier(name: str, classes: list[str]) -> refgen_identifier:
    return refgen_identifier(name, name, classes=[*classes, IDENTIFIER_CLASS])


def locate_references(roots: Iterable[nodes.Node], location: SourceLocation) -> None:
    """Give the links refgen made the page's Python file and line.

    A link that cannot be resolved is reported (under ``nitpicky``) there: at the
    class whose page shows it. Links in parsed prose keep their own lines.
    """
    for root in roots:
        if not isinstance(root, nodes.Element):
            continue
        for node in root.findall(addnodes.pending_xref):
            if node.source is None:
                node.source, node.line = location.path, location.line


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

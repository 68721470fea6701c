"""Blocks to docutils nodes: the page model as Sphinx's doctree.

:class:`NodeBuilder` walks a page's blocks in the context of the directive
reading it. Data becomes :class:`docutils.nodes.Text` (escaped by every
writer); links are real ``pending_xref`` nodes, resolved by Sphinx's domains,
so intersphinx, ``nitpicky`` and ``objects.inv`` see them; MathML and SVG become
:class:`~refgen.sphinx.nodes.refgen_markup` nodes; a table's cells of plain data
stay data (:mod:`refgen.sphinx.compact_tables`). Only
:class:`~refgen.render.blocks.Prose` is parsed as reST (:mod:`refgen.sphinx.prose`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, assert_never

from docutils import nodes
from docutils.statemachine import StringList
from sphinx import addnodes
from sphinx.util import docname_join
from sphinx.util.docutils import SphinxDirective, switch_source_input
from sphinx.util.nodes import make_id
from sphinx.util.parsing import nested_parse_to_nodes

from refgen.analysis.model import SourceLocation
from refgen.render import blocks as b
from refgen.sphinx.compact_tables import (
    ANCHORS,
    every_cell,
    live_cells,
    object_names,
    table_classes,
)
from refgen.sphinx.links import drop_reserved_labels, locate_targets, mark_docstring_links
from refgen.sphinx.nodes import (
    COPY_CLASS,
    NOT_SEARCHED,
    OPTIONAL,
    DataInline,
    IndexEntry,
    data_inline,
    dotted_name,
    every_node,
    identifier,
    index_entry,
    object_name,
    paragraph,
    pending_source_link,
    refgen_copy_button,
    refgen_details,
    refgen_file_link,
    refgen_markup,
    refgen_table,
)
from refgen.sphinx.prose import is_verbatim, link_mentions, plain_paragraphs
from refgen.sphinx.sandbox import disarm, guarded_directives, refuse, too_deep
from refgen.sphinx.smart_quotes import mark_page


class NodeBuilder:
    """Turns the blocks of one page into nodes, in the context of the directive reading it."""

    def __init__(self, directive: SphinxDirective) -> None:
        self.directive = directive
        self.env = directive.env
        self.document = directive.state.document
        self.page_location: SourceLocation | None = None
        mark_page(self.document)  # its smart quotes educate only what they can change

    # ------------------------------------------------------------------ pages

    def page(self, page: b.Page) -> list[nodes.Node]:
        self.page_location = page.location
        if page.module:
            self.env.ref_context["py:module"] = page.module
        section = self._section(page.title, page.blocks)
        place_page(section, self.document, page.location)
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
                return [refgen_markup(markup=item.markup, classes=classes)]
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
            case _:
                assert_never(item)

    # ------------------------------------------------------------------ inline

    def inlines(self, items: Iterable[b.Inline]) -> list[nodes.Node]:
        return [self.inline(item) for item in items]

    def inline(self, item: b.Inline) -> nodes.Node:
        if isinstance(item, b.ObjectName):
            return object_name(item, self._object_target(item)[0])
        if isinstance(item, DataInline):
            return data_inline(item, iter(()))
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
            case b.FileLink():
                return refgen_file_link(item.label, item.label, path=item.path)
            case _:
                assert_never(item)

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
            read = self._parse_within_depth(source, item)
            if read is None:
                return [refuse("is nested too deeply to read", item.location, None, source)]
            parsed = mark_docstring_links(read)
            drop_reserved_labels(parsed, self.document, item.subject, item.location)
            disarm(parsed, self.env, item.location)
        if item.mentions:
            mentions = item.mentions
            link_mentions(parsed, mentions, lambda name: self.inline(mentions[name]))
        return parsed

    def _parse_within_depth(self, source: str, item: b.Prose) -> list[nodes.Node] | None:
        """The parsed docstring, or None when it nests too deeply for Sphinx to keep."""
        try:
            parsed = self._parse(source, item)
        except RecursionError:  # docutils parses nesting by recursion
            return None
        return None if too_deep(parsed) else parsed

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
                read = nested_parse_to_nodes(self.directive.state, lines)
            locate_targets(read, lines)
            return read
        parsed: list[nodes.Node] = []
        # Inline markup is reported at the paragraph's own line of ``lines`` (counted from
        # 1), mapped to the Python file as the full parse maps it, not at the page's.
        with switch_source_input(self.directive.state, lines):
            for written, line in paragraphs:
                inline, messages = self.directive.parse_inline(written, lineno=line - first + 1)
                node = nodes.paragraph(written, "", *inline)
                for element in node.findall(nodes.Element):  # links and roles: at the docstring
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
        cells with links elsewhere or prose are built now, for the domains to see. The
        rows' objects are registered here, their targets' ids kept in order as the
        table's ``anchors`` and their index entries in one index node of the table."""
        table = refgen_table("", classes=table_classes(item), layout=item)
        live = set(live_cells(item))
        anchors: list[str] = []
        entries: list[IndexEntry] = []
        for at, cell in every_cell(item):
            if at in live:
                table += nodes.entry("", *self.blocks(cell))
                continue
            for name in object_names(cell):
                target, entry = self._object_target(name)
                anchors.append(target["ids"][0])
                entries.append(entry)
        if anchors:
            table[ANCHORS] = anchors
            table += addnodes.index(entries=entries)
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
            locate_nodes(built, item.location)  # an entry of this file: at its own line
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
        index = addnodes.index(
            entries=[self._register(signature, item.objtype, item.module, item.name)]
        )
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

    def _object_target(self, item: b.ObjectName) -> tuple[nodes.target, IndexEntry]:
        """The registered target of a table row's object (a label in LaTeX, an anchor in
        HTML), which its links point at, and its index entry."""
        target = nodes.target("", "")
        if item.location is not None:
            target.source, target.line = item.location.path, item.location.line
        else:
            self.directive.set_source_info(target)
        return target, self._register(target, item.objtype, item.module, item.name)

    def _register(self, node: nodes.Element, objtype: str, module: str, name: str) -> IndexEntry:
        """Make ``node`` the target of ``module.name`` in the Python domain; its index entry.

        The id is the dotted name as written, which is what the page's own links and
        the diagram point at; Sphinx's id (ASCII only: ``Größe`` becomes ``Grosze``)
        only where the two agree, so that ``café`` and ``cafe`` keep ids of their own.
        """
        fullname = dotted_name(module, name)
        node_id = make_id(self.env, self.document, "", fullname)
        if node_id != fullname and fullname not in self.document.ids:
            node_id = fullname
        node["ids"].append(node_id)
        self.document.note_explicit_target(node)
        domain: Any = self.env.get_domain("py")
        domain.note_object(fullname, objtype, node_id, location=node)
        return index_entry(objtype, fullname, node_id)


PLACED = (addnodes.pending_xref, nodes.title, nodes.image, nodes.topic)
"""What a page locates: its links, and the nodes Sphinx gives a source when they have none
(``ApplySourceWorkaround``, which logs a rendering of each at debug level whether or not
it is shown: 1.5 % of a clean build)."""


def place_page(root: nodes.Element, document: nodes.document, location: SourceLocation) -> None:
    """Tell every node of a page its document, and give the :data:`PLACED` nodes without
    a source the page's Python file and line, in one walk.

    A node that does not know its document asks its parent, up to the root, each time a
    child is added or replaced; the read transforms replace every text node they change
    (smart quotes). On refgen's pages that walk took 3 % of a clean build.
    """
    for node in every_node([root]):
        node.document = document
        if isinstance(node, PLACED) and node.source is None:
            node.source, node.line = location.path, location.line


def locate_nodes(roots: Iterable[nodes.Node], location: SourceLocation) -> None:
    """Give the links refgen made under ``roots`` that have no source ``location``.

    A link that cannot be resolved is reported (under ``nitpicky``) there: at the
    class whose page shows it, or the line of the entry that shows it. Nodes of
    parsed prose keep their own lines.
    """
    for node in every_node(roots):
        if isinstance(node, addnodes.pending_xref) and node.source is None:
            node.source, node.line = location.path, location.line

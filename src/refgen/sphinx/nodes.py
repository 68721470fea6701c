"""refgen's own docutils nodes: their classes, how each writer shows them, plain data as nodes.

Data becomes :class:`docutils.nodes.Text` (escaped by every writer); MathML and
SVG become :class:`refgen_markup` nodes holding what
:func:`refgen.render.markup.serialize` made of their element trees. HTML gets
refgen's markup for each node; other builders skip the MathML and SVG (the code
stands beside them), show names as code and folded content unfolded. The page
model's blocks are made into nodes by
:class:`~refgen.sphinx.node_builder.NodeBuilder`; a table of figures stays a
compact :class:`refgen_table` until :mod:`refgen.sphinx.compact_tables` expands it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any, assert_never

from docutils import nodes
from sphinx import addnodes
from sphinx.util.osutil import relative_uri

from refgen.render import blocks as b
from refgen.render.figures import FIGURE_CLASS, figure_parts
from refgen.render.markup import escape

NOT_SEARCHED = "no-search"
"""Sphinx's class for content its search index skips: figures and diagrams, not prose."""


def every_node(roots: Iterable[nodes.Node]) -> Iterator[nodes.Node]:
    """Every node under ``roots``, the roots included, in no particular order.

    ``Node.findall`` yields each node through one generator per level above it; on
    refgen's pages, walked three times each, that was 1.5 % of a clean build.
    """
    stack = list(roots)
    while stack:
        node = stack.pop()
        yield node
        stack.extend(node.children)


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


# Stored doctrees pickle refgen's node classes by module: they stay here, whatever uses them.
class refgen_table(nodes.table):
    """A table whose cells of plain data (text, code, figures, links on the page, the
    names of its rows' objects) stay page-model data until the page is resolved for
    writing.

    Tables of figures are most of a class page's nodes, and while a page is read
    every docutils and Sphinx transform walks every node, then the doctree is
    pickled and read back. Cells holding links to other pages or parsed prose are
    built when the page is read (this node's children, one
    ``entry`` each, in the order of
    :func:`~refgen.sphinx.compact_tables.live_cells`), so the domains register
    and resolve them as usual. ``layout`` is the :class:`~refgen.render.blocks.Table`;
    ``anchors`` the target ids of the objects its data cells name, registered when the
    page is read, and one ``index`` child holds their index entries.
    :func:`~refgen.sphinx.compact_tables.expand_tables` turns it into the docutils table
    every writer and the search index know, the same nodes a table built whole would have.
    """


class refgen_search_words(nodes.Invisible, nodes.Element):
    """The text of a compact table's data cells, for the search index only: HTML writes
    the table from its layout (:mod:`refgen.sphinx.html_tables`), never this."""


DataInline = b.Text | b.Code | b.Figure | b.AnchorLink | b.ObjectName
"""Inline items kept as data in tables: plain data, and the names of the rows' objects,
whose targets and index entries the table registers when the page is read."""


def data_inline(item: DataInline, anchors: Iterator[str]) -> nodes.Node:
    """The nodes of ``item``; an object's name takes its target id from ``anchors``."""
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
        case b.ObjectName():
            return object_name(item, object_target(item, next(anchors)))
        case _:
            assert_never(item)


OBJECT_CLASS = "refgen-object"
NAME_CLASS = "refgen-name"


def object_name(item: b.ObjectName, target: nodes.target) -> nodes.inline:
    """A table row's object: its index entry, its ``target`` and its name as code."""
    entry = index_entry(item.objtype, dotted_name(item.module, item.name), target["ids"][0])
    name = identifier(item.label, [NAME_CLASS])
    index = addnodes.index(entries=[entry])
    return nodes.inline("", "", index, target, name, classes=[OBJECT_CLASS])


def object_target(item: b.ObjectName, node_id: str) -> nodes.target:
    """The target of a table row's object, at the object's source line when it has one."""
    target = nodes.target("", "", ids=[node_id])
    if item.location is not None:
        target.source, target.line = item.location.path, item.location.line
    return target


def dotted_name(module: str, name: str) -> str:
    """``name`` (``Class.attribute``) with its module, when it has one."""
    return f"{module}.{name}" if module else name


IndexEntry = tuple[str, str, str, str, str | None]


def index_entry(objtype: str, fullname: str, node_id: str) -> IndexEntry:
    """Sphinx's index entry of an object of the Python domain, as its own directives make it."""
    owner, _, attribute = fullname.rpartition(".")
    return ("single", f"{attribute} ({owner} {objtype})", node_id, "", None)


def paragraph(item: b.Paragraph, inlines: list[nodes.Node]) -> nodes.paragraph:
    # Data is shown exactly as computed: no curly quotes, dashes or ellipses.
    built = nodes.paragraph("", "", *inlines)
    built["classes"] = list(item.classes)
    built["support_smartquotes"] = False
    return built


ATTRIBUTE_LINK_CLASSES = ("xref", "py", "py-attr")
"""Classes of a link to an attribute on the same page (with :data:`IDENTIFIER_CLASS`)."""


def figure(item: b.Figure) -> nodes.inline:
    """A number as two boxes of its column's widths, the whole part right-aligned and the
    fraction left-aligned, so the column's decimal points line up."""
    shown = nodes.inline("", "", classes=[FIGURE_CLASS])
    for text, classes in figure_parts(item):
        shown += nodes.inline(text, text, classes=list(classes))
    return shown


def identifier(name: str, classes: list[str]) -> refgen_identifier:
    return refgen_identifier(name, name, classes=[*classes, IDENTIFIER_CLASS])

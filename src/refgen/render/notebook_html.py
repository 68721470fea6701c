"""Pages as HTML for notebooks: the page model written as markup without Sphinx.

The site's HTML is written by Sphinx's HTML writer from docutils nodes, which takes
a Sphinx application (builder, environment, a translator per document), and the
nodes come from :mod:`refgen.sphinx.nodes`, which builds Sphinx's own link nodes;
a notebook has neither, and outside ``refgen/sphinx/`` refgen imports neither
Sphinx nor docutils (ruff's TID251). So the few block types a notebook's page
uses (paragraphs, sections, tables of figures, MathML, folded code) are walked
here into an element tree with the class names of ``refgen.css``, every string
placed in it as data (:func:`refgen.render.markup.element`) and written by
:func:`refgen.render.markup.serialize_html`: the one escaping path. A small style
sheet travels with each page, so its numbers line up in Jupyter as on the site (its
selectors use no ``>``: the serializer escapes it, and a ``<style>`` reads no escapes).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterable

from refgen.render import blocks as b
from refgen.render.figures import FIGURE_CLASS, WIDEST_FIGURE_PART, figure_parts
from refgen.render.markup import element, serialize_html, xml_safe

PAGE_CLASS = "refgen-notebook"
LINK_CLASS = "refgen-reference-link"

STYLE = (
    f".{PAGE_CLASS} table {{ border-collapse: collapse; margin: 0.3em 0 0.8em; }}\n"
    f".{PAGE_CLASS} th, .{PAGE_CLASS} td {{ text-align: left; vertical-align: top;"
    " padding: 0.15em 0.6em; }\n"
    f".{PAGE_CLASS} td.refgen-number {{ text-align: right; padding-right: 0.3em;"
    " font-variant-numeric: tabular-nums; white-space: nowrap; }\n"
    f".{PAGE_CLASS} td.refgen-unit-cell {{ padding-left: 0; white-space: nowrap; }}\n"
    f".{PAGE_CLASS} p {{ margin: 0.2em 0; }}\n"
    f".{PAGE_CLASS} .refgen-subtitle {{ opacity: 0.8; }}\n"
    f".{FIGURE_CLASS} {{ white-space: nowrap; }}\n"
    f".{FIGURE_CLASS} .refgen-whole, .{FIGURE_CLASS} .refgen-fraction"
    " { display: inline-block; }\n"
    f".{FIGURE_CLASS} .refgen-whole {{ text-align: right; }}\n"
    f".{FIGURE_CLASS} .refgen-fraction {{ text-align: left; }}\n"
    f".{PAGE_CLASS} details.refgen-code summary {{ cursor: pointer; font-size: 0.85em;"
    " opacity: 0.8; }\n"
    + " ".join(
        f".refgen-w{width} {{ min-width: {width}ch; }}" for width in range(WIDEST_FIGURE_PART + 1)
    )
    + "\n"
)


def append_text(parent: ET.Element, text: str) -> None:
    """``text`` after what ``parent`` holds already (its text, or its last child's tail)."""
    if not text:
        return
    if len(parent):
        last = parent[-1]
        last.tail = (last.tail or "") + xml_safe(text)
    else:
        parent.text = (parent.text or "") + xml_safe(text)


def _classes(*names: str) -> dict[str, str]:
    joined = " ".join(name for name in names if name)
    return {"class": joined} if joined else {}


class HtmlWriter:
    """Blocks to an HTML element tree; sections start at heading level ``level``."""

    def __init__(self, level: int = 3) -> None:
        self.level = level

    def page(self, page: b.Page, link: str | None = None) -> str:
        """The page as one ``<div>``, its style sheet first; ``link``, the address of
        its reference page, last."""
        root = element("div", **_classes(PAGE_CLASS))
        root.append(element("style", text=STYLE))
        root.append(element(f"h{self.level}", text=page.title))
        self.blocks(root, page.blocks, self.level + 1)
        if link is not None:
            anchor = element("a", text="Reference page", href=link)
            root.append(element("p", anchor, **_classes(LINK_CLASS)))
        return serialize_html(root)

    def blocks(self, parent: ET.Element, items: Iterable[b.Block], level: int) -> None:
        for item in items:
            self.block(parent, item, level)

    def block(self, parent: ET.Element, item: b.Block, level: int) -> None:
        match item:
            case b.Paragraph():
                paragraph = element("p", **_classes(*item.classes))
                self.inlines(paragraph, item.inlines)
                parent.append(paragraph)
            case b.Section():
                section = element("section", **_classes(*item.classes))
                section.append(element(f"h{min(level, 6)}", text=item.title))
                self.blocks(section, item.blocks, level + 1)
                parent.append(section)
            case b.Table():
                parent.append(self.table(item, level))
            case b.Markup():
                parent.append(element("div", item.element, **_classes(*item.classes)))
            case b.Collapsible():
                folded = element("details", **_classes(*item.classes))
                folded.append(element("summary", text=item.summary))
                self.blocks(folded, item.blocks, level)
                parent.append(folded)
            case b.CodeBlock():
                code = element("code", text=item.text)
                parent.append(element("pre", code, **_classes(*item.classes)))
            case _:
                raise TypeError(f"not a block a notebook page uses: {item!r}")

    def inlines(self, parent: ET.Element, items: Iterable[b.Inline]) -> None:
        for item in items:
            self.inline(parent, item)

    def inline(self, parent: ET.Element, item: b.Inline) -> None:
        match item:
            case b.Text():
                append_text(parent, item.text)
            case b.Code():
                parent.append(element("code", text=item.text, **_classes(*item.classes)))
            case b.Xref() if not item.code:
                append_text(parent, item.label)
            case b.Xref() | b.AnchorLink() | b.ObjectName() | b.SourceLink():
                parent.append(element("code", text=item.label))
            case b.DocLink() | b.FileLink():
                append_text(parent, item.label)
            case b.Figure():
                parent.append(figure(item))
            case _:
                raise TypeError(f"not an inline item: {item!r}")

    def table(self, table: b.Table, level: int) -> ET.Element:
        shown = element("table", **_classes(*table.classes))
        head = element("thead")
        spans = table.header_spans or (1,) * len(table.header)
        row = element("tr")
        for cell, span in zip(table.header, spans, strict=True):
            heading = element("th", **({"colspan": str(span)} if span > 1 else {}))
            self.cell(heading, cell, level)
            row.append(heading)
        head.append(row)
        body = element("tbody")
        for number, cells in enumerate(table.rows):
            row = element("tr")
            for column, cell in enumerate(cells):
                tag = "th" if column < table.stub_columns else "td"
                shown_cell = element(tag, **_classes(*table.classes_of(number, column)))
                self.cell(shown_cell, cell, level)
                row.append(shown_cell)
            body.append(row)
        if table.header:
            shown.append(head)
        shown.append(body)
        return shown

    def cell(self, parent: ET.Element, cell: b.Cell, level: int) -> None:
        """A cell of one paragraph holds its inlines alone, as Sphinx writes it."""
        if len(cell) == 1 and isinstance(cell[0], b.Paragraph) and not cell[0].classes:
            self.inlines(parent, cell[0].inlines)
        else:
            self.blocks(parent, cell, level)


def figure(item: b.Figure) -> ET.Element:
    """A number as two boxes of its column's widths, the whole part right-aligned and the
    fraction left-aligned, so the column's decimal points line up (as on the site)."""
    shown = element("span", **_classes(FIGURE_CLASS))
    for part, classes in figure_parts(item):
        shown.append(element("span", text=part, **_classes(*classes)))
    return shown

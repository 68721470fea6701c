"""Every walker of blocks handles every kind of block and inline item.

The page model's ``Block`` and ``Inline`` unions are closed, and each walker
(:class:`~refgen.sphinx.node_builder.NodeBuilder`, the HTML table writer,
``TextWriter``, ``MarkdownWriter``) ends in ``assert_never``: mypy names a
walker that misses a new kind. These tests hold the same at run time, with a
page of one of every kind built by Sphinx, printed as terminal text and
written as Markdown.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import get_args

from refgen.analysis.model import SourceLocation
from refgen.render import blocks as b
from refgen.render.markdown import MarkdownWriter
from refgen.render.text import TextWriter
from refgen.sphinx.nodes import DataInline
from refgen.testing import write_scenario_project
from tests.html_helpers import read_html
from tests.sphinx.test_pages import MODULE

EVERY_INLINE: dict[type, b.Inline] = {
    b.Text: b.Text("textinline "),
    b.Code: b.Code("codeinline"),
    b.Xref: b.Xref("class", "nowhere.Missing", "xrefinline", optional=True),
    b.DocLink: b.DocLink("index", "doclinkinline"),
    b.AnchorLink: b.AnchorLink("walkers.Thing.objectnameinline", "anchorlinkinline"),
    b.SourceLink: b.SourceLink("walkers.Thing", "sourcelinkinline"),
    b.ObjectName: b.ObjectName("attribute", "walkers", "Thing.objectnameinline"),
    b.Figure: b.Figure("12", ".5", 2, 2),
    b.FileLink: b.FileLink("reference/registry.csv", "filelinkinline"),
}


def markup() -> ET.Element:
    math = ET.Element("math")
    ET.SubElement(math, "mi").text = "markupblock"
    return math


EVERY_BLOCK: dict[type, b.Block] = {
    b.Paragraph: b.Paragraph(tuple(EVERY_INLINE.values())),
    b.Prose: b.Prose("proseblock"),
    b.CodeBlock: b.CodeBlock("codeblock = 1", copy_label="Copy"),
    b.Markup: b.Markup(markup()),
    b.FieldList: b.FieldList((b.Field("fieldlabel", (b.text("fieldbody"),)),)),
    b.Definitions: b.Definitions((("definitionterm", (b.text("definitionbody"),)),)),
    b.BulletList: b.BulletList(((b.text("bulletitem"),),)),
    b.Table: b.Table(  # a cell of plain data, written from the layout, and a live cell
        header=((b.text("tableheader"),), (b.text("tablelink"),)),
        rows=(
            (
                (
                    b.Paragraph(  # a row's object is an object of its own
                        (
                            b.ObjectName("property", "walkers", "Thing.rowname"),
                            *(
                                i
                                for i in EVERY_INLINE.values()
                                if isinstance(i, DataInline) and not isinstance(i, b.ObjectName)
                            ),
                        )
                    ),
                ),
                (b.text("tablecell ", EVERY_INLINE[b.DocLink]),),
            ),
        ),
    ),
    b.Rubric: b.Rubric("rubricblock"),
    b.Section: b.Section("sectionblock", (b.text("insection"),)),
    b.PyObject: b.PyObject(
        "attribute", "walkers", "Thing.pyobjectblock", annotation="int", body=(b.text("pybody"),)
    ),
    b.Collapsible: b.Collapsible("collapsiblesummary", (b.text("collapsiblebody"),)),
    b.TocTree: b.TocTree(("other",), hidden=True),
}

SHOWN_EVERYWHERE = (
    "textinline",
    "codeinline",
    "xrefinline",
    "doclinkinline",
    "anchorlinkinline",
    "sourcelinkinline",
    "objectnameinline",
    "rowname",
    "12.5",
    "filelinkinline",
    "proseblock",
    "codeblock",
    "fieldlabel",
    "fieldbody",
    "definitionterm",
    "definitionbody",
    "bulletitem",
    "tableheader",
    "tablelink",
    "tablecell",
    "rubricblock",
    "sectionblock",
    "insection",
    "pyobjectblock",
    "pybody",
    "collapsiblebody",
)
"""A word of every kind; a site also shows MathML and folds content under a summary."""


def every_kind_page() -> b.Page:
    return b.Page(
        "Every kind", tuple(EVERY_BLOCK.values()), SourceLocation("walkers.rst", 1), "walkers"
    )


def test_the_examples_cover_every_kind_the_page_model_has() -> None:
    assert set(EVERY_INLINE) == set(get_args(b.Inline))
    assert set(EVERY_BLOCK) == set(get_args(b.Block))


def test_terminal_text_shows_every_kind() -> None:
    shown = TextWriter().page(every_kind_page())
    assert [word for word in SHOWN_EVERYWHERE if word not in shown] == []


def test_markdown_shows_every_kind() -> None:
    shown = MarkdownWriter("walkers").page(every_kind_page())
    assert [word for word in SHOWN_EVERYWHERE if word not in shown] == []


EVERY_KIND_DIRECTIVE = """

from sphinx.util.docutils import SphinxDirective

from refgen.sphinx.node_builder import NodeBuilder
from tests.unit.render.test_block_walkers import every_kind_page


class EveryKind(SphinxDirective):
    def run(self):
        return NodeBuilder(self).page(every_kind_page())


def setup(app):
    app.add_directive("every-kind", EveryKind)
"""


def test_a_site_shows_every_kind(tmp_path: Path) -> None:
    project = write_scenario_project(
        tmp_path, "fruit", {"counting": MODULE}, conf_extra=EVERY_KIND_DIRECTIVE
    )
    (project.docs / "walkers.rst").write_text(":orphan:\n\n.. every-kind::\n")
    (project.docs / "other.rst").write_text(":orphan:\n\nOther\n=====\n")
    for builder in ("html", "text"):
        result = project.build(builder, "-W", "--keep-going", outdir=tmp_path / builder)
        assert result.returncode == 0, result.stderr
    page = read_html(tmp_path / "html" / "walkers.html").get_text()
    assert [word for word in [*SHOWN_EVERYWHERE, "markupblock"] if word not in page] == []
    written = (tmp_path / "text" / "walkers.txt").read_text(encoding="utf-8")
    text = "".join(written.split())  # the text writer wraps lines inside words
    assert [word for word in SHOWN_EVERYWHERE if word not in text] == []

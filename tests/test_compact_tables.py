"""Tables of data stay data while a page is read, and become ordinary tables for writers.

A class page is mostly tables of figures; read as docutils tables, every one
of their cells is walked by every transform and pickled with the doctree.
refgen keeps a table's plain cells as the page model's data until the page is
resolved (:class:`refgen.sphinx.nodes.refgen_table`). These tests hold both
halves: the doctree Sphinx stores is small, and what writers get is the table
a reader sees, links and highlights included.
"""

from __future__ import annotations

import json
import pickle
import re
from pathlib import Path

from docutils import nodes
from sphinx.search.en import SearchEnglish
from sphinx.writers.html5 import HTML5Translator

from refgen.config import settings_table
from refgen.render import blocks as b
from refgen.sphinx.html_tables import is_stock_writer
from refgen.sphinx.nodes import data_words, expand, expand_tables, refgen_table
from refgen.testing import BuildResult, sphinx_build, write_scenario_project
from tests.conftest import copy_docs
from tests.html_helpers import read_html

PAGE = "reference/refgen_scenarios.training/UpdateWorkingSetScenario"


def stored_doctree(site: BuildResult) -> nodes.document:
    return pickle.loads((site.outdir / ".doctrees" / f"{PAGE}.doctree").read_bytes())


def test_the_stored_page_keeps_its_figures_as_data(site: BuildResult) -> None:
    doctree = stored_doctree(site)
    compact = list(doctree.findall(refgen_table))
    assert compact, "the class page's tables are stored compact"
    stored = sum(1 for _ in doctree.findall())
    expand_tables(None, doctree)
    written = sum(1 for _ in doctree.findall())
    assert not list(doctree.findall(refgen_table))
    assert stored * 2 < written, (stored, written)


def test_cells_with_links_are_read_as_nodes_and_keep_their_links(site: BuildResult) -> None:
    doctree = stored_doctree(site)
    live_links = [
        link
        for table in doctree.findall(refgen_table)
        for entry in table.children
        for link in entry.findall(nodes.Element)
        if link.tagname == "pending_xref"
    ]
    assert live_links, "entry and attribute links are real pending_xref nodes when read"
    html = (site.outdir / f"{PAGE}.html").read_text()
    assert 'class="refgen-values' in html
    assert "PhoneFullUpdateWorkingSet" in html


def test_expanding_puts_every_cell_in_its_place() -> None:
    def cell(*words: str) -> b.Cell:
        return (b.text(*words),)

    table = b.Table(
        header=(cell("Attribute"), cell("A")),
        rows=((cell("x"), cell("1")), (cell("y"), (b.text(b.Xref("attr", "m.C.y", "y")),))),
        classes=("refgen-values",),
        stub_columns=1,
        cell_classes=((("refgen-differs",), ("refgen-differs",)),),
    )
    live = nodes.entry("", nodes.paragraph("", "linked"))
    compact = refgen_table("", live, classes=["colwidths-auto"], layout=table)  # the link cell
    built = expand(compact)
    rows = list(built.findall(nodes.row))
    assert [[entry.astext() for entry in row.children] for row in rows] == [
        ["Attribute", "A"],
        ["x", "1"],
        ["y", "linked"],
    ]
    assert rows[1].children[0]["classes"] == ["refgen-differs"]
    assert rows[2].children[1] is live
    assert [spec["stub"] for spec in built.findall(nodes.colspec)] == [1, 0]
    assert built["classes"] == ["colwidths-auto"]


def test_words_in_data_cells_are_in_the_search_index(tmp_path: Path) -> None:
    # The settings table is all cells of plain data, kept compact while the page is
    # read: it must be expanded before the search index reads the page.
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "conf.py").write_text('extensions = ["refgen"]\nrefgen_modules = []\n')
    (docs / "index.rst").write_text(
        "Settings\n========\n\n.. refgen-settings::\n\n.. toctree::\n\n   reference/index\n"
    )
    result = sphinx_build(docs, tmp_path / "html", "html", "-W")
    assert result.returncode == 0, result.stderr
    script = (result.outdir / "searchindex.js").read_text()
    terms = json.loads(script.removeprefix("Search.setIndex(").removesuffix(")"))["terms"]
    english = SearchEnglish({})
    meanings = " ".join(meaning for *_names, meaning in settings_table())
    words = [
        word.lower() for word in english.split(meanings) if re.fullmatch(r"[A-Za-z]{5,}", word)
    ]
    stems = {english.stem(word) for word in words if english.word_filter(english.stem(word))}
    assert stems and stems <= set(terms), sorted(stems - set(terms))


GRID = '''
    """Grid scenarios."""

    from dataclasses import dataclass


    @dataclass(frozen=True, kw_only=True)
    class Grid:
        """A grid."""

        cells: float = 4.0
        """How many cells, by size:

        .. list-table::
           :header-rows: 1

           * - Size
             - Cells
           * - small
             - fourteen
        """

        @property
        def doubled(self) -> float:
            """Twice the cells."""
            return 2 * self.cells
'''


def test_a_table_in_a_docstring_in_a_table_cell_builds_everywhere(tmp_path: Path) -> None:
    # Sphinx's text and man writers stop at a table inside a table: there, the
    # docstring's table becomes a list of its rows; HTML keeps the table.
    project = write_scenario_project(tmp_path, "grids", {"layout": GRID})
    for builder in ("text", "man", "html"):
        result = project.build(builder, "-W")
        assert result.returncode == 0, (builder, result.stderr)
    page = (tmp_path / "_build" / "text" / "reference" / "grids.layout" / "Grid.txt").read_text()
    assert "small" in page and "fourteen" in page
    html = read_html(tmp_path / "_build" / "html" / "reference" / "grids.layout" / "Grid.html")
    nested = [t for t in html.find_all("table") if t.find_parent("table")]
    assert nested and "fourteen" in nested[0].get_text()


SAME_WRITER = '''

from sphinx.writers.html5 import HTML5Translator


class SameTablesTranslator(HTML5Translator):
    """Writes every node as Sphinx does, through a method of its own."""

    def visit_paragraph(self, node):
        super().visit_paragraph(node)


def setup(app):
    app.set_translator("html", SameTablesTranslator, override=True)
'''


def test_tables_written_straight_to_html_are_the_tables_sphinx_writes(
    site: BuildResult, tmp_path: Path
) -> None:
    # The site's own build writes compact tables from their layout; a translator with
    # a paragraph method of its own is not Sphinx's as far as refgen can tell, so it
    # gets every table expanded into nodes. Both must write the same bytes.
    namespace: dict[str, object] = {}
    exec(SAME_WRITER, namespace)
    assert is_stock_writer(HTML5Translator)
    assert not is_stock_writer(namespace["SameTablesTranslator"])  # type: ignore[arg-type]
    srcdir = copy_docs(tmp_path / "docs")
    with (srcdir / "conf.py").open("a") as conf:
        conf.write(SAME_WRITER)
    expanded = sphinx_build(srcdir, tmp_path / "html", "html", "-W", "--keep-going")
    assert expanded.returncode == 0, expanded.stderr
    pages = sorted(p.relative_to(site.outdir) for p in site.outdir.rglob("*.html"))
    tables = sum((site.outdir / page).read_text().count("<table") for page in pages)
    assert len(pages) > 50 and tables > 100, (len(pages), tables)
    differ = [
        str(page)
        for page in pages
        if (site.outdir / page).read_bytes() != (expanded.outdir / page).read_bytes()
    ]
    assert not differ
    assert (site.outdir / "searchindex.js").read_bytes() == (
        expanded.outdir / "searchindex.js"
    ).read_bytes()


THEMED_ROWS = """
from sphinx.writers.html5 import HTML5Translator


class ThemedTranslator(HTML5Translator):
    def visit_row(self, node):
        node["classes"].append("themed-row")
        super().visit_row(node)


def setup(app):
    app.set_translator("html", ThemedTranslator, override=True)
"""


def test_a_theme_that_writes_rows_its_own_way_gets_its_rows(tmp_path: Path) -> None:
    project = write_scenario_project(tmp_path, "themed", {"layout": GRID}, conf_extra=THEMED_ROWS)
    result = project.build("html", "-W")
    assert result.returncode == 0, result.stderr
    html = read_html(tmp_path / "_build" / "html" / "reference" / "themed.layout" / "Grid.html")
    rows = html.select("table.refgen-inputs tr")
    assert rows and all("themed-row" in row.get("class", []) for row in rows)


def test_the_search_index_gets_the_words_of_data_cells_as_written() -> None:
    figure = b.Figure("1,234", ".5", 5, 2)
    table = b.Table(
        header=((b.text("Name"),), (b.text("Value"),)),
        rows=(
            ((b.Paragraph((b.AnchorLink("m.C.peak_rate", "peak_rate"),)),), (b.text(figure),)),
            ((b.Paragraph((b.Code("Q_(3, 'kW')"),)),), (b.text(b.Xref("attr", "m.C.y", "y")),)),
        ),
    )
    live = nodes.entry("", nodes.paragraph("", "linked words"))
    compact = refgen_table("", live, classes=["colwidths-auto"], layout=table)
    english = SearchEnglish({})
    written = [
        word
        for text in expand(compact).findall(nodes.Text)
        if text.astext() != "linked words"
        for word in english.split(text.astext())
    ]
    assert sorted(english.split(data_words(table))) == sorted(written)
    assert "peak_rate" in written and "1" in written and "234" in written

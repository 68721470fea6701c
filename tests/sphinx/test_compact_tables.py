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
from types import SimpleNamespace
from typing import Any
from urllib.parse import urldefrag

import pytest
from docutils import nodes
from hypothesis import given as for_any
from hypothesis import strategies as st
from sphinx import addnodes
from sphinx.events import EventListener
from sphinx.search import SearchLanguage
from sphinx.search.en import SearchEnglish
from sphinx.search.ja import SearchJapanese
from sphinx.writers.html5 import HTML5Translator

from refgen.config import settings_table
from refgen.render import blocks as b
from refgen.sphinx import html_tables
from refgen.sphinx.compact_tables import (
    ANCHORS,
    HEADER_ROW,
    data_texts,
    expand,
    expand_tables,
    object_names,
)
from refgen.sphinx.html_tables import TableWriter, is_stock_writer
from refgen.sphinx.nodes import refgen_search_words, refgen_table
from refgen.sphinx.private import TABLE_ROW_INDICES
from refgen.testing import BuildResult, sphinx_build, write_scenario_project
from tests.conftest import copy_docs
from tests.html_helpers import read_html
from tests.unit.evaluate.test_ahead import write_boxes

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
    # No reference, only refgen's settings table: the empty reference is no warning here.
    conf = 'extensions = ["refgen"]\nrefgen_modules = []\nsuppress_warnings = ["refgen.import"]\n'
    (docs / "conf.py").write_text(conf)
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


READ_AFTER_REFGEN = """

from pathlib import Path

from docutils import nodes

from refgen.sphinx import nodes as compact_nodes


def count_tables(app, doctree, docname):
    # A handler of another extension, after refgen's: it may read any table cell.
    compact = sum(1 for _ in doctree.findall(compact_nodes.refgen_table))
    tables = sum(1 for node in doctree.findall(nodes.table))
    with Path(app.outdir, "tables-seen.txt").open("a") as seen:
        seen.write(f"{tables} {compact}\\n")


def setup(app):
    app.connect("doctree-resolved", count_tables)
"""


COUNT_WRITTEN = """

from pathlib import Path

import refgen.sphinx.html_tables as html_tables

_written = []
_write = html_tables.TableWriter.write


def _counting_write(self):
    _written.append(self.node)
    _write(self)


def _report(app, exception):
    html_tables.TableWriter.write = _write
    Path(app.outdir, "tables-written.txt").write_text(str(len(_written)))


def setup(app):
    html_tables.TableWriter.write = _counting_write
    app.connect("build-finished", _report)
"""


def tables_written(outdir: Path) -> int:
    """Tables written straight to HTML in the build of :data:`COUNT_WRITTEN`."""
    return int((outdir / "tables-written.txt").read_text())


def tables_seen(outdir: Path) -> tuple[int, int]:
    """Tables, and compact tables among them, the handler of :data:`READ_AFTER_REFGEN` saw."""
    counts = [line.split() for line in (outdir / "tables-seen.txt").read_text().splitlines()]
    return sum(int(tables) for tables, _ in counts), sum(int(compact) for _, compact in counts)


def same_files(first: Path, second: Path, pattern: str) -> list[str]:
    """The files matching ``pattern`` under ``first`` that differ in ``second``."""
    files = sorted(path.relative_to(first) for path in first.rglob(pattern))
    assert files
    return [str(f) for f in files if (first / f).read_bytes() != (second / f).read_bytes()]


def test_tables_written_straight_to_html_are_the_tables_sphinx_writes(
    site: BuildResult, tmp_path: Path
) -> None:
    # The site's own build writes compact tables from their layout and indexes their
    # words from refgen's list. With a handler of another extension after refgen's,
    # every table is expanded into nodes before that handler, the search index and the
    # writer see it. Both must give the same bytes.
    assert is_stock_writer(HTML5Translator)
    srcdir = copy_docs(tmp_path / "docs")
    with (srcdir / "conf.py").open("a") as conf:
        conf.write(READ_AFTER_REFGEN)
    expanded = sphinx_build(srcdir, tmp_path / "html", "html", "-W", "--keep-going")
    assert expanded.returncode == 0, expanded.stderr
    tables, compact = tables_seen(expanded.outdir)
    assert tables > 100 and compact == 0, (tables, compact)
    assert not same_files(site.outdir, expanded.outdir, "*.html")
    assert not same_files(site.outdir, expanded.outdir, "searchindex.js")


HOSTILE_MODELS = '''
    """Labels."""

    from dataclasses import dataclass


    @dataclass(frozen=True, kw_only=True)
    class Label:
        """A label."""

        text: str = "a\\x00 b\\x00c <b>&amp; \\"q\\"   x\\ty"
        """Text with a null escape, markup and runs of spaces."""

        size: float = 2.0
        """Points."""

        @property
        def shown(self) -> str:
            """The text, as shown."""
            return self.text + "\\x00"

        @property
        def area(self) -> float:
            """Square points."""
            return self.size**2
'''
HOSTILE_REGISTRY = '''
    from labels.models import Label


    class Named:
        """Named labels."""

        Plain = Label()
        Marked = Label(text="<script>alert(1)</script>\\x00\\t\\t x\\x00y", size=3.0)
'''


def test_hostile_text_in_data_cells_is_written_as_in_the_expanded_table(tmp_path: Path) -> None:
    built = {}
    for name, extra in (("straight", COUNT_WRITTEN), ("expanded", READ_AFTER_REFGEN)):
        project = write_scenario_project(
            tmp_path / name,
            "labels",
            {"models": HOSTILE_MODELS, "registry": HOSTILE_REGISTRY},
            registry="registry.Named",
            conf_extra=extra,
        )
        result = project.build("html", "-W")
        assert result.returncode == 0, result.stderr
        built[name] = result.outdir
    assert tables_written(built["straight"]) > 5
    page = built["straight"] / "reference" / "labels.models" / "Label.html"
    assert "\x00" not in page.read_text() and "&lt;script&gt;" in page.read_text()
    assert not same_files(built["straight"], built["expanded"], "*.html")
    assert not same_files(built["straight"], built["expanded"], "searchindex.js")


def test_the_search_index_in_japanese_splits_data_cells_as_it_splits_nodes(
    tmp_path: Path,
) -> None:
    # Japanese splitting depends on the text around a word: each cell's text is given
    # to the index apart, as its text node would be.
    built = {}
    for name, extra in (("straight", COUNT_WRITTEN), ("expanded", READ_AFTER_REFGEN)):
        docs = tmp_path / name / "docs"
        docs.mkdir(parents=True)
        conf = 'extensions = ["refgen"]\nrefgen_modules = []\nhtml_search_language = "ja"\n'
        conf += 'suppress_warnings = ["refgen.import"]\n'  # no reference: only the table
        (docs / "conf.py").write_text(conf + extra)
        (docs / "index.rst").write_text(
            "Settings\n========\n\n.. refgen-settings::\n\n.. toctree::\n\n   reference/index\n"
        )
        result = sphinx_build(docs, tmp_path / name / "html", "html", "-W")
        assert result.returncode == 0, result.stderr
        built[name] = result.outdir
    assert tables_written(built["straight"]) == 1
    assert not same_files(built["straight"], built["expanded"], "searchindex.js")


def test_the_rows_objects_are_targets_and_index_entries_without_nodes_of_their_own(
    tmp_path: Path,
) -> None:
    # A row's name is data: the table registers its target and keeps its id and index
    # entry; the page's ids, the general index and the HTML anchors are as before.
    project = write_scenario_project(tmp_path, "grids", {"layout": GRID})
    result = project.build("html", "-W")
    assert result.returncode == 0, result.stderr
    page = "reference/grids.layout/Grid"
    doctree = pickle.loads((result.outdir / ".doctrees" / f"{page}.doctree").read_bytes())
    tables = list(doctree.findall(refgen_table))
    anchors = [anchor for table in tables for anchor in table[ANCHORS]]
    assert anchors == ["grids.layout.Grid.cells", "grids.layout.Grid.doubled"]
    assert all(anchor in doctree.ids for anchor in anchors)
    assert not [target for table in tables for target in table.findall(nodes.target)]
    entries = [
        entry[2]
        for table in tables
        for index in table.children
        if isinstance(index, addnodes.index)
        for entry in index["entries"]
    ]
    assert entries == anchors
    expanded = [expand(table) for table in tables]
    targets = [target["ids"] for table in expanded for target in table.findall(nodes.target)]
    assert targets == [[anchor] for anchor in anchors]
    html = read_html(result.outdir / f"{page}.html")
    genindex = read_html(result.outdir / "genindex.html")
    links = {urldefrag(a["href"]).fragment for a in genindex.find_all("a", href=True)}
    for anchor in anchors:
        assert html.find(id=anchor) is not None and anchor in links, anchor


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


def test_the_search_index_gets_the_text_of_data_cells_as_written() -> None:
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
    written = [
        str(text) for text in expand(compact).findall(nodes.Text) if str(text) != "linked words"
    ]
    assert data_texts(table) == written
    assert "peak_rate" in written and "1,234" in written and ".5" in written


class Phrases(SearchEnglish):
    """A search language of an extension whose words may hold a space."""

    lang = "xx-phrases"
    _word_re = re.compile(r"\w+(?: \w+)*")


def html_build_indexing_in(language: object) -> SimpleNamespace:
    """What :func:`expand_tables` reads of a build: an HTML builder with a search index in
    ``language``, and refgen's handler the last of ``doctree-resolved``."""
    indexer = SimpleNamespace(lang=language)
    listeners = {"doctree-resolved": [EventListener(0, expand_tables, 500)]}
    return SimpleNamespace(
        builder=SimpleNamespace(format="html", indexer=indexer),
        events=SimpleNamespace(listeners=listeners),
    )


def test_the_search_index_gets_a_tables_data_texts_as_one_text_where_words_split_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = b.Table(
        header=((b.text("Name"),), (b.text("Value"),)),
        rows=(((b.Paragraph((b.Code("peak_rate"),)),), (b.text(b.Figure("1,234", ".5", 5, 2)),)),),
    )
    texts = data_texts(table)
    phrases = SearchEnglish({})
    phrases._word_re = Phrases._word_re  # an extension's own pattern, on the language
    for language, given in (
        (SearchEnglish({}), [" ".join(texts)]),  # words are runs of word characters
        (SearchJapanese({}), texts),  # split by context: each text apart, as its node
        (Phrases({}), texts),  # a language whose words may hold a space
        (phrases, texts),
    ):
        check_words_given(table, texts, language, given)
    with monkeypatch.context() as everywhere:  # a pattern conf.py set for every language
        everywhere.setattr(SearchLanguage, "_word_re", Phrases._word_re)
        check_words_given(table, texts, SearchEnglish({}), texts)
    with monkeypatch.context() as everywhere:  # a splitter conf.py set for every language
        everywhere.setattr(SearchLanguage, "split", lambda self, text: text.split(";"))
        check_words_given(table, texts, SearchEnglish({}), texts)


def check_words_given(table: b.Table, texts: list[str], language: Any, given: list[str]) -> None:
    """``language``'s index is given ``given`` for ``table``, and the same words as from
    each text apart."""
    doctree = nodes.document(None, None)  # type: ignore[arg-type]
    doctree += refgen_table("", classes=["colwidths-auto"], layout=table)
    expand_tables(html_build_indexing_in(language), doctree)
    (words,) = doctree.findall(refgen_search_words)
    assert [str(text) for text in words.children] == given
    indexed = [word for text in words.children for word in language.split(str(text))]
    assert indexed == [word for text in texts for word in language.split(text)]


CELLS_KEPT = """

from pathlib import Path

import refgen.sphinx.html_tables as html_tables

_kept = {kept}


def _report(app, exception):
    cells = html_tables._written_cells.get(app.builder, {{}})
    Path(app.outdir, "cells-kept.txt").write_text(str(len(cells)))
    html_tables.MOST_CELLS_KEPT = _most


def setup(app):
    global _most
    _most, html_tables.MOST_CELLS_KEPT = html_tables.MOST_CELLS_KEPT, _kept
    app.connect("build-finished", _report)
"""


def test_a_site_whose_cells_are_copied_is_the_site_whose_cells_are_written(tmp_path: Path) -> None:
    """Elasticity tables repeat their cells (``1.00``, ``0``): a build writes each
    such cell once and copies it after, and its pages are those of a build that writes
    every cell."""
    built = {}
    for kept in (1024, 0):
        project = write_boxes(tmp_path / str(kept), CELLS_KEPT.format(kept=kept))
        result = project.build("html", "-W")
        assert result.returncode == 0, result.stderr
        built[kept] = result.outdir
    copied, written = built[1024], built[0]
    assert int((copied / "cells-kept.txt").read_text()) > 10
    assert int((written / "cells-kept.txt").read_text()) == 0
    assert not same_files(copied, written, "*.html")
    page = (copied / "reference" / "ahead.models" / "Box1.html").read_text()
    assert page.count('<td class="refgen-strong">') >= 2  # the same cell, more than once


POOL: list[b.Cell] = [
    (),
    (b.text("required"),),
    (b.text("a <b> & \"c\""),),
    (b.Paragraph((b.Code("Q_(3,  'kW')"),)),),
    (b.text(b.Figure("1", ".00", 2, 3)),),
    (b.Paragraph((b.AnchorLink("m.C.peak_rate", "peak_rate"),)),),
    (b.Paragraph((b.ObjectName("attribute", "m", "C.peak_rate"),)),),
    (b.text("one"), b.text("two")),
]
CLASSES = [(), ("refgen-strong",), ("refgen-none",)]


@st.composite
def tables(draw: st.DrawFn) -> b.Table:
    columns = draw(st.integers(1, 3))
    rows = draw(st.integers(1, 4))
    cell = st.sampled_from(POOL)
    return b.Table(
        header=tuple(draw(st.lists(cell, min_size=columns, max_size=columns))),
        rows=tuple(
            tuple(draw(st.lists(cell, min_size=columns, max_size=columns))) for _ in range(rows)
        ),
        stub_columns=draw(st.integers(0, columns)),
        cell_classes=tuple(
            tuple(draw(st.lists(st.sampled_from(CLASSES), max_size=columns))) for _ in range(rows)
        ),
    )


def written_rows(tables: list[b.Table], builder: object) -> str:
    """The rows of ``tables`` as Sphinx's HTML5 translator writes them, one table after the
    other, in the build of ``builder``."""
    translator = HTML5Translator.__new__(HTML5Translator)  # its writing methods, no document
    translator.body, translator.builder = [], builder
    translator.protect_literal_text, translator.in_mailto = 0, False
    setattr(translator, TABLE_ROW_INDICES.name, [0])
    for number, table in enumerate(tables):
        rows = (table.header, *table.rows)
        named = sum(1 for row in rows for cell in row for _ in object_names(cell))
        node = refgen_table("", layout=table)
        node[ANCHORS] = [f"t{number}-anchor{n}" for n in range(named)]
        writer = TableWriter(translator, node)
        stubs = [column < table.stub_columns for column in range(table.columns)]
        writer._row(HEADER_ROW, table.header, stubs, ())
        for number_of_row, cells in enumerate(table.rows):
            writer._row(number_of_row, cells, stubs, ())
    return "".join(translator.body)


@for_any(st.lists(tables(), min_size=1, max_size=4))
def test_a_cell_copied_is_the_cell_written(tables: list[b.Table]) -> None:
    """Whatever cells a build wrote before, in whichever places: a cell it copies is the
    cell it would write, and a row's object keeps its own anchor."""

    class Build:
        pass

    copying = written_rows(tables, Build())
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(html_tables, "MOST_CELLS_KEPT", 0)
        writing = written_rows(tables, Build())
    assert copying == writing

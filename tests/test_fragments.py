"""HTML fragments: escaping, structure, placeholder links, and plain-paragraph detection."""

from __future__ import annotations

import html

from bs4 import BeautifulSoup
from docutils import nodes
from docutils.core import publish_doctree
from docutils.statemachine import StringList
from hypothesis import given, settings
from hypothesis import strategies as st

from refgen.render import fragments
from refgen.sphinx.extension import plain_paragraphs


def parse(fragment: str) -> BeautifulSoup:
    return BeautifulSoup(fragment, "html.parser")


def test_code_keeps_text_exactly_and_escapes_markup() -> None:
    code = parse(fragments.code("a < b & c > 'd'", "refgen-equation")).find("code")
    assert code.get_text() == "a < b & c > 'd'"
    assert "refgen-equation" in code["class"]


def test_multi_line_code_is_a_pre_block() -> None:
    pre = parse(fragments.code("x = 1\ny = 2")).find("pre")
    assert pre.get_text() == "x = 1\ny = 2"


def test_code_in_a_field_body_is_a_paragraph_or_a_block_of_its_own() -> None:
    one_line = parse(fragments.code_body("float"))
    assert one_line.find("p").find("code").get_text() == "float"
    block = parse(fragments.code_body("Optional[\n    float]", "refgen-equation"))
    assert block.find("p") is None  # a pre inside a p is invalid HTML
    assert block.find("pre").get_text() == "Optional[\n    float]"


def test_table_has_header_stub_column_and_cells() -> None:
    table = parse(
        fragments.table(["Attribute", "A"], [["x", "1"], ["y", "2"]], "values", stub_columns=1)
    ).find("table")
    assert "values" in table["class"]
    assert [th.get_text() for th in table.find("thead").find_all("th")] == ["Attribute", "A"]
    rows = table.find("tbody").find_all("tr")
    assert [[c.name for c in row.find_all(["th", "td"])] for row in rows] == [["th", "td"]] * 2
    assert [row.find("td").get_text() for row in rows] == ["1", "2"]


def test_field_list_pairs_labels_with_bodies() -> None:
    listing = parse(fragments.field_list([("Type", "<p>float</p>"), ("Reads", "<p>x</p>")]))
    labels = [dt.get_text().rstrip(":") for dt in listing.find_all("dt")]
    assert labels == ["Type", "Reads"]
    assert [dd.get_text() for dd in listing.find_all("dd")] == ["float", "x"]


# Control characters are left out: an HTML parser rewrites "\r", which says
# nothing about the links (their labels are Python names).
targets = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), min_size=1).filter(
    lambda t: t.strip() == t and '"' not in t
)


labels = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), max_size=20)


@given(target=targets, label=labels)
def test_placeholder_links_round_trip(target: str, label: str) -> None:
    link = fragments.xref("func", target, label)
    match = fragments.XREF.search(link)
    assert match is not None
    _, domain, role, found, shown = match.groups()
    assert (domain, role, html.unescape(found)) == ("py", "func", target)
    assert parse(shown).get_text() == label
    assert fragments.XREF.search(fragments.unlink(link)) is None


@given(st.text())
def test_plain_text_never_keeps_tags(text: str) -> None:
    shown = fragments.plain_text(fragments.paragraph(fragments.code(text)))
    assert "<code" not in shown
    assert shown == " ".join(text.split())


def lines(*text: str) -> StringList:
    return StringList(list(text), "doc.py")


def test_sentences_are_plain_paragraphs() -> None:
    found = plain_paragraphs(lines("First line of", "a sentence.", "", "Second one."))
    assert found == [("First line of\na sentence.", 0), ("Second one.", 3)]


def test_roles_are_plain_but_fields_are_not() -> None:
    assert plain_paragraphs(lines("It calls :py:func:`f`.")) is not None
    assert plain_paragraphs(lines(":param x: a field")) is None


def test_block_constructs_need_the_full_parser() -> None:
    for block in (
        ["Intro:", "", "- one", "- two"],
        ["Code::", "", "    x = 1"],
        [".. note:: careful"],
        [">>> 1 + 1", "2"],
        ["term", "   definition"],
        ["1. first"],
        ["====  ====", "a     b", "====  ===="],
    ):
        assert plain_paragraphs(lines(*block)) is None, block


@given(st.lists(st.text(alphabet="ab -*.:`>|=1\t", max_size=12), max_size=8))
def test_plain_paragraphs_keep_every_line(text: list[str]) -> None:
    found = plain_paragraphs(lines(*text))
    if found is not None:
        kept = [line for paragraph, _ in found for line in paragraph.split("\n")]
        assert kept == [line for line in text if line.strip()]


def docutils_paragraph(text: str) -> str | None:
    """What docutils makes of ``text``: its one paragraph of plain text, or None."""
    document = publish_doctree(
        text, settings_overrides={"report_level": 5, "halt_level": 5, "smart_quotes": True}
    )
    if len(document.children) != 1 or not isinstance(document[0], nodes.paragraph):
        return None
    paragraph = document[0]
    if not all(isinstance(child, nodes.Text) for child in paragraph.children):
        return None
    return paragraph.astext()


prose = st.text(alphabet="abAIv _-*`:.|\\'\"@/()<>[]12\n#=+~^&;!?", min_size=1, max_size=30)


@settings(max_examples=300)
@given(prose)
def test_verbatim_text_is_what_docutils_shows_unchanged(text: str) -> None:
    """The fast path's promise: text written as HTML directly is what docutils would show."""
    if fragments.is_verbatim(text):
        shown = docutils_paragraph(text)
        assert shown is not None
        assert shown.split() == text.split()  # the same words; HTML folds the whitespace


def test_prose_is_verbatim_and_markup_is_not() -> None:
    assert fragments.is_verbatim("Peak bytes of the update step (optimizer_state included).")
    for text in ("Uses ``x``.", "A *big* one.", "See foo_.", "- a list", "Model's size", "x -- y"):
        assert not fragments.is_verbatim(text), text

"""Prose: which docstring text skips the reST parser, and how mentions become links."""

from __future__ import annotations

from docutils import nodes
from docutils.core import publish_doctree
from docutils.statemachine import StringList
from hypothesis import given
from hypothesis import strategies as st

from refgen.sphinx.prose import is_verbatim, link_mentions, plain_paragraphs


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
        ["See `it`__.", "", "__ https://example.org"],
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


@given(prose)
def test_verbatim_text_is_what_docutils_shows_unchanged(text: str) -> None:
    """The fast path's promise: text made a paragraph unparsed is what docutils would show."""
    if is_verbatim(text):
        shown = docutils_paragraph(text)
        assert shown is not None
        assert shown.split() == text.split()  # the same words; HTML folds the whitespace


def test_prose_is_verbatim_and_markup_is_not() -> None:
    assert is_verbatim("Peak bytes of the update step (optimizer_state included).")
    for text in ("Uses ``x``.", "A *big* one.", "See foo_.", "- a list", "Model's size", "x -- y"):
        assert not is_verbatim(text), text


def _link(name: str) -> nodes.Node:
    return nodes.reference("", name, refid=name)


def test_mentions_with_an_underscore_and_literal_names_become_links() -> None:
    document = publish_doctree("The step_time reads ``weights`` and weights, not step_times.")
    link_mentions([document], {"step_time": 1, "weights": 1}, _link)
    linked = [ref.astext() for ref in document.findall(nodes.reference)]
    assert linked == ["step_time", "weights"]
    assert "not step_times." in document.astext()


def test_mentions_inside_code_and_links_are_left_alone() -> None:
    document = publish_doctree(
        "See `step_time <https://example.org>`_ and::\n\n    step_time = 1\n"
    )
    link_mentions([document], {"step_time": 1}, _link)
    assert [ref.get("refid") for ref in document.findall(nodes.reference)] == [None]

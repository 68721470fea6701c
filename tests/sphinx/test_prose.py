"""Prose: which docstring text skips the reST parser, and how mentions become links."""

from __future__ import annotations

import re

from docutils import nodes
from docutils.core import publish_doctree
from docutils.statemachine import StringList
from hypothesis import given
from hypothesis import strategies as st

from refgen.sphinx.prose import is_verbatim, link_mentions, mention_finder, plain_paragraphs


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


identifier = st.from_regex(r"[a-zß][a-z0-9ß]*_[a-z0-9_ß]*", fullmatch=True)


@given(
    st.lists(identifier, min_size=1, max_size=4),
    st.lists(st.one_of(identifier, st.sampled_from([" ", ".", "x", "_", "1", "é", "-"]))),
)
def test_names_are_found_word_by_word_as_one_pattern_of_them_would(
    names: list[str], pieces: list[str]
) -> None:
    """The word-by-word lookup of Python names finds the mentions the alternatives of the
    names, longest first, find: whole words, never after a dot."""
    text = "".join(pieces)
    longest_first = sorted(set(names), key=len, reverse=True)
    one_pattern = re.compile(
        "|".join(rf"(?<![\w.]){re.escape(name)}(?!\w)" for name in longest_first)
    )
    find = mention_finder(names)
    assert find is not None
    found = [(match.start(), match.group()) for match in find(text)]
    assert found == [(match.start(), match.group()) for match in one_pattern.finditer(text)]


def test_names_of_other_characters_are_found_as_written() -> None:
    find = mention_finder(["rate.per_s", "plain"])
    assert find is not None
    assert [match.group() for match in find("at rate.per_s, not x.rate.per_s")] == ["rate.per_s"]
    assert mention_finder(["plain", "words"]) is None

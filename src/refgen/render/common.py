"""Blocks shared by several pages: code, prose, docstring Notes and References."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from refgen.analysis.model import Docstring, SourceLocation
from refgen.render.blocks import (
    Block,
    BulletList,
    Code,
    CodeBlock,
    Field,
    FieldList,
    Inline,
    Paragraph,
    Prose,
    Xref,
    text,
)

EQUATION_CLASS = "refgen-equation"
IMPLEMENTATION_INTRO = (
    "Implementation: the helpers below carry the accounting rules this scenario "
    "relies on; each entry states its equation and assumptions."
)
BODY_EQUATION = (
    "The method body carries this accounting over several statements; "
    "the equation is stated by {helpers}."
)
BODY_EQUATION_NO_HELPER = (
    "The method body carries this accounting over several statements ({reason})."
)


def code(source: str, classes: tuple[str, ...] = ()) -> Block:
    """Code as written: inline in a paragraph, or a block when it spans lines."""
    if "\n" in source:
        return CodeBlock(source, classes=classes)
    return Paragraph((Code(source, classes),))


def prose(
    source: str, location: SourceLocation | None, mentions: Mapping[str, Inline] | None = None
) -> Prose:
    """Author's reST text, with the names it may mention."""
    return Prose(source, location, mentions or {})


def opening_prose(
    summary: str,
    description: str,
    location: SourceLocation | None,
    mentions: Mapping[str, Inline] | None = None,
    described_at: SourceLocation | None = None,
) -> list[Block]:
    """A docstring's summary and its description (whose first line is ``described_at``,
    if known), as prose."""
    parts = [(summary, location), (description, described_at or location)]
    return [prose(text, where, mentions) for text, where in parts if text]


def joined(
    items: Iterable[Inline], separator: str = ", ", last: str = " and "
) -> list[Inline | str]:
    """``a, b and c`` from inline items."""
    items = list(items)
    parts: list[Inline | str] = []
    for index, item in enumerate(items):
        if index:
            parts.append(last if index == len(items) - 1 else separator)
        parts.append(item)
    return parts


def docstring_notes(
    doc: Docstring, location: SourceLocation | None, mentions: Mapping[str, Inline]
) -> tuple[Block, ...]:
    """The Notes section: labelled entries as fields, unlabelled ones as paragraphs."""
    blocks: list[Block] = []
    fields: list[Field] = []
    for entry in doc.notes:
        body = prose(entry.text, location, mentions)
        if entry.label:
            fields.append(Field(entry.label, (body,)))
            continue
        if fields:
            blocks.append(FieldList(tuple(fields)))
            fields = []
        blocks.append(body)
    if fields:
        blocks.append(FieldList(tuple(fields)))
    return tuple(blocks)


def docstring_references(doc: Docstring, location: SourceLocation | None) -> tuple[Block, ...]:
    """Implementation helpers as links, then the literature as the author wrote it."""
    blocks: list[Block] = []
    implementation = doc.implementation_references
    if implementation:
        blocks.append(text(IMPLEMENTATION_INTRO))
        items = tuple(
            (text(Xref("func", ref.target, ref.target)),) for ref in implementation if ref.target
        )
        blocks.append(BulletList(items))
    literature = doc.literature_references
    if literature:
        blocks.append(text("Literature:"))
        blocks.append(BulletList(tuple((prose(ref.text, location),) for ref in literature)))
    return tuple(blocks)

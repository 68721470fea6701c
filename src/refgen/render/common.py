"""Blocks shared by several pages: code, prose, and the sections of a docstring."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from refgen.analysis.model import Docstring, ParameterEntry, SeeAlsoEntry, SourceLocation
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
    Text,
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
    source: str,
    location: SourceLocation | None,
    mentions: Mapping[str, Inline] | None = None,
    subject: str = "",
) -> Prose:
    """Author's reST text from the docstring of ``subject``, with the names it may mention."""
    return Prose(source, location, mentions or {}, subject)


def opening_prose(
    summary: str,
    description: str,
    location: SourceLocation | None,
    mentions: Mapping[str, Inline] | None = None,
    described_at: SourceLocation | None = None,
    subject: str = "",
) -> list[Block]:
    """A docstring's summary and its description (whose first line is ``described_at``,
    if known), as prose."""
    parts = [(summary, location), (description, described_at or location)]
    return [prose(text, where, mentions, subject) for text, where in parts if text]


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
    doc: Docstring,
    location: SourceLocation | None,
    mentions: Mapping[str, Inline],
    subject: str = "",
) -> tuple[Block, ...]:
    """The Notes section: labelled entries as fields, free paragraphs as prose."""
    blocks: list[Block] = []
    fields: list[Field] = []
    for entry in doc.notes:
        body = prose(entry.text, entry.location or location, mentions, subject)
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


def entry_list(
    entries: Iterable[ParameterEntry], mentions: Mapping[str, Inline], subject: str = ""
) -> BulletList:
    """``name (type)`` entries, each with its description; a name the page documents
    (``mentions``) is a link to it."""
    items = []
    for entry in entries:
        head: list[Inline] = []
        if entry.name:
            head.append(mentions.get(entry.name, Code(entry.name)))
        if entry.type:
            head += [Text(" ("), Code(entry.type), Text(")")] if entry.name else [Code(entry.type)]
        item: tuple[Block, ...] = (Paragraph(tuple(head)),)
        if entry.description:
            described_at = entry.location and SourceLocation(
                entry.location.path, entry.location.line + 1
            )
            item += (Prose(entry.description, described_at, subject=subject),)
        items.append(item)
    return BulletList(tuple(items))


def see_also_list(entries: Iterable[SeeAlsoEntry], subject: str = "") -> BulletList:
    """Each entry's names, then what they are for. A name that analysis found is a link
    where its object is documented and code elsewhere; one it did not find is a plain
    reference (a warning under ``nitpicky`` when it resolves to nothing: a typo)."""
    items = []
    for entry in entries:
        names = (
            Xref("obj", name.target or name.path, name.label, optional=name.target is not None)
            for name in entry.names
        )
        item: tuple[Block, ...] = (Paragraph(tuple(_inlines(joined(names, last=", ")))),)
        if entry.description:
            item += (Prose(entry.description, entry.location, subject=subject),)
        items.append(item)
    return BulletList(tuple(items))


def _inlines(parts: Iterable[Inline | str]) -> list[Inline]:
    return [Text(part) if isinstance(part, str) else part for part in parts]


def docstring_sections(
    doc: Docstring, mentions: Mapping[str, Inline], entries: bool = True, subject: str = ""
) -> list[tuple[str, tuple[Block, ...]]]:
    """The standard sections besides Notes, References and Examples, titled, in the order
    numpydoc shows them: the ``name : type`` lists (unless ``entries`` is False),
    Warnings and See Also."""
    sections: list[tuple[str, tuple[Block, ...]]] = []
    if entries:
        sections += [
            (title, (entry_list(found, mentions, subject),)) for title, found in doc.entry_sections
        ]
    if doc.warnings is not None:
        warned = prose(doc.warnings.text, doc.warnings.location, mentions, subject)
        sections.append(("Warnings", (warned,)))
    if doc.see_also:
        sections.append(("See Also", (see_also_list(doc.see_also, subject),)))
    return sections


def docstring_references(
    doc: Docstring, location: SourceLocation | None, subject: str = ""
) -> tuple[Block, ...]:
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
        cited = tuple(
            (prose(ref.text, ref.location or location, None, subject),) for ref in literature
        )
        blocks.append(BulletList(cited))
    return tuple(blocks)

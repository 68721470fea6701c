"""Pages as Markdown, for language models: the blocks the site shows, as plain text files.

:class:`MarkdownWriter` walks a :class:`~refgen.render.blocks.Page` into one
Markdown file; :func:`llms_text` writes the ``llms.txt`` index that lists every
page with its one-line summary and links to those files (the format of
llmstxt.org: a title, a summary, then sections of links). Like the terminal
text, MathML and SVG are left out (each equation's code stands beside it);
folded content is shown; tables become pipe tables. Links between generated
pages point at their Markdown files; links to Python objects are shown as
code. Data is shown as code or plain text, with the characters that Markdown
would act on escaped.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import assert_never

from refgen.render import blocks as b
from refgen.render.markup import printable

SUFFIX = ".md"
_SPECIAL = re.compile(r"([\\`*\[\]<>|]|(?<![0-9A-Za-z])_|_(?![0-9A-Za-z]))")


def escaped(text: str) -> str:
    """Plain text that Markdown shows as it is: no emphasis, links, HTML or table cells."""
    return _SPECIAL.sub(r"\\\1", printable(text))


def code_span(text: str) -> str:
    """``text`` as inline code, fenced by more backticks than it holds."""
    text = " ".join(printable(text).split("\n"))
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    padded = f" {text} " if text.startswith("`") or text.endswith("`") else text
    return f"{fence}{padded}{fence}"


def fenced(text: str, language: str = "") -> list[str]:
    """A fenced code block holding ``text`` exactly (a fence longer than any inside it)."""
    longest = max((len(run) for run in re.findall(r"`{3,}", text)), default=2)
    fence = "`" * (longest + 1)
    return [f"{fence}{language}", *printable(text).split("\n"), fence, ""]


def markdown_link(docname: str) -> str:
    """A page's Markdown file, relative to the page that links it (as the page's link is)."""
    return f"{docname}{SUFFIX}"


class MarkdownWriter:
    """Blocks to Markdown; ``depth`` of a section decides its heading level. ``docname`` is
    the page's document name, which links to files are made relative to."""

    def __init__(self, docname: str = "") -> None:
        self.docname = docname

    def page(self, page: b.Page) -> str:
        lines = [f"# {escaped(page.title)}", ""]
        lines += self.blocks(page.blocks, 2)
        while lines and not lines[-1]:
            lines.pop()
        return "\n".join(lines) + "\n"

    def blocks(self, items: Iterable[b.Block], depth: int) -> list[str]:
        return [line for item in items for line in self.block(item, depth)]

    def inline(self, item: b.Inline) -> str:
        match item:
            case b.Text():
                return escaped(item.text)
            case b.Code():
                return code_span(item.text)
            case b.AnchorLink() | b.ObjectName() | b.SourceLink():
                return code_span(item.label)
            case b.Xref():
                return code_span(item.label) if item.code else escaped(item.label)
            case b.DocLink():
                return f"[{escaped(item.label)}]({markdown_link(item.docname)})"
            case b.FileLink():
                here = posixpath.dirname(self.docname) or "."
                return f"[{escaped(item.label)}]({posixpath.relpath(item.path, here)})"
            case b.Figure():
                return escaped(item.text)
            case _:
                assert_never(item)

    def paragraph(self, item: b.Paragraph) -> str:
        return "".join(self.inline(i) for i in item.inlines)

    def block(self, item: b.Block, depth: int) -> list[str]:
        match item:
            case b.Paragraph():
                shown = self.paragraph(item)
                return [shown, ""] if shown.strip() else []
            case b.Prose():
                return prose(item.text)
            case b.CodeBlock():
                language = "" if item.language == "none" else item.language
                return fenced(item.text, language)
            case b.Markup() | b.TocTree():
                return []
            case b.Collapsible():
                return [f"**{escaped(item.summary)}**", "", *self.blocks(item.blocks, depth)]
            case b.FieldList():
                lines = []
                for field in item.fields:
                    lines += [f"**{escaped(field.label)}:**", "", *self.blocks(field.body, depth)]
                return lines
            case b.Definitions():
                lines = []
                for term, described in item.items:
                    lines += [f"**{escaped(term)}**", "", *self.blocks(described, depth)]
                return lines
            case b.BulletList():
                lines = []
                for listed in item.items:
                    item_lines = [line for line in self.blocks(listed, depth) if line]
                    if item_lines:
                        lines += [f"- {item_lines[0]}", *(f"  {line}" for line in item_lines[1:])]
                return [*lines, ""]
            case b.Table():
                return self.table(item)
            case b.Rubric():
                return [f"**{escaped(item.text)}**", ""]
            case b.Section():
                heading = "#" * min(depth, 6)
                return [
                    f"{heading} {escaped(item.title)}",
                    "",
                    *self.blocks(item.blocks, depth + 1),
                ]
            case b.PyObject():
                return self.py_object(item, depth)
            case _:
                assert_never(item)

    def py_object(self, item: b.PyObject, depth: int) -> list[str]:
        shown = item.name if item.objtype == "module" else f"{item.name}{item.signature}"
        if item.annotation:
            shown += f": {' '.join(item.annotation.split())}"
        head = f"{item.objtype} {code_span(shown)}"
        if item.as_section:
            title = item.name.rpartition(".")[2]
            heading = "#" * min(depth, 6)
            lines = [f"{heading} {escaped(title)}", "", head, ""]
            return lines + self.blocks(item.body, depth + 1)
        return [head, "", *self.blocks(item.body, depth)]

    def table(self, table: b.Table) -> list[str]:
        header = [self.cell(cell) for cell in table.spread_header()]
        rows = [[self.cell(cell) for cell in row] for row in table.rows]
        width = max(len(header), *(len(row) for row in rows)) if rows else len(header)
        lines = [_row(header, width), _row(["---"] * width, width)]
        lines += [_row(row, width) for row in rows]
        return [*lines, ""]

    def cell(self, cell: b.Cell) -> str:
        # Folded content (an equation's code) shows without its summary in a cell.
        unfolded = [i for c in cell for i in (c.blocks if isinstance(c, b.Collapsible) else (c,))]
        shown = [line for line in self.blocks(unfolded, 6) if line.strip()]
        # A pipe ends a table cell, even inside code: escaped wherever it is.
        return re.sub(r"(?<!\\)\|", r"\\|", " ".join(" ".join(shown).split()))


def _row(cells: Sequence[str], width: int) -> str:
    padded = [*cells, *([""] * (width - len(cells)))]
    return "| " + " | ".join(padded) + " |"


def prose(text: str) -> list[str]:
    """Author's reST as Markdown: paragraphs as written, escaped like any text (no HTML,
    links or emphasis of Markdown's), doctest sessions and indented blocks fenced (so
    nothing in them is read as Markdown)."""
    lines: list[str] = []
    for paragraph in text.strip("\n").split("\n\n"):
        rows = paragraph.split("\n")
        if not paragraph.strip():
            continue
        if any(row.lstrip().startswith(">>>") for row in rows):
            lines += fenced(_dedent(paragraph), "pycon")
        elif all(row.startswith(" ") for row in rows if row.strip()):
            lines += fenced(_dedent(paragraph))
        else:
            lines += [escaped(" ".join(paragraph.split())), ""]
    return lines


def _dedent(text: str) -> str:
    rows = text.split("\n")
    margin = min((len(r) - len(r.lstrip()) for r in rows if r.strip()), default=0)
    return "\n".join(row[margin:] for row in rows)


# ---------------------------------------------------------------------- llms.txt


@dataclass(frozen=True)
class Listed:
    """A page in ``llms.txt``: its title, its one-line summary and its file (from the root)."""

    title: str
    path: str
    summary: str = ""


@dataclass(frozen=True)
class Listing:
    """A section of ``llms.txt``: a heading and its pages."""

    heading: str
    pages: tuple[Listed, ...]


def llms_text(title: str, summary: str, details: str, sections: Sequence[Listing]) -> str:
    """The ``llms.txt`` index: the site's title and summary, then each section's pages."""
    lines = [f"# {escaped(title)}", "", f"> {escaped(summary)}", ""]
    if details:
        lines += [details, ""]
    for section in sections:
        if not section.pages:
            continue
        lines += [f"## {escaped(section.heading)}", ""]
        for page in section.pages:
            line = f"- [{escaped(page.title)}]({page.path})"
            lines.append(f"{line}: {escaped(page.summary)}" if page.summary else line)
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"

"""Pages as terminal text: the same blocks the site shows, walked into wrapped lines.

Used by ``refgen show --page``. Every string is data and printed as such;
control characters are replaced, so nothing a scenario computes can move the
cursor or recolour the terminal. MathML and SVG are left out (the code of each
equation stands beside them), as are tables of contents.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable

from refgen.render import blocks as b
from refgen.render.markup import printable

WIDTH = 88
UNDERLINES = "=-~^"


def inline_text(item: b.Inline) -> str:
    match item:
        case b.Text():
            return item.text
        case b.Code():
            return item.text
        case b.Xref() | b.DocLink() | b.AnchorLink() | b.SourceLink():
            return item.label
    raise TypeError(f"not an inline item: {item!r}")


def _wrap(text: str, indent: str, width: int) -> list[str]:
    lines: list[str] = []
    for paragraph in printable(text).split("\n\n"):
        folded = " ".join(paragraph.split())
        lines += textwrap.wrap(
            folded,
            width,
            initial_indent=indent,
            subsequent_indent=indent,
            break_on_hyphens=False,
            break_long_words=False,
        ) or [indent.rstrip()]
    return lines


def _prose(text: str, indent: str, width: int) -> list[str]:
    """Author's text: paragraphs wrapped, doctest sessions and indented blocks kept as written."""
    lines: list[str] = []
    for paragraph in text.strip("\n").split("\n\n"):
        rows = paragraph.split("\n")
        if any(row.lstrip().startswith(">>>") or row.startswith(" ") for row in rows):
            lines += [indent + printable(row) for row in rows]
        else:
            lines += _wrap(paragraph, indent, width)
        lines.append("")
    return lines if text.strip() else []


class TextWriter:
    """Blocks to lines of text at most ``width`` wide (long words excepted)."""

    def __init__(self, width: int = WIDTH) -> None:
        self.width = width

    def page(self, page: b.Page) -> str:
        title = printable(page.title)
        lines = [title, "=" * len(title), ""]
        lines += self.blocks(page.blocks, "", 1)
        while lines and not lines[-1]:
            lines.pop()
        return "\n".join(lines) + "\n"

    def blocks(self, items: Iterable[b.Block], indent: str, depth: int) -> list[str]:
        return [line for item in items for line in self.block(item, indent, depth)]

    def block(self, item: b.Block, indent: str, depth: int) -> list[str]:
        match item:
            case b.Paragraph():
                text = "".join(inline_text(i) for i in item.inlines)
                return [*_wrap(text, indent, self.width), ""] if text.strip() else []
            case b.Prose():
                return _prose(item.text, indent, self.width)
            case b.CodeBlock():
                return [*(indent + "    " + printable(line) for line in item.text.split("\n")), ""]
            case b.Markup() | b.TocTree():
                return []
            case b.FieldList():
                lines = []
                for field in item.fields:
                    body = self.blocks(field.body, indent + "    ", depth)
                    first = body[0].strip() if body else ""
                    lines.append(f"{indent}{printable(field.label)}: {first}".rstrip())
                    lines += [line for line in body[1:] if line]
                return [*lines, ""]
            case b.BulletList():
                lines = []
                for entry in item.items:
                    body = [line for line in self.blocks(entry, indent + "  ", depth) if line]
                    if body:
                        lines.append(f"{indent}- {body[0].strip()}")
                        lines += body[1:]
                return [*lines, ""]
            case b.Table():
                return self._table(item, indent)
            case b.Rubric():
                return [indent + printable(item.text), ""]
            case b.Section():
                title = printable(item.title)
                mark = UNDERLINES[min(depth, len(UNDERLINES) - 1)]
                lines = [indent + title, indent + mark * len(title), ""]
                return lines + self.blocks(item.blocks, indent, depth + 1)
            case b.PyObject():
                head = f"{item.name}{item.signature}"
                if item.annotation:
                    head += f": {' '.join(item.annotation.split())}"
                lines = [f"{indent}{item.objtype} {printable(head)}", ""]
                return lines + self.blocks(item.body, indent + "    ", depth + 1)
        raise TypeError(f"not a block: {item!r}")

    def _table(self, table: b.Table, indent: str) -> list[str]:
        rows = [[self._cell(cell) for cell in row] for row in (table.header, *table.rows)]
        widths = [max(len(row[i]) for row in rows) for i in range(len(table.header))]
        lines = []
        for number, row in enumerate(rows):
            cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=True)]
            lines.append((indent + "  ".join(cells)).rstrip())
            if number == 0:
                lines.append(indent + "  ".join("-" * width for width in widths))
        return [*lines, ""]

    def _cell(self, cell: b.Cell) -> str:
        texts = [line.strip() for line in self.blocks(cell, "", 1) if line.strip()]
        return printable(" ".join(texts))

"""Pages as terminal text: the same blocks the site shows, walked into wrapped lines.

:class:`TextWriter` prints a whole page (``refgen show --page``);
:class:`SummaryWriter` prints the command line's compact summaries
(``refgen show``, ``refgen search``). Every string is data and printed as
such; control characters are replaced, so nothing a scenario computes can move
the cursor or recolour the terminal. MathML and SVG are left out (the code of
each equation stands beside them), as are tables of contents.
"""

from __future__ import annotations

import itertools
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
        case b.Code() | b.Figure():
            return item.text
        case b.Xref() | b.DocLink() | b.AnchorLink() | b.SourceLink() | b.ObjectName():
            return item.label
        case b.FileLink():
            return item.label
    raise TypeError(f"not an inline item: {item!r}")


def _wrap(
    text: str,
    indent: str,
    width: int,
    hanging: str | None = None,
    break_long_words: bool = False,
) -> list[str]:
    """Paragraphs of ``text`` folded and wrapped, a blank line between them;
    continuation lines start with ``hanging`` (``indent`` when None)."""
    lines: list[str] = []
    for paragraph in printable(text).split("\n\n"):
        if lines:
            lines.append("")
        lines += textwrap.wrap(
            " ".join(paragraph.split()),
            width,
            initial_indent=indent,
            subsequent_indent=indent if hanging is None else hanging,
            break_on_hyphens=False,
            break_long_words=break_long_words,
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
            case b.Collapsible():
                return self.blocks(item.blocks, indent, depth)
            case b.FieldList():
                lines = []
                for field in item.fields:
                    body = self.blocks(field.body, indent + "    ", depth)
                    first = body[0].strip() if body else ""
                    lines.append(f"{indent}{printable(field.label)}: {first}".rstrip())
                    lines += [line for line in body[1:] if line]
                return [*lines, ""]
            case b.Definitions():
                shown: list[str] = []
                for term, described in item.items:
                    shown.append(indent + printable(term))
                    shown += [
                        line for line in self.blocks(described, indent + "    ", depth) if line
                    ]
                return [*shown, ""]
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
        spans = table.header_spans or (1,) * len(table.header)
        header = [self._cell(cell) for cell in table.header]
        body = [[self._cell(cell) for cell in row] for row in table.rows]
        # A heading over several columns sizes them together, after their cells have.
        unspanned = [h if span == 1 else "" for h, span in zip(header, spans, strict=True)]
        first_row = [
            cell
            for h, span in zip(unspanned, spans, strict=True)
            for cell in [h] + [""] * (span - 1)
        ]
        widths = _fitted_widths([first_row, *body], self.width - len(indent))
        groups = _column_groups(spans)
        for heading, columns in zip(header, groups, strict=True):
            room = sum(widths[c] for c in columns) + 2 * (len(columns) - 1)
            widths[columns[-1]] += max(0, len(heading) - room) if len(columns) > 1 else 0
        heading_widths = [sum(widths[c] for c in cs) + 2 * (len(cs) - 1) for cs in groups]
        lines = self._table_rows([header], heading_widths, indent)
        lines.append(indent + "  ".join("-" * width for width in widths))
        return [*lines, *self._table_rows(body, widths, indent), ""]

    def _table_rows(self, rows: list[list[str]], widths: list[int], indent: str) -> list[str]:
        lines = []
        for row in rows:
            wrapped = [
                textwrap.wrap(cell, max(width, 1), break_on_hyphens=False) or [""]
                for cell, width in zip(row, widths, strict=True)
            ]
            for parts in itertools.zip_longest(*wrapped, fillvalue=""):
                cells = [part.ljust(width) for part, width in zip(parts, widths, strict=True)]
                lines.append((indent + "  ".join(cells)).rstrip())
        return lines

    def _cell(self, cell: b.Cell) -> str:
        if len(cell) == 1 and isinstance(cell[0], b.Paragraph) and len(cell[0].inlines) == 1:
            figure = cell[0].inlines[0]
            if isinstance(figure, b.Figure):  # lined up on the decimal point, as on the site
                return printable(
                    figure.whole.rjust(figure.whole_width)
                    + figure.fraction.ljust(figure.fraction_width)
                )
        texts = [line.strip() for line in self.blocks(cell, "", 1) if line.strip()]
        return printable(" ".join(texts))


NARROWEST_COLUMN = 12


def _column_groups(spans: tuple[int, ...]) -> list[list[int]]:
    """The columns under each heading: ``[[0], [1, 2]]`` for spans ``(1, 2)``."""
    starts = list(itertools.accumulate((0, *spans)))
    return [list(range(start, start + span)) for start, span in zip(starts, spans, strict=False)]


def _fitted_widths(rows: list[list[str]], room: int) -> list[int]:
    """Column widths that fit ``room`` characters (two between columns), taken from
    the widest columns first; no column narrower than its longest word or than
    :data:`NARROWEST_COLUMN`, so a table may still be wider than ``room``."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    floors = [
        min(width, max([NARROWEST_COLUMN, *(len(word) for row in rows for word in row[i].split())]))
        for i, width in enumerate(widths)
    ]
    excess = sum(widths) + 2 * (len(widths) - 1) - room
    while excess > 0:
        column = max(range(len(widths)), key=lambda i: widths[i] - floors[i])
        if widths[column] <= floors[column]:
            break
        widths[column] -= 1
        excess -= 1
    return widths


class SummaryWriter:
    """Blocks as the command line's compact summaries (``refgen show``, ``refgen search``).

    The title stands alone; subtitle paragraphs follow it indented; top-level
    blocks are separated by one blank line; a section's content is indented
    under its title with no blank lines; a table has no header when its header
    is empty; a field's first block follows its label.
    """

    def __init__(self, width: int = WIDTH) -> None:
        self.width = width

    def page(self, page: b.Page) -> list[str]:
        lines = [printable(page.title)] if page.title else []
        lines += [
            "  " + _paragraph_text(item)
            for item in page.blocks
            if isinstance(item, b.Paragraph) and _is_subtitle(item)
        ]
        groups = [self.block(item, "") for item in page.blocks if not _is_subtitle(item)]
        for group in groups:
            if lines:
                lines.append("")
            lines += group
        return [printable(line) for line in lines]

    def blocks(self, items: Iterable[b.Block], indent: str) -> list[str]:
        return [line for item in items for line in self.block(item, indent)]

    def block(self, item: b.Block, indent: str) -> list[str]:
        match item:
            case b.Paragraph():
                hanging = indent + "  " if b.HANGING in item.classes else indent
                return _wrap(
                    _paragraph_text(item), indent, self.width, hanging, break_long_words=True
                )
            case b.Prose():
                return self._wrap(item.text, indent)
            case b.CodeBlock():
                return [indent + line for line in item.text.split("\n")]
            case b.Section():
                return [indent + item.title, *self.blocks(item.blocks, indent + "  ")]
            case b.FieldList():
                return [line for field in item.fields for line in self._field(field, indent)]
            case b.Definitions():
                lines = []
                for term, body in item.items:
                    lines += [indent + term, *self.blocks(body, indent + "    ")]
                return lines
            case b.Table():
                return self._table(item, indent)
        return TextWriter(self.width).block(item, indent, 1)

    def _wrap(self, text: str, indent: str, hanging: str | None = None) -> list[str]:
        # As the command line always wrapped: a word longer than a line is broken.
        return _wrap(text, indent, self.width, hanging, break_long_words=True)

    def _field(self, field: b.Field, indent: str) -> list[str]:
        label = f"{field.label}: "
        first, *rest = field.body or (b.text(),)
        if isinstance(first, b.CodeBlock):
            head, *tail = first.text.split("\n")
            lines = [indent + label + head, *(indent + " " * len(label) + line for line in tail)]
        else:
            text = _paragraph_text(first) if isinstance(first, b.Paragraph) else ""
            lines = self._wrap(label + text, indent, indent + "  ")
        return lines + self.blocks(rest, indent + "  ")

    def _table(self, table: b.Table, indent: str) -> list[str]:
        rows = [[_cell_text(cell) for cell in row] for row in table.rows]
        if table.header:
            rows.insert(0, [_cell_text(cell) for cell in table.spread_header()])
        if not rows:
            return []
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
        return [
            (
                indent
                + "  ".join([*(c.ljust(w) for c, w in zip(row, widths, strict=False)), row[-1]])
            ).rstrip()
            for row in rows
        ]


def _is_subtitle(item: b.Block) -> bool:
    return isinstance(item, b.Paragraph) and b.SUBTITLE in item.classes


def _paragraph_text(item: b.Paragraph) -> str:
    return "".join(inline_text(i) for i in item.inlines)


def _cell_text(cell: b.Cell) -> str:
    return " ".join(_paragraph_text(p) for p in cell if isinstance(p, b.Paragraph))

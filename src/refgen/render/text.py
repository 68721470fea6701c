"""Pages as terminal text: the same blocks the site shows, walked into wrapped lines.

:class:`TextWriter` prints a whole page (``refgen show --page``) at a given
width; :class:`SummaryWriter` turns the command line's compact summaries
(``refgen show``, ``refgen search``) into rich renderables (:class:`Wrapped`,
:class:`WrappedTable`) that wrap at word boundaries to whatever width the
terminal has; rich is imported only when they are printed. Every string is
data and printed as such; control characters are replaced, so nothing a
scenario computes can move the cursor or recolour the terminal. MathML and SVG
are left out (the code of each equation stands beside them), as are tables of
contents.
"""

from __future__ import annotations

import itertools
import re
import textwrap
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, assert_never

from refgen.render import blocks as b
from refgen.render.markup import printable

if TYPE_CHECKING:
    from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
    from rich.text import Text

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
        case _:
            assert_never(item)


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
            " ".join(_words(paragraph)),  # thin spaces inside a grouped number stay
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
            case _:
                assert_never(item)

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


def _words(text: str) -> list[str]:
    """The words textwrap keeps whole: it breaks only at ASCII whitespace, never inside
    a number grouped with thin spaces."""
    return [word for word in re.split(r"[\t\n\x0b\x0c\r ]+", text) if word]


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
        min(width, max([NARROWEST_COLUMN, *(len(word) for row in rows for word in _words(row[i]))]))
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


class Wrapped:
    """A paragraph that rich prints wrapped at word boundaries to the width it is given,
    continuation lines indented by ``hanging`` (a rich renderable)."""

    def __init__(self, text: str, indent: str = "", hanging: str | None = None, style: str = ""):
        self.text, self.indent, self.hanging, self.style = text, indent, hanging, style

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        from rich.text import Text

        # Only a word longer than a whole line is broken.
        for line in _wrap(self.text, self.indent, options.max_width, self.hanging, True):
            yield Text(line, style=self.style, no_wrap=True, overflow="crop")


class SummaryWriter:
    """Blocks as the command line's compact summaries (``refgen show``, ``refgen search``),
    as rich renderables that fit the terminal's width.

    The title stands alone, in bold; subtitle paragraphs follow it indented;
    top-level blocks are separated by one blank line; a section's content is
    indented under its title with no blank lines; a table has no header when
    its header is empty, and its last column wraps first; a field's first block
    follows its label. Every string is data: it passes :func:`printable` and is
    never read as rich markup.
    """

    def renderables(self, page: b.Page) -> list[RenderableType]:
        from rich.text import Text

        shown: list[RenderableType] = []
        if page.title:
            shown.append(Text(printable(page.title), style="bold"))
        shown += [
            Wrapped(_paragraph_text(item), "  ", "    ", style="dim")
            for item in page.blocks
            if isinstance(item, b.Paragraph) and _is_subtitle(item)
        ]
        for item in page.blocks:
            if _is_subtitle(item):
                continue
            if shown:
                shown.append(Text(""))
            shown += self.block(item, "")
        return shown

    def blocks(self, items: Iterable[b.Block], indent: str) -> list[RenderableType]:
        return [shown for item in items for shown in self.block(item, indent)]

    def block(self, item: b.Block, indent: str) -> list[RenderableType]:
        from rich.text import Text

        match item:
            case b.Paragraph():
                hanging = indent + "  " if b.HANGING in item.classes else indent
                return [Wrapped(_paragraph_text(item), indent, hanging)]
            case b.Prose():
                return [Wrapped(item.text, indent)]
            case b.CodeBlock():
                return [Wrapped(line, indent, indent + "    ") for line in item.text.split("\n")]
            case b.Section():
                title = Text(indent + printable(item.title), style="bold")
                return [title, *self.blocks(item.blocks, indent + "  ")]
            case b.FieldList():
                return [shown for field in item.fields for shown in self._field(field, indent)]
            case b.Definitions():
                shown: list[RenderableType] = []
                for term, body in item.items:
                    shown += [Wrapped(term, indent, indent + "    ", style="bold")]
                    shown += self.blocks(body, indent + "    ")
                return shown
            case b.Table():
                return self._table(item, indent)
        return [Text(printable(line)) for line in TextWriter().block(item, indent, 1)]

    def _field(self, field: b.Field, indent: str) -> list[RenderableType]:
        label = f"{field.label}: "
        first, *rest = field.body or (b.text(),)
        shown: list[RenderableType]
        if isinstance(first, b.CodeBlock):
            head, *tail = first.text.split("\n")
            continued = indent + " " * len(label)
            shown = [Wrapped(label + head, indent, continued + "    ")]
            shown += [Wrapped(line, continued, continued + "    ") for line in tail]
        else:
            text = _paragraph_text(first) if isinstance(first, b.Paragraph) else ""
            shown = [Wrapped(label + text, indent, indent + "  ")]
        return shown + self.blocks(rest, indent + "  ")

    def _table(self, table: b.Table, indent: str) -> list[RenderableType]:
        rows = [[_cell_text(cell) for cell in row] for row in table.rows]
        header = [_cell_text(cell) for cell in table.spread_header()] if table.header else None
        return [WrappedTable(rows, header, indent)] if rows else []


class WrappedTable:
    """Rows of text in columns two spaces apart, as wide as the terminal allows (a rich
    renderable): the last column wraps first, at word boundaries, then the widest
    others; the first column is styled as a name, a header in bold."""

    def __init__(self, rows: list[list[str]], header: list[str] | None, indent: str = ""):
        self.rows = [[printable(cell) for cell in row] for row in rows]
        self.header = [printable(cell) for cell in header] if header else None
        self.indent = indent

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        rows = [self.header, *self.rows] if self.header else self.rows
        room = options.max_width - len(self.indent)
        widths = _last_column_first(rows, room)
        for number, row in enumerate(rows):
            header = number == 0 and self.header is not None
            if widths is None:
                yield from self._stacked(row, room, header)
            else:
                yield from self._row(row, widths, header)

    def _row(self, row: list[str], widths: list[int], header: bool) -> Iterator[Text]:
        """One row, each cell wrapped to its column."""
        wrapped = [
            textwrap.wrap(cell, max(width, 1), break_on_hyphens=False) or [""]
            for cell, width in zip(row, widths, strict=True)
        ]
        for parts in itertools.zip_longest(*wrapped, fillvalue=""):
            yield self._line(parts, widths, header)

    def _stacked(self, row: list[str], room: int, header: bool) -> Iterator[Text]:
        """One row for a terminal too narrow for its columns: the last cell below the
        others, indented."""
        *first, last = row
        yield self._line(first, [len(cell) for cell in first], header)
        for line in textwrap.wrap(last, max(room - 4, 1), break_on_hyphens=False):
            yield self._line(["    " + line], [room], header, name=False)

    def _line(
        self, parts: Sequence[str], widths: Sequence[int], header: bool, name: bool = True
    ) -> Text:
        from rich.text import Text

        line = Text(self.indent)
        for column, (part, width) in enumerate(zip(parts, widths, strict=True)):
            line.append(part, style="bold" if header else "cyan" if column == 0 and name else "")
            line.append(" " * (width - len(part) + 2))
        line.rstrip()
        return line


LAST_COLUMN_FLOOR = 30
"""A table's last column is not made narrower than this (or than its longest cell):
below it, the last cell goes on lines of its own."""


def _last_column_first(rows: list[list[str]], room: int) -> list[int] | None:
    """Column widths that fit ``room`` (two spaces between columns), the last column giving
    way first, down to :data:`LAST_COLUMN_FLOOR`, then the others as :func:`_fitted_widths`
    shares it out. None when the columns cannot fit: lay the rows out stacked."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    last = len(widths) - 1
    others = sum(widths[:last]) + 2 * last
    floor = min(widths[last], LAST_COLUMN_FLOOR)
    widths[last] = max(floor, min(widths[last], room - others))
    if others + widths[last] > room and last > 0:
        widths[:last] = _fitted_widths([row[:last] for row in rows], room - widths[last] - 2)
    if sum(widths) + 2 * last > room:
        return None
    return widths


def _is_subtitle(item: b.Block) -> bool:
    return isinstance(item, b.Paragraph) and b.SUBTITLE in item.classes


def _paragraph_text(item: b.Paragraph) -> str:
    return "".join(inline_text(i) for i in item.inlines)


def _cell_text(cell: b.Cell) -> str:
    return " ".join(_paragraph_text(p) for p in cell if isinstance(p, b.Paragraph))

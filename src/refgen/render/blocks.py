"""The page model: small typed blocks that say what a page shows, not how it is spelt.

Rendering turns analysed and evaluated records into a :class:`Page` of these
blocks; the Sphinx layer turns each block into docutils nodes and the command
line into terminal text. Every string held here is data (shown as text), except
:class:`Prose`, which is text the author wrote in reST on purpose and which
the Sphinx layer parses with its lines mapped to the Python source.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping
from dataclasses import dataclass, field

from refgen.analysis.model import SourceLocation
from refgen.render.markup import parse, serialize

# ---------------------------------------------------------------------- inline


@dataclass(frozen=True)
class Text:
    """Plain text."""

    text: str


@dataclass(frozen=True)
class Code:
    """Code shown exactly as written, in a monospaced font."""

    text: str
    classes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Xref:
    """A cross-reference to a Python object, resolved by the Python domain."""

    role: str
    """``class``, ``attr``, ``func`` or ``obj`` (any kind of object)."""
    target: str
    """Dotted path of the object."""
    label: str
    code: bool = True
    """Show the label as code, like ``:py:attr:`` does."""
    optional: bool = False
    """A link only when the target is documented; else the label, with no warning even
    under ``nitpicky`` (a See Also name of an object this site does not document)."""


@dataclass(frozen=True)
class DocLink:
    """A link to another page of the site (a document name relative to this one)."""

    docname: str
    label: str


@dataclass(frozen=True)
class AnchorLink:
    """A link to an entry on the same page (an attribute of the class), shown as code."""

    anchor: str
    label: str


@dataclass(frozen=True)
class SourceLink:
    """A link to the highlighted source of an object, labelled with its file."""

    target: str
    label: str


@dataclass(frozen=True)
class ObjectName:
    """The name of a Python object documented right here, in a table row rather than an
    entry of its own: registered with the Python domain, the target of its links and of
    the page's :class:`AnchorLink` to it. Shown as code."""

    objtype: str
    """``attribute`` or ``property``."""
    module: str
    name: str
    """The name inside the module: ``Class.attribute``."""
    location: SourceLocation | None = None

    @property
    def label(self) -> str:
        return self.name.rpartition(".")[2]


@dataclass(frozen=True)
class Figure:
    """A number in a column of numbers lined up on the decimal point.

    ``whole`` is the number up to its decimal point (``1`` of ``1.5×10⁹``),
    ``fraction`` the rest; ``whole_width`` and ``fraction_width`` are the widest
    of each in the figure's column, in characters, so every number of the column
    puts its decimal point at the same place.
    """

    whole: str
    fraction: str
    whole_width: int
    fraction_width: int

    @property
    def text(self) -> str:
        return self.whole + self.fraction


@dataclass(frozen=True)
class FileLink:
    """A link to a file built with the site (a CSV, a JSON file), downloaded when followed."""

    path: str
    """Where the file is, from the site's root: ``reference/registry.csv``."""
    label: str


Inline = Text | Code | Xref | DocLink | AnchorLink | SourceLink | ObjectName | Figure | FileLink

# ---------------------------------------------------------------------- blocks


@dataclass(frozen=True)
class Paragraph:
    inlines: tuple[Inline, ...]
    classes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Prose:
    """Text the author wrote as reST (a docstring part), parsed when the page is read.

    ``mentions`` maps a name the text may mention (an attribute, a helper) to
    the link that replaces the mention.
    """

    text: str
    location: SourceLocation | None = None
    """Where ``text``'s first line is in the source, for warnings."""
    mentions: Mapping[str, Inline] = field(default_factory=dict, compare=False)
    subject: str = ""
    """The dotted name of the object whose docstring ``text`` is from, for warnings."""


@dataclass(frozen=True)
class CodeBlock:
    text: str
    language: str = "python"
    classes: tuple[str, ...] = ()
    copy_label: str = ""
    """When set, the site gives the block a button of this label that copies its text."""


class Markup:
    """MathML or SVG: an element tree of data, or that tree as
    :func:`refgen.render.markup.serialize` (the one escaping path) wrote it.

    A page composed in another process (:mod:`refgen.sphinx.ahead`) comes back
    pickled, and a page's nodes need the markup only: a Markup is pickled as
    its markup, which is smaller and quicker to load than the tree. It holds
    one of the two, whichever it was made from, and gives the other when asked:
    the worker keeps the pages it composed until it gives their endings, and
    keeping both would hold every drawing twice.
    """

    __slots__ = ("_element", "_markup", "classes", "searchable")

    def __init__(
        self, element: ET.Element, classes: tuple[str, ...] = (), searchable: bool = True
    ) -> None:
        self._element: ET.Element | None = element
        self._markup: str | None = None
        self.classes = classes
        self.searchable = searchable

    @classmethod
    def _serialized(cls, markup: str, classes: tuple[str, ...], searchable: bool) -> Markup:
        made = cls.__new__(cls)
        made._element, made._markup = None, markup
        made.classes, made.searchable = classes, searchable
        return made

    @property
    def element(self) -> ET.Element:
        if self._element is not None:
            return self._element
        assert self._markup is not None
        return parse(self._markup)

    @property
    def markup(self) -> str:
        if self._markup is not None:
            return self._markup
        assert self._element is not None
        return serialize(self._element)

    def __reduce__(self) -> tuple[object, tuple[str, tuple[str, ...], bool]]:
        return (Markup._serialized, (self.markup, self.classes, self.searchable))

    def __repr__(self) -> str:
        return f"Markup({self.markup!r}, classes={self.classes!r}, searchable={self.searchable!r})"


@dataclass(frozen=True)
class Field:
    label: str
    body: tuple[Block, ...]


@dataclass(frozen=True)
class FieldList:
    fields: tuple[Field, ...]


@dataclass(frozen=True)
class Definitions:
    """Terms, each with the blocks that describe it."""

    items: tuple[tuple[str, tuple[Block, ...]], ...]


@dataclass(frozen=True)
class BulletList:
    items: tuple[tuple[Block, ...], ...]
    classes: tuple[str, ...] = ()


Cell = tuple["Block", ...]


@dataclass(frozen=True)
class Table:
    header: tuple[Cell, ...]
    rows: tuple[tuple[Cell, ...], ...]
    classes: tuple[str, ...] = ()
    stub_columns: int = 0
    searchable: bool = True
    header_spans: tuple[int, ...] = ()
    """Columns each header cell spans, one each when empty: a heading over a number and its unit."""
    cell_classes: tuple[tuple[tuple[str, ...], ...], ...] = ()
    """Classes of each body cell, row by row (none when empty): a cell that differs, a
    strong elasticity. The page says the same in words; the classes only highlight."""

    def classes_of(self, row: int, column: int) -> tuple[str, ...]:
        """The classes of body cell ``(row, column)``."""
        if row < len(self.cell_classes) and column < len(self.cell_classes[row]):
            return self.cell_classes[row][column]
        return ()

    @property
    def columns(self) -> int:
        return sum(self.header_spans) if self.header_spans else len(self.header)

    def spread_header(self) -> tuple[Cell, ...]:
        """The header with an empty cell in each column a heading spans beyond its first."""
        if not self.header_spans:
            return self.header
        spread: list[Cell] = []
        for cell, span in zip(self.header, self.header_spans, strict=True):
            spread += [cell, *([()] * (span - 1))]
        return tuple(spread)


@dataclass(frozen=True)
class Rubric:
    """A heading that is not a section (inside an object's entry)."""

    text: str


@dataclass(frozen=True)
class Section:
    title: str
    blocks: tuple[Block, ...]
    classes: tuple[str, ...] = ()


@dataclass(frozen=True)
class PyObject:
    """A Python object's entry (class, attribute, property, function), registered with the domain.

    ``as_section`` puts the entry in a subsection titled with its name, so it
    shows in the page's table of contents.
    """

    objtype: str
    module: str
    name: str
    """The name inside the module: ``Class``, ``Class.attribute`` or ``function``."""
    signature: str = ""
    """For classes and functions: the argument list as written, with brackets."""
    annotation: str = ""
    """For attributes and properties: the type, as written."""
    body: tuple[Block, ...] = ()
    location: SourceLocation | None = None
    as_section: bool = False


@dataclass(frozen=True)
class Collapsible:
    """Blocks a reader opens when they want them (a diagram, long source), under a
    one-line summary; shown open where a format cannot fold them (text, LaTeX)."""

    summary: str
    blocks: tuple[Block, ...]
    classes: tuple[str, ...] = ()


@dataclass(frozen=True)
class TocTree:
    entries: tuple[str, ...]
    hidden: bool = False
    maxdepth: int = -1


Block = (
    Paragraph
    | Prose
    | CodeBlock
    | Markup
    | FieldList
    | Definitions
    | BulletList
    | Table
    | Rubric
    | Section
    | PyObject
    | Collapsible
    | TocTree
)


@dataclass(frozen=True)
class Page:
    """One generated page: its title, the module its names live in, and its blocks."""

    title: str
    blocks: tuple[Block, ...]
    location: SourceLocation
    module: str | None = None
    """The Python module that names on the page are relative to (``py:currentmodule``)."""


SUBTITLE = "refgen-subtitle"
"""Class of the paragraphs right under a title that say what the object is and where."""
HANGING = "refgen-hanging"
"""Class of a paragraph whose continuation lines a terminal indents (a long note)."""


def text(*parts: str | Inline) -> Paragraph:
    """A paragraph of plain strings and inline items."""
    return Paragraph(tuple(Text(part) if isinstance(part, str) else part for part in parts))

"""The one escaping path: data to HTML, SVG and MathML text.

Everything refgen shows reaches a page either as a docutils text node (which
Sphinx's writers escape) or through this module: MathML and SVG are built as
:mod:`xml.etree.ElementTree` elements, whose text and attribute values are
plain data, and :func:`serialize` is the only place they become markup.
:func:`escape` serves the rare string that must be written by hand.
Characters XML cannot carry (control characters) are replaced, so no data can
break the document it is placed in; :func:`printable` does the same for text
printed to a terminal.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from html import escape as _html_escape
from xml.parsers import expat

_NOT_XML_CHARACTER = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_CONTROL = re.compile(
    r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)
"""Control characters, the bidirectional overrides and isolates (text that reads in
another order than it runs), and lone surrogates (which no terminal can print)."""
_INTERNAL_HREF = re.compile(r"^#[^\s\"'<>]*$")


def xml_safe(text: str) -> str:
    """``text`` with the characters XML 1.0 cannot carry replaced by U+FFFD."""
    return _NOT_XML_CHARACTER.sub("\ufffd", text)


def escaped_unprintable(text: str) -> str:
    """``text`` (JSON, say) with what :func:`printable` replaces written as ``\\uXXXX``
    escapes instead, so that JSON read back holds the same characters."""
    return _CONTROL.sub(lambda found: f"\\u{ord(found.group()):04x}", text)


def printable(text: str) -> str:
    """``text`` for a terminal: control characters (escape sequences, bells, carriage
    returns), bidirectional overrides and lone surrogates replaced by U+FFFD; line
    breaks and tabs kept."""
    return _CONTROL.sub("\ufffd", text)


def escape(text: str) -> str:
    """``text`` as HTML/XML character data or attribute value: nothing in it is markup."""
    return _html_escape(xml_safe(text), quote=True)


def element(
    tag: str, *children: ET.Element, text: str | None = None, **attributes: str
) -> ET.Element:
    """An element whose text and attributes are data (made XML-safe here)."""
    made = ET.Element(tag, {key: xml_safe(value) for key, value in attributes.items()})
    if text is not None:
        made.text = xml_safe(text)
    made.extend(children)
    return made


def internal_href(anchor: str) -> str:
    """A link to ``anchor`` on the same page; anything that is not one is refused."""
    href = f"#{anchor}"
    if not _INTERNAL_HREF.match(href):
        raise ValueError(f"not an anchor on this page: {anchor!r}")
    return href


def serialize(root: ET.Element) -> str:
    """The element as markup, its text and attribute values escaped."""
    return ET.tostring(root, encoding="unicode", short_empty_elements=True)


def parse(markup: str) -> ET.Element:
    """The element tree :func:`serialize` wrote as ``markup``: its inverse.

    Namespaces are not processed, so an ``xmlns`` attribute comes back as the
    attribute it was, not as a namespace of every tag.
    """
    builder = ET.TreeBuilder()
    parser = expat.ParserCreate()
    parser.StartElementHandler = builder.start
    parser.EndElementHandler = builder.end
    parser.CharacterDataHandler = builder.data
    parser.Parse(markup, True)
    return builder.close()


def serialize_html(root: ET.Element) -> str:
    """The element as HTML5 markup: as :func:`serialize`, but every element closed by an
    end tag, since HTML reads ``<span />`` as an opening tag (outside MathML and SVG)."""
    return ET.tostring(root, encoding="unicode", short_empty_elements=False)

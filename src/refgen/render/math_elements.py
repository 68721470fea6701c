"""MathML elements and numbers as written, for the equation layout.

Text taken from the source is set as element text (made XML-safe by
:func:`refgen.render.markup.xml_safe`), never as markup; attribute values are
constants. :func:`refgen.render.markup.serialize` writes the tree.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from refgen.render.markup import xml_safe

MATHML_NAMESPACE = "http://www.w3.org/1998/Math/MathML"
FUNCTION_APPLICATION = "\u2061"
"""The invisible operator between a function's name and its bracketed arguments."""
MULTIPLICATION_SIGN = "×"
MINUS_SIGN = "−"


def element(tag: str, *children: ET.Element, **attributes: str) -> ET.Element:
    made = ET.Element(tag, attributes)
    made.extend(children)
    return made


def leaf(tag: str, text: str, **attributes: str) -> ET.Element:
    """An element holding ``text`` as data."""
    made = ET.Element(tag, attributes)
    made.text = xml_safe(text)
    return made


def row(*children: ET.Element) -> ET.Element:
    return element("mrow", *children)


def identifier(text: str) -> ET.Element:
    """An identifier, always upright (MathML slants single letters by default)."""
    return leaf("mi", text, mathvariant="normal")


def operator(symbol: str) -> ET.Element:
    return leaf("mo", symbol)


def number(text: str) -> ET.Element:
    return leaf("mn", text)


def words(text: str) -> ET.Element:
    return leaf("mtext", text)


def space() -> ET.Element:
    return element("mspace", width="0.5em")


def parenthesized(inner: ET.Element) -> ET.Element:
    return row(operator("("), inner, operator(")"))


def application(function: ET.Element, arguments: list[ET.Element]) -> ET.Element:
    """``f(a, b)``: the name, the invisible function application, the brackets."""
    bracketed = [operator("(")]
    for position, argument in enumerate(arguments):
        if position:
            bracketed.append(operator(","))
        bracketed.append(argument)
    bracketed.append(operator(")"))
    return row(function, operator(FUNCTION_APPLICATION), row(*bracketed))


def math_element(*body: ET.Element) -> ET.Element:
    """A ``<math>`` element around ``body``."""
    return element("math", *body, xmlns=MATHML_NAMESPACE, display="inline")


# --- Numbers ---------------------------------------------------------------

_EXPONENT_NOTATION = re.compile(
    r"(?P<mantissa>[0-9]*(?:\.[0-9]*)?)[eE](?P<sign>[+-]?)(?P<exponent>[0-9]+)"
)
"""One way to read each literal: a long one fails to match in linear time."""


def _signed_integer(sign: str, digits: str) -> ET.Element:
    magnitude = number(digits.lstrip("0") or "0")
    return row(operator(MINUS_SIGN), magnitude) if sign == "-" else magnitude


def number_as_written(written: str) -> ET.Element:
    """A numeric literal; exponent notation becomes a power of ten."""
    digits = written.replace("_", "")
    match = _EXPONENT_NOTATION.fullmatch(digits)
    if match is None:
        return number(digits)
    power = element("msup", number("10"), _signed_integer(match["sign"], match["exponent"]))
    if match["mantissa"] == "1":
        return power
    return row(number(match["mantissa"]), operator(MULTIPLICATION_SIGN), power)

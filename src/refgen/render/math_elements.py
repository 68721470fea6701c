"""MathML elements, numbers as written and unit symbols, for the equation layout.

Text taken from the source is set as element text (made XML-safe by
:func:`refgen.render.markup.xml_safe`), never as markup; attribute values are
constants. :func:`refgen.render.markup.serialize` writes the tree.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from typing import Any

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


# --- Units -----------------------------------------------------------------

_PLAIN_UNIT_FACTOR = r"[^\W\d]\w*(?: +\w+)*(?:\s*(?:\*\*|\^)\s*-?\d{1,2})?"
_PLAIN_UNIT = re.compile(rf"\s*{_PLAIN_UNIT_FACTOR}(?:\s*[*/]\s*{_PLAIN_UNIT_FACTOR})*\s*")
"""Unit spellings handed to pint: names, products, quotients, small powers.

Anything else (numbers, long powers) is shown as written, so that pint never
evaluates arithmetic taken from the page. A factor's name ends in a word
character, so the spaces around an operator can be read one way only: text
that does not match fails in linear time, not exponential.
"""


class UnitSymbols:
    """Pint's short symbols for unit spellings, remembered by whoever owns this (the Project).

    Units are looked up in the project's own registry when ``find_registry``
    finds one (custom units such as ``FLOP`` or ``token`` included), else in a
    registry of pint's definitions, made on first use: loading them is the
    slowest step of laying out an equation.
    """

    def __init__(
        self, registry: Any = None, find_registry: Callable[[], Any] | None = None
    ) -> None:
        self._registry = registry
        self._find_registry = find_registry
        self._symbols: dict[str, str | None] = {}
        self._known: dict[str, bool] = {}

    def _unit_registry(self) -> Any:
        if self._registry is None and self._find_registry is not None:
            self._registry = self._find_registry()
        if self._registry is None:
            import pint

            self._registry = pint.UnitRegistry()
        return self._registry

    def symbol(self, written: str) -> str | None:
        """Pint's short form of a unit (``millisecond`` → ``ms``); None if dimensionless."""
        if written not in self._symbols:
            self._symbols[written] = self._lookup(written)
        return self._symbols[written]

    def knows(self, name: str) -> bool:
        """Whether ``name`` is a unit of the registry (``ureg.FLOP`` is a unit, not a value)."""
        if name not in self._known:
            self._known[name] = self._unit_of(name) is not None
        return self._known[name]

    def _unit_of(self, written: str) -> Any:
        if len(written) > 100 or not _PLAIN_UNIT.fullmatch(written):
            return None
        try:
            return self._unit_registry().Unit(written)
        except Exception:  # pint is missing or does not know the unit
            return None

    def _lookup(self, written: str) -> str | None:
        if not written.strip():
            return None
        unit = self._unit_of(written)
        if unit is None:  # show it as written
            return written
        try:
            return f"{unit:~P}" or None
        except Exception:  # a unit pint cannot abbreviate: as written
            return written

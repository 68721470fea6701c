"""MathML elements, numbers as written and unit symbols, for the equation layout.

Text taken from the source is set as element text (made XML-safe by
:func:`refgen.render.markup.xml_safe`), never as markup; attribute values are
constants. :func:`refgen.render.markup.serialize` writes the tree.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping
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


def _unit_in(registry: Any, written: str) -> Any:
    """``written`` as a unit of ``registry``; None if it is no unit there."""
    if len(written) > 100 or not _PLAIN_UNIT.fullmatch(written):
        return None
    try:
        return registry.Unit(written)
    except Exception:  # the registry does not know it
        return None


class UnitSymbols:
    """Pint's short symbols for unit spellings, remembered by whoever owns this (the Project).

    ``find_registries`` gives the project's own pint registries by the names its
    modules bind them to (``{"ureg": ...}``): a unit written as ``ureg.FLOP`` is
    looked up in that registry, a unit written as text in the first that knows
    it, then in a registry of pint's definitions, made on first use (loading them
    is the slowest step of laying out an equation).
    """

    def __init__(
        self,
        registry: Any = None,
        find_registries: Callable[[], Mapping[str, Any]] | None = None,
    ) -> None:
        self._registry = registry
        self._find_registries = find_registries
        self._registries: Mapping[str, Any] | None = None
        self._symbols: dict[str, str | None] = {}
        self._known: dict[tuple[str, str], bool] = {}

    def _project_registries(self) -> Mapping[str, Any]:
        if self._registries is None:
            found = self._find_registries() if self._find_registries is not None else None
            self._registries = found or {}
        return self._registries

    def _pints_registry(self) -> Any:
        if self._registry is None:
            import pint

            self._registry = pint.UnitRegistry()
        return self._registry

    def symbol(self, written: str) -> str | None:
        """Pint's short form of a unit (``millisecond`` → ``ms``); None if dimensionless."""
        if written not in self._symbols:
            self._symbols[written] = self._lookup(written)
        return self._symbols[written]

    def knows(self, owner: str, name: str) -> bool:
        """Whether ``owner.name`` is a unit: ``owner`` a registry of the project that
        knows ``name`` (``ureg.FLOP``), not any object with an attribute of that name."""
        key = (owner, name)
        if key not in self._known:
            registry = self._project_registries().get(owner)
            self._known[key] = registry is not None and _unit_in(registry, name) is not None
        return self._known[key]

    def _unit_of(self, written: str) -> Any:
        for registry in self._project_registries().values():
            unit = _unit_in(registry, written)
            if unit is not None:
                return unit
        return _unit_in(self._pints_registry(), written)

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

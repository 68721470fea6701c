"""Quantities as readers read them: a sensible unit, symbols people know, one number rule.

Scenario code states its figures in whatever unit the arithmetic leaves them
(``60000 MB``, ``0.22536 h``). Before a figure is shown it is converted, with
pint, to the unit a reader would write:

- a figure whose magnitude is already between 1 and 1000 keeps the code's unit;
- otherwise its leading unit takes the SI prefix that brings it there
  (``60000 MB`` is ``60 GB``, ``0.050332 GB`` is ``50.332 MB``), binary prefixes
  step by 1024 and stay binary (``2048 KiB`` is ``2 MiB``), and counts of bytes,
  bits and operations are never given a prefix below one, and a figure past the
  largest prefix (exa) or below the smallest (pico) goes back to the plain unit
  (``3.14×10²³ FLOP``);
- a time is stated in the largest of the units people read (``s``, ``min``,
  ``h``, ``d``, ``yr``) that leaves it at least one (``0.22536 h`` is
  ``13.522 min``), and below a second in ms, µs, ns;
- a unit pint does not know as prefixable (``token``, ``GPU``) is never prefixed;
- an exact integer is never rounded: it changes unit only when the new number
  shows every digit.

Unit symbols are pint's short ones, from the quantity's own registry (so a
project's definitions file can give its units a symbol), with ``yr`` for pint's
``a`` and a lone inverse unit written out (``per day``, not ``1/d``). Like the
rest of evaluation, this module knows nothing of Sphinx.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from numbers import Number, Real
from typing import Any, cast

import pint
from pint.util import UnitsContainer

SI_PREFIXES = ("pico", "nano", "micro", "milli", "", "kilo", "mega", "giga", "tera", "peta", "exa")
"""Engineering prefixes (powers of 1000) a figure may be given, smallest first."""
BINARY_PREFIXES = ("", "kibi", "mebi", "gibi", "tebi", "pebi", "exbi")
PREFIXABLE = frozenset(
    {"byte", "bit", "FLOP", "flop", "meter", "gram", "watt", "joule", "hertz", "volt", "ampere"}
)
"""Units a figure may be given an SI prefix in, besides any unit the code already prefixed."""
COUNTS = frozenset({"byte", "bit", "FLOP", "flop"})
"""Units with nothing below one: no milli-bytes."""
TIMES = ("second", "minute", "hour", "day", "year")
"""Units of time people read, smallest first; below a second, SI prefixes take over."""
READABLE_SYMBOLS = {"year": "yr", "julian_year": "yr"}
"""pint's symbols that few readers know, and what they read instead."""
_SUPERSCRIPTS = str.maketrans("0123456789-.", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻·")


@dataclass(frozen=True)
class Shown:
    """A figure ready to show: the number and the unit apart, and what they came from.

    ``magnitude`` and ``units`` are the figure in the unit shown, as numbers and
    pint's long unit name (``15.625``, ``"millisecond"``), for exports.
    """

    number: str
    unit: str = ""
    magnitude: Any = None
    units: str = ""

    @property
    def text(self) -> str:
        return with_unit(self.number, self.unit)


def with_unit(number: str, unit: str) -> str:
    """``15.625 ms``; the number alone when there is no unit."""
    return f"{number} {unit}" if unit else number


def is_quantity(value: object) -> bool:
    return isinstance(value, pint.Quantity)


def _real(magnitude: object) -> bool:
    return isinstance(magnitude, Real) and not isinstance(magnitude, bool)


def readable(quantity: Any) -> Any:
    """``quantity`` in the unit a reader would write (see the module's rules)."""
    magnitude = quantity.magnitude
    if not _real(magnitude) or not math.isfinite(magnitude) or magnitude == 0:
        return quantity
    if 1 <= abs(magnitude) < 1000:
        return quantity
    registry = quantity._REGISTRY
    units = dict(_items(quantity))
    lead = next((name for name, power in units.items() if power == 1), None)
    if lead is None:
        return quantity
    prefix, base = _split_prefix(registry, lead)
    if base is None:
        return quantity
    if len(units) == 1 and (base in TIMES or base == "second"):
        return _in_time_unit(quantity)
    if prefix in BINARY_PREFIXES[1:]:
        return _with_prefix(quantity, lead, base, _binary_prefix(prefix, magnitude, base))
    if prefix or base in PREFIXABLE:
        return _with_prefix(quantity, lead, base, _si_prefix(prefix, magnitude, base))
    return quantity


def _split_prefix(registry: Any, name: str) -> tuple[str, str | None]:
    """``("mega", "byte")`` for ``megabyte``; ``("", None)`` when pint cannot tell."""
    try:
        return _split_prefix_once(registry, name)
    except TypeError:  # a registry that cannot be a cache key: ask pint every time
        return _split_prefix_uncached(registry, name)


@functools.lru_cache(maxsize=4096)
def _split_prefix_once(registry: Any, name: str) -> tuple[str, str | None]:
    """:func:`_split_prefix_uncached`, once per registry and unit name: pint's split walks
    every prefix and suffix (about a second per thousand pages of figures)."""
    return _split_prefix_uncached(registry, name)


def _split_prefix_uncached(registry: Any, name: str) -> tuple[str, str | None]:
    try:
        candidates = registry.parse_unit_name(name)
    except Exception:  # a user's registry subclass may refuse a name it defined itself
        return "", None
    if len(candidates) != 1:
        return "", None
    prefix, base, suffix = candidates[0]
    return (prefix, base) if not suffix else ("", None)


def _si_prefix(prefix: str, magnitude: float, base: str) -> str:
    if prefix not in SI_PREFIXES:
        return prefix
    power = 3 * (SI_PREFIXES.index(prefix) - SI_PREFIXES.index(""))
    power += 3 * math.floor(math.log10(abs(magnitude)) / 3)
    index = power // 3 + SI_PREFIXES.index("")
    if index >= len(SI_PREFIXES) or index < 0:  # past the prefixes people read: 10²³ FLOP
        return ""
    return SI_PREFIXES[max(index, SI_PREFIXES.index("") if base in COUNTS else 0)]


def _binary_prefix(prefix: str, magnitude: float, base: str) -> str:
    steps = BINARY_PREFIXES.index(prefix) + math.floor(math.log(abs(magnitude), 1024))
    if steps >= len(BINARY_PREFIXES):  # past the prefixes people read, as with SI ones
        return ""
    return BINARY_PREFIXES[max(steps, 0)]


def _with_prefix(quantity: Any, lead: str, base: str, prefix: str) -> Any:
    name = prefix + base
    if name == lead:
        return quantity
    target = UnitsContainer(
        {(name if unit == lead else unit): power for unit, power in _items(quantity)}
    )
    try:
        return quantity.to(target)
    except Exception:  # a prefix the project's registry does not define for this unit
        return quantity


def _in_time_unit(quantity: Any) -> Any:
    seconds = abs(quantity.to("second").magnitude)
    if seconds < 1:
        return _with_prefix(quantity.to("second"), "second", "second", _si_prefix("", seconds, ""))
    registry = quantity._REGISTRY
    fitting = [u for u in TIMES if seconds >= registry.Quantity(1, u).to("second").magnitude]
    return quantity.to(fitting[-1])


def unit_symbol(registry: Any, name: str) -> str:
    """The symbol a reader sees for one pint unit name."""
    prefix, base = _split_prefix(registry, name)
    if base in READABLE_SYMBOLS and not prefix:
        return READABLE_SYMBOLS[base]
    try:
        return str(registry.get_symbol(name))
    except Exception:  # a unit the registry cannot give a symbol for: its name is the symbol
        return name


def units_text(quantity: Any) -> str:
    """The unit of ``quantity`` in short symbols, in the order the code wrote them."""
    registry = quantity._REGISTRY
    items = _items(quantity)
    if len(items) == 1 and items[0][1] == -1:
        return f"per {items[0][0].replace('_', ' ')}"
    numerator = [(unit_symbol(registry, name), power) for name, power in items if power > 0]
    denominator = [(unit_symbol(registry, name), power) for name, power in items if power < 0]
    return pint.formatter(
        cast("list[tuple[str, Number]]", numerator),
        cast("list[tuple[str, Number]]", denominator),
        as_ratio=True,
        single_denominator=True,
        product_fmt="·",
        division_fmt="/",
        power_fmt="{}{}",
        parentheses_fmt="({})",
        exp_call=_superscript,
    )


def _superscript(power: Any) -> str:
    return "" if power == 1 else f"{power:n}".translate(_SUPERSCRIPTS)


def _items(quantity: Any) -> list[tuple[str, float]]:
    """The quantity's units and their powers, in the order the code wrote them."""
    return list(quantity._units.items())

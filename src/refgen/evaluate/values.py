"""Evaluation: the figures of registry scenarios, computed and formatted.

This is the one stage that runs scenario code on purpose. Each value is
computed from the live registry instance and turned into text with pint's
short pretty units; a value that cannot be computed becomes "not available"
with the reason, never a traceback. Like analysis, it knows nothing of Sphinx.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from numbers import Integral, Real
from typing import Any

from refgen.analysis.failures import describe_error
from refgen.analysis.guard import call_user_code
from refgen.analysis.model import Problem, RegistryEntryDoc, ScenarioDoc, WarningKind
from refgen.evaluate.entries import FoundEntry
from refgen.evaluate.quantities import Shown, is_quantity, readable, units_text, with_unit

NOT_AVAILABLE = "not available"
DEFAULT_PRECISION = 5
WIDEST_SPEC = 1_000
"""The most characters a format spec may ask for, as a width or a precision: Python
would make ``>1000000000`` a gigabyte of text (and take minutes)."""
_SPEC_NUMBER = re.compile(r"\d+")
"""Significant figures of the numbers in registry value tables."""


@dataclass(frozen=True)
class Value:
    """One attribute of one registry scenario, as text."""

    name: str
    text: str
    available: bool = True
    reason: str = ""
    missing_inputs: tuple[str, ...] = ()
    """Optional inputs left unset that the value needs (the expected way to fail)."""
    number: str = ""
    """The number of ``text`` alone (``60``), for tables that align figures and units."""
    unit: str = ""
    """The unit of ``text`` alone (``GB``); empty for a plain number or a value not shown."""
    magnitude: Any = None
    """The figure as a number, in the unit shown; None when the value is not a number."""
    units: str = ""
    """pint's long name of the unit shown (``gigabyte / second``)."""


@dataclass(frozen=True)
class EntryValues:
    """Every input and derived value of one registry scenario."""

    entry: str
    qualname: str
    """Dotted path of the entry (``registry.Entry``)."""
    values: tuple[Value, ...]
    scenario: str = ""
    """Dotted path of the entry's class."""
    inputs: tuple[str, ...] = ()
    """The names among ``values`` that are inputs (the rest are derived)."""

    def value(self, name: str) -> Value | None:
        return next((v for v in self.values if v.name == name), None)


_SUPERSCRIPTS = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def pretty_number(text: str) -> str:
    """``3.14e+23`` as ``3.14×10²³``; text without an exponent is unchanged."""
    mantissa, marker, exponent = text.lower().partition("e")
    if not marker or not exponent.lstrip("+-").isdigit():
        return text
    power = str(int(exponent)).translate(_SUPERSCRIPTS)
    return f"10{power}" if mantissa in ("1", "1.0") else f"{mantissa}×10{power}"


_PLAIN_DECIMAL = re.compile(r"(-?)(\d{5,})(\.\d+)?")
THIN_SPACE = "\u2009"


def grouped(text: str) -> str:
    """A plain decimal's whole part in groups of three digits, thin spaces between, when
    it has five digits or more (``16384`` is ``16 384``, ``2048`` stays): the one rule
    for every figure, integer or not."""
    match = _PLAIN_DECIMAL.fullmatch(text)
    if match is None:
        return text
    sign, whole, fraction = match.groups()
    return f"{sign}{int(whole):,}".replace(",", THIN_SPACE) + (fraction or "")


_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+(?=>)")
"""Where an object lives in memory, as default reprs show it (``<Chip object at 0x7f…>``,
generators, functions): different in every run."""


def without_addresses(text: str) -> str:
    """``text`` with the memory addresses of default reprs left out (``<Chip object>``):
    two runs show, and compare, the same value."""
    return _ADDRESS.sub("", text)


def format_value(value: Any, spec: str | None = None, precision: int = DEFAULT_PRECISION) -> str:
    """Text for a computed value: quantities in a readable unit, with short pretty symbols."""
    return shown(value, spec, precision).text


def shown(value: Any, spec: str | None = None, precision: int = DEFAULT_PRECISION) -> Shown:
    """A computed value ready to show, number and unit apart.

    ``spec`` is a format spec for the magnitude (``.1f``, ``.3g``); without one,
    numbers get ``precision`` significant figures and exact integers every digit.
    """
    if value is None or isinstance(value, bool | str):
        return Shown(str(value))
    if is_quantity(value):
        return _shown_quantity(value, spec, precision)
    if hasattr(value, "magnitude") and hasattr(value, "units"):  # quantity-like, not pint's
        return Shown(_number(value.magnitude, spec, precision), format(value.units, "~P"))
    if isinstance(value, Integral | float):
        return Shown(_number(value, spec, precision), magnitude=value)
    return Shown(format(value, spec) if spec else str(value))


def _shown_quantity(quantity: Any, spec: str | None, precision: int) -> Shown:
    """An author's format spec formats the figure in the code's own unit, as written; without
    one the figure moves to a readable unit, unless that would round an exact integer."""
    scaled = quantity if spec else readable(quantity)
    number = _number(scaled.magnitude, spec, precision)
    if scaled is not quantity and not _says_exactly(quantity.magnitude, scaled, number):
        scaled, number = quantity, _number(quantity.magnitude, spec, precision)
    return Shown(number, units_text(scaled), scaled.magnitude, format(scaled.units, "D"))


def _number(magnitude: Any, spec: str | None, precision: int) -> str:
    if spec:
        return pretty_number(format(magnitude, spec))
    if isinstance(magnitude, Integral) and not isinstance(magnitude, bool):
        return grouped(str(magnitude))
    if magnitude == 0:
        magnitude = abs(magnitude)  # no "-0"
    return pretty_number(grouped(format(magnitude, f".{precision}g")))


def _says_exactly(original: Any, scaled: Any, number: str) -> bool:
    """Whether ``number``, the scaled figure as shown, still gives an exact integer every digit."""
    if not isinstance(original, Integral):
        return True
    try:
        shown_magnitude = float(number.replace(THIN_SPACE, ""))
    except ValueError:  # a power of ten: digits were dropped
        return False
    return math.isclose(shown_magnitude, scaled.magnitude, rel_tol=1e-12, abs_tol=0.0)


def json_number(number: Any) -> int | float | None:
    """``number`` as a JSON number (numpy's too); None for anything else, NaN and infinities."""
    if isinstance(number, bool) or not isinstance(number, Real):
        return None
    if isinstance(number, Integral):
        return int(number)
    converted = float(number)
    return converted if math.isfinite(converted) else None


def _missing_inputs(scenario: ScenarioDoc, instance: Any, name: str) -> list[str]:
    """Inputs that ``name`` depends on (directly or not) and that are None."""
    seen: set[str] = set()
    pending = [name]
    missing = []
    inputs = {i.name for i in scenario.inputs}
    while pending:
        current = pending.pop()
        if current in seen:
            continue
        seen.add(current)
        item = scenario.attribute(current)
        if current in inputs and getattr(instance, current, None) is None:
            missing.append(current)
        pending.extend(getattr(item, "reads", ()))
    return sorted(missing)


def unavailable(scenario: ScenarioDoc, instance: Any, name: str, error: BaseException) -> Value:
    """A value that raised, with the reason: a missing input, or the error itself."""
    missing = tuple(_missing_inputs(scenario, instance, name))
    if missing:
        reason = f"needs {', '.join(missing)}, which this scenario does not give"
    else:
        reason = without_addresses(describe_error(error))
    return Value(name, NOT_AVAILABLE, False, reason, missing)


def compute(
    scenario: ScenarioDoc,
    instance: Any,
    name: str,
    spec: str | None = None,
    precision: int = DEFAULT_PRECISION,
    timeout: float | None = None,
) -> Value:
    """One attribute of ``instance`` as a :class:`Value`, computed within ``timeout`` seconds."""
    raw, error = call_user_code(getattr, instance, name, timeout=timeout)
    if error is not None:  # a scenario's own bug, even SystemExit, must not stop the reference
        return unavailable(scenario, instance, name, error)
    asked = spec_width(spec)
    if asked > WIDEST_SPEC:
        reason = f"asks for {asked} characters; a format spec may ask for {WIDEST_SPEC:,} at most"
        return Value(name, NOT_AVAILABLE, False, f"cannot format with {spec!r}: {reason}")
    figure, failure = call_user_code(shown, raw, spec, precision, timeout=timeout)
    if failure is not None:  # a value whose __format__ or __str__ raises is the user's bug
        how = f"with {spec!r}" if spec else "as text"
        return Value(name, NOT_AVAILABLE, False, f"cannot format {how}: {describe_error(failure)}")
    assert isinstance(figure, Shown)
    if not isinstance(figure.number, str) or not isinstance(figure.unit, str):
        return Value(name, NOT_AVAILABLE, False, "cannot format as text: not text")
    number, unit = str.__str__(figure.number), str.__str__(figure.unit)  # not a str subclass's
    number, unit = without_addresses(number), without_addresses(unit)
    magnitude = figure.magnitude if isinstance(figure.magnitude, Integral | float) else None
    text = with_unit(number, unit)
    return Value(name, text, number=number, unit=unit, magnitude=magnitude, units=figure.units)


def spec_width(spec: str | None) -> int:
    """The most characters a format spec asks for (its width or its precision, whichever
    is larger); 0 for none."""
    return max((int(number) for number in _SPEC_NUMBER.findall(spec or "")), default=0)


def entry_values(
    scenario: ScenarioDoc,
    entry: RegistryEntryDoc,
    instance: Any,
    precision: int = DEFAULT_PRECISION,
    timeout: float | None = None,
) -> EntryValues:
    """Every attribute of one registry entry, ``instance``."""
    values = tuple(
        compute(scenario, instance, name, precision=precision, timeout=timeout)
        for name in scenario.attribute_names
    )
    inputs = tuple(item.name for item in scenario.inputs)
    return EntryValues(
        entry.name, f"{entry.registry}.{entry.name}", values, scenario.qualname, inputs
    )


@dataclass(frozen=True)
class Quote:
    """A registry value quoted in prose, or why it cannot be."""

    value: Value | None
    target: str = ""
    """Dotted path of the attribute, for the link."""
    problem: str = ""


def quote(
    found: FoundEntry | str,
    attribute: str,
    spec: str | None = None,
    precision: int = DEFAULT_PRECISION,
    timeout: float | None = None,
) -> Quote:
    """``attribute`` of a registry entry (formatted with ``spec``) for prose; ``found`` is
    the entry, or why there is none."""
    if isinstance(found, str):
        return Quote(None, problem=found)
    scenario = found.scenario
    if attribute not in scenario.attribute_names:
        return Quote(None, problem=f"{scenario.name} has no attribute {attribute!r}")
    value = compute(scenario, found.instance, attribute, spec, precision, timeout)
    return Quote(
        value,
        f"{scenario.qualname}.{attribute}",
        "" if value.available else value.reason,
    )


def raising_properties(scenario: ScenarioDoc, entries: Iterable[EntryValues]) -> list[Problem]:
    """Properties that raise for a registry entry, except for lack of an optional input."""
    problems = []
    for entry in entries:
        for value in entry.values:
            if value.available or value.missing_inputs:
                continue
            item = scenario.attribute(value.name)
            problems.append(
                Problem(
                    WarningKind.VALUE,
                    f"{scenario.qualname}.{value.name} cannot be computed for registry "
                    f"entry {entry.entry}: {value.reason}",
                    item.location if item else scenario.location,
                    "",  # the message names the attribute and the entry
                )
            )
    return problems

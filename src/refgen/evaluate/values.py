"""Evaluation: the figures of registry scenarios, computed and formatted.

This is the one stage that runs scenario code on purpose. Each value is
computed from the live registry instance and turned into text with pint's
short pretty units; a value that cannot be computed becomes "not available"
with the reason, never a traceback. Like analysis, it knows nothing of Sphinx.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from refgen.analysis.failures import describe_error
from refgen.analysis.guard import call_user_code
from refgen.analysis.model import RegistryEntryDoc, ScenarioDoc

if TYPE_CHECKING:
    from refgen.project import Project

NOT_AVAILABLE = "not available"
DEFAULT_PRECISION = 5
"""Significant figures of the numbers in registry value tables."""
INLINE = ".3g"
"""Format of a value quoted in prose when the author gives none."""


@dataclass(frozen=True)
class Value:
    """One attribute of one registry scenario, as text."""

    name: str
    text: str
    available: bool = True
    reason: str = ""
    missing_inputs: tuple[str, ...] = ()
    """Optional inputs left unset that the value needs (the expected way to fail)."""


@dataclass(frozen=True)
class EntryValues:
    """Every input and derived value of one registry scenario."""

    entry: str
    qualname: str
    """Dotted path of the entry (``registry.Entry``)."""
    values: tuple[Value, ...]

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


def format_value(value: Any, spec: str | None = None, precision: int = DEFAULT_PRECISION) -> str:
    """Text for a computed value: quantities with short pretty units.

    ``spec`` is a format spec for the magnitude (``.1f``, ``.3g``); without one,
    numbers get ``precision`` significant figures.
    """
    if value is None or isinstance(value, bool | str):
        return str(value)
    if hasattr(value, "magnitude") and hasattr(value, "units"):
        magnitude = format(value.magnitude, spec or f".{precision}g")
        magnitude = pretty_number(magnitude if spec else grouped(magnitude))
        units = format(value.units, "~P")
        return f"{magnitude} {units}" if units else magnitude
    if isinstance(value, int):
        return format(value, spec) if spec else grouped(str(value))
    if isinstance(value, float):
        return pretty_number(
            format(value, spec) if spec else grouped(format(value, f".{precision}g"))
        )
    return format(value, spec) if spec else str(value)


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
        reason = describe_error(error)
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
    shown, failure = call_user_code(format_value, raw, spec, precision, timeout=timeout)
    if failure is not None:  # a value whose __format__ or __str__ raises is the user's bug
        how = f"with {spec!r}" if spec else "as text"
        return Value(name, NOT_AVAILABLE, False, f"cannot format {how}: {describe_error(failure)}")
    if not isinstance(shown, str):
        return Value(name, NOT_AVAILABLE, False, "cannot format as text: not text")
    return Value(name, str.__str__(shown))  # a str subclass's own __str__ is the user's code


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
    return EntryValues(entry.name, f"{entry.registry}.{entry.name}", values)


@dataclass(frozen=True)
class Quote:
    """A registry value quoted in prose, or why it cannot be."""

    value: Value | None
    target: str = ""
    """Dotted path of the attribute, for the link."""
    problem: str = ""


def quote(project: Project, text: str) -> Quote:
    """Evaluate ``Entry.attribute`` (optionally ``:spec``) against the project's registry."""
    registry = project.settings.registry
    target, _, spec = text.partition(":")
    entry, _, attribute = target.strip().rpartition(".")
    if not registry or not entry:
        return Quote(None, problem="write Entry.attribute and set a registry")
    found = project.entry(entry)
    if found is None:
        return Quote(None, problem=f"no registry scenario {entry!r} in {registry}")
    instance, error = call_user_code(project.instance, found)
    scenario = None
    if error is None:
        scenario, error = call_user_code(project.cache.scenario, type(instance))
    if error is not None:
        reason = f"no registry scenario {entry!r} in {registry} ({describe_error(error)})"
        return Quote(None, problem=reason)
    assert scenario is not None
    if attribute not in scenario.attribute_names:
        return Quote(
            None,
            problem=f"{scenario.name} has no attribute {attribute!r}",
        )
    value = compute(
        scenario, instance, attribute, spec.strip() or INLINE, timeout=project.settings.eval_timeout
    )
    return Quote(
        value,
        f"{scenario.qualname}.{attribute}",
        "" if value.available else value.reason,
    )

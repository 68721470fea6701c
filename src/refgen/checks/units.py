"""The unit rule: a derived attribute's description states a unit; the computed value is in it.

A description states a unit as ``in UNIT``, a leading ``UNIT:``, ``(UNIT)`` or
the word ``dimensionless``; pint, with the scenario's own unit registry,
decides whether the words are a unit. Each registry entry's value is then
compared with it (see docs/cli.md, "The unit rule").
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from refgen.analysis.model import ScenarioDoc
from refgen.checks.findings import CheckKind, Finding, finding
from refgen.evaluate import values

if TYPE_CHECKING:
    from refgen.project import Project

# Words after "in" that pint would read as a unit but that are English here
# ("in a", "in turn", "in line with").
NOT_UNITS = frozenset(
    "a an are as at bar be by cup dot hand in is it line mil no of on or pi point so the to "  # noqa: SIM905
    "turn up".split()
)
DIMENSIONLESS = "dimensionless"


def stated_units(description: str) -> list[str]:
    """Unit candidates a description states, leftmost first.

    Recognised forms: a leading ``UNIT:``, ``(UNIT)``, ``in UNIT`` (also
    ``in UNIT per UNIT``) and the word ``dimensionless``. Whether a candidate
    is a unit is decided by :func:`parse_stated`.
    """
    token = r"(?:[^\W\d_]|%)[^\s(),;:]*?"
    end = r"(?=[\s,;:)]|\.(?:\s|$)|$)"
    patterns = (
        rf"^({token}):(?=\s|$)",
        rf"\(({token})\)",
        rf"\b[Ii]n ({token}(?: per {token})?){end}",
        r"\b(dimensionless)\b",
    )
    found: list[tuple[int, str]] = []
    for pattern in patterns:
        found.extend((m.start(), m.group(1)) for m in re.finditer(pattern, description))
    return [text for _, text in sorted(found)]


def parse_stated(text: str, registry: Any) -> Any:
    """The pint unit ``text`` names, ``DIMENSIONLESS``, or None if it is not a unit.

    Every word must be a unit pint knows and not one of :data:`NOT_UNITS`; a
    lowercase word of four or more letters must be the unit's own name or its
    plural, since pint also reads ``units`` (as micro-nit) and ``mass`` (as
    milli-arcsecond), which no author means.
    """
    if text == DIMENSIONLESS:
        return DIMENSIONLESS
    try:
        for word in re.findall(r"[^\W\d_]+", text):
            if word == "per":
                continue
            if word in NOT_UNITS:
                return None
            if word.islower() and len(word) >= 4:
                name = registry.get_name(word)
                if word not in (name, f"{name}s", f"{name}es"):
                    return None
        return registry.parse_units(text)
    except Exception:  # pint's errors for undefined or unparsable units
        return None


def unit_registry(instance: Any, scenario: ScenarioDoc) -> Any:
    """The pint registry the entry's quantities use, or pint's application registry."""
    for item in scenario.inputs:
        value: Any = getattr(instance, item.name, None)
        if hasattr(value, "_REGISTRY"):
            return value._REGISTRY
    import pint

    return pint.get_application_registry()  # type: ignore[no-untyped-call]


def unit_findings(project: Project, scenario: ScenarioDoc) -> list[Finding]:
    """Derived attributes whose description states a unit other than the computed one.

    One finding per attribute: the first registry entry that disagrees is
    quoted, and the number of further entries that do is added.
    """
    disagreements: dict[str, list[str]] = {}
    for entry in scenario.registry_entries:
        compared = project.inspect_entry(
            entry, lambda read: list(entry_disagreements(scenario, read.entry.name, read.instance))
        )
        if isinstance(compared, str):  # the registry page reports this; nothing to compare here
            continue
        for name, message in compared:
            disagreements.setdefault(name, []).append(message)
    found = []
    for derived in scenario.derived:
        messages = disagreements.get(derived.name)
        if not messages:
            continue
        more = len(messages) - 1
        also = f" (and {more} more registry entr{'y' if more == 1 else 'ies'})" if more else ""
        found.append(
            finding(
                CheckKind.UNIT_MISMATCH,
                f"{scenario.name}.{derived.name}: {messages[0]}{also}",
                derived.location,
            )
        )
    return found


def entry_disagreements(
    scenario: ScenarioDoc, entry: str, instance: Any
) -> Iterator[tuple[str, str]]:
    """``(attribute, message)`` for each derived attribute of one registry entry,
    ``instance``, whose value is not in the unit its description states."""
    registry: Any = None
    for derived in scenario.derived:
        candidates = stated_units(derived.description)
        if not candidates:
            continue
        try:
            raw = getattr(instance, derived.name)
        except Exception:  # not available: the page says why; nothing to compare
            continue
        is_quantity = hasattr(raw, "units") and hasattr(raw, "magnitude")
        if not is_quantity and (isinstance(raw, bool) or not isinstance(raw, int | float)):
            continue
        if registry is None:
            registry = raw._REGISTRY if is_quantity else unit_registry(instance, scenario)
        stated_text, stated = next(
            (
                (text, unit)
                for text in candidates
                if (unit := parse_stated(text, registry)) is not None
            ),
            ("", None),
        )
        if stated is None:
            continue
        problem = unit_disagreement(stated_text, stated, raw, is_quantity)
        if problem:
            yield (
                derived.name,
                f"the description states {stated_text} but {entry} computes "
                f"{values.format_value(raw)}: {problem}",
            )


def unit_disagreement(stated_text: str, stated: Any, raw: Any, is_quantity: bool) -> str:
    """Why the computed value is not quoted in the stated unit; "" when it is."""
    if stated == DIMENSIONLESS:
        if not is_quantity or raw.unitless:
            return ""
        return f"a quantity in {raw.units:~P}, not a plain number"
    if not is_quantity:
        return f"a plain number, not a quantity in {stated_text}"
    if raw.units == stated:
        return ""
    if raw.dimensionality == stated.dimensionality:
        return f"same dimension, but the page would quote {raw.units:~P}, not {stated_text}"
    return f"a different dimension ({raw.dimensionality}, not {stated.dimensionality})"

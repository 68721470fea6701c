"""The registry as the audit reads it: entry names, attributes, values and units, from a Project.

Values are the ones the reference shows (``Project.entry_values``, computed once
per project), read back as pint quantities in the project's own unit registry
(the first one its modules bind, so ``FLOP`` and ``token`` mean what they mean
there), and converted to whatever unit prose typed. Entries are computed only
when a sentence names them; a value that cannot be computed quotes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import pint

from refgen.evaluate.values import Value
from refgen.prose.audit import Computed

if TYPE_CHECKING:
    from refgen.project import Project


_NAMES = re.compile(r"[^\W\d_][\w]*|%")


class Lookup:
    """One project's registry values, computed on first use (an audit's ``Registry``)."""

    def __init__(self, project: Project) -> None:
        self.project = project
        registries = list(project.unit_registries().values()) if project.registry else []
        self.units: Any = registries[0] if registries else pint.get_application_registry()  # type: ignore[no-untyped-call]
        self._values: dict[str, dict[str, Value]] = {}
        self._dimensions: dict[str, str | None] = {}

    def entries(self) -> Sequence[str]:
        registry = self.project.registry
        return [entry.name for entry in registry.entries] if registry is not None else []

    def attributes(self, entry: str) -> Sequence[str]:
        return list(self._entry_values(entry))

    def dimension_of(self, unit: str) -> str | None:
        """``[time]`` for ``ms``; ``""`` for ``%``; None for text pint cannot read as a unit."""
        if unit not in self._dimensions:
            self._dimensions[unit] = self._dimension(unit)
        return self._dimensions[unit]

    def _dimension(self, unit: str) -> str | None:
        try:
            if any(len(self.units.parse_unit_name(name)) != 1 for name in _NAMES.findall(unit)):
                return None  # unknown, or ambiguous (Gbps: gigabaud or gigapoint)
            parsed = self.units.parse_units(unit)
        except Exception:  # pint's many errors for text that is not a unit
            return None
        return "" if parsed.dimensionless else str(parsed.dimensionality)

    def computed(self, entry: str, attribute: str) -> Computed | None:
        value = self._entry_values(entry).get(attribute)
        if value is None or not value.available or value.magnitude is None:
            return None
        quantity = self._quantity(value)
        if quantity is None:
            return None
        dimension = "" if quantity.dimensionless else str(quantity.dimensionality)
        return Computed(value.text, dimension)

    def in_unit(self, entry: str, attribute: str, unit: str) -> float | None:
        """The value in ``unit`` (a bare number: as a plain number), or None if it cannot be."""
        value = self._entry_values(entry).get(attribute)
        quantity = self._quantity(value) if value is not None else None
        if quantity is None:
            return None
        try:
            return float(quantity.to(unit or "dimensionless").magnitude)
        except Exception:  # pint's errors for units that do not convert
            return None

    def _quantity(self, value: Value) -> Any:
        try:
            return self.units.Quantity(value.magnitude, value.units or "dimensionless")
        except Exception:  # a unit of another registry that this one does not define
            return None

    def _entry_values(self, name: str) -> dict[str, Value]:
        if name not in self._values:
            self._values[name] = self._compute(name)
        return self._values[name]

    def _compute(self, name: str) -> dict[str, Value]:
        """Every value of the entry called ``name``; nothing when it cannot be computed."""
        project = self.project
        entry = project.entry(name)
        if entry is None:
            return {}
        found = project.found_entry(entry)
        if isinstance(found, str):
            return {}
        computed = project.entry_values(found.scenario, entry)
        if isinstance(computed, str):
            return {}
        return {value.name: value for value in computed.values}

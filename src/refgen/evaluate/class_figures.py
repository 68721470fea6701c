"""Class figures: the registry values and elasticities of a project's classes, each computed once.

An incremental build composes a page to compare it, then again to read it; the
class page and the registry's downloads show the same values. So the values of
each registry entry (:mod:`refgen.evaluate.values`) and the elasticities of each
class (:mod:`refgen.evaluate.sensitivity`) are kept for as long as the Project
that asked for them, or given by a worker of the build that computed them
(:meth:`ClassFigures.remember`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from refgen.analysis.failures import guarded
from refgen.analysis.model import RegistryEntryDoc, ScenarioDoc
from refgen.config import Settings
from refgen.evaluate import values
from refgen.evaluate.sensitivity import Sensitivity, entry_sensitivity
from refgen.evaluate.values import EntryValues

EntryKey = tuple[str, str, str]
"""A class's dotted path, its registry's and the entry's name."""

InstanceOf = Callable[[RegistryEntryDoc], tuple[Any, str]]
"""The live instance of an entry, or why there is none (then the instance is None)."""


def key_of(scenario: ScenarioDoc, entry: RegistryEntryDoc) -> EntryKey:
    return (scenario.qualname, entry.registry, entry.name)


class ClassFigures:
    """The values of each registry entry and the elasticities of each class of a project."""

    def __init__(self, settings: Settings, instance_of: InstanceOf) -> None:
        self.settings = settings
        self._instance_of = instance_of
        self._entry_values: dict[EntryKey, EntryValues] = {}
        self._sensitivities: dict[str, tuple[Sensitivity, ...]] = {}

    def values(self, scenario: ScenarioDoc) -> tuple[EntryValues, ...] | str:
        """Every input and derived value of every registry entry of the class; or why an
        entry cannot be read."""
        found = []
        for entry in scenario.registry_entries:
            computed = self.entry_values(scenario, entry)
            if isinstance(computed, str):
                return computed
            found.append(computed)
        return tuple(found)

    def entry_values(self, scenario: ScenarioDoc, entry: RegistryEntryDoc) -> EntryValues | str:
        """The entry's values; or why the entry cannot be read."""
        key = key_of(scenario, entry)
        if key not in self._entry_values:
            instance, reason = self._instance_of(entry)
            if reason:
                return reason
            precision, timeout = self.settings.value_precision, self.settings.eval_timeout
            computed = guarded(values.entry_values, scenario, entry, instance, precision, timeout)
            if isinstance(computed, str):
                return computed
            self._entry_values[key] = computed
        return self._entry_values[key]

    def sensitivities(self, scenario: ScenarioDoc) -> tuple[Sensitivity, ...] | str:
        """The elasticities of every registry entry of the class; or why an entry cannot
        be read."""
        if scenario.qualname not in self._sensitivities:
            found: list[Sensitivity] = []
            for entry in scenario.registry_entries:
                instance, reason = self._instance_of(entry)
                if reason:
                    return reason
                timeout = self.settings.eval_timeout
                elasticities = guarded(entry_sensitivity, scenario, entry, instance, timeout)
                if isinstance(elasticities, str):
                    return elasticities
                found.append(elasticities)
            self._sensitivities[scenario.qualname] = tuple(found)
        return self._sensitivities[scenario.qualname]

    def has(self, scenario: ScenarioDoc) -> bool:
        """Whether the class's values and elasticities are computed (or given) already."""
        return scenario.qualname in self._sensitivities

    def remember(
        self,
        scenario: ScenarioDoc,
        entry_values: tuple[EntryValues, ...],
        sensitivities: tuple[Sensitivity, ...],
    ) -> None:
        """The class's values and elasticities, computed elsewhere, kept as if computed here."""
        for entry, found in zip(scenario.registry_entries, entry_values, strict=True):
            self._entry_values.setdefault(key_of(scenario, entry), found)
        self._sensitivities.setdefault(scenario.qualname, sensitivities)

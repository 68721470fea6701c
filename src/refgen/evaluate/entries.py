"""Registry entries by name: each entry's live scenario and its class's record, or why not.

An entry is found by name in one place, :meth:`Entries.named` (``Entry`` or
``registry.path.Entry``): the entry's record, the scenario instance the
registry holds under that name and the analysed record of its class, as a
:class:`FoundEntry`, or a sentence saying why there is none. Reading the
registry's namespace and analysing a class run the user's code, so both are
guarded; what is found is kept for the build, what failed is not (it is
asked again, and may pass).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from refgen.analysis import discovery
from refgen.analysis.failures import describe_error
from refgen.analysis.guard import call_user_code
from refgen.analysis.model import RegistryDoc, RegistryEntryDoc, ScenarioDoc


@dataclass(frozen=True)
class FoundEntry:
    """A registry entry, the live scenario it names, and the record of that scenario's class."""

    entry: RegistryEntryDoc
    instance: Any
    scenario: ScenarioDoc


NO_REGISTRY = "there is no registry to read"


class Entries:
    """The entries of one project's registry: looked up by name, each read once.

    ``registry`` is the configured registry's dotted path (None without one),
    ``read`` its record (None when it cannot be read), and ``scenario_of`` the
    record of a class with its registry entries, or why it cannot be analysed.
    """

    def __init__(
        self,
        registry: str | None,
        read: RegistryDoc | None,
        scenario_of: Callable[[type], ScenarioDoc | str],
    ) -> None:
        self._path = registry
        self._read = read
        self._scenario_of = scenario_of
        self._namespaces: dict[str, dict[str, Any]] = {}
        self._found: dict[tuple[str, str], FoundEntry] = {}

    def entry(self, name: str) -> RegistryEntryDoc | None:
        """The registry entry called ``name`` (``Entry`` or ``registry.path.Entry``)."""
        if self._read is None:
            return None
        name = name.removeprefix(f"{self._read.qualname}.")
        return next((e for e in self._read.entries if e.name == name), None)

    def named(self, name: str) -> FoundEntry | str:
        """The entry ``name`` names, with the scenario it is and that scenario's record;
        or why there is none."""
        if not self._path or self._read is None:
            return NO_REGISTRY
        found = self.entry(name)
        if found is None:
            return f"no registry scenario {name!r} in {self._path}"
        return self.found(found)

    def found(self, entry: RegistryEntryDoc) -> FoundEntry | str:
        """``entry`` with the scenario it is and that scenario's record; or why not."""
        key = (entry.registry, entry.name)
        known = self._found.get(key)
        if known is not None:
            return known
        instance, reason = self.instance(entry)
        if not reason:
            scenario = self._scenario_of(type(instance))
            if not isinstance(scenario, str):
                self._found[key] = FoundEntry(entry, instance, scenario)
                return self._found[key]
            reason = scenario
        return f"cannot read registry scenario {entry.name!r}: {reason}"

    def instance(self, entry: RegistryEntryDoc) -> tuple[Any, str]:
        """``(the scenario the entry names, "")``, whatever shape the registry has; or
        ``(None, why not)``."""
        instance, error = call_user_code(self._instance, entry)
        return (None, describe_error(error)) if error is not None else (instance, "")

    def _instance(self, entry: RegistryEntryDoc) -> Any:
        path = entry.registry
        if path not in self._namespaces:
            self._namespaces[path] = dict(discovery.registry_items(discovery.resolve(path)))
        return self._namespaces[path][entry.name]

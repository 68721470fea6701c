"""The Project: one documented package, carried through every stage of the pipeline.

settings (:mod:`refgen.config`) → discovery and analysis (:mod:`refgen.analysis`)
→ evaluation (:mod:`refgen.evaluate`). Every front end (the Sphinx extension,
the command line, the pytest plugin and the checks) builds one
:class:`Project` and asks it; none of them runs a stage itself. The Project
owns the analysis caches, so they last exactly as long as it does (a build
makes a new one at every ``builder-inited``).

Loading never raises for the user's code: a module that cannot be imported,
a class that cannot be analysed and a registry that cannot be read become
:class:`~refgen.analysis.model.Problem` records that :meth:`Project.load` returns;
a class that cannot be analysed is one that :meth:`Project.analysed` returns.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol, TypeVar

from refgen.analysis import discovery
from refgen.analysis.cache import AnalysisCache
from refgen.analysis.dependencies import source_folders
from refgen.analysis.failures import describe_error
from refgen.analysis.guard import call_user_code
from refgen.analysis.model import (
    HelperDoc,
    ModuleDoc,
    Problem,
    RegistryDoc,
    RegistryEntryDoc,
    ScenarioDoc,
    SourceLocation,
    WarningKind,
)
from refgen.analysis.source import ModuleSource
from refgen.config import Settings
from refgen.evaluate import sweeps, values
from refgen.evaluate.sensitivity import Sensitivity, entry_sensitivity
from refgen.evaluate.sweeps import Sweep, SweepRequest
from refgen.evaluate.units import UnitSymbols, unit_registries
from refgen.evaluate.values import EntryValues, FoundEntry, Quote, Value
from refgen.loading import Loader, SourceCheck

T = TypeVar("T")


class Progress(Protocol):
    """Wraps the items of a long phase, named by ``summary``, reporting each as it is taken."""

    def __call__(self, items: Sequence[T], summary: str) -> Iterable[T]: ...


def no_progress(items: Sequence[T], summary: str) -> Iterable[T]:
    return items


class Project:
    """Settings, imported modules, analysed records and computed values of one package."""

    def __init__(
        self,
        settings: Settings,
        progress: Progress | None = None,
        source_check: SourceCheck | None = None,
    ) -> None:
        """``source_check`` says whether refgen can parse a scenario module's file (by
        default, the analysis cache parses it; a build asks the files it kept)."""
        self.settings = settings
        self.progress: Progress = progress or no_progress
        """Wraps the items of a long phase (importing, analysing, fingerprinting) so a
        caller can report each."""
        self._cache = AnalysisCache(settings.category_titles)
        self.units = UnitSymbols(find_registries=self.unit_registries)
        """Unit symbols for equations, remembered for the pages of this project."""
        self._loader = Loader(settings, self._cache, self.progress, source_check)
        self._documented: frozenset[str] | None = None
        self._namespaces: dict[str, dict[str, Any]] = {}
        self._source_folders: list[Path] | None = None
        # Evaluation results, computed once per project: an incremental build composes a
        # page to compare it, then again to read it.
        self._entry_values: dict[tuple[str, str, str], EntryValues] = {}
        self._sensitivities: dict[str, tuple[Sensitivity, ...]] = {}
        self._sweeps: dict[SweepRequest, Sweep] = {}

    def __getstate__(self) -> dict[str, Any]:
        # Sphinx pickles its environment, which holds the project; live modules and
        # caches are transient, so only the settings are kept.
        return {"settings": self.settings}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["settings"])  # type: ignore[misc]

    # ------------------------------------------------------------------ discovery

    def load(self) -> tuple[Problem, ...]:
        """Import the configured modules and the registry (once); what failed, each time."""
        return self._loader.load()

    @property
    def modules(self) -> dict[str, ModuleType]:
        """The configured modules that imported, by name, in configuration order."""
        self.load()
        return self._loader.modules

    @property
    def classes(self) -> list[type]:
        """Every scenario class of the imported modules, in module and source order."""
        self.load()
        return self._loader.classes

    def unit_registries(self) -> dict[str, Any]:
        """The pint registries the documented modules (and the registry's module) bind
        (:func:`refgen.evaluate.units.unit_registries`)."""
        names = [*self.modules]
        if self.settings.registry:
            names.append(self.registry_module())
        return unit_registries(names)

    def documented_classes(self) -> frozenset[str]:
        """Dotted paths of the classes that have a page of their own."""
        if self._documented is None:
            self._documented = frozenset(discovery.dotted_path(cls) for cls in self.classes)
        return self._documented

    @property
    def registry(self) -> RegistryDoc | None:
        """The registry, or None when none is configured or it cannot be read."""
        self.load()
        return self._loader.registry

    @property
    def registry_failed(self) -> bool:
        """A registry is configured but cannot be read (a problem says why)."""
        self.load()
        return self._loader.registry_failed

    def registry_files(self) -> tuple[str, ...]:
        """Files an edit to which can change the registry, even a broken one."""
        if not self.settings.registry:
            return ()
        return self._cache.registry_files(self.settings.registry)

    def registry_at(self, path: str) -> RegistryDoc:
        """The registry ``path`` names, read again only when it is a new object."""
        return self._cache.registry(path)

    def module_source(self, path: str) -> ModuleSource:
        """The file ``path`` parsed; parsed again only when it changes."""
        return self._cache.module_source(path)

    def class_location(self, cls: type) -> SourceLocation:
        """Where ``cls`` is written."""
        return self._cache.class_source(cls).location()

    def release_syntax_trees(self) -> None:
        """Let go of parsed files once planning is done; their text and tags stay."""
        self._cache.release_syntax_trees()

    def resolve(self, dotted: str) -> Any:
        """The object a dotted path names (importing what it must)."""
        return discovery.resolve(dotted)

    # ------------------------------------------------------------------ analysis

    def scenario(self, cls: type) -> ScenarioDoc:
        """The analysed record of ``cls``, with its registry entries."""
        doc = self._cache.scenario(cls)
        if self.registry is None:
            return doc
        return dataclasses.replace(doc, registry_entries=self.registry.entries_of(doc.qualname))

    def scenarios(self) -> list[ScenarioDoc]:
        """Every scenario class that can be analysed (:meth:`analysed` says why not the others)."""
        return self.analysed()[0]

    def analysed(self) -> tuple[list[ScenarioDoc], list[Problem]]:
        """The record of every scenario class that can be analysed, and a problem for each
        class that cannot."""
        return self._analysed(self.progress(self.classes, "analysing scenario classes"))

    def _analysed(self, classes: Iterable[type]) -> tuple[list[ScenarioDoc], list[Problem]]:
        found, problems = [], []
        for cls in classes:
            doc, problem = self.analyse(cls)
            if doc is not None:
                found.append(doc)
            elif problem is not None:
                problems.append(problem)
        return found, problems

    def analyse(self, cls: type) -> tuple[ScenarioDoc | None, Problem | None]:
        """The record of ``cls``, or why it cannot be analysed."""
        doc, error = call_user_code(self.scenario, cls)
        if error is None:
            return doc, None
        message = f"cannot analyse: {describe_error(error)}"
        return None, Problem(WarningKind.ANALYSIS, message, None, discovery.dotted_path(cls))

    def module(self, name: str) -> ModuleDoc:
        return self._cache.module(name)

    def scenarios_of(self, module_name: str) -> list[ScenarioDoc]:
        """The classes of a module that can be analysed (:meth:`analysed` says why not the
        others)."""
        module = self.modules.get(module_name) or discovery.import_module(module_name)
        return self._analysed(discovery.scenario_classes(module))[0]

    def helper_modules(self) -> list[str]:
        """Modules of every helper that a scenario references or calls, first seen first."""
        return self._cache.helper_modules(self.scenarios())

    def helpers_of(self, module_name: str) -> list[HelperDoc]:
        module = discovery.import_module(module_name)
        return [self._cache.helper(function) for function in discovery.public_functions(module)]

    def helpers(self) -> list[HelperDoc]:
        """Every public function of the helper modules, by dotted path."""
        found = [h for name in self.helper_modules() for h in self.helpers_of(name)]
        return sorted({h.qualname: h for h in found}.values(), key=lambda h: h.qualname)

    def helper(self, dotted: str) -> HelperDoc:
        return self._cache.helper(self.resolve(dotted))

    def entry(self, name: str) -> RegistryEntryDoc | None:
        """The registry entry called ``name`` (``Entry`` or ``registry.path.Entry``)."""
        registry = self.registry
        if registry is None:
            return None
        prefix = f"{registry.qualname}."
        name = name.removeprefix(prefix)
        return next((e for e in registry.entries if e.name == name), None)

    def instance(self, entry: RegistryEntryDoc) -> Any:
        """The scenario a registry entry names, whatever shape the registry has."""
        return self._registry_namespace(entry.registry)[entry.name]

    def _registry_namespace(self, path: str) -> dict[str, Any]:
        if path not in self._namespaces:
            self._namespaces[path] = dict(discovery.registry_items(self.resolve(path)))
        return self._namespaces[path]

    def entry_scenario(self, entry: RegistryEntryDoc) -> ScenarioDoc:
        return self.scenario(type(self.instance(entry)))

    def entry_named(self, name: str) -> FoundEntry | str:
        """The registry entry ``name`` names (``Entry`` or ``registry.path.Entry``), with the
        scenario it is and that scenario's record; or why there is none."""
        registry = self.settings.registry
        if not registry or self.registry_failed:
            return "there is no registry to read"
        found = self.entry(name)
        if found is None:
            return f"no registry scenario {name!r} in {registry}"
        return self.found_entry(found)

    def found_entry(self, entry: RegistryEntryDoc) -> FoundEntry | str:
        """``entry`` with the scenario it is and that scenario's record; or why not."""
        instance, error = call_user_code(self.instance, entry)
        scenario = None
        if error is None:
            scenario, error = call_user_code(self.scenario, type(instance))
        if error is not None or scenario is None:
            reason = describe_error(error) if error is not None else "no scenario"
            return f"cannot read registry scenario {entry.name!r}: {reason}"
        return FoundEntry(entry, instance, scenario)

    # ------------------------------------------------------------------ evaluation

    def values(self, scenario: ScenarioDoc) -> tuple[EntryValues, ...]:
        """Every input and derived value of every registry entry of the class."""
        return tuple(self.entry_values(scenario, entry) for entry in scenario.registry_entries)

    def entry_values(self, scenario: ScenarioDoc, entry: RegistryEntryDoc) -> EntryValues:
        """The entry's values, computed once per project: the class page and the
        registry's downloads show the same figures."""
        key = (scenario.qualname, entry.registry, entry.name)
        if key not in self._entry_values:
            self._entry_values[key] = values.entry_values(
                scenario,
                entry,
                self.instance(entry),
                self.settings.value_precision,
                self.settings.eval_timeout,
            )
        return self._entry_values[key]

    def sensitivities(self, scenario: ScenarioDoc) -> tuple[Sensitivity, ...]:
        """The elasticities of every registry entry of the class
        (:mod:`refgen.evaluate.sensitivity`), computed once per project: an incremental
        build composes a page to compare it, then again to read it."""
        if scenario.qualname not in self._sensitivities:
            self._sensitivities[scenario.qualname] = tuple(
                entry_sensitivity(scenario, entry, self.instance(entry), self.settings.eval_timeout)
                for entry in scenario.registry_entries
            )
        return self._sensitivities[scenario.qualname]

    def has_figures(self, scenario: ScenarioDoc) -> bool:
        """Whether the class's values and elasticities are computed (or given) already."""
        return scenario.qualname in self._sensitivities

    def remember_figures(
        self,
        scenario: ScenarioDoc,
        entry_values: tuple[EntryValues, ...],
        sensitivities: tuple[Sensitivity, ...],
    ) -> None:
        """The class's values and elasticities, computed elsewhere (by a worker of the
        build, :mod:`refgen.sphinx.ahead`), kept as if computed here."""
        for entry, found in zip(scenario.registry_entries, entry_values, strict=True):
            key = (scenario.qualname, entry.registry, entry.name)
            self._entry_values.setdefault(key, found)
        self._sensitivities.setdefault(scenario.qualname, sensitivities)

    def headline(self, scenario: ScenarioDoc) -> tuple[str, Value] | None:
        """The headline attribute's value for the class's first registry entry."""
        if scenario.headline is None or not scenario.registry_entries:
            return None
        entry = scenario.registry_entries[0]
        value = values.compute(
            scenario,
            self.instance(entry),
            scenario.headline,
            precision=self.settings.value_precision,
            timeout=self.settings.eval_timeout,
        )
        return entry.name, value

    def quote(self, text: str) -> Quote:
        """Evaluate ``Entry.attribute`` (optionally ``:spec``) for prose; whatever the user's
        code raises is the quote's problem."""
        quoted, error = call_user_code(self._quote, text)
        if error is not None or quoted is None:
            return Quote(None, problem=describe_error(error) if error is not None else "")
        return quoted

    def _quote(self, text: str) -> Quote:
        target, _, spec = text.partition(":")
        entry, _, attribute = target.strip().rpartition(".")
        if not self.settings.registry or not entry:
            return Quote(None, problem="write Entry.attribute and set a registry")
        precision, timeout = self.settings.value_precision, self.settings.eval_timeout
        return values.quote(
            self.entry_named(entry), attribute, spec.strip() or None, precision, timeout
        )

    def sweep(self, request: SweepRequest) -> Sweep:
        """A registry entry's figures as one of its inputs varies (``refgen-sweep``),
        computed once per project and request: an incremental build computes a sweep to
        see whether its page changed, then again to read the page. Whatever the user's
        code raises is the sweep's problem (and not kept: it may pass the next time)."""
        if request in self._sweeps:
            return self._sweeps[request]
        swept, error = call_user_code(self._sweep, request)
        if error is not None or swept is None:
            return Sweep(request, problem=describe_error(error) if error is not None else "")
        self._sweeps[request] = swept
        return swept

    def _sweep(self, request: SweepRequest) -> Sweep:
        found = self.entry_named(request.entry)
        precision, timeout = self.settings.value_precision, self.settings.eval_timeout
        return sweeps.sweep(found, request, precision, timeout)

    def module_text_and_tags(
        self, module_name: str
    ) -> tuple[str, dict[str, tuple[str, int, int]]] | None:
        """A project module's text and where each class and function in it is written
        (:meth:`ModuleSource.definition_tags`); None for a module outside the project, or
        one that cannot be found or read."""
        found, _error = call_user_code(self._module_text_and_tags, module_name)
        return found

    def _module_text_and_tags(
        self, module_name: str
    ) -> tuple[str, dict[str, tuple[str, int, int]]] | None:
        file = discovery.module_file(module_name)
        # Asked thousands of times a build: the project's folders are found once.
        if self._source_folders is None:
            self._source_folders = source_folders(self.package_roots())
        folders = self._source_folders
        if file is None or not any(Path(file).is_relative_to(f) for f in folders):
            return None
        return self._cache.text_and_tags(file)

    def package_roots(self) -> list[Path]:
        """The folders of the packages that hold the documented modules and the registry."""
        names = [*self.modules, *([self.settings.registry] if self.settings.registry else [])]
        return sorted({root for name in names for root in discovery.package_folders(name)})

    def registry_module(self) -> str:
        """The module that holds the registry (which may be the registry itself)."""
        found, _error = call_user_code(self.resolve, self.settings.registry or "")
        if isinstance(found, ModuleType):
            return found.__name__
        return (
            getattr(found, "__module__", None) or (self.settings.registry or "").rpartition(".")[0]
        )

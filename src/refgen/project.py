"""The Project: one documented package, carried through every stage of the pipeline.

settings (:mod:`refgen.config`) → loading (:mod:`refgen.loading`), discovery and
analysis (:mod:`refgen.analysis`) → evaluation (:mod:`refgen.evaluate`). Every
front end (the Sphinx extension, the command line, the pytest plugin, the
checks and the notebook) builds one :class:`Project` and asks it; none of them
runs a stage itself. The Project owns the analysis caches and the evaluation
results, so they last exactly as long as it does (a build makes a new one at
every ``builder-inited``).

The Project is the boundary for the user's code: its public methods return
data, a value or a reason (a sentence saying why there is none), and never
raise for anything the user's code raises or does, ``SystemExit``,
``KeyboardInterrupt``, ``GeneratorExit``, ``os._exit`` and a hang included.
Only a real Ctrl-C goes on (:mod:`refgen.analysis.guard`). Loading gives
:class:`~refgen.analysis.model.Problem` records (:meth:`Project.load`); a class
that cannot be analysed is a problem that :meth:`Project.analysed` returns.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar, cast

from refgen.analysis import discovery
from refgen.analysis.cache import AnalysisCache
from refgen.analysis.dependencies import source_folders
from refgen.analysis.failures import describe_error, guarded
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
from refgen.evaluate.class_figures import ClassFigures
from refgen.evaluate.entries import Entries, FoundEntry
from refgen.evaluate.sensitivity import Sensitivity
from refgen.evaluate.sweep_request import SweepRequest
from refgen.evaluate.sweeps import Sweep
from refgen.evaluate.units import UnitSymbols, unit_registries
from refgen.evaluate.values import EntryValues, Quote, Value
from refgen.loading import Loaded, Progress, SourceCheck, no_progress

T = TypeVar("T")


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
        self._loaded = Loaded(settings, self._cache, source_check)
        self._documented: frozenset[str] | None = None
        self._source_folders: list[Path] | None = None
        self._scenarios: dict[type, ScenarioDoc] = {}
        self._entries: Entries | None = None
        self._figures = ClassFigures(settings, lambda entry: self._found().instance(entry))
        self._sweeps: dict[SweepRequest, Sweep] = {}

    def __getstate__(self) -> dict[str, Any]:
        # Sphinx pickles its environment, which holds the project; live modules and
        # caches are transient, so only the settings are kept.
        return {"settings": self.settings}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["settings"])  # type: ignore[misc]

    # ------------------------------------------------------------------ loading

    def load(self) -> tuple[Problem, ...]:
        """Import the configured modules and the registry (once); what failed, each time."""
        return tuple(self._load().problems)

    def _load(self) -> Loaded:
        self._loaded.load(self.progress)
        return self._loaded

    @property
    def modules(self) -> dict[str, ModuleType]:
        """The configured modules that imported, by name, in configuration order."""
        return self._load().modules

    @property
    def classes(self) -> list[type]:
        """Every scenario class of the imported modules, in module and source order."""
        return self._load().classes

    @property
    def registry(self) -> RegistryDoc | None:
        """The registry, or None when none is configured or it cannot be read."""
        return self._load().registry

    @property
    def registry_failed(self) -> bool:
        """A registry is configured but cannot be read (a problem says why)."""
        return self._load().registry_failed

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

    def registry_files(self) -> tuple[str, ...]:
        """Files an edit to which can change the registry, even a broken one."""
        if not self.settings.registry:
            return ()
        return self._cache.registry_files(self.settings.registry)

    def registry_at(self, path: str) -> RegistryDoc | str:
        """The registry ``path`` names, read again only when it is a new object; or why it
        cannot be read."""
        return guarded(self._cache.registry, path)

    def registry_module(self) -> str:
        """The module that holds the registry (which may be the registry itself)."""
        return self._loaded.registry_module()

    def import_module(self, name: str) -> ModuleType | str:
        """The module ``name``, imported (within the time limit) if it is not yet; or why
        it cannot be."""
        return guarded(discovery.import_module, name, timeout=self.settings.eval_timeout)

    def module_file(self, name: str) -> str | None:
        """The file of the module ``name``, found without running it (its parent packages
        are imported); None when there is none, or it cannot be found."""
        found, _error = call_user_code(discovery.module_file, name)
        return found

    def module_source(self, path: str) -> ModuleSource:
        """The file ``path`` parsed; parsed again only when it changes."""
        return self._cache.module_source(path)

    def class_location(self, cls: type) -> SourceLocation | None:
        """Where ``cls`` is written; None when its source cannot be read."""
        found, _error = call_user_code(lambda: self._cache.class_source(cls).location())
        return found

    def release_syntax_trees(self) -> None:
        """Let go of parsed files once planning is done; their text and tags stay."""
        self._cache.release_syntax_trees()

    def package_roots(self) -> list[Path]:
        """The folders of the packages that hold the documented modules and the registry."""
        return self._load().package_roots()

    # ------------------------------------------------------------------ analysis

    def class_named(self, dotted: str) -> type | str:
        """The class the dotted path ``dotted`` names (importing what it must); or why
        there is none."""
        found, error = call_user_code(discovery.resolve, dotted)
        if error is not None:
            return describe_error(error)
        return cast(type, found) if discovery.is_class(found) else f"{dotted} is not a class"

    def scenario(self, cls: type) -> ScenarioDoc | str:
        """The analysed record of ``cls``, with its registry entries (made once per class);
        or why it cannot be analysed."""
        return guarded(self._scenario, cls)

    def _scenario(self, cls: type) -> ScenarioDoc:
        known = self._scenarios.get(cls)
        if known is None:
            known = self._cache.scenario(cls)
            registry = self.registry
            if registry is not None:
                entries = registry.entries_of(known.qualname)
                known = dataclasses.replace(known, registry_entries=entries)
            self._scenarios[cls] = known
        return known

    def scenario_named(self, dotted: str) -> ScenarioDoc | str:
        """The record of the class the dotted path ``dotted`` names; or why there is none."""
        found, error = call_user_code(discovery.resolve, dotted)
        # Not always a class: what analysing another object raises is the reason.
        return describe_error(error) if error is not None else self.scenario(cast(type, found))

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
        doc = self.scenario(cls)
        if not isinstance(doc, str):
            return doc, None
        message = f"cannot analyse: {doc}"
        return None, Problem(WarningKind.ANALYSIS, message, None, discovery.dotted_path(cls))

    def module(self, name: str) -> ModuleDoc | str:
        """The record of the module ``name`` (a category's); or why it cannot be read."""
        return guarded(self._cache.module, name)

    def scenarios_of(self, module_name: str) -> list[ScenarioDoc] | str:
        """The classes of a module that can be analysed (:meth:`analysed` says why not the
        others); or why the module cannot be read."""
        return guarded(self._scenarios_of, module_name)

    def _scenarios_of(self, module_name: str) -> list[ScenarioDoc]:
        module = self.modules.get(module_name) or discovery.import_module(module_name)
        return self._analysed(discovery.scenario_classes(module))[0]

    def helper_modules(self) -> list[str]:
        """Modules of every helper that a scenario references or calls, first seen first."""
        return self._cache.helper_modules(self.scenarios())

    def helpers_of(self, module_name: str) -> list[HelperDoc] | str:
        """The public functions of a helper module; or why the module cannot be read."""
        return guarded(self._helpers_of, module_name)

    def _helpers_of(self, module_name: str) -> list[HelperDoc]:
        module = discovery.import_module(module_name)
        return [self._cache.helper(function) for function in discovery.public_functions(module)]

    def helpers(self) -> list[HelperDoc] | str:
        """Every public function of the helper modules, by dotted path; or why a helper
        module cannot be read."""
        found: list[HelperDoc] = []
        for name in self.helper_modules():
            helpers = self.helpers_of(name)
            if isinstance(helpers, str):
                return helpers
            found += helpers
        return sorted({h.qualname: h for h in found}.values(), key=lambda h: h.qualname)

    def helper(self, dotted: str) -> HelperDoc | str:
        """The record of the helper function ``dotted`` names; or why there is none."""
        return guarded(lambda: self._cache.helper(discovery.resolve(dotted)))

    # ------------------------------------------------------------------ registry entries

    def _found(self) -> Entries:
        if self._entries is None:
            self._entries = Entries(self.settings.registry, self.registry, self.scenario)
        return self._entries

    def entry(self, name: str) -> RegistryEntryDoc | None:
        """The registry entry called ``name`` (``Entry`` or ``registry.path.Entry``)."""
        return self._found().entry(name)

    def entry_named(self, name: str) -> FoundEntry | str:
        """The registry entry ``name`` names (``Entry`` or ``registry.path.Entry``), with the
        scenario it is and that scenario's record; or why there is none."""
        return self._found().named(name)

    def found_entry(self, entry: RegistryEntryDoc) -> FoundEntry | str:
        """``entry`` with the scenario it is and that scenario's record; or why not."""
        return self._found().found(entry)

    def inspect_entry(self, entry: RegistryEntryDoc, look: Callable[[FoundEntry], T]) -> T | str:
        """What ``look`` makes of the live scenario of ``entry``, for a front end that must
        read it itself (the unit check compares its quantities): run under the guard, like
        all user code; or why there is nothing to look at, or what the look raised."""
        found = self.found_entry(entry)
        return found if isinstance(found, str) else guarded(look, found)

    # ------------------------------------------------------------------ evaluation

    def values(self, scenario: ScenarioDoc) -> tuple[EntryValues, ...] | str:
        """Every input and derived value of every registry entry of the class, computed once
        per project (:mod:`refgen.evaluate.class_figures`); or why an entry cannot be read."""
        return self._figures.values(scenario)

    def entry_values(self, scenario: ScenarioDoc, entry: RegistryEntryDoc) -> EntryValues | str:
        """The entry's values, computed once per project: the class page and the registry's
        downloads show the same figures; or why the entry cannot be read."""
        return self._figures.entry_values(scenario, entry)

    def value_of(self, scenario: ScenarioDoc, entry: RegistryEntryDoc, name: str) -> Value | str:
        """The attribute ``name`` of the entry, computed alone, as its values show it; or
        why the entry cannot be read."""
        instance, reason = self._found().instance(entry)
        if reason:
            return reason
        precision, timeout = self.settings.value_precision, self.settings.eval_timeout
        return guarded(lambda: values.compute(scenario, instance, name, None, precision, timeout))

    def sensitivities(self, scenario: ScenarioDoc) -> tuple[Sensitivity, ...] | str:
        """The elasticities of every registry entry of the class
        (:mod:`refgen.evaluate.sensitivity`), computed once per project; or why an entry
        cannot be read."""
        return self._figures.sensitivities(scenario)

    def has_figures(self, scenario: ScenarioDoc) -> bool:
        """Whether the class's values and elasticities are computed (or given) already."""
        return self._figures.has(scenario)

    def remember_figures(
        self,
        scenario: ScenarioDoc,
        entry_values: tuple[EntryValues, ...],
        sensitivities: tuple[Sensitivity, ...],
    ) -> None:
        """The class's values and elasticities, computed elsewhere (by a worker of the
        build, :mod:`refgen.sphinx.ahead`), kept as if computed here."""
        self._figures.remember(scenario, entry_values, sensitivities)

    def headline(self, scenario: ScenarioDoc) -> tuple[str, Value] | str | None:
        """The headline attribute's value for the class's first registry entry (None
        without one); or why that entry cannot be read."""
        if scenario.headline is None or not scenario.registry_entries:
            return None
        entry = scenario.registry_entries[0]
        value = self.value_of(scenario, entry, scenario.headline)
        return value if isinstance(value, str) else (entry.name, value)

    def quote(self, text: str) -> Quote:
        """Evaluate ``Entry.attribute`` (optionally ``:spec``) for prose; whatever the user's
        code raises is the quote's problem."""
        quoted = guarded(self._quote, text)
        return Quote(None, problem=quoted) if isinstance(quoted, str) else quoted

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
        swept = guarded(self._sweep, request)
        if isinstance(swept, str):
            return Sweep(request, problem=swept)
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

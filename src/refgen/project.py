"""The Project: one documented package, carried through every stage of the pipeline.

settings (:mod:`refgen.config`) → discovery and analysis (:mod:`refgen.analysis`)
→ evaluation (:mod:`refgen.evaluate`). Every front end (the Sphinx extension,
the command line, the pytest plugin and the checks) builds one
:class:`Project` and asks it; none of them runs a stage itself. The Project
owns the analysis caches, so they last exactly as long as it does (a build
makes a new one at every ``builder-inited``).

Loading never raises for the user's code: a module that cannot be imported,
a class that cannot be analysed and a registry that cannot be read become
:class:`~refgen.analysis.model.Problem` records in :attr:`Project.problems`.
"""

from __future__ import annotations

import dataclasses
import os
import sys
import sysconfig
import traceback
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol, TypeVar

import pint
from pint.registry import ApplicationRegistry, UnitRegistry

from refgen.analysis import discovery
from refgen.analysis.cache import AnalysisCache
from refgen.analysis.dependencies import data_files, source_folders
from refgen.analysis.failures import describe_error, import_problem, imported_from
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
from refgen.config import Settings, setting_line, setting_name
from refgen.evaluate import sweeps, values
from refgen.evaluate.sensitivity import Sensitivity, entry_sensitivity
from refgen.evaluate.sweeps import Sweep, SweepRequest
from refgen.evaluate.values import EntryValues, Quote, Value
from refgen.render.math_elements import UnitSymbols

T = TypeVar("T")


class Progress(Protocol):
    """Wraps the items of a long phase, named by ``summary``, reporting each as it is taken."""

    def __call__(self, items: Sequence[T], summary: str) -> Iterable[T]: ...


def no_progress(items: Sequence[T], summary: str) -> Iterable[T]:
    return items


QUANTITY_REGISTRY = "_REGISTRY"
"""The attribute of a pint quantity class (``ureg.Quantity``) that holds its registry."""


def _is_unit_registry(value: object) -> bool:
    # Its real type: a module-level object may say anything of itself (discovery.is_class).
    return issubclass(type(value), UnitRegistry | ApplicationRegistry)


def _quantity_registry(value: object) -> object:
    """The registry of ``value`` if it is a quantity class of one (``ureg.Quantity``)."""
    if not discovery.is_class(value):
        return None
    assert isinstance(value, type)  # the real type, checked just above
    if not any(base is pint.Quantity for base in discovery.class_mro(value)):
        return None
    return discovery.class_dict(value).get(QUANTITY_REGISTRY)


def _given(value: T) -> Callable[[Any], T]:
    """A ``compute`` for :meth:`AnalysisCache.remember` that returns what is already known."""
    return lambda _key: value


class Project:
    """Settings, imported modules, analysed records and computed values of one package."""

    def __init__(
        self,
        settings: Settings,
        progress: Progress | None = None,
    ) -> None:
        self.settings = settings
        self.progress: Progress = progress or no_progress
        """Wraps the items of a long phase (importing, analysing, fingerprinting) so a
        caller can report each."""
        self.cache = AnalysisCache(settings.category_titles)
        self.units = UnitSymbols(find_registries=self.unit_registries)
        """Unit symbols for equations, remembered for the pages of this project."""
        self._loaded = False
        self._modules: dict[str, ModuleType] = {}
        self._classes: list[type] = []
        self._problems: list[Problem] = []
        self._registry: RegistryDoc | None = None
        self._registry_failed = False

    def __getstate__(self) -> dict[str, Any]:
        # Sphinx pickles its environment, which holds the project; live modules and
        # caches are transient, so only the settings are kept.
        return {"settings": self.settings}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["settings"])  # type: ignore[misc]

    # ------------------------------------------------------------------ discovery

    def load(self) -> Project:
        """Import the configured modules and the registry (once); record what fails."""
        if self._loaded:
            return self
        self._loaded = True
        modules = list(dict.fromkeys(self.settings.modules))
        for name in self.progress(modules, "importing scenario modules"):
            # Importing runs the module's code: bounded like any other user code.
            module, error = call_user_code(
                discovery.import_module, name, timeout=self.settings.eval_timeout
            )
            if error is not None:  # user code: report, never crash
                self._note(
                    self._not_found("modules", name, error)
                    or import_problem(self.cache.module_source, name, error)
                )
                continue
            assert module is not None
            self._modules[name] = module
            self._classes.extend(discovery.scenario_classes(module))
        self._load_registry()
        return self

    def _load_registry(self) -> None:
        path = self.settings.registry
        if not path:
            return
        registry, error = call_user_code(
            self.cache.registry, path, timeout=self.settings.eval_timeout
        )
        if error is not None:  # a failing entry must not take the site down
            module = path.rpartition(".")[0]
            self._note(
                self._not_found("registry", path, error)
                or import_problem(
                    self.cache.module_source, module, error, "registry module", scope=path
                )
            )
            self._registry_failed = True
            return
        assert registry is not None
        self._registry = registry
        if not self.settings.modules:
            # Only a registry configured: document the classes its entries instantiate.
            for entry in registry.entries:
                cls = discovery.resolve(entry.scenario)
                if cls not in self._classes:
                    self._classes.append(cls)

    def _not_found(self, setting: str, dotted: str, error: BaseException) -> Problem | None:
        """A setting naming something missing, or no registry, reported against the setting.

        Only when the name itself is at fault: an import that fails inside the
        user's module is that module's problem, at its own line (None here).
        """
        name = error.name if isinstance(error, ModuleNotFoundError) else None
        missing_module = bool(name) and (dotted == name or dotted.startswith(f"{name}."))
        frames = traceback.extract_tb(error.__traceback__)
        missing_attribute = (
            isinstance(error, AttributeError)
            and bool(frames)
            and frames[-1].filename == discovery.__file__
        )
        not_a_registry = isinstance(error, discovery.NotARegistry)
        if not (missing_module or missing_attribute or not_a_registry):
            return None
        settings = self.settings
        line = setting_line(settings, setting)
        location = SourceLocation(str(settings.source), line) if settings.source and line else None
        named = f"{setting_name(settings, setting)} names {dotted!r}"
        if not_a_registry:
            return Problem(WarningKind.REGISTRY, f"{named}: {error}", location, dotted)
        message = f"{named}, which cannot be found ({describe_error(error)})"
        message += imported_from(dotted)
        return Problem(WarningKind.IMPORT, message, location, dotted)

    def _note(self, problem: Problem) -> None:
        """Record ``problem`` once."""
        if problem not in self._problems:
            self._problems.append(problem)

    @property
    def modules(self) -> dict[str, ModuleType]:
        """The configured modules that imported, by name, in configuration order."""
        return self.load()._modules

    @property
    def classes(self) -> list[type]:
        """Every scenario class of the imported modules, in module and source order."""
        return self.load()._classes

    def unit_registries(self) -> dict[str, Any]:
        """The pint registries the documented modules (and the registry's module) bind
        at module level, by the name they bind them to (``ureg``), and those of the
        quantity classes they bind (``Q_ = ureg.Quantity``), by the attribute that holds
        them (``Q_._REGISTRY``); the first module to bind a name decides what it means."""
        names = [*self.modules]
        if self.settings.registry:
            names.append(self.registry_module())
        found: dict[str, Any] = {}
        for name in names:
            module = sys.modules.get(name)
            for bound, value in vars(module).items() if module is not None else ():
                if _is_unit_registry(value):
                    found.setdefault(bound, value)
                elif _is_unit_registry(registry := _quantity_registry(value)):
                    found.setdefault(f"{bound}.{QUANTITY_REGISTRY}", registry)
        return found

    def documented_classes(self) -> frozenset[str]:
        """Dotted paths of the classes that have a page of their own."""
        return self.cache.remember(
            "documented-classes",
            tuple(self.modules),
            lambda _: frozenset(discovery.dotted_path(cls) for cls in self.classes),
        )

    @property
    def problems(self) -> list[Problem]:
        """What went wrong while loading and analysing, in the order it was found."""
        self.load()
        return list(self._problems)

    @property
    def registry(self) -> RegistryDoc | None:
        """The registry, or None when none is configured or it cannot be read."""
        return self.load()._registry

    @property
    def registry_failed(self) -> bool:
        """A registry is configured but cannot be read (a problem says why)."""
        return self.load()._registry_failed

    def registry_files(self) -> tuple[str, ...]:
        """Files an edit to which can change the registry, even a broken one."""
        if not self.settings.registry:
            return ()
        return self.cache.remember(
            "registry-files", self.settings.registry, self.cache.registry_files
        )

    def resolve(self, dotted: str) -> Any:
        """The object a dotted path names (importing what it must)."""
        return discovery.resolve(dotted)

    # ------------------------------------------------------------------ analysis

    def scenario(self, cls: type) -> ScenarioDoc:
        """The analysed record of ``cls``, with its registry entries."""
        doc = self.cache.scenario(cls)
        if self.registry is None:
            return doc
        return dataclasses.replace(doc, registry_entries=self.registry.entries_of(doc.qualname))

    def scenarios(self) -> list[ScenarioDoc]:
        """Every scenario class that can be analysed (the others are in :attr:`problems`)."""
        return self._analysed(self.progress(self.classes, "analysing scenario classes"))

    def _analysed(self, classes: Iterable[type]) -> list[ScenarioDoc]:
        """The records of ``classes`` that can be analysed; a problem for each other one."""
        found = []
        for cls in classes:
            doc, problem = self.analyse(cls)
            if doc is not None:
                found.append(doc)
            elif problem is not None:
                self._note(problem)
        return found

    def analyse(self, cls: type) -> tuple[ScenarioDoc | None, Problem | None]:
        """The record of ``cls``, or why it cannot be analysed."""
        doc, error = call_user_code(self.scenario, cls)
        if error is None:
            return doc, None
        message = f"cannot analyse: {describe_error(error)}"
        return None, Problem(WarningKind.ANALYSIS, message, None, discovery.dotted_path(cls))

    def module(self, name: str) -> ModuleDoc:
        return self.cache.module(name)

    def scenarios_of(self, module_name: str) -> list[ScenarioDoc]:
        """The classes of a module that can be analysed (the others are in :attr:`problems`)."""
        module = self.modules.get(module_name) or discovery.import_module(module_name)
        return self._analysed(discovery.scenario_classes(module))

    def helper_modules(self) -> list[str]:
        """Modules of every helper that a scenario references or calls, first seen first."""
        return self.cache.helper_modules(self.scenarios())

    def helpers_of(self, module_name: str) -> list[HelperDoc]:
        module = discovery.import_module(module_name)
        return [self.cache.helper(function) for function in discovery.public_functions(module)]

    def helpers(self) -> list[HelperDoc]:
        """Every public function of the helper modules, by dotted path."""
        found = [h for name in self.helper_modules() for h in self.helpers_of(name)]
        return sorted({h.qualname: h for h in found}.values(), key=lambda h: h.qualname)

    def helper(self, dotted: str) -> HelperDoc:
        return self.cache.helper(self.resolve(dotted))

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
        return self.cache.remember(
            "registry-namespace", path, lambda p: dict(discovery.registry_items(self.resolve(p)))
        )

    def entry_scenario(self, entry: RegistryEntryDoc) -> ScenarioDoc:
        return self.scenario(type(self.instance(entry)))

    # ------------------------------------------------------------------ evaluation

    def values(self, scenario: ScenarioDoc) -> tuple[EntryValues, ...]:
        """Every input and derived value of every registry entry of the class."""
        return tuple(self.entry_values(scenario, entry) for entry in scenario.registry_entries)

    def entry_values(self, scenario: ScenarioDoc, entry: RegistryEntryDoc) -> EntryValues:
        """The entry's values, computed once per project: the class page and the
        registry's downloads show the same figures."""
        return self.cache.remember(
            "entry-values",
            (scenario.qualname, entry.registry, entry.name),
            lambda _key: values.entry_values(
                scenario,
                entry,
                self.instance(entry),
                self.settings.value_precision,
                self.settings.eval_timeout,
            ),
        )

    def sensitivities(self, scenario: ScenarioDoc) -> tuple[Sensitivity, ...]:
        """The elasticities of every registry entry of the class
        (:mod:`refgen.evaluate.sensitivity`), computed once per project: an incremental
        build composes a page to compare it, then again to read it."""
        return self.cache.remember(
            "sensitivities",
            scenario.qualname,
            lambda _key: tuple(
                entry_sensitivity(scenario, entry, self.instance(entry), self.settings.eval_timeout)
                for entry in scenario.registry_entries
            ),
        )

    def has_figures(self, scenario: ScenarioDoc) -> bool:
        """Whether the class's values and elasticities are computed (or given) already."""
        return self.cache.knows("sensitivities", scenario.qualname)

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
            self.cache.remember("entry-values", key, _given(found))
        self.cache.remember("sensitivities", scenario.qualname, _given(sensitivities))

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
        """Evaluate ``Entry.attribute`` (optionally ``:spec``) for prose."""
        return values.quote(self, text)

    def sweep(self, request: SweepRequest) -> Sweep:
        """A registry entry's figures as one of its inputs varies (``refgen-sweep``),
        computed once per project and request: an incremental build computes a sweep to
        see whether its page changed, then again to read the page."""
        return self.cache.remember("sweep", request, lambda _request: sweeps.sweep(self, request))

    def module_text_and_tags(
        self, module_name: str
    ) -> tuple[str, dict[str, tuple[str, int, int]]] | None:
        """A project module's text and where each class and function in it is written
        (:meth:`ModuleSource.definition_tags`); None for a module outside the project."""
        file = discovery.module_file(module_name)
        # Asked thousands of times a build: the project's folders are found once.
        folders = self.cache.remember(
            "source-folders", self.settings, lambda _: source_folders(self.package_roots())
        )
        if file is None or not any(Path(file).is_relative_to(f) for f in folders):
            return None
        return self.cache.text_and_tags(file)

    def source_files(self) -> list[str] | None:
        """The files and folders what this project shows is computed from, as far as
        they can be known; None when its packages cannot be found (a namespace package).

        Every imported module that is not installed (outside the standard library
        and site-packages, by the path it was imported from, symbolic links not
        followed), every module of the project's packages, their data files, and the
        folders holding any of these or the packages (a module added beside one can be
        imported by code that tries)."""
        roots = self.package_roots()
        if not roots:
            return None
        installed = _installed_folders()
        found: set[str] = {str(path) for path in data_files(roots)}
        found |= {str(folder) for folder in source_folders(roots)}
        found |= {str(folder) for root in roots for folder in _folders(root)}
        for module in list(sys.modules.values()):
            file = getattr(module, "__file__", None)
            if not isinstance(file, str):
                continue
            path = os.path.abspath(file)
            ours = any(Path(discovery.resolved_path(path)).is_relative_to(r) for r in roots)
            if ours or not path.startswith(installed):
                found |= {path, os.path.dirname(path)}
        return sorted(found)

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

    def check_registry_classes(self) -> None:
        """Note the registry entries whose classes no documented module defines."""
        assert self.registry is not None
        # Every class found, analysed or not: a class that failed to analyse has a
        # warning of its own, and its entries must not be blamed on the registry.
        documented = {discovery.dotted_path(cls) for cls in self.classes}
        strays = [entry for entry in self.registry.entries if entry.scenario not in documented]
        if len(strays) == 1:
            [entry] = strays
            self._note(
                Problem(
                    WarningKind.REGISTRY,
                    f"registry entry {entry.name!r} is a {entry.scenario}, which no module "
                    "in refgen_modules defines",
                    entry.location,
                    f"{self.registry.qualname}.{entry.name}",
                )
            )
        elif strays:  # one warning, not one per entry: the registry page lists them all
            shown = strays if len(strays) <= 5 else strays[:3]  # and refgen check, each
            named = ", ".join(f"{entry.name} ({entry.scenario})" for entry in shown)
            if len(shown) < len(strays):
                named += (
                    f" and {len(strays) - len(shown)} more "
                    "(`refgen check --kind registry` lists them all)"
                )
            self._note(
                Problem(
                    WarningKind.REGISTRY,
                    f"{len(strays)} registry entries are instances of classes no module in "
                    f"refgen_modules defines: {named}",
                    self.registry.location,
                    self.registry.qualname,
                )
            )


def _installed_folders() -> tuple[str, ...]:
    """Where the standard library and installed packages live (their versions count,
    not their files)."""
    paths = sysconfig.get_paths()
    names = ("stdlib", "platstdlib", "purelib", "platlib")
    return tuple(os.path.join(os.path.abspath(paths[n]), "") for n in names if n in paths)


def _folders(root: Path) -> list[Path]:
    """``root`` and every folder below it, when it is a folder."""
    if not root.is_dir():
        return []
    return [root, *(p for p in root.rglob("*") if p.is_dir() and "__pycache__" not in p.parts)]

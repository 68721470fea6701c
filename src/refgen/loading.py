"""Loading: a project's configured modules imported and its registry read, once; what failed.

Importing runs the user's code, so every import is guarded and bounded
(:func:`~refgen.analysis.guard.call_user_code`): a module that cannot be
imported and a registry that cannot be read become
:class:`~refgen.analysis.model.Problem` records, reported at the module's
line or, when the setting itself names nothing there is or no code of the
user's ran, at the setting. A module Python imports but refgen cannot parse
(nested too deeply for Python's parser) is a module that failed to load.
:class:`Loaded` is what the Project keeps of it.
"""

from __future__ import annotations

import dataclasses
import traceback
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Protocol, TypeVar, cast

from refgen.analysis import discovery
from refgen.analysis.cache import AnalysisCache
from refgen.analysis.failures import describe_error, import_problem, imported_from
from refgen.analysis.guard import call_user_code
from refgen.analysis.model import Problem, RegistryDoc, SourceLocation, WarningKind
from refgen.analysis.source import ModuleSource, SourceTooDeep, parse_problem
from refgen.config import Settings, setting_line, setting_name

T = TypeVar("T")

SourceCheck = Callable[[str, Callable[[str], ModuleSource]], SourceTooDeep | None]
"""Why refgen cannot parse the file at a path, if it cannot (nested too deeply), given
the analysis cache's reader."""


class Progress(Protocol):
    """Wraps the items of a long phase, named by ``summary``, reporting each as it is taken."""

    def __call__(self, items: Sequence[T], summary: str) -> Iterable[T]: ...


def no_progress(items: Sequence[T], summary: str) -> Iterable[T]:
    return items


class Loaded:
    """The configured modules that imported, their scenario classes and the registry, with
    a problem for each that failed; filled by :meth:`load`, once."""

    def __init__(
        self, settings: Settings, cache: AnalysisCache, source_check: SourceCheck | None = None
    ) -> None:
        self.settings = settings
        self._cache = cache
        self._source_check = source_check or parse_problem
        self.done = False
        self.modules: dict[str, ModuleType] = {}
        """The configured modules that imported, by name, in configuration order."""
        self.classes: list[type] = []
        """Every scenario class of the imported modules, in module and source order."""
        self.problems: list[Problem] = []
        self.registry: RegistryDoc | None = None
        """The registry, or None when none is configured or it cannot be read."""
        self.registry_failed = False
        """A registry is configured but cannot be read (a problem says why)."""

    def load(self, progress: Progress = no_progress) -> None:
        """Import the configured modules and the registry, the first time only; ``progress``
        reports each module as it is imported."""
        if self.done:
            return
        self.done = True  # what loading asks of the project meanwhile is what is loaded so far
        modules = list(dict.fromkeys(self.settings.modules))
        for name in progress(modules, "importing scenario modules"):
            # Importing runs the module's code: bounded like any other user code.
            module, error = call_user_code(
                discovery.import_module, name, timeout=self.settings.eval_timeout
            )
            if error is None:
                assert module is not None
                error = self._unreadable(module)
            if error is not None:  # user code: report, never crash
                self._note(
                    self._not_found("modules", name, error)
                    or self._at_setting(
                        "modules", import_problem(self._cache.module_source, name, error)
                    )
                )
                continue
            assert module is not None
            self.modules[name] = module
            # What a class says of itself (its module, its name) may be a property that raises.
            classes, error = call_user_code(discovery.scenario_classes, module)
            if error is not None:
                message = f"cannot list the classes of {name!r}: {describe_error(error)}"
                self._note(Problem(WarningKind.ANALYSIS, message, None, name))
            self.classes.extend(classes or ())
        self._load_registry()

    def _load_registry(self) -> None:
        path = self.settings.registry
        if not path:
            return
        registry, error = call_user_code(
            self._cache.registry, path, timeout=self.settings.eval_timeout
        )
        if error is not None:  # a failing entry must not take the site down
            module = path.rpartition(".")[0]
            self._note(
                self._not_found("registry", path, error)
                or self._at_setting(
                    "registry",
                    import_problem(
                        self._cache.module_source, module, error, "registry module", scope=path
                    ),
                )
            )
            self.registry_failed = True
            return
        assert registry is not None
        self.registry = registry
        for problem in registry.problems:
            self._note(problem)
        if not self.settings.modules:
            # Only a registry configured: document the classes its entries instantiate.
            for entry in registry.entries:
                cls, error = call_user_code(discovery.resolve, entry.scenario)
                if error is None and cls not in self.classes:
                    self.classes.append(cast(type, cls))

    def package_roots(self) -> list[Path]:
        """The folders of the packages that hold the modules that imported and the registry."""
        settings = self.settings
        names = [*self.modules, *([settings.registry] if settings.registry else [])]
        return sorted({root for name in names for root in discovery.package_folders(name)})

    def registry_module(self) -> str:
        """The module that holds the registry (which may be the registry itself)."""
        path = self.settings.registry or ""
        found, _error = call_user_code(discovery.resolve, path)
        if isinstance(found, ModuleType):
            return found.__name__
        return getattr(found, "__module__", None) or path.rpartition(".")[0]

    def _unreadable(self, module: ModuleType) -> SourceTooDeep | None:
        """Why refgen cannot read a module Python imported (from its compiled bytecode, or
        with more of the stack to spare), if it cannot: nested too deeply to parse."""
        path = discovery.source_file(module)
        return self._source_check(path, self._cache.module_source) if path else None

    def _at_setting(self, setting: str, problem: Problem) -> Problem:
        """``problem``, at the line of the setting that names what failed when it was
        raised in no code of the user's (a package that does not exist, a lookup that
        a builtin refused)."""
        if problem.location is not None:
            return problem
        return dataclasses.replace(problem, location=self._setting_location(setting))

    def _setting_location(self, setting: str) -> SourceLocation | None:
        settings = self.settings
        line = setting_line(settings, setting)
        return SourceLocation(str(settings.source), line) if settings.source and line else None

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
        location = self._setting_location(setting)
        named = f"{setting_name(self.settings, setting)} names {dotted!r}"
        if not_a_registry:
            return Problem(WarningKind.REGISTRY, f"{named}: {error}", location, dotted)
        message = f"{named}, which cannot be found ({describe_error(error)})"
        message += imported_from(dotted)
        return Problem(WarningKind.IMPORT, message, location, dotted)

    def _note(self, problem: Problem) -> None:
        """Record ``problem`` once."""
        if problem not in self.problems:
            self.problems.append(problem)

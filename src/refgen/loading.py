"""Loading: the configured modules and the registry imported once, what failed as problems.

The only place that imports the user's code on purpose (through
:mod:`refgen.analysis.discovery`). Whatever the user's code raises becomes a
:class:`~refgen.analysis.model.Problem`: at the user's line when it was raised
there, at the setting that names what failed when the name itself is at fault
or no code of the user's ran. A module Python imports but refgen cannot parse
(nested too deeply for Python's parser) is a module that failed to load.
The :class:`~refgen.project.Project` owns one :class:`Loader` and answers for it.
"""

from __future__ import annotations

import dataclasses
import traceback
from collections.abc import Callable, Iterable, Sequence
from types import ModuleType
from typing import Any

from refgen.analysis import discovery
from refgen.analysis.cache import AnalysisCache
from refgen.analysis.failures import describe_error, import_problem, imported_from
from refgen.analysis.guard import call_user_code
from refgen.analysis.model import Problem, RegistryDoc, SourceLocation, WarningKind
from refgen.analysis.source import ModuleSource, SourceTooDeep
from refgen.config import Settings, setting_line, setting_name

Progress = Callable[[Sequence[Any], str], Iterable[Any]]
SourceCheck = Callable[[str, Callable[[str], ModuleSource]], SourceTooDeep | None]
"""Why refgen cannot parse the file at a path, if it cannot (nested too deeply), given
the analysis cache's reader."""


class Loader:
    """The configured modules, their scenario classes and the registry, imported once."""

    def __init__(
        self,
        settings: Settings,
        cache: AnalysisCache,
        progress: Progress,
        source_check: SourceCheck | None = None,
    ) -> None:
        self.settings = settings
        self._cache = cache
        self._progress = progress
        self._source_check = source_check or _parsed_check
        self._loaded = False
        self.modules: dict[str, ModuleType] = {}
        """The configured modules that imported, by name, in configuration order."""
        self.classes: list[type] = []
        """Every scenario class of the imported modules, in module and source order."""
        self.registry: RegistryDoc | None = None
        """The registry, or None when none is configured or it cannot be read."""
        self.registry_failed = False
        """A registry is configured but cannot be read (a problem says why)."""
        self._problems: list[Problem] = []

    def load(self) -> tuple[Problem, ...]:
        """Import the configured modules and the registry (once); what failed, each time."""
        if not self._loaded:
            self._loaded = True
            self._import()
        return tuple(self._problems)

    def _import(self) -> None:
        modules = list(dict.fromkeys(self.settings.modules))
        for name in self._progress(modules, "importing scenario modules"):
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
            self.classes.extend(discovery.scenario_classes(module))
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
                cls = discovery.resolve(entry.scenario)
                if cls not in self.classes:
                    self.classes.append(cls)

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
        if problem not in self._problems:
            self._problems.append(problem)


def _parsed_check(path: str, read: Callable[[str], ModuleSource]) -> SourceTooDeep | None:
    """The file parsed by ``read`` (the analysis cache, which analysis reads it from next)."""
    try:
        read(path)
    except SourceTooDeep as error:
        return error
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
        return None  # its classes are documented without their source, as before
    return None

"""pytest plugin: each scenario class's Examples section is one test item.

It collects the modules listed under ``modules`` in the ``[tool.refgen]``
table of ``pyproject.toml``; every setting can also be given as a pytest ini
option ``refgen_<name>`` (``refgen_modules``), which takes precedence. Add the package folder to
``testpaths``::

    [tool.pytest.ini_options]
    testpaths = ["tests", "scenarios"]

    [tool.refgen]
    modules = ["refgen_scenarios.training"]

The items are collected from the module files themselves and are named after
their class (``refgen_scenarios/training.py::UpdateWorkingSetScenario``). The example
text is read from the docstring, the only copy there is; a failure names the
``.py`` file and the line of the failing ``>>>`` prompt.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from refgen.analysis import discovery
from refgen.analysis.model import ExampleBlock
from refgen.config import PREFIX, ConfigError, Settings, load_settings, setting_fields
from refgen.evaluate.examples import ExampleRun, run_examples
from refgen.project import Project


def pytest_addoption(parser: pytest.Parser) -> None:
    """Every refgen setting as an ini option ``refgen_<name>``, declared once in Settings."""
    for spec in setting_fields():
        if isinstance(spec.default, tuple):
            parser.addini(f"{PREFIX}{spec.name}", spec.metadata["help"], type="linelist")
        else:
            parser.addini(f"{PREFIX}{spec.name}", spec.metadata["help"], type="string")


def settings_of(config: pytest.Config) -> Settings:
    """``[tool.refgen]`` of the project's pyproject.toml, with ini options taking precedence.

    Settings that cannot be read give an error naming the setting and the file.
    """
    settings = load_settings(Path(config.rootpath))
    given: dict[str, Any] = {}
    for spec in setting_fields():
        value = config.getini(f"{PREFIX}{spec.name}")
        if value in (None, [], ""):
            continue
        if spec.metadata["kind"] == "true or false":
            value = str(value).strip().lower() in ("1", "true", "yes", "on")
        elif spec.metadata["kind"] == "whole number, 1 or more" and str(value).strip().isdigit():
            value = int(str(value))
        given[spec.name] = value
    if not given:
        return settings
    overrides = Settings.from_mapping(given, f"{config.inipath or 'pytest configuration'}")
    # Messages about a setting then point at the pytest configuration file.
    values = {name: getattr(overrides, name) for name in given}
    return dataclasses.replace(settings, **values, source=config.inipath, table=None)


PROJECT = pytest.StashKey["Project"]()


def project_of(config: pytest.Config) -> Project:
    """The session's Project: one import and analysis of the modules for every item."""
    if PROJECT not in config.stash:
        config.stash[PROJECT] = Project(settings_of(config))
    return config.stash[PROJECT]


def _module_files(config: pytest.Config) -> dict[Path, str]:
    cached = getattr(config, "_refgen_module_files", None)
    if cached is None:
        cached = {}
        try:
            modules = settings_of(config).modules
        except ConfigError as error:
            raise pytest.UsageError(f"refgen: {error}") from error
        project = project_of(config)
        for name in modules:
            file = project.module_file(name)  # imports its parents
            if file is not None:
                cached[Path(file)] = name
        config._refgen_module_files = cached  # type: ignore[attr-defined]
    return cached


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    """A configured module with no file to collect (misspelt, or its package fails to
    import) is one failing item, so that its examples are never skipped in silence."""
    found = set(_module_files(config).values())
    missing = [name for name in settings_of(config).modules if name not in found]
    if not missing:
        return
    project = project_of(config)
    for name in missing:
        message = import_failure(project, name)
        items.append(FailedItem.from_parent(session, name=f"refgen: {name}", message=message))


def import_failure(project: Project, module_name: str) -> str:
    """Why ``module_name`` did not import, at the setting or the line at fault."""
    failed = [p for p in project.load() if p.subject.startswith(module_name)]
    if not failed:
        return f"cannot import {module_name}"
    reason = failed[0]
    return f"{reason.location}: {reason.message}" if reason.location else reason.message


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    module_name = _module_files(parent.config).get(file_path.resolve())
    if module_name is None:
        return None
    return ScenarioExamples.from_parent(parent, path=file_path, module_name=module_name)


class ExamplesFailed(Exception):
    """Raised by an item whose example output differs from the docstring."""

    def __init__(self, run: ExampleRun) -> None:
        super().__init__(run.subject)
        self.run = run


class ScenarioExamples(pytest.File):
    """The scenario classes of one module, one example item each."""

    def __init__(self, *, module_name: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.module_name = module_name

    def collect(self) -> Iterator[pytest.Item]:
        """One item per class with examples; a module or class that fails is one failing item.

        A failure is an item, not a collection error, so the rest of the session runs.
        """
        project = project_of(self.config)
        if self.module_name not in project.modules:
            message = import_failure(project, self.module_name)
            yield FailedItem.from_parent(self, name="import", message=message)
            return
        for cls in discovery.scenario_classes(project.modules[self.module_name]):
            scenario = project.scenario(cls)
            if isinstance(scenario, str):
                message = f"cannot analyse {cls.__qualname__}: {scenario}"
                yield FailedItem.from_parent(self, name=cls.__name__, message=message)
                continue
            if scenario.docstring.examples is not None:
                yield ScenarioExampleItem.from_parent(
                    self,
                    name=scenario.name,
                    block=scenario.docstring.examples,
                    subject=scenario.qualname,
                )


class FailedItem(pytest.Item):
    """Something the plugin could not collect: it fails with the reason, no traceback."""

    def __init__(self, *, message: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.message = message

    def runtest(self) -> None:
        raise CollectedFailure(self.message)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        return self.message

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"refgen: {self.name}"


class CollectedFailure(Exception):
    """Raised by a :class:`FailedItem`."""


class ScenarioExampleItem(pytest.Item):
    """The Examples section of one scenario class."""

    def __init__(self, *, block: ExampleBlock, subject: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.block = block
        self.subject = subject

    def runtest(self) -> None:
        run = run_examples(self.block, self.subject, project_of(self.config).settings.eval_timeout)
        if not run.passed:
            raise ExamplesFailed(run)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, ExamplesFailed):
            return "\n\n".join(failure.describe() for failure in excinfo.value.run.failures)
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.block.location.line - 1, f"example of {self.subject}"

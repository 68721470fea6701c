"""pytest plugin: each scenario class's Examples section is one test item.

It collects the modules listed under ``refgen_modules`` in the pytest
configuration or, when that is not set, under ``modules`` in the
``[tool.refgen]`` table of ``pyproject.toml``. Add the package folder to
``testpaths``::

    [tool.pytest.ini_options]
    testpaths = ["tests", "scenarios"]

    [tool.refgen]
    modules = ["scenarios.training"]

The items are collected from the module files themselves and are named after
their class (``scenarios/training.py::UpdateWorkingSetScenario``). The example
text is read from the docstring, the only copy there is; a failure names the
``.py`` file and the line of the failing ``>>>`` prompt.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from refgen.analysis.model import ExampleBlock
from refgen.evaluate.examples import ExampleRun, run_examples

INI_MODULES = "refgen_modules"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini(
        INI_MODULES,
        "Modules whose scenario classes' examples are collected as tests.",
        type="linelist",
        default=[],
    )


def _module_files(config: pytest.Config) -> dict[Path, str]:
    cached = getattr(config, "_refgen_module_files", None)
    if cached is None:
        cached = {}
        for name in config.getini(INI_MODULES) or _project_modules(config):
            spec = importlib.util.find_spec(name)
            if spec is not None and spec.origin:
                cached[Path(spec.origin).resolve()] = name
        config._refgen_module_files = cached  # type: ignore[attr-defined]
    return cached


def _project_modules(config: pytest.Config) -> tuple[str, ...]:
    from refgen.config import ConfigError, load_settings

    try:
        return load_settings(Path(config.rootpath)).modules
    except ConfigError:
        return ()


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
        from refgen.config import Settings
        from refgen.project import Project

        project = Project(Settings(modules=(self.module_name,)))
        for problem in project.problems:
            raise ImportError(f"{problem.location}: {problem.message}")
        for cls in project.classes:
            scenario = project.scenario(cls)
            if scenario.docstring.examples is not None:
                yield ScenarioExampleItem.from_parent(
                    self,
                    name=scenario.name,
                    block=scenario.docstring.examples,
                    subject=scenario.qualname,
                )


class ScenarioExampleItem(pytest.Item):
    """The Examples section of one scenario class."""

    def __init__(self, *, block: ExampleBlock, subject: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.block = block
        self.subject = subject

    def runtest(self) -> None:
        run = run_examples(self.block, self.subject)
        if not run.passed:
            raise ExamplesFailed(run)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, ExamplesFailed):
            return "\n\n".join(failure.describe() for failure in excinfo.value.run.failures)
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.block.location.line - 1, f"example of {self.subject}"

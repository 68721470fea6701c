"""What every command shares: exit codes, the Project, name lookup and terminal text.

The command line's own rule lives here: the Project records a module or a
registry that cannot be imported as a problem, and a command that needs it
stops with that problem as a one-line error and exit status 2.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from pathlib import Path

from refgen.analysis import discovery
from refgen.analysis.model import (
    HelperDoc,
    Problem,
    RegistryDoc,
    RegistryEntryDoc,
    ScenarioDoc,
    SourceLocation,
    WarningKind,
)
from refgen.config import COMMAND_LINE, ConfigError, Settings, load_settings
from refgen.project import Project
from refgen.render.markup import printable

EXIT_OK = 0
EXIT_NOT_FOUND = 1
"""Unknown name, no search match, or check findings."""
EXIT_USAGE = 2
"""Bad arguments, no configuration, or configured code that cannot be imported."""


class CliError(Exception):
    """A failure reported as one message and an exit status, without a traceback."""

    def __init__(self, message: str, status: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.status = status


class NotFound(CliError):
    """An unknown name (exit status 1), with the names most like it."""

    def __init__(self, message: str, suggestions: Sequence[str]) -> None:
        if suggestions:
            message += "; did you mean " + ", ".join(suggestions) + "?"
        super().__init__(message, EXIT_NOT_FOUND)
        self.suggestions = tuple(suggestions)


# --------------------------------------------------------------------------- the project


def build_project(args: argparse.Namespace) -> Project:
    """The project the options and ``[tool.refgen]`` describe; CliError when it is empty."""
    try:
        config = load_settings(Path.cwd())
    except ConfigError as error:
        raise CliError(str(error)) from error
    modules = getattr(args, "module", None) or list(config.modules)
    registry = getattr(args, "registry", config.registry)
    if not modules and not registry:
        reason = (
            f"{config.source} has no [tool.refgen] modules or registry"
            if config.source
            else f"no pyproject.toml found in {Path.cwd()} or any folder above it"
        )
        raise CliError(
            f"refgen: nothing to look up: {reason}. Add\n\n"
            '    [tool.refgen]\n    modules = ["your_package.scenarios"]\n'
            '    registry = "your_package.Registry"\n\n'
            f"to {config.source or 'pyproject.toml'}, or pass --module and --registry."
        )
    if config.source is not None:
        # Like `python -m`, find a not-installed package in the project folder (last resort).
        root = str(config.source.parent)
        if root not in sys.path:
            sys.path.append(root)
    try:
        given = Settings.from_mapping(
            {"modules": modules, "registry": registry or None}, "the command line"
        )
    except ConfigError as error:
        raise CliError(str(error)) from error
    # The options replace what they name; every other setting stays as [tool.refgen] has it.
    settings = dataclasses.replace(config, modules=given.modules, registry=given.registry)
    if getattr(args, "module", None) or getattr(args, "registry", None):
        settings = dataclasses.replace(settings, source=None, table=COMMAND_LINE)
    return Project(settings)


def import_problems(project: Project) -> list[Problem]:
    return [p for p in project.problems if p.kind == WarningKind.IMPORT]


def classes(project: Project) -> list[type]:
    """The project's scenario classes; CliError when a configured module cannot be imported."""
    found = project.classes
    problems = import_problems(project)
    if problems:
        raise CliError(f"refgen: {located(problems[0])}")
    return found


def scenarios(project: Project) -> list[ScenarioDoc]:
    """Every scenario class, analysed; CliError as for :func:`classes`."""
    return [project.scenario(cls) for cls in classes(project)]


def registry(project: Project) -> RegistryDoc | None:
    """The registry (None without one); CliError when it cannot be read."""
    if project.registry_failed:
        raise CliError(f"refgen: {registry_problem(project).message}")
    return project.registry


def registry_problem(project: Project) -> Problem:
    """Why the registry cannot be read: the import problem of its module or of an entry."""
    path = project.settings.registry or ""
    module = path.rpartition(".")[0]
    problems = import_problems(project)
    own = [p for p in problems if p.subject in (path, module) or p.subject.startswith(f"{path}.")]
    return (own or problems)[0]


def helpers(project: Project) -> list[HelperDoc]:
    """Every helper the scenario classes use; CliError as for :func:`classes`."""
    classes(project)
    return project.helpers()


# --------------------------------------------------------------------------- names


@dataclass(frozen=True)
class Target:
    """What a name given to ``show`` refers to."""

    kind: str
    """``entry``, ``class``, ``attribute`` or ``helper``."""
    scenario: ScenarioDoc | None = None
    entry: RegistryEntryDoc | None = None
    attribute: str = ""
    helper: HelperDoc | None = None


def close_matches(name: str, candidates: Iterable[str], limit: int = 5) -> list[str]:
    """Candidates most like ``name``, ignoring case.

    A dotted name is held against whole candidates; a bare name against bare
    candidates and against the last part of dotted ones, so ``step_flor`` finds
    ``Class.step_floor`` but ``UpdateWorkingSet`` does not find every attribute
    of ``UpdateWorkingSetScenario``.
    """
    wanted = name.lower()
    scored = []
    for candidate in dict.fromkeys(candidates):
        compared = candidate.lower()
        if "." not in name:
            compared = compared.rpartition(".")[2]
        score = SequenceMatcher(None, wanted, compared).ratio()
        if score >= 0.6:
            scored.append((-score, candidate))
    return [candidate for _, candidate in sorted(scored)[:limit]]


def resolve_owner(project: Project, name: str) -> Target | None:
    """An entry or class called ``name``; CliError when a short class name is ambiguous."""
    registry(project)
    entry = project.entry(name)
    if entry is not None:
        return Target("entry", project.entry_scenario(entry), entry)
    matches = [
        cls
        for cls in classes(project)
        if name in (cls.__name__, cls.__qualname__, discovery.dotted_path(cls))
    ]
    if len(matches) > 1:
        listed = ", ".join(sorted(discovery.dotted_path(c) for c in matches))
        raise CliError(f"refgen: {name!r} names several classes: {listed}", EXIT_NOT_FOUND)
    if matches:
        return Target("class", project.scenario(matches[0]))
    return None


def resolve_target(project: Project, name: str) -> Target:
    """The entry, class, attribute or helper called ``name``, in that order; NotFound else."""
    owner = resolve_owner(project, name)
    if owner is not None:
        return owner
    prefix, dot, attribute = name.rpartition(".")
    if dot:
        owner = resolve_owner(project, prefix)
        if owner is not None and owner.scenario is not None:
            if attribute in owner.scenario.attribute_names:
                return Target("attribute", owner.scenario, owner.entry, attribute)
            suggestions = close_matches(attribute, owner.scenario.attribute_names)
            raise NotFound(
                f"refgen: {prefix} has no attribute {attribute!r}",
                [f"{prefix}.{s}" for s in suggestions],
            )
    found = helpers(project)
    for helper in found:
        if name in (helper.name, helper.qualname):
            return Target("helper", helper=helper)
    raise NotFound(
        f"refgen: no registry entry, class, attribute or helper is called {name!r}",
        close_matches(name, candidate_names(project, found)),
    )


def candidate_names(project: Project, helpers: Sequence[HelperDoc]) -> list[str]:
    """Every name ``show`` knows, for suggestions."""
    found: list[str] = []
    entries = project.registry.entries if project.registry else ()
    found.extend(entry.name for entry in entries)
    for scenario in scenarios(project):
        found.append(scenario.name)
        found.extend(f"{scenario.name}.{a}" for a in scenario.attribute_names)
    found.extend(helper.name for helper in helpers)
    return found


# --------------------------------------------------------------------------- text


def shown_path(path: str) -> str:
    """``path`` relative to the working folder when it lies below it, else as is."""
    try:
        return Path(path).relative_to(Path.cwd()).as_posix()
    except ValueError:
        return path


def located(problem: Problem) -> str:
    """``file:line: message``, or the message alone where there is no file (an option)."""
    return f"{where(problem.location)}: {problem.message}" if problem.location else problem.message


def where(location: SourceLocation | None) -> str:
    """``file:line``, the file as :func:`shown_path` gives it."""
    return f"{shown_path(location.path)}:{location.line}" if location else "(unknown location)"


def emit(lines: Iterable[str]) -> None:
    """Print ``lines`` to standard output (nothing at all when there are none).

    Control characters in the data (escape sequences, bells, carriage returns)
    are replaced, so nothing a scenario computes can drive the terminal.
    """
    text = "\n".join(printable(line) for line in lines)
    if text:
        sys.stdout.write(text + "\n")

"""What every command shares: exit codes, the Project, name lookup and terminal text.

The command line's own rule lives here: the Project records a module or a
registry that cannot be imported as a problem, and a command that needs it
stops with that problem as a one-line error and exit status 2; so does a
command that needs what the user's code does not let the Project give (the
Project's reason, :func:`needed`).

Names are taken as the site writes them: a name matches when its dotted parts,
ignoring case, end one of an object's full dotted paths (``Scenarios.X``,
``X``, ``module.Class``, ``Class.attribute``). Output for a person goes through
a rich console (styled only on a terminal and never with ``NO_COLOR``); for a
script, through :func:`emit_json`.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

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
from refgen.render.blocks import Page
from refgen.render.markup import escaped_unprintable, printable

if TYPE_CHECKING:
    from rich.console import Console

T = TypeVar("T")

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


def needed(found: T | str) -> T:
    """What the Project found; its reason, as a :class:`CliError`, when the command
    cannot do without it."""
    if isinstance(found, str):
        raise CliError(f"refgen: {found}")
    return found


def import_problems(project: Project) -> list[Problem]:
    return [p for p in project.load() if p.kind == WarningKind.IMPORT]


def classes(project: Project) -> list[type]:
    """The project's scenario classes; CliError when a configured module cannot be imported."""
    found = project.classes
    problems = import_problems(project)
    if problems:
        raise CliError(f"refgen: {located(problems[0])}")
    return found


def scenarios(project: Project) -> list[ScenarioDoc]:
    """Every scenario class, analysed; CliError as for :func:`classes`."""
    return [needed(project.scenario(cls)) for cls in classes(project)]


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
    return needed(project.helpers())


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


@dataclass(frozen=True)
class Known(Generic[T]):
    """Something a name can refer to, with every dotted path it goes by."""

    item: T
    paths: tuple[str, ...]
    """Full dotted paths; a name matches when its parts end one of them."""


def name_parts(name: str) -> tuple[str, ...]:
    """The dotted parts of ``name``, case-folded: ``Scenarios.X`` is ``("scenarios", "x")``."""
    return tuple(part.casefold() for part in name.strip().split("."))


def ends_path(name: str, path: str) -> bool:
    """Whether ``name``'s parts are the last parts of ``path``, ignoring case."""
    wanted, parts = name_parts(name), name_parts(path)
    return len(wanted) <= len(parts) and parts[len(parts) - len(wanted) :] == wanted


def pick(name: str, known: Sequence[Known[T]], what: str) -> T | None:
    """The one item ``name`` ends a path of; one spelt exactly as given wins a tie of case.

    Several items left is a CliError (exit status 1) listing their paths.
    """
    found = [k for k in known if any(ends_path(name, p) for p in k.paths)]
    if len(found) > 1:
        exact = [k for k in found if any(p.endswith(name.strip()) for p in k.paths)]
        found = exact or found
    if len(found) > 1:
        listed = ", ".join(sorted(k.paths[0] for k in found))
        raise CliError(f"refgen: {name!r} names several {what}: {listed}", EXIT_NOT_FOUND)
    return found[0].item if found else None


def known_entries(project: Project) -> list[Known[RegistryEntryDoc]]:
    """Every registry entry, by the registry's configured path and its defining path."""
    found = registry(project)
    if found is None:
        return []
    prefixes = [found.qualname]
    defined = project.class_named(found.qualname)
    if not isinstance(defined, str):
        prefixes.append(discovery.dotted_path(defined))
    return [
        Known(entry, tuple(dict.fromkeys(f"{p}.{entry.name}" for p in prefixes)))
        for entry in found.entries
    ]


def known_classes(project: Project) -> list[Known[type]]:
    return [Known(cls, (discovery.dotted_path(cls),)) for cls in classes(project)]


def resolve_owner(project: Project, name: str) -> Target | None:
    """The entry or class ``name`` names: ``X``, ``Scenarios.X``, ``module.Class``, any case."""
    entry = pick(name, known_entries(project), "registry entries")
    if entry is not None:
        found = needed(project.found_entry(entry))
        return Target("entry", found.scenario, entry)
    cls = pick(name, known_classes(project), "classes")
    if cls is not None:
        return Target("class", needed(project.scenario(cls)))
    return None


def resolve_target(project: Project, name: str) -> Target:
    """The entry, class, attribute or helper called ``name``, in that order; NotFound else."""
    owner = resolve_owner(project, name)
    if owner is not None:
        return owner
    prefix, dot, attribute = name.strip().rpartition(".")
    if dot:
        owner = resolve_owner(project, prefix)
        if owner is not None and owner.scenario is not None:
            return attribute_of(owner, prefix, attribute)
    found = helpers(project)
    helper = pick(name, [Known(h, (h.qualname,)) for h in found], "helpers")
    if helper is not None:
        return Target("helper", helper=helper)
    raise NotFound(
        f"refgen: no registry entry, class, attribute or helper is called {name!r}",
        close_matches(name, candidate_paths(project, found)),
    )


def attribute_of(owner: Target, prefix: str, attribute: str) -> Target:
    """The attribute of an entry's or a class's scenario, any case; NotFound with the nearest."""
    assert owner.scenario is not None
    names = owner.scenario.attribute_names
    known = [Known(n, (n,)) for n in names]
    found = pick(attribute, known, f"attributes of {prefix}")
    if found is not None:
        return Target("attribute", owner.scenario, owner.entry, found)
    raise NotFound(
        f"refgen: {prefix} has no attribute {attribute!r}",
        [f"{prefix}.{s}" for s in close_matches(attribute, attribute_names(owner.scenario))],
    )


def candidate_paths(project: Project, helpers: Sequence[HelperDoc]) -> list[tuple[str, int]]:
    """Everything ``show`` knows, for suggestions: each full dotted path, and how many of
    its last parts a reader writes at least (2 for ``Class.attribute``, else 1)."""
    found = [(path, 1) for known in known_entries(project) for path in known.paths]
    for scenario in scenarios(project):
        found.append((scenario.qualname, 1))
        found.extend((f"{scenario.qualname}.{a}", 2) for a in scenario.attribute_names)
    found.extend((helper.qualname, 1) for helper in helpers)
    return found


def close_matches(name: str, paths: Iterable[tuple[str, int]], limit: int = 5) -> list[str]:
    """The names most like ``name``, ignoring case.

    ``name`` is held against as many last parts of each path as it has: a bare
    name against bare names (so ``step_flor`` finds ``Class.step_floor``, but
    ``UpdateWorkingSet`` not every attribute of ``UpdateWorkingSetScenario``),
    ``Scenarios.PhoneFullUpdateWorkingSt`` against ``Scenarios.PhoneFullUpdateWorkingSet``.
    Each is suggested with as many parts as were compared, and at least as many
    as a reader writes.
    """
    wanted = name_parts(name)
    best: dict[str, float] = {}
    for path, least in paths:
        parts = path.split(".")
        compared = ".".join(parts[-len(wanted) :]).casefold()
        score = SequenceMatcher(None, ".".join(wanted), compared).ratio()
        shown = ".".join(parts[-max(len(wanted), least) :])
        if score >= 0.6 and score > best.get(shown, 0.0):
            best[shown] = score
    ranked = sorted(best.items(), key=lambda item: (-item[1], item[0]))
    return [shown for shown, _ in ranked[:limit]]


def attribute_names(scenario: ScenarioDoc) -> list[tuple[str, int]]:
    return [(name, 1) for name in scenario.attribute_names]


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


def warn(message: str) -> None:
    """A message for the reader, on standard error, control characters replaced."""
    print(printable(message), file=sys.stderr)


# --------------------------------------------------------------------------- output


def coloured() -> bool:
    """Whether to style the output: only on a terminal, and never with ``NO_COLOR`` set."""
    if os.environ.get("NO_COLOR", ""):
        return False
    try:
        return sys.stdout.isatty()
    except ValueError:  # closed
        return False


def console() -> Console:
    """A rich console on standard output: styled only when :func:`coloured` says so,
    as wide as the terminal (``COLUMNS``, else 80, when there is none), and reading
    no markup, emoji codes or highlights into the data it prints."""
    from rich.console import Console

    class QuietConsole(Console):
        def on_broken_pipe(self) -> None:
            """The reader left (``refgen show X | head``): say so as Python would, and
            let :func:`refgen.cli.main` end quietly, not exit from inside a print."""
            self.quiet = True
            raise BrokenPipeError

    styled = coloured()
    return QuietConsole(
        file=sys.stdout,
        force_terminal=styled,
        color_system="auto" if styled else None,
        no_color=not styled,
        markup=False,
        emoji=False,
        highlight=False,
    )


def print_page(page: Page) -> None:
    """A summary page (``show``, ``search``) through :class:`SummaryWriter`: tables and
    paragraphs wrapped at word boundaries to the terminal's width."""
    from refgen.render.text import SummaryWriter

    out = console()
    for renderable in SummaryWriter().renderables(page):
        out.print(renderable)


def print_text(text: str) -> None:
    """Text already laid out (``show --page``), written as it is."""
    console().out(printable(text), end="", highlight=False)


def terminal_width() -> int:
    return console().width


def emit_json(data: Any) -> None:
    """``data`` as JSON on standard output (see :func:`json_text`)."""
    sys.stdout.write(json_text(data))


def json_text(data: Any) -> str:
    """``data`` as JSON that is safe to print: readable non-ASCII text, and escapes
    for what a terminal would act on (JSON itself escapes the other control
    characters); the value read back is the same. Never ``NaN``: that is not JSON."""
    text = json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False)
    return escaped_unprintable(text + "\n")


def error_record(error: CliError) -> dict[str, Any]:
    """A failure as JSON data, for ``--format json``."""
    suggestions = list(error.suggestions) if isinstance(error, NotFound) else []
    return {"error": {"status": error.status, "message": str(error), "suggestions": suggestions}}

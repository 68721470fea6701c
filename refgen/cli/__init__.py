"""The ``refgen`` command line: look things up in the reference without building it.

``refgen show NAME`` prints one registry entry, class, attribute or helper;
``refgen search WORD`` lists what mentions a word; ``refgen check`` lints the
scenario metadata; ``refgen export --json`` writes the whole reference as
JSON (see ``export_schema.json`` beside this file).

It runs the same analysis as the Sphinx pages (:mod:`refgen.analysis`,
:mod:`refgen.values`) but never imports Sphinx or docutils, and imports even
the analysis only once a command needs it, so a lookup costs little more
than importing the scenario package itself.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from refgen.analysis.model import (
        DerivedDoc,
        Docstring,
        HelperDoc,
        InputDoc,
        Problem,
        RegistryDoc,
        RegistryEntryDoc,
        ScenarioDoc,
        SourceLocation,
    )
    from refgen.config import Settings
    from refgen.project import Project

EXIT_OK = 0
EXIT_NOT_FOUND = 1
"""Unknown name, no search match, or check findings."""
EXIT_USAGE = 2
"""Bad arguments, no configuration, or configured code that cannot be imported."""

SCHEMA_VERSION = 1
WIDTH = 88
"""Column at which ``show`` wraps prose."""


class CliError(Exception):
    """A failure reported as one message and an exit status, without a traceback."""

    def __init__(self, message: str, status: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.status = status


# --------------------------------------------------------------------------- the project


class CliProject:
    """The shared Project, with the command line's rule: failures are one-line errors."""

    def __init__(self, project: Project) -> None:
        self.project = project
        self.module_names = project.settings.modules
        self.registry_path = project.settings.registry

    @property
    def registry(self) -> RegistryDoc | None:
        if self.project.registry_failed:
            problem = next(p for p in self.project.problems if p.kind == "import")
            raise CliError(f"refgen: {problem.message}")
        return self.project.registry

    def import_modules(self) -> tuple[list[type], list[Problem]]:
        project = self.project
        problems = [p for p in project.problems if p.kind == "import"]
        return project.classes, problems

    @property
    def classes(self) -> list[type]:
        classes, problems = self.import_modules()
        if problems:
            problem = problems[0]
            raise CliError(f"refgen: {where(problem.location)}: {problem.message}")
        return classes

    def scenario(self, cls: type) -> ScenarioDoc:
        return self.project.scenario(cls)

    def scenarios(self) -> list[ScenarioDoc]:
        return [self.scenario(cls) for cls in self.classes]

    def entry(self, name: str) -> RegistryEntryDoc | None:
        self.registry  # noqa: B018 (raises when the registry cannot be read)
        return self.project.entry(name)

    def instance(self, entry: RegistryEntryDoc) -> Any:
        return self.project.instance(entry)

    def entry_scenario(self, entry: RegistryEntryDoc) -> ScenarioDoc:
        return self.project.entry_scenario(entry)

    def helpers(self) -> list[HelperDoc]:
        self.classes  # noqa: B018
        return self.project.helpers()


def build_project(args: argparse.Namespace) -> tuple[CliProject, Settings]:
    """The project the options and ``[tool.refgen]`` describe; CliError when it is empty."""
    from refgen.config import ConfigError, Settings, load_settings
    from refgen.project import Project

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
        settings = Settings.from_mapping(
            {"modules": modules, "registry": registry or None}, "the command line"
        )
    except ConfigError as error:
        raise CliError(str(error)) from error
    return CliProject(Project(settings)), config


# --------------------------------------------------------------------------- text helpers


def shown_path(path: str) -> str:
    """``path`` relative to the working folder when it lies below it, else as is."""
    try:
        return Path(path).relative_to(Path.cwd()).as_posix()
    except ValueError:
        return path


def where(location: SourceLocation | None) -> str:
    return f"{shown_path(location.path)}:{location.line}" if location else "(unknown location)"


def wrap(text: str, indent: str = "  ", hanging: str | None = None) -> list[str]:
    """Paragraphs of ``text`` wrapped at :data:`WIDTH`; continuation lines get ``hanging``."""
    import textwrap

    lines: list[str] = []
    for paragraph in text.split("\n\n"):
        if lines:
            lines.append("")
        lines.extend(
            textwrap.wrap(
                " ".join(paragraph.split()),
                WIDTH,
                initial_indent=indent,
                subsequent_indent=indent if hanging is None else hanging,
                break_on_hyphens=False,
            )
            or [indent.rstrip()]
        )
    return lines


def table(rows: Iterable[tuple[str, ...]], indent: str = "  ") -> list[str]:
    """Rows as columns padded to the widest cell; the last column is not padded."""
    rows = list(rows)
    if not rows:
        return []
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    lines = []
    for row in rows:
        cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=False)]
        lines.append((indent + "  ".join([*cells, row[-1]])).rstrip())
    return lines


def names(items: Iterable[str]) -> str:
    listed = ", ".join(items)
    return listed or "nothing"


# --------------------------------------------------------------------------- show


@dataclass(frozen=True)
class Target:
    """What a name given to ``show`` refers to."""

    kind: str
    """``entry``, ``class``, ``attribute`` or ``helper``."""
    scenario: ScenarioDoc | None = None
    entry: RegistryEntryDoc | None = None
    attribute: str = ""
    helper: HelperDoc | None = None


class NotFound(CliError):
    def __init__(self, message: str, suggestions: Sequence[str]) -> None:
        if suggestions:
            message += "; did you mean " + ", ".join(suggestions) + "?"
        super().__init__(message, EXIT_NOT_FOUND)
        self.suggestions = tuple(suggestions)


def close_matches(name: str, candidates: Iterable[str], limit: int = 5) -> list[str]:
    """Candidates most like ``name``, ignoring case.

    A dotted name is held against whole candidates; a bare name against bare
    candidates and against the last part of dotted ones, so ``step_flor`` finds
    ``Class.step_floor`` but ``UpdateWorkingSet`` does not find every attribute
    of ``UpdateWorkingSetScenario``.
    """
    from difflib import SequenceMatcher

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


def find_classes(project: CliProject, name: str) -> list[type]:
    from refgen.analysis import discovery

    return [
        cls
        for cls in project.classes
        if name in (cls.__name__, cls.__qualname__, discovery.dotted_path(cls))
    ]


def resolve_owner(project: CliProject, name: str) -> Target | None:
    """An entry or class called ``name``; CliError when a short class name is ambiguous."""
    entry = project.entry(name)
    if entry is not None:
        return Target("entry", project.entry_scenario(entry), entry)
    matches = find_classes(project, name)
    if len(matches) > 1:
        from refgen.analysis import discovery

        listed = ", ".join(sorted(discovery.dotted_path(c) for c in matches))
        raise CliError(f"refgen: {name!r} names several classes: {listed}", EXIT_NOT_FOUND)
    if matches:
        return Target("class", project.scenario(matches[0]))
    return None


def resolve_target(project: CliProject, name: str) -> Target:
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
    helpers = project.helpers()
    for helper in helpers:
        if name in (helper.name, helper.qualname):
            return Target("helper", helper=helper)
    raise NotFound(
        f"refgen: no registry entry, class, attribute or helper is called {name!r}",
        close_matches(name, candidate_names(project, helpers)),
    )


def candidate_names(project: CliProject, helpers: Sequence[HelperDoc]) -> list[str]:
    found: list[str] = []
    entries = project.registry.entries if project.registry else ()
    for entry in entries:
        found.append(entry.name)
    for scenario in project.scenarios():
        found.append(scenario.name)
        found.extend(f"{scenario.name}.{a}" for a in scenario.attribute_names)
    found.extend(helper.name for helper in helpers)
    return found


def render_entry(project: CliProject, scenario: ScenarioDoc, entry: RegistryEntryDoc) -> list[str]:
    computed = project.project.entry_values(scenario, entry)
    stated = dict(entry.inputs)
    lines = [
        entry.name,
        f"  registry entry {entry.registry}.{entry.name} ({where(entry.location)})",
        f"  class {scenario.qualname}",
        "",
    ]
    if entry.description:
        lines += [*wrap(entry.description, ""), ""]

    def value_text(name: str) -> str:
        value = computed.value(name)
        if value is None:
            return "not available"
        return value.text if value.available else f"{value.text}: {value.reason}"

    rows = []
    for item in scenario.inputs:
        if item.name in stated:
            note = f"stated as {stated[item.name]}"
        elif item.default is not None:
            note = f"default {item.default}"
        else:
            note = "not stated"
        rows.append((item.name, value_text(item.name), note))
    lines += ["Inputs", *table(rows), ""]
    lines += ["Derived", *table((d.name, value_text(d.name)) for d in scenario.derived)]
    return lines


def summary_and_notes(doc: Docstring) -> list[str]:
    """The summary paragraph and the labelled Notes, wrapped for the terminal."""
    lines: list[str] = []
    if doc.summary:
        lines += [*wrap(doc.summary, ""), ""]
    if doc.notes:
        lines.append("Notes")
        for note in doc.notes:
            lines += wrap(f"{note.label}: {note.text}" if note.label else note.text, "  ", "    ")
        lines.append("")
    return lines


def render_class(scenario: ScenarioDoc) -> list[str]:
    doc = scenario.docstring
    lines = [
        scenario.name,
        f"  class {scenario.qualname} ({where(scenario.location)})",
        f"  category: {scenario.category}",
        "",
    ]
    lines += summary_and_notes(doc)
    lines.append("Inputs")
    for item in scenario.inputs:
        default = f" = {item.default}" if item.default is not None else " (required)"
        lines.append(f"  {item.name}: {item.annotation}{default}")
        if item.description:
            lines += wrap(item.description, "      ")
    lines += ["", "Derived attributes"]
    for derived in scenario.derived:
        returns = f" -> {derived.return_annotation}" if derived.return_annotation else ""
        lines.append(f"  {derived.name}{returns}")
        if derived.description:
            lines += wrap(derived.description, "      ")
        lines += equation_lines(derived, "      ")
    if scenario.registry_entries:
        lines += ["", f"Registry entries: {names(e.name for e in scenario.registry_entries)}"]
    return lines


def equation_lines(derived: DerivedDoc, indent: str) -> list[str]:
    equation = derived.equation
    if equation.expression is not None:
        first, *rest = equation.expression.split("\n")
        return [f"{indent}= {first}", *(f"{indent}  {line}" for line in rest)]
    if equation.helpers:
        text = f"computed by {names(equation.helpers)} ({equation.reason})"
        return wrap(text, indent, indent + "  ")
    return wrap(f"no equation shown: {equation.reason}", indent, indent + "  ")


def render_attribute(
    project: Project, scenario: ScenarioDoc, name: str, entry: RegistryEntryDoc | None
) -> list[str]:
    from refgen.evaluate import values

    item = scenario.attribute(name)
    assert item is not None
    owner = entry.name if entry else scenario.name
    lines = [f"{owner}.{name}"]
    if is_input(item):
        default = f" = {item.default}" if item.default is not None else " (required)"
        lines.append(f"  input {scenario.qualname}.{name}: {item.annotation}{default}")
    else:
        returns = f" -> {item.return_annotation}" if item.return_annotation else ""
        lines.append(f"  derived attribute {item.qualname}{returns}")
    lines.append(f"  defined at {where(item.location)}")
    inherited = getattr(item, "inherited_from", None)
    if inherited:
        lines.append(f"  inherited from {inherited}")
    lines.append("")
    if item.description:
        lines += [*wrap(item.description, ""), ""]
    if not is_input(item):
        lines += attribute_equation(project, item)
        lines.append(f"Reads: {names(item.reads)}")
    lines.append(f"Feeds: {names(item.feeds)}")
    entries = [entry] if entry else list(scenario.registry_entries)
    if entries:
        lines.append("")
        rows = []
        for each in entries:
            value = values.compute(scenario, project.instance(each), name)
            text = value.text if value.available else f"{value.text}: {value.reason}"
            stated = dict(each.inputs).get(name)
            rows.append((each.name, text + (f" (stated as {stated})" if stated else "")))
        lines += ["Value" if entry else "Values", *table(rows)]
    return lines


def attribute_equation(project: CliProject, derived: DerivedDoc) -> list[str]:
    equation = derived.equation
    if equation.expression is not None:
        first, *rest = equation.expression.split("\n")
        return [f"Equation: {first}", *(f"          {line}" for line in rest)]
    if not equation.helpers:
        return [f"Equation: none shown ({equation.reason})"]
    lines = [f"Equation: carried by a helper ({equation.reason})"]
    for path in equation.helpers:
        try:
            helper = project.project.helper(path)
        except Exception as error:  # user code: say so, keep going
            lines.append(f"  {path} (cannot be read: {type(error).__name__}: {error})")
            continue
        lines.append(f"  {helper.qualname} ({where(helper.location)})")
        stated = helper.docstring.note("Equation")
        if stated:
            lines += wrap(stated, "      ")
    return lines


def render_helper(helper: HelperDoc) -> list[str]:
    doc = helper.docstring
    lines = [
        helper.name,
        f"  helper {helper.qualname}{helper.signature}",
        f"  defined at {where(helper.location)}",
        "",
    ]
    lines += summary_and_notes(doc)
    if helper.steps:
        lines.append("Steps")
        for step in helper.steps:
            target = f"{step.target} =" if step.target else "return"
            lines += [
                f"  {target} {line}" if i == 0 else f"    {line}"
                for i, line in enumerate(step.expression.split("\n"))
            ]
    return lines


def is_input(item: InputDoc | DerivedDoc) -> bool:
    from refgen.analysis.model import InputDoc

    return isinstance(item, InputDoc)


def command_show(args: argparse.Namespace) -> int:
    project, _ = build_project(args)
    target = resolve_target(project, args.name)
    if target.kind == "entry":
        assert target.scenario is not None and target.entry is not None
        lines = render_entry(project, target.scenario, target.entry)
    elif target.kind == "class":
        assert target.scenario is not None
        lines = render_class(target.scenario)
    elif target.kind == "attribute":
        assert target.scenario is not None
        lines = render_attribute(project, target.scenario, target.attribute, target.entry)
    else:
        assert target.helper is not None
        lines = render_helper(target.helper)
    emit(lines)
    return EXIT_OK


# --------------------------------------------------------------------------- search


def search_rows(project: CliProject, word: str) -> list[tuple[str, str, str]]:
    """``(name, kind, description)`` of every class, input, derived attribute and
    registry entry whose name or description contains ``word`` (any case)."""
    wanted = word.casefold()

    def hit(*texts: str) -> bool:
        return any(wanted in text.casefold() for text in texts)

    rows = []
    for scenario in project.scenarios():
        doc = scenario.docstring
        if hit(scenario.name, doc.summary, doc.description):
            rows.append((scenario.name, "class", doc.summary))
        for item in scenario.inputs:
            if hit(item.name, item.description):
                rows.append((f"{scenario.name}.{item.name}", "input", item.description))
        for derived in scenario.derived:
            if hit(derived.name, derived.description):
                rows.append((f"{scenario.name}.{derived.name}", "derived", derived.description))
    for entry in project.registry.entries if project.registry else ():
        if hit(entry.name, entry.description):
            rows.append((entry.name, "entry", entry.description))
    return rows


def command_search(args: argparse.Namespace) -> int:
    project, _ = build_project(args)
    rows = search_rows(project, args.word)
    if not rows:
        print(f"refgen: nothing matches {args.word!r}", file=sys.stderr)
        return EXIT_NOT_FOUND
    emit(table(rows, indent=""))
    return EXIT_OK


# --------------------------------------------------------------------------- check


@dataclass(frozen=True, order=True)
class Finding:
    """One lint finding, printed as ``path:line: [kind] message``."""

    path: str
    line: int
    kind: str
    message: str

    def __str__(self) -> str:
        place = f"{shown_path(self.path)}:{self.line}" if self.line else self.path
        return f"{place}: [{self.kind}] {self.message}"


def finding(kind: str, message: str, location: SourceLocation | None, subject: str = "") -> Finding:
    if location is None:
        return Finding(subject or "(unknown location)", 0, kind, message)
    return Finding(location.path, location.line, kind, message)


def from_problem(problem: Problem) -> Finding:
    return finding(problem.kind, f"{problem.subject}: {problem.message}", problem.location)


def docstring_is_empty(doc: Docstring) -> bool:
    return not (doc.summary or doc.description or doc.notes or doc.references or doc.examples)


def lint_scenario(scenario: ScenarioDoc) -> list[Finding]:
    """The metadata rules for one class (everything but units)."""
    from refgen.analysis.docstrings import NOTE_LABELS

    found = []
    doc = scenario.docstring
    location = scenario.location
    if docstring_is_empty(doc):
        found.append(
            finding("missing-docstring", f"{scenario.name}: the class has no docstring", location)
        )
    for label in NOTE_LABELS:
        if not (doc.note(label) or "").strip():
            found.append(
                finding(
                    f"missing-{label.lower()}",
                    f"{scenario.name}: the Notes section has no {label}: entry",
                    location,
                )
            )
    if doc.examples is None:
        found.append(
            finding(
                "missing-example",
                f"{scenario.name}: the docstring has no Examples section",
                location,
            )
        )
    for item in scenario.inputs:
        if not item.description:
            found.append(
                finding(
                    "missing-docstring",
                    f"{scenario.name}.{item.name}: input has no docstring",
                    item.location,
                )
            )
    undocumented = set()
    for derived in scenario.derived:
        if not derived.description:
            undocumented.add((derived.qualname, derived.location))
            found.append(
                finding(
                    "missing-docstring",
                    f"{scenario.name}.{derived.name}: derived attribute has no docstring",
                    derived.location,
                )
            )
    for problem in scenario.problems:
        # analysis reports an undocumented property too; missing-docstring covers it
        if problem.kind == "docstring" and (problem.subject, problem.location) in undocumented:
            continue
        found.append(from_problem(problem))
    return found


# Words after "in" that pint would read as a unit but that are English here
# ("in a", "in turn", "in line with").
NOT_UNITS = frozenset(
    "a an are as at bar be by cup dot hand in is it line mil no of on or pi point so the to "  # noqa: SIM905
    "turn up".split()
)
DIMENSIONLESS = "dimensionless"


def stated_units(description: str) -> list[str]:
    """Unit candidates a description states, leftmost first.

    Recognised forms: a leading ``UNIT:``, ``(UNIT)``, ``in UNIT`` (also
    ``in UNIT per UNIT``) and the word ``dimensionless``. Whether a candidate
    is a unit is decided by :func:`parse_stated`.
    """
    import re

    token = r"(?:[^\W\d_]|%)[^\s(),;:]*?"
    end = r"(?=[\s,;:)]|\.(?:\s|$)|$)"
    patterns = (
        rf"^({token}):(?=\s|$)",
        rf"\(({token})\)",
        rf"\b[Ii]n ({token}(?: per {token})?){end}",
        r"\b(dimensionless)\b",
    )
    found = []
    for pattern in patterns:
        found.extend((m.start(), m.group(1)) for m in re.finditer(pattern, description))
    return [text for _, text in sorted(found)]


def parse_stated(text: str, registry: Any) -> Any:
    """The pint unit ``text`` names, ``DIMENSIONLESS``, or None if it is not a unit.

    Every word must be a unit pint knows and not one of :data:`NOT_UNITS`; a
    lowercase word of four or more letters must be the unit's own name or its
    plural, since pint also reads ``units`` (as micro-nit) and ``mass`` (as
    milli-arcsecond), which no author means.
    """
    import re

    if text == DIMENSIONLESS:
        return DIMENSIONLESS
    try:
        for word in re.findall(r"[^\W\d_]+", text):
            if word == "per":
                continue
            if word in NOT_UNITS:
                return None
            if word.islower() and len(word) >= 4:
                name = registry.get_name(word)
                if word not in (name, f"{name}s", f"{name}es"):
                    return None
        return registry.parse_units(text)
    except Exception:  # pint's errors for undefined or unparsable units
        return None


def unit_registry(instance: Any, scenario: ScenarioDoc) -> Any:
    """The pint registry the entry's quantities use, or pint's application registry."""
    for item in scenario.inputs:
        value = getattr(instance, item.name, None)
        if hasattr(value, "_REGISTRY"):
            return value._REGISTRY
    import pint

    return pint.get_application_registry()


def unit_findings(project: CliProject, scenario: ScenarioDoc) -> list[Finding]:
    """Derived attributes whose description states a unit other than the computed one.

    One finding per attribute: the first registry entry that disagrees is
    quoted, and the number of further entries that do is added.
    """
    from refgen.evaluate import values

    disagreements: dict[str, list[str]] = {}
    for entry in scenario.registry_entries:
        try:
            instance = project.instance(entry)
        except Exception:  # the registry page reports this; nothing to compare here
            continue
        registry = None
        for derived in scenario.derived:
            candidates = stated_units(derived.description)
            if not candidates:
                continue
            try:
                raw = getattr(instance, derived.name)
            except Exception:  # not available: the page says why; nothing to compare
                continue
            is_quantity = hasattr(raw, "units") and hasattr(raw, "magnitude")
            if not is_quantity and (isinstance(raw, bool) or not isinstance(raw, int | float)):
                continue
            if registry is None:
                registry = raw._REGISTRY if is_quantity else unit_registry(instance, scenario)
            stated_text, stated = next(
                (
                    (text, unit)
                    for text in candidates
                    if (unit := parse_stated(text, registry)) is not None
                ),
                ("", None),
            )
            if stated is None:
                continue
            problem = unit_disagreement(stated_text, stated, raw, is_quantity)
            if problem:
                disagreements.setdefault(derived.name, []).append(
                    f"the description states {stated_text} but {entry.name} computes "
                    f"{values.format_value(raw)}: {problem}"
                )
    found = []
    for derived in scenario.derived:
        messages = disagreements.get(derived.name)
        if not messages:
            continue
        more = len(messages) - 1
        also = f" (and {more} more registry entr{'y' if more == 1 else 'ies'})" if more else ""
        found.append(
            finding(
                "unit-mismatch",
                f"{scenario.name}.{derived.name}: {messages[0]}{also}",
                derived.location,
            )
        )
    return found


def unit_disagreement(stated_text: str, stated: Any, raw: Any, is_quantity: bool) -> str:
    """Why the computed value is not quoted in the stated unit; "" when it is."""
    if stated == DIMENSIONLESS:
        if not is_quantity or raw.unitless:
            return ""
        return f"a quantity in {raw.units:~P}, not a plain number"
    if not is_quantity:
        return f"a plain number, not a quantity in {stated_text}"
    if raw.units == stated:
        return ""
    if raw.dimensionality == stated.dimensionality:
        return f"same dimension, but the page would quote {raw.units:~P}, not {stated_text}"
    return f"a different dimension ({raw.dimensionality}, not {stated.dimensionality})"


@dataclass(frozen=True)
class CheckReport:
    findings: list[Finding]
    classes: int
    """Scenario classes checked."""
    without_entries: int
    """Classes with no registry entry, whose units could not be compared."""


def check_findings(project: CliProject) -> CheckReport:
    """Every finding, sorted, and what was checked."""
    classes, problems = project.import_modules()
    findings = [from_problem(p) for p in problems]
    scenarios = []
    for cls in classes:
        try:
            scenarios.append(project.scenario(cls))
        except Exception as error:
            findings.append(
                Finding(
                    f"{cls.__module__}.{cls.__qualname__}",
                    0,
                    "analysis",
                    f"cannot analyse: {type(error).__name__}: {error}",
                )
            )
    for scenario in scenarios:
        findings += lint_scenario(scenario)
        findings += unit_findings(project, scenario)
    seen_helpers = set()
    for module_name in project.project.cache.helper_modules(scenarios):
        try:
            helpers = project.project.helpers_of(module_name)
        except Exception as error:
            findings.append(
                Finding(module_name, 0, "import", f"cannot read helper module: {error}")
            )
            continue
        for helper in helpers:
            if helper.qualname not in seen_helpers:
                seen_helpers.add(helper.qualname)
                findings += [from_problem(p) for p in helper.docstring.problems]
    without_entries = sum(1 for s in scenarios if not s.registry_entries)
    return CheckReport(sorted(set(findings)), len(scenarios), without_entries)


def command_check(args: argparse.Namespace) -> int:
    project, _ = build_project(args)
    report = check_findings(project)
    emit([str(f) for f in report.findings])
    count = len(report.findings)
    summary = (
        f"refgen check: {count or 'no'} finding{'' if count == 1 else 's'} in "
        f"{report.classes} scenario class{'' if report.classes == 1 else 'es'}"
    )
    if report.without_entries:
        summary += (
            f"; units not compared for {report.without_entries} "
            f"class{'' if report.without_entries == 1 else 'es'} with no registry entry"
        )
    print(summary, file=sys.stderr)
    return EXIT_NOT_FOUND if report.findings else EXIT_OK


# --------------------------------------------------------------------------- export


def export_docstring_parts(doc: Docstring) -> dict[str, Any]:
    return {
        "notes": [{"label": n.label, "text": n.text} for n in doc.notes],
        "references": [{"text": r.text, "target": r.target} for r in doc.references],
    }


def package_file(path: str, scenario: ScenarioDoc) -> str:
    """``path`` relative to the folder that holds the scenario's top-level package."""
    own = Path(scenario.location.path)
    depth = len(Path(scenario.source_path).parts)
    root = own.parents[depth - 1] if 0 < depth <= len(own.parents) else own.parent
    try:
        return Path(path).relative_to(root).as_posix()
    except ValueError:
        return Path(path).name


def export_class(scenario: ScenarioDoc) -> dict[str, Any]:
    doc = scenario.docstring
    examples = doc.examples
    return {
        "name": scenario.name,
        "qualname": scenario.qualname,
        "category": scenario.category,
        "module": scenario.module,
        "file": scenario.source_path,
        "line": scenario.location.line,
        "summary": doc.summary,
        "description": doc.description,
        **export_docstring_parts(doc),
        "examples": {"text": examples.text, "line": examples.location.line} if examples else None,
        "inputs": [
            {
                "name": item.name,
                "annotation": item.annotation,
                "default": item.default,
                "description": item.description,
                "feeds": list(item.feeds),
                "inherited_from": getattr(item, "inherited_from", None),
                "file": package_file(item.location.path, scenario),
                "line": item.location.line,
            }
            for item in scenario.inputs
        ],
        "derived": [
            {
                "name": d.name,
                "qualname": d.qualname,
                "description": d.description,
                "equation": {
                    "expression": d.equation.expression,
                    "helpers": list(d.equation.helpers),
                    "reason": d.equation.reason,
                },
                "reads": list(d.reads),
                "feeds": list(d.feeds),
                "return_annotation": d.return_annotation,
                "inherited_from": getattr(d, "inherited_from", None),
                "file": package_file(d.location.path, scenario),
                "line": d.location.line,
            }
            for d in scenario.derived
        ],
        "registry_entries": [e.name for e in scenario.registry_entries],
    }


def export_helper(helper: HelperDoc) -> dict[str, Any]:
    from refgen.analysis import discovery

    doc = helper.docstring
    module = helper.qualname.rpartition(".")[0]
    return {
        "name": helper.name,
        "qualname": helper.qualname,
        "module": module,
        "file": discovery.display_path(module),
        "line": helper.location.line,
        "signature": helper.signature,
        "summary": doc.summary,
        "description": doc.description,
        "parameters": [
            {"name": p.name, "type": p.type, "description": p.description} for p in doc.parameters
        ],
        "returns": [
            {"name": p.name, "type": p.type, "description": p.description} for p in doc.returns
        ],
        **export_docstring_parts(doc),
        "steps": [{"target": s.target, "expression": s.expression} for s in helper.steps],
    }


def export_entries(project: CliProject) -> list[dict[str, Any]]:
    registry = project.registry
    if registry is None:
        return []
    file = registry_file(project)
    out = []
    for entry in registry.entries:
        scenario = project.entry_scenario(entry)
        computed = project.project.entry_values(scenario, entry)
        inputs = {i.name for i in scenario.inputs}
        out.append(
            {
                "name": entry.name,
                "qualname": computed.qualname,
                "class": entry.scenario,
                "description": entry.description,
                "file": file if entry.location else None,
                "line": entry.location.line if entry.location else None,
                "inputs": [{"name": n, "text": t} for n, t in entry.inputs],
                "values": [
                    {
                        "name": v.name,
                        "kind": "input" if v.name in inputs else "derived",
                        "text": v.text,
                        "available": v.available,
                        "reason": v.reason,
                    }
                    for v in computed.values
                ],
            }
        )
    return out


def registry_file(project: CliProject) -> str | None:
    from refgen.analysis import discovery

    if not project.registry_path or project.registry is None or project.registry.location is None:
        return None
    obj = discovery.resolve(project.registry_path)
    module = getattr(obj, "__module__", None) or project.registry_path.rpartition(".")[0]
    return discovery.display_path(module)


def export_reference(project: CliProject) -> dict[str, Any]:
    """The whole reference as plain JSON data (see ``export_schema.json``)."""
    from refgen import __version__

    scenarios = project.scenarios()
    registry = project.registry
    return {
        "schema_version": SCHEMA_VERSION,
        "generator": f"refgen {__version__}",
        "modules": list(project.module_names),
        "registry": {
            "qualname": registry.qualname,
            "title": registry.title,
            "description": registry.description,
            "file": registry_file(project),
            "line": registry.location.line if registry.location else None,
        }
        if registry
        else None,
        "classes": [export_class(s) for s in scenarios],
        "helpers": [export_helper(h) for h in project.helpers()],
        "registry_entries": export_entries(project),
    }


def command_export(args: argparse.Namespace) -> int:
    import json

    if not args.json:
        raise CliError("refgen export: choose a format: --json (the only one so far)")
    project, _ = build_project(args)
    text = json.dumps(export_reference(project), indent=2, ensure_ascii=False) + "\n"
    if args.output and args.output != "-":
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return EXIT_OK


# --------------------------------------------------------------------------- entry point


def emit(lines: Iterable[str]) -> None:
    text = "\n".join(lines)
    if text:
        sys.stdout.write(text + "\n")


def parser() -> argparse.ArgumentParser:
    from refgen import __version__

    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "-m",
        "--module",
        action="append",
        metavar="MODULE",
        default=argparse.SUPPRESS,
        help="scenario module to look in (repeatable); replaces [tool.refgen] modules",
    )
    common.add_argument(
        "--registry",
        metavar="PATH",
        default=argparse.SUPPRESS,
        help="dotted path of the registry object; replaces [tool.refgen] registry ('' for none)",
    )
    main_parser = argparse.ArgumentParser(
        prog="refgen",
        parents=[common],
        description="Look up scenario classes, registry entries and their figures.",
        epilog="Configuration: [tool.refgen] modules and registry in the nearest pyproject.toml.",
    )
    main_parser.add_argument("--version", action="version", version=f"refgen {__version__}")
    commands = main_parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    show = commands.add_parser(
        "show",
        parents=[common],
        help="print a registry entry, class, attribute or helper",
        description="NAME is a registry entry (PhoneFullUpdateWorkingSet), a class "
        "(UpdateWorkingSetScenario or its dotted path), an attribute of either "
        "(UpdateWorkingSetScenario.step_floor) or a helper function.",
    )
    show.add_argument("name", metavar="NAME")
    show.set_defaults(handler=command_show)
    search = commands.add_parser(
        "search", parents=[common], help="list classes, attributes and entries mentioning WORD"
    )
    search.add_argument("word", metavar="WORD")
    search.set_defaults(handler=command_search)
    check = commands.add_parser(
        "check", parents=[common], help="lint the scenario metadata; non-zero exit on findings"
    )
    check.set_defaults(handler=command_check)
    export = commands.add_parser("export", parents=[common], help="write the whole reference")
    export.add_argument("--json", action="store_true", help="as JSON (schema version 1)")
    export.add_argument("-o", "--output", metavar="FILE", help="write to FILE, not stdout")
    export.set_defaults(handler=command_export)
    return main_parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; returns the exit status (the console script exits with it)."""
    if sys.stdout.encoding and sys.stdout.encoding.lower().replace("-", "") != "utf8":
        sys.stdout.reconfigure(errors="replace")  # type: ignore[union-attr]
    args = parser().parse_args(argv)
    try:
        status = args.handler(args)
        sys.stdout.flush()
        return status
    except CliError as error:
        print(str(error), file=sys.stderr)
        return error.status
    except BrokenPipeError:  # `refgen export --json | head`: the reader left early
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_NOT_FOUND


if __name__ == "__main__":
    sys.exit(main())

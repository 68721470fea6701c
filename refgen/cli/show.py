"""``refgen show NAME``: one registry entry, class, attribute or helper, as terminal text."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from refgen.analysis.failures import describe_error
from refgen.analysis.model import (
    DerivedDoc,
    Docstring,
    HelperDoc,
    InputDoc,
    RegistryEntryDoc,
    ScenarioDoc,
)
from refgen.cli.common import (
    EXIT_OK,
    build_project,
    emit,
    names,
    resolve_target,
    table,
    where,
    wrap,
)
from refgen.evaluate import values
from refgen.evaluate.values import Value
from refgen.project import Project
from refgen.render.scenario_page import scenario_page
from refgen.render.text import TextWriter


def run(args: argparse.Namespace) -> int:
    project = build_project(args)
    target = resolve_target(project, args.name)
    if getattr(args, "page", False) and target.scenario is not None:
        scenario = target.scenario
        page = scenario_page(
            scenario, project.values(scenario), project.settings.value_precision, project.units
        )
        sys.stdout.write(TextWriter().page(page))
        return EXIT_OK
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


def value_text(value: Value | None) -> str:
    """A computed value, or ``not available`` with the reason."""
    if value is None:
        return values.NOT_AVAILABLE
    return value.text if value.available else f"{value.text}: {value.reason}"


def render_entry(project: Project, scenario: ScenarioDoc, entry: RegistryEntryDoc) -> list[str]:
    """An entry's class and description, and every input and derived value."""
    computed = project.entry_values(scenario, entry)
    stated = dict(entry.inputs)
    lines = [
        entry.name,
        f"  registry entry {entry.registry}.{entry.name} ({where(entry.location)})",
        f"  class {scenario.qualname}",
        "",
    ]
    if entry.description:
        lines += [*wrap(entry.description, ""), ""]
    rows = []
    for item in scenario.inputs:
        if item.name in stated:
            note = f"stated as {stated[item.name]}"
        elif item.default is not None:
            note = f"default {item.default}"
        else:
            note = "not stated"
        rows.append((item.name, value_text(computed.value(item.name)), note))
    lines += ["Inputs", *table(rows), ""]
    derived = [(d.name, value_text(computed.value(d.name))) for d in scenario.derived]
    lines += ["Derived", *table(derived)]
    return lines


def heading(name: str, details: Sequence[str], doc: Docstring) -> list[str]:
    """The name, indented detail lines, then the summary paragraph and the labelled Notes."""
    lines = [name, *(f"  {detail}" for detail in details), ""]
    if doc.summary:
        lines += [*wrap(doc.summary, ""), ""]
    if doc.notes:
        lines.append("Notes")
        for note in doc.notes:
            lines += wrap(f"{note.label}: {note.text}" if note.label else note.text, "  ", "    ")
        lines.append("")
    return lines


def render_class(scenario: ScenarioDoc) -> list[str]:
    """A class: summary, Notes, inputs, and derived attributes with their equations."""
    lines = heading(
        scenario.name,
        [
            f"class {scenario.qualname} ({where(scenario.location)})",
            f"category: {scenario.category}",
        ],
        scenario.docstring,
    )
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
    """The equation of a derived attribute as ``show CLASS`` prints it."""
    equation = derived.equation
    if equation.expression is not None:
        return hanging(equation.expression, f"{indent}= ", f"{indent}  ")
    if equation.helpers:
        text = f"computed by {names(equation.helpers)} ({equation.reason})"
        return wrap(text, indent, indent + "  ")
    return wrap(f"no equation shown: {equation.reason}", indent, indent + "  ")


def render_attribute(
    project: Project, scenario: ScenarioDoc, name: str, entry: RegistryEntryDoc | None
) -> list[str]:
    """One attribute: its description, equation, data flow and values."""
    item = scenario.attribute(name)
    assert item is not None
    owner = entry.name if entry else scenario.name
    lines = [f"{owner}.{name}"]
    if isinstance(item, InputDoc):
        default = f" = {item.default}" if item.default is not None else " (required)"
        lines.append(f"  input {scenario.qualname}.{name}: {item.annotation}{default}")
    else:
        returns = f" -> {item.return_annotation}" if item.return_annotation else ""
        lines.append(f"  derived attribute {item.qualname}{returns}")
    lines.append(f"  defined at {where(item.location)}")
    if item.inherited_from:
        lines.append(f"  inherited from {item.inherited_from}")
    lines.append("")
    if item.description:
        lines += [*wrap(item.description, ""), ""]
    if isinstance(item, DerivedDoc):
        lines += attribute_equation(project, item)
        lines.append(f"Reads: {names(item.reads)}")
    lines.append(f"Feeds: {names(item.feeds)}")
    entries = [entry] if entry else list(scenario.registry_entries)
    if entries:
        lines.append("")
        rows = []
        for each in entries:
            text = value_text(values.compute(scenario, project.instance(each), name))
            stated = dict(each.inputs).get(name)
            rows.append((each.name, text + (f" (stated as {stated})" if stated else "")))
        lines += ["Value" if entry else "Values", *table(rows)]
    return lines


def attribute_equation(project: Project, derived: DerivedDoc) -> list[str]:
    """The equation, or the helpers that carry it with their stated equations."""
    equation = derived.equation
    if equation.expression is not None:
        return hanging(equation.expression, "Equation: ", " " * len("Equation: "))
    if not equation.helpers:
        return [f"Equation: none shown ({equation.reason})"]
    lines = [f"Equation: carried by a helper ({equation.reason})"]
    for path in equation.helpers:
        try:
            helper = project.helper(path)
        except Exception as error:  # user code: say so, keep going
            lines.append(f"  {path} (cannot be read: {describe_error(error)})")
            continue
        lines.append(f"  {helper.qualname} ({where(helper.location)})")
        stated = helper.docstring.note("Equation")
        if stated:
            lines += wrap(stated, "      ")
    return lines


def render_helper(helper: HelperDoc) -> list[str]:
    """A helper: signature, summary, Notes and its arithmetic step by step."""
    lines = heading(
        helper.name,
        [f"helper {helper.qualname}{helper.signature}", f"defined at {where(helper.location)}"],
        helper.docstring,
    )
    if helper.steps:
        lines.append("Steps")
        for step in helper.steps:
            target = f"{step.target} =" if step.target else "return"
            lines += hanging(step.expression, f"  {target} ", "    ")
    return lines


def hanging(text: str, first: str, rest: str) -> list[str]:
    """The lines of ``text``, the first after ``first`` and the others after ``rest``."""
    head, *tail = text.split("\n")
    return [first + head, *(rest + line for line in tail)]

"""``refgen export``: the whole reference as JSON data (see ``export_schema.json``), or CSV.

JSON is the default (``--format json``, or ``--json``); ``--format csv`` gives
one row per value of every registry entry, for spreadsheets. Files are given
relative to the folder that holds the top-level package, so the export is the
same wherever the code is checked out. Every value carries its display text
and, when it is a number, its magnitude and pint's name of its unit.
"""

from __future__ import annotations

import argparse
import csv
import io
import sys
from pathlib import Path
from typing import Any

from refgen import __version__
from refgen.analysis import discovery
from refgen.analysis.model import (
    ENTRY_SECTIONS,
    Docstring,
    HelperDoc,
    ParameterEntry,
    RegistryEntryDoc,
    ScenarioDoc,
    section_field,
)
from refgen.cli.common import (
    EXIT_OK,
    build_project,
    helpers,
    json_text,
    needed,
    registry,
    scenarios,
)
from refgen.evaluate.values import Value, json_number
from refgen.project import Project
from refgen.render.downloads import spreadsheet_text
from refgen.render.markup import printable

SCHEMA_VERSION = 1


CSV_COLUMNS = (
    "entry",
    "class",
    "attribute",
    "kind",
    "text",
    "magnitude",
    "units",
    "available",
    "reason",
)
"""The columns of ``--format csv``, one row per value of every registry entry."""


def run(args: argparse.Namespace) -> int:
    project = build_project(args)
    if args.format == "csv":
        text = csv_text(export_entries(project))
    else:
        text = json_text(export_reference(project))
    if args.output and args.output != "-":
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return EXIT_OK


def csv_text(entries: list[dict[str, Any]]) -> str:
    """The values of exported entries as CSV: a header, then a row per value. Control
    characters are replaced, as on the terminal: a spreadsheet cell has no use for them;
    text a spreadsheet would run as a formula is shown as text (``spreadsheet_text``)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for entry in entries:
        for value in entry["values"]:
            magnitude = value["magnitude"]
            texts = [entry["name"], entry["class"], value["name"], value["kind"], value["text"]]
            writer.writerow(
                [
                    *(spreadsheet_text(printable(str(cell))) for cell in texts),
                    "" if magnitude is None else repr(magnitude),
                    spreadsheet_text(printable(str(value["units"]))),
                    "true" if value["available"] else "false",
                    spreadsheet_text(printable(str(value["reason"]))),
                ]
            )
    return out.getvalue()


def export_reference(project: Project) -> dict[str, Any]:
    """The whole reference as plain JSON data; CliError when configured code cannot be read."""
    found = scenarios(project)
    read = registry(project)
    return {
        "schema_version": SCHEMA_VERSION,
        "generator": f"refgen {__version__}",
        "modules": list(project.settings.modules),
        "registry": {
            "qualname": read.qualname,
            "title": read.title,
            "description": read.description,
            "file": registry_file(project),
            "line": read.location.line if read.location else None,
        }
        if read
        else None,
        "classes": [export_class(s) for s in found],
        "helpers": [export_helper(h) for h in helpers(project)],
        "registry_entries": export_entries(project),
    }


def export_docstring_parts(doc: Docstring) -> dict[str, Any]:
    """Every section of a docstring but its summary, description and examples."""
    warnings = doc.warnings
    return {
        **{section_field(title): export_parameters(doc.entries(title)) for title in ENTRY_SECTIONS},
        "warnings": {"text": warnings.text, "line": warnings.location.line} if warnings else None,
        "see_also": [
            {
                "names": [{"name": n.name, "role": n.role, "target": n.target} for n in e.names],
                "description": e.description,
            }
            for e in doc.see_also
        ],
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
    """A class with its docstring, inputs and derived attributes (not its values)."""
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
    """A helper with its docstring and the steps of its arithmetic."""
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
        **export_docstring_parts(doc),
        "steps": [{"target": s.target, "expression": s.expression} for s in helper.steps],
    }


def export_parameters(entries: tuple[ParameterEntry, ...]) -> list[dict[str, str]]:
    return [{"name": p.name, "type": p.type, "description": p.description} for p in entries]


def export_entries(project: Project) -> list[dict[str, Any]]:
    """Every registry entry with its stated inputs and computed values."""
    read = registry(project)
    return [export_entry(project, entry) for entry in read.entries] if read else []


def export_entry(project: Project, entry: RegistryEntryDoc) -> dict[str, Any]:
    """One registry entry with its stated inputs and computed values."""
    scenario = needed(project.found_entry(entry)).scenario
    computed = needed(project.entry_values(scenario, entry))
    inputs = {i.name for i in scenario.inputs}
    return {
        "name": entry.name,
        "qualname": computed.qualname,
        "class": entry.scenario,
        "description": entry.description,
        "file": registry_file(project) if entry.location else None,
        "line": entry.location.line if entry.location else None,
        "inputs": [{"name": n, "text": t} for n, t in entry.inputs],
        "values": [
            export_value(v, "input" if v.name in inputs else "derived") for v in computed.values
        ],
    }


def export_value(value: Value, kind: str) -> dict[str, Any]:
    """A value as the pages show it, and as a number in a named unit when it is one."""
    magnitude = json_number(value.magnitude) if value.available else None
    return {
        "name": value.name,
        "kind": kind,
        "text": value.text,
        "magnitude": magnitude,
        "units": value.units if magnitude is not None else "",
        "available": value.available,
        "reason": value.reason,
    }


def registry_file(project: Project) -> str | None:
    """The registry's module file (relative, as for every file), or None."""
    path = project.settings.registry
    read = registry(project)
    if not path or read is None or read.location is None:
        return None
    return discovery.display_path(project.registry_module())

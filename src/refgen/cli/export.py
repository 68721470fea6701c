"""``refgen export --json``: the whole reference as JSON data (see ``export_schema.json``).

Files are given relative to the folder that holds the top-level package, so
the export is the same wherever the code is checked out.
"""

from __future__ import annotations

import argparse
import json
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
    ScenarioDoc,
    section_field,
)
from refgen.cli.common import EXIT_OK, CliError, build_project, helpers, registry, scenarios
from refgen.project import Project
from refgen.render.markup import escaped_unprintable

SCHEMA_VERSION = 1


def run(args: argparse.Namespace) -> int:
    if not args.json:
        raise CliError("refgen export: choose a format: --json (the only one so far)")
    text = json_text(export_reference(build_project(args)))
    if args.output and args.output != "-":
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return EXIT_OK


def json_text(data: Any) -> str:
    """``data`` as JSON that is safe to print: readable non-ASCII text, and escapes
    for what a terminal would act on (JSON itself escapes the other control
    characters); the value read back is the same."""
    return escaped_unprintable(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


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
    if read is None:
        return []
    file = registry_file(project)
    out = []
    for entry in read.entries:
        scenario = project.entry_scenario(entry)
        computed = project.entry_values(scenario, entry)
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


def registry_file(project: Project) -> str | None:
    """The registry's module file (relative, as for every file), or None."""
    path = project.settings.registry
    read = registry(project)
    if not path or read is None or read.location is None:
        return None
    obj = project.resolve(path)
    module = getattr(obj, "__module__", None) or path.rpartition(".")[0]
    return discovery.display_path(module)

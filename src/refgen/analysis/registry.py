"""The registry: named scenario instances, read from the registry object and its source."""

from __future__ import annotations

import ast
import inspect
import sys
import traceback
from pathlib import Path
from typing import Any

from refgen.analysis import discovery
from refgen.analysis.construction import construction, top_level_bindings
from refgen.analysis.dependencies import in_package
from refgen.analysis.docstrings import attribute_description, described_at, parse_docstring
from refgen.analysis.guard import call_user_code
from refgen.analysis.model import (
    Docstring,
    Problem,
    RegistryDoc,
    RegistryEntryDoc,
    SourceLocation,
    WarningKind,
)
from refgen.analysis.modules import Reader, object_source
from refgen.analysis.source import (
    AssignmentSource,
    class_assignments,
    docstring_node,
    imported_modules,
)


def read_registry(read: Reader, registry_path: str, registry: Any) -> RegistryDoc:
    """The registry object ``registry`` (named ``registry_path``) and every entry in it."""
    assignments: dict[str, AssignmentSource] = {}
    doc = Docstring()
    location = None
    source = None
    if inspect.isclass(registry):
        source = object_source(read, registry)
        classdef = source.find_class(registry.__qualname__)
        if classdef is not None:
            assignments = class_assignments(source, classdef)
            location = SourceLocation(source.path, classdef.lineno)
            node = docstring_node(classdef.body)
            doc = parse_docstring(str(node.value) if node else None, source.path, classdef.lineno)
    statements = {name: a.node for name, a in assignments.items() if a.node is not None}
    bindings = top_level_bindings(source, registry.__module__) if source is not None else {}
    entries = []
    refused: list[Problem] = []
    for name, value in discovery.registry_items(registry):
        if not name.isidentifier():
            refused.append(_refused_name(read, registry_path, registry, name, location))
            continue
        assignment = assignments.get(name)
        entries.append(
            RegistryEntryDoc(
                name=name,
                registry=registry_path,
                scenario=discovery.dotted_path(type(value)),
                description=attribute_description(assignment.docstring if assignment else None),
                inputs=assignment.keywords if assignment else (),
                location=SourceLocation(location.path, assignment.line)
                if assignment and location
                else None,
                python=construction(
                    source, assignment.node, registry.__module__, statements, bindings
                )
                if source is not None and assignment is not None and assignment.node is not None
                else "",
                description_location=described_at(
                    location.path, assignment.docstring_line, assignment.docstring
                )
                if assignment and location
                else None,
            )
        )
    return RegistryDoc(
        qualname=registry_path,
        title=doc.summary,
        description=doc.description,
        entries=tuple(entries),
        location=location,
        kind=discovery.registry_kind(registry),
        problems=tuple(refused),
    )


def _refused_name(
    read: Reader, registry_path: str, registry: Any, name: str, fallback: SourceLocation | None
) -> Problem:
    """The problem of an entry whose name is not a Python identifier: a name goes into
    anchors, links, the index and the exports, so such an entry is left out."""
    return Problem(
        WarningKind.REGISTRY,
        f"registry entry {name!r} is not named by a Python identifier; left out",
        _where_named(read, registry_path, registry, name, fallback),
        registry_path,
    )


def _where_named(
    read: Reader,
    registry_path: str,
    registry: Any,
    name: str,
    fallback: SourceLocation | None,
) -> SourceLocation | None:
    """The first line of the registry's module that writes ``name`` as a string (a dict
    key, a ``setattr``); else ``fallback``, else the module's first line."""
    module = registry if inspect.ismodule(registry) else None
    module_name = module.__name__ if module else registry_path.rpartition(".")[0]
    path = discovery.module_file(module_name)
    if path is None:
        return fallback
    try:
        source = read(path)
    except (OSError, SyntaxError, ValueError):
        return fallback
    lines = [
        node.lineno
        for node in ast.walk(source.tree)
        if isinstance(node, ast.Constant) and node.value == name
    ]
    if not lines and fallback is not None:
        return fallback
    return SourceLocation(source.path, min(lines, default=1))


def registry_files(read: Reader, registry_path: str) -> tuple[str, ...]:
    """Files an edit to which can change the registry's entries.

    The modules along the dotted path, the module that defines the registry and
    the project modules it imports. When the registry cannot be imported, the
    project files its traceback runs through, so that fixing any of them
    brings the pages back.
    """
    parts = registry_path.split(".")
    files = {discovery.module_file(".".join(parts[:i])) for i in range(1, len(parts))}
    registry, error = call_user_code(discovery.resolve, registry_path)
    if error is not None:
        frames = traceback.extract_tb(error.__traceback__)
        files |= {str(Path(f.filename).resolve()) for f in frames if Path(f.filename).is_file()}
        top = parts[0]
        return tuple(sorted(f for f in files if f and in_package(top, f)))
    defining = discovery.source_file(registry) if inspect.isclass(registry) else None
    files.add(defining)
    module = sys.modules.get(getattr(registry, "__module__", ""))
    # The modules defining the entries' classes are left out: each class page
    # depends on its own module, and an edit there must not re-read the others.
    try:
        scenario_modules = {
            type(value).__module__ for _, value in discovery.registry_items(registry)
        }
    except discovery.NotARegistry:  # reported when the registry was read
        scenario_modules = set()
    if defining and module is not None:
        source = read(defining)
        for name in imported_modules(source, module.__package__):
            if name not in scenario_modules:
                files.add(getattr(sys.modules.get(name), "__file__", None))
    top = parts[0]
    return tuple(sorted(discovery.resolved_path(f) for f in files if f and in_package(top, f)))

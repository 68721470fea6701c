"""Modules and helpers: the records of a category module and of a helper function."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import sys
from collections.abc import Callable, Iterable
from typing import Any

from refgen.analysis import discovery
from refgen.analysis.docstrings import parse_docstring
from refgen.analysis.equations import extract_steps
from refgen.analysis.guard import call_user_code
from refgen.analysis.model import HelperDoc, ModuleDoc, ScenarioDoc, SourceLocation
from refgen.analysis.see_also import resolve_see_also
from refgen.analysis.source import ModuleSource, docstring_node

Reader = Callable[[str], ModuleSource]


def object_source(read: Reader, obj: Any) -> ModuleSource:
    """The parsed source file that defines ``obj``."""
    path = discovery.source_file(obj)
    if path is None:
        raise ValueError(f"{discovery.dotted_path(obj)} has no source file")
    return read(path)


def analyse_module(read: Reader, module_name: str) -> ModuleDoc:
    """Title, description and members of a scenario or helper module."""
    module = sys.modules[module_name]
    source = object_source(read, module)
    node = docstring_node(source.tree.body)
    doc = parse_docstring(
        str(node.value) if node else None, source.path, node.lineno if node else 1
    )
    members = [cls.__name__ for cls in discovery.scenario_classes(module)]
    if not members:
        members = [func.__name__ for func in discovery.public_functions(module)]
    return ModuleDoc(
        name=module_name,
        title=doc.summary or module_name,
        description=doc.description,
        location=SourceLocation(source.path, 1),
        members=tuple(members),
    )


def retitled(doc: ModuleDoc, title: str) -> ModuleDoc:
    """``doc`` titled ``title``; the docstring's first line opens its description."""
    opening = doc.title if doc.title != doc.name else ""
    description = "\n\n".join(part for part in (opening, doc.description) if part)
    return dataclasses.replace(doc, title=title, description=description)


def _signature_as_written(node: Any) -> str:
    returns = f" -> {ast.unparse(node.returns)}" if node.returns else ""
    return f"({ast.unparse(node.args)}){returns}"


def analyse_helper(read: Reader, function: Any) -> HelperDoc:
    """The reference record of a helper function."""
    source = object_source(read, function)
    node = source.find_function(function.__name__)
    doc_node = docstring_node(node.body) if node else None
    qualname = discovery.dotted_path(function)
    line = node.lineno if node else 1
    docstring = parse_docstring(
        str(doc_node.value) if doc_node else None,
        source.path,
        doc_node.lineno if doc_node else line,
        qualname,
    )
    return HelperDoc(
        name=function.__name__,
        qualname=qualname,
        signature=_signature_as_written(node) if node else str(inspect.signature(function)),
        docstring=resolve_see_also(docstring, getattr(function, "__globals__", {})),
        location=SourceLocation(source.path, line),
        steps=extract_steps(source, node) if node else (),
    )


def helper_modules(scenarios: Iterable[ScenarioDoc]) -> list[str]:
    """Modules of every helper that a scenario references or calls, first seen first."""
    return modules_of(target for scenario in scenarios for target in helper_targets(scenario))


def helper_targets(scenario: ScenarioDoc) -> list[str]:
    """The dotted paths a scenario references (its References) or calls as helpers."""
    targets = [r.target for r in scenario.docstring.implementation_references if r.target]
    return targets + [h for d in scenario.derived for h in d.equation.helpers]


def modules_of(targets: Iterable[str]) -> list[str]:
    """The modules that define the functions ``targets`` name, first seen first."""
    found: dict[str, None] = {}
    seen: set[str] = set()  # classes share helpers: each name is resolved once
    for target in targets:
        if not target or target in seen:
            continue
        seen.add(target)
        module = _defining_module(target)
        if module:
            found.setdefault(module)
    return list(found)


def _defining_module(dotted: str) -> str | None:
    """The module that defines the function ``dotted`` names (not a class or method)."""
    target, error = call_user_code(discovery.resolve, dotted)
    if error is not None:
        return None
    if inspect.isfunction(target) and "." not in target.__qualname__:
        return str(target.__module__)
    return None

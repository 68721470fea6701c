"""Analysis: turn imported scenario classes, helpers and modules into the data model.

This stage reads source files (through :mod:`refgen.source`), parses
docstrings (:mod:`refgen.docstrings`) and extracts equations
(:mod:`refgen.equations`). It imports nothing from Sphinx and evaluates no
scenario attribute.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import sys
from collections.abc import Iterable
from typing import Any

from refgen import discovery
from refgen.docstrings import parse_docstring
from refgen.equations import extract_equation, extract_steps
from refgen.model import (
    DerivedDoc,
    Docstring,
    Equation,
    EquationStep,
    HelperDoc,
    InputDoc,
    ModuleDoc,
    Problem,
    Reference,
    RegistryDoc,
    RegistryEntryDoc,
    ScenarioDoc,
    SourceLocation,
)
from refgen.source import (
    AssignmentSource,
    ModuleSource,
    class_assignments,
    class_fields,
    class_properties,
    docstring_node,
    find_class,
    find_function,
    read_module_source,
)


def _summary(text: str | None) -> str:
    """The first paragraph of an attribute docstring, on one line."""
    if not text:
        return ""
    paragraph = inspect.cleandoc(text).split("\n\n")[0]
    return " ".join(paragraph.split())


def _module_source(obj: Any) -> ModuleSource:
    path = discovery.source_file(obj)
    if path is None:
        raise ValueError(f"{discovery.dotted_path(obj)} has no source file")
    return read_module_source(path)


def analyse_module(module_name: str) -> ModuleDoc:
    """Title, description and members of a scenario or helper module."""
    module = sys.modules[module_name]
    source = _module_source(module)
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


def _input_docs(cls: type, source: ModuleSource, classdef: Any) -> tuple[InputDoc, ...]:
    declared = {f.name: f for f in class_fields(source, classdef)}
    if dataclasses.is_dataclass(cls):
        names = [f.name for f in dataclasses.fields(cls) if f.init]
    else:
        names = list(declared)
    inputs = []
    for name in names:
        field = declared.get(name)
        if field is None:
            continue
        inputs.append(
            InputDoc(
                name=name,
                annotation=field.annotation,
                default=field.default,
                description=_summary(field.docstring),
                location=SourceLocation(source.path, field.line),
            )
        )
    return tuple(inputs)


def _helper_paths(function: Any, calls: Iterable[str]) -> tuple[str, ...]:
    """Dotted paths of the called names that resolve to Python functions."""
    namespace = getattr(function, "__globals__", {})
    paths = []
    for call in calls:
        target = discovery.resolve_in_globals(namespace, call)
        if inspect.isfunction(target):
            paths.append(discovery.dotted_path(target))
    return tuple(paths)


def _property_function(cls: type, name: str) -> Any:
    attribute = inspect.getattr_static(cls, name, None)
    return getattr(attribute, "fget", None) or getattr(attribute, "func", None)


def _derived_docs(
    cls: type, source: ModuleSource, classdef: Any, problems: list[Problem]
) -> tuple[DerivedDoc, ...]:
    qualname = discovery.dotted_path(cls)
    derived = []
    for prop in class_properties(classdef):
        extracted = extract_equation(source, prop.node)
        function = _property_function(cls, prop.name)
        equation = Equation(
            extracted.expression,
            _helper_paths(function, extracted.calls),
            extracted.reason,
        )
        location = SourceLocation(source.path, prop.line)
        if not prop.docstring:
            problems.append(
                Problem(
                    "docstring",
                    f"derived attribute {prop.name!r} has no docstring",
                    location,
                    f"{qualname}.{prop.name}",
                )
            )
        derived.append(
            DerivedDoc(
                name=prop.name,
                qualname=f"{qualname}.{prop.name}",
                description=_summary(prop.docstring),
                equation=equation,
                location=location,
                return_annotation=source.segment(prop.node.returns) if prop.node.returns else "",
                reads=extracted.reads,
            )
        )
    return tuple(derived)


def _with_data_flow(
    inputs: tuple[InputDoc, ...], derived: tuple[DerivedDoc, ...]
) -> tuple[tuple[InputDoc, ...], tuple[DerivedDoc, ...]]:
    """Keep only reads of the class's own attributes and fill in who feeds whom."""
    known = {item.name for item in (*inputs, *derived)}
    derived = tuple(
        dataclasses.replace(d, reads=tuple(r for r in d.reads if r in known and r != d.name))
        for d in derived
    )

    def feeds(name: str) -> tuple[str, ...]:
        return tuple(d.name for d in derived if name in d.reads)

    return (
        tuple(dataclasses.replace(i, feeds=feeds(i.name)) for i in inputs),
        tuple(dataclasses.replace(d, feeds=feeds(d.name)) for d in derived),
    )


def analyse_registry(registry_path: str) -> RegistryDoc:
    """The registry named by ``registry_path`` and every entry in it."""
    registry = discovery.resolve(registry_path)
    assignments: dict[str, AssignmentSource] = {}
    doc = Docstring()
    location = None
    if inspect.isclass(registry):
        source = _module_source(registry)
        classdef = find_class(source.tree, registry.__qualname__)
        if classdef is not None:
            assignments = class_assignments(source, classdef)
            location = SourceLocation(source.path, classdef.lineno)
            node = docstring_node(classdef.body)
            doc = parse_docstring(str(node.value) if node else None, source.path, classdef.lineno)
    entries = []
    for name, value in discovery.registry_items(registry):
        assignment = assignments.get(name)
        entries.append(
            RegistryEntryDoc(
                name=name,
                registry=registry_path,
                scenario=discovery.dotted_path(type(value)),
                description=_summary(assignment.docstring if assignment else None),
                inputs=assignment.keywords if assignment else (),
                location=SourceLocation(location.path, assignment.line)
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
    )


def _canonical_references(
    docstring: Docstring, location: SourceLocation, subject: str, problems: list[Problem]
) -> Docstring:
    """Point implementation references at the helper's defining module.

    ``pkg.physics.helper`` may be a re-export of ``pkg.physics.memory.helper``;
    the helper is documented (and cross-referenced) under the defining path.
    """
    references = []
    for reference in docstring.references:
        if reference.target is None:
            references.append(reference)
            continue
        try:
            target = discovery.resolve(reference.target)
        except (ImportError, AttributeError):
            problems.append(
                Problem(
                    "reference",
                    f"implementation reference {reference.target!r} cannot be imported",
                    location,
                    subject,
                )
            )
            references.append(Reference(reference.text, None))
            continue
        canonical = discovery.dotted_path(target) if callable(target) else reference.target
        references.append(Reference(reference.text, canonical))
    return dataclasses.replace(docstring, references=tuple(references))


def analyse_scenario(cls: type, registry: RegistryDoc | None = None) -> ScenarioDoc:
    """The full reference record of one scenario class."""
    qualname = discovery.dotted_path(cls)
    source = _module_source(cls)
    classdef = find_class(source.tree, cls.__qualname__)
    if classdef is None:
        raise ValueError(f"cannot find the definition of {qualname} in {source.path}")
    doc_node = docstring_node(classdef.body)
    docstring = parse_docstring(
        str(doc_node.value) if doc_node else None,
        source.path,
        doc_node.lineno if doc_node else classdef.lineno,
        qualname,
    )
    problems = list(docstring.problems)
    docstring = _canonical_references(
        docstring, SourceLocation(source.path, classdef.lineno), qualname, problems
    )
    category = analyse_module(cls.__module__).title
    inputs, derived = _with_data_flow(
        _input_docs(cls, source, classdef), _derived_docs(cls, source, classdef, problems)
    )
    return ScenarioDoc(
        name=cls.__name__,
        module=cls.__module__,
        qualname=qualname,
        category=category,
        source_path=discovery.display_path(cls.__module__),
        location=SourceLocation(source.path, classdef.lineno),
        docstring=docstring,
        inputs=inputs,
        derived=derived,
        registry_entries=tuple(
            e for e in (registry.entries if registry else ()) if e.scenario == qualname
        ),
        problems=tuple(problems),
    )


def _signature_as_written(node: Any) -> str:
    returns = f" -> {ast.unparse(node.returns)}" if node.returns else ""
    return f"({ast.unparse(node.args)}){returns}"


def analyse_helper(function: Any) -> HelperDoc:
    """The reference record of a helper function."""
    source = _module_source(function)
    node = find_function(source.tree, function.__name__)
    doc_node = docstring_node(node.body) if node else None
    qualname = discovery.dotted_path(function)
    line = node.lineno if node else 1
    return HelperDoc(
        name=function.__name__,
        qualname=qualname,
        signature=_signature_as_written(node) if node else str(inspect.signature(function)),
        docstring=parse_docstring(
            str(doc_node.value) if doc_node else None,
            source.path,
            doc_node.lineno if doc_node else line,
            qualname,
        ),
        location=SourceLocation(source.path, line),
        steps=tuple(EquationStep(s.target, s.expression) for s in extract_steps(source, node))
        if node
        else (),
    )


def helper_modules(scenarios: Iterable[ScenarioDoc]) -> list[str]:
    """Modules of every helper that a scenario references or calls, first seen first."""
    modules: dict[str, None] = {}
    for scenario in scenarios:
        targets = [r.target for r in scenario.docstring.implementation_references]
        targets += [h for d in scenario.derived for h in d.equation.helpers]
        for target in targets:
            if target:
                modules.setdefault(target.rpartition(".")[0])
    return list(modules)

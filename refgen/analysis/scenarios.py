"""Analysis: turn imported scenario classes, helpers and modules into the data model.

This stage reads source files (through :mod:`refgen.source`), parses
docstrings (:mod:`refgen.docstrings`) and extracts equations
(:mod:`refgen.equations`). It imports nothing from Sphinx and evaluates no
scenario attribute.
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import functools
import inspect
import re
import sys
import traceback
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from refgen.analysis import discovery
from refgen.analysis.docstrings import parse_docstring
from refgen.analysis.equations import extract_equation, extract_steps
from refgen.analysis.members import (
    ClassSource,
    DeclaredProperty,
    class_sources,
    clear_member_caches,
    declared_inputs,
    declared_properties,
)
from refgen.analysis.model import (
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
from refgen.analysis.source import (
    AssignmentSource,
    ModuleSource,
    class_assignments,
    clear_source_caches,
    docstring_node,
    find_class,
    find_function,
    imported_modules,
    read_module_source,
)


def _summary(text: str | None) -> str:
    """The first paragraph of an attribute docstring, on one line."""
    return parse_docstring(text, "", 1).summary if text else ""


def _module_source(obj: Any) -> ModuleSource:
    path = discovery.source_file(obj)
    if path is None:
        raise ValueError(f"{discovery.dotted_path(obj)} has no source file")
    return read_module_source(path)


@functools.lru_cache(maxsize=1024)
def analyse_module(module_name: str) -> ModuleDoc:
    """Title, description and members of a scenario or helper module (once per build)."""
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


def _inherited(owner: ClassSource, cls: type) -> str | None:
    return None if owner.cls is cls else owner.qualname


def _input_docs(cls: type) -> tuple[InputDoc, ...]:
    return tuple(
        InputDoc(
            name=item.name,
            annotation=item.annotation,
            default=item.default,
            description=_summary(item.description),
            location=item.owner.location(item.line),
            inherited_from=_inherited(item.owner, cls),
        )
        for item in declared_inputs(cls)
    )


def _helper_paths(function: Any, calls: Iterable[str]) -> tuple[str, ...]:
    """Dotted paths of the called names that are module-level functions of the project.

    Calls into the standard library or other packages (``statistics.fmean``)
    and methods are not helpers: they get no page of their own.
    """
    namespace = getattr(function, "__globals__", {})
    project = str(namespace.get("__name__", "")).partition(".")[0]
    paths = []
    for call in calls:
        target = discovery.resolve_in_globals(namespace, call)
        if (
            inspect.isfunction(target)
            and "." not in target.__qualname__
            and target.__module__.partition(".")[0] == project
        ):
            paths.append(discovery.dotted_path(target))
    return tuple(paths)


NO_SOURCE = "no source code to read: the class was made at run time or its file is missing"


def _derived_doc(cls: type, prop: DeclaredProperty, problems: list[Problem]) -> DerivedDoc:
    qualname = f"{discovery.dotted_path(cls)}.{prop.name}"
    owner = prop.owner
    if prop.source is not None and owner.module is not None:
        extracted = extract_equation(owner.module, prop.source.node)
        equation = Equation(
            extracted.expression, _helper_paths(prop.function, extracted.calls), extracted.reason
        )
        reads = extracted.reads
        docstring = prop.source.docstring
        location = owner.location(prop.source.line)
        returns = prop.source.node.returns
        annotation = owner.module.segment(returns) if returns is not None else ""
    else:
        equation = Equation(None, (), NO_SOURCE)
        reads, docstring, location = (), prop.doc, owner.location()
        annotation = ""
    if not docstring and owner.cls is cls:
        problems.append(
            Problem(
                "docstring", f"derived attribute {prop.name!r} has no docstring", location, qualname
            )
        )
    return DerivedDoc(
        name=prop.name,
        qualname=qualname,
        description=_summary(docstring),
        equation=equation,
        location=location,
        return_annotation=annotation,
        reads=reads,
        inherited_from=_inherited(owner, cls),
    )


def _derived_docs(cls: type, problems: list[Problem]) -> tuple[DerivedDoc, ...]:
    return tuple(_derived_doc(cls, prop, problems) for prop in declared_properties(cls))


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


def clear_caches() -> None:
    """Forget every analysed class, parsed file and registry.

    Called at the start of each build, so a long-running process that re-imports
    edited modules never mixes an old analysis with new source.
    """
    _analyse_class.cache_clear()
    analyse_module.cache_clear()
    discovery.resolved_path.cache_clear()
    _REGISTRIES.clear()
    release_syntax_trees()


def release_syntax_trees() -> None:
    """Drop the parsed source files; the analysed records stay cached.

    A build analyses every class while planning; keeping hundreds of modules'
    syntax trees alive afterwards only gives the garbage collector more to walk
    on each full pass. Anything analysed later parses its file again.
    """
    clear_member_caches()
    clear_source_caches()


def registry_files(registry_path: str) -> tuple[str, ...]:
    """Files an edit to which can change the registry's entries.

    The modules along the dotted path, the module that defines the registry and
    the project modules it imports. When the registry cannot be imported, the
    project files its traceback runs through, so that fixing any of them
    brings the pages back.
    """
    parts = registry_path.split(".")
    files = {discovery.module_file(".".join(parts[:i])) for i in range(1, len(parts))}
    try:
        registry = discovery.resolve(registry_path)
    except Exception as error:
        frames = traceback.extract_tb(error.__traceback__)
        files |= {str(Path(f.filename).resolve()) for f in frames if Path(f.filename).is_file()}
        top = parts[0]
        return tuple(sorted(f for f in files if f and _in_package(top, f)))
    defining = discovery.source_file(registry) if inspect.isclass(registry) else None
    files.add(defining)
    module = sys.modules.get(getattr(registry, "__module__", ""))
    # The modules defining the entries' classes are left out: each class page
    # depends on its own module, and an edit there must not re-read the others.
    scenario_modules = {type(value).__module__ for _, value in discovery.registry_items(registry)}
    if defining and module is not None:
        source = read_module_source(defining)
        for name in imported_modules(source, module.__package__):
            if name not in scenario_modules:
                files.add(getattr(sys.modules.get(name), "__file__", None))
    top = parts[0]
    return tuple(sorted(discovery.resolved_path(f) for f in files if f and _in_package(top, f)))


def _in_package(top: str, path: str) -> bool:
    """Whether ``path`` lies in the top-level package ``top`` (or is that module)."""
    root_file = discovery.module_file(top)
    if root_file is None:
        return False
    root = discovery.package_root(root_file)
    return Path(path) == root or root in Path(discovery.resolved_path(path)).parents


def analyse_registry(registry_path: str) -> RegistryDoc:
    """The registry named by ``registry_path`` and every entry in it.

    Every class page asks for it, so it is computed once per registry object
    (a new import after an edit is a new object).
    """
    registry = discovery.resolve(registry_path)
    cached = _REGISTRIES.get(registry_path)
    if cached is not None and cached[0] is registry:
        return cached[1]
    doc = _read_registry(registry_path, registry)
    _REGISTRIES[registry_path] = (registry, doc)
    return doc


_REGISTRIES: dict[str, tuple[Any, RegistryDoc]] = {}


def _read_registry(registry_path: str, registry: Any) -> RegistryDoc:
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


def _source_files(cls: type, derived: Iterable[DerivedDoc]) -> tuple[str, ...]:
    """Files an edit to which can change what the page of ``cls`` shows."""
    files = {klass.module.path for klass in class_sources(cls) if klass.module}
    for helper in {h for d in derived for h in d.equation.helpers}:
        with contextlib.suppress(Exception):
            files.add(discovery.source_file(discovery.resolve(helper)) or "")
    module = sys.modules.get(cls.__module__)
    own = class_sources(cls)[0].module if class_sources(cls) else None
    if module is not None and own is not None:
        package = module.__package__
        for name in imported_modules(own, package):
            imported = sys.modules.get(name)
            path = getattr(imported, "__file__", None)
            if path:
                files.add(discovery.resolved_path(path))
    return tuple(sorted(f for f in files if f and _in_project(cls, f)))


def _in_project(cls: type, path: str) -> bool:
    """Whether ``path`` belongs to the package that defines ``cls`` (or to its bases)."""
    top = sys.modules.get(cls.__module__.partition(".")[0])
    top_file = getattr(top, "__file__", None)
    if not top_file:
        return True
    root = discovery.package_root(discovery.resolved_path(top_file))
    return (
        Path(path) == root
        or root in Path(path).parents
        or any(
            klass.module is not None and klass.module.path == path for klass in class_sources(cls)
        )
    )


def _headline(docstring: Docstring, derived: Iterable[DerivedDoc]) -> str | None:
    """The derived attribute that the example's first figure shows."""
    if docstring.examples is None:
        return None
    names = {d.name for d in derived}
    statements = [
        line[4:] for line in docstring.examples.text.splitlines() if line.startswith(">>> ")
    ]
    for statement in statements:
        mentioned = [n for n in re.findall(r"\.(\w+)", statement) if n in names]
        if mentioned:
            return mentioned[-1]
    return None


def analyse_scenario(cls: type, registry: RegistryDoc | None = None) -> ScenarioDoc:
    """The full reference record of one scenario class.

    The class itself is analysed once per process (page planning, the page and
    every quote of its values ask for it); a re-imported class is a new object
    and is analysed afresh.
    """
    doc = _analyse_class(cls)
    if registry is None:
        return doc
    return dataclasses.replace(doc, registry_entries=registry.entries_of(doc.qualname))


@functools.lru_cache(maxsize=4096)
def _analyse_class(cls: type) -> ScenarioDoc:
    qualname = discovery.dotted_path(cls)
    own = class_sources(cls)[0] if class_sources(cls) else None
    location = own.location() if own else SourceLocation(f"<{cls.__module__}>", 0)
    doc_node = docstring_node(own.node.body) if own and own.node else None
    if doc_node is not None:
        docstring = parse_docstring(str(doc_node.value), location.path, doc_node.lineno, qualname)
    else:
        docstring = parse_docstring(inspect.getdoc(cls), location.path, location.line, qualname)
    problems = list(docstring.problems)
    docstring = _canonical_references(docstring, location, qualname, problems)
    inputs, derived = _with_data_flow(_input_docs(cls), _derived_docs(cls, problems))
    return ScenarioDoc(
        name=cls.__name__,
        module=cls.__module__,
        qualname=qualname,
        category=analyse_module(cls.__module__).title,
        source_path=discovery.display_path(cls.__module__),
        location=location,
        docstring=docstring,
        inputs=inputs,
        derived=derived,
        problems=tuple(problems),
        headline=_headline(docstring, derived),
        source_files=_source_files(cls, derived),
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
            module = _defining_module(target) if target else None
            if module:
                modules.setdefault(module)
    return list(modules)


def _defining_module(dotted: str) -> str | None:
    """The module that defines the function ``dotted`` names (not a class or method)."""
    try:
        target = discovery.resolve(dotted)
    except Exception:
        return None
    if inspect.isfunction(target) and "." not in target.__qualname__:
        return str(target.__module__)
    return None

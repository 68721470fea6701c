"""Scenario classes: inputs, derived attributes, equations and data flow of one class."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import re
import sys
from collections.abc import Iterable
from typing import Any

from refgen.analysis import discovery
from refgen.analysis.docstrings import attribute_description, described_at, parse_docstring
from refgen.analysis.equations import extract_equation
from refgen.analysis.failures import describe_error
from refgen.analysis.guard import call_user_code
from refgen.analysis.members import (
    ClassSource,
    DeclaredProperty,
    SourceReader,
    class_sources,
    declared_inputs,
    declared_properties,
    misnamed_properties,
    module_location,
)
from refgen.analysis.model import (
    DerivedDoc,
    Docstring,
    Equation,
    InputDoc,
    Problem,
    ScenarioDoc,
    SourceLocation,
    WarningKind,
)
from refgen.analysis.reach_names import local_imports
from refgen.analysis.see_also import resolve_see_also
from refgen.analysis.source import ModuleSource, docstring_node


def _inherited(owner: ClassSource, cls: type) -> str | None:
    return None if owner.cls is cls else owner.qualname


def _input_docs(reader: SourceReader, cls: type) -> tuple[InputDoc, ...]:
    found = []
    for item in declared_inputs(reader, cls):
        location = item.owner.location(item.line)
        found.append(
            InputDoc(
                name=item.name,
                annotation=item.annotation,
                default=item.default,
                description=attribute_description(item.description),
                location=location,
                inherited_from=_inherited(item.owner, cls),
                description_location=described_at(
                    location.path, item.description_line, item.description
                ),
            )
        )
    return tuple(found)


def _helper_paths(
    function: Any, calls: Iterable[str], node: ast.AST | None = None
) -> tuple[str, ...]:
    """Dotted paths of the called names that are module-level functions of the project.

    Names are looked up as the function sees them: its module's globals, and the
    imports inside its body (``node``). Calls into the standard library or other
    packages (``statistics.fmean``) and methods are not helpers: they get no
    page of their own.
    """
    namespace = dict(getattr(function, "__globals__", {}))
    if node is not None:
        namespace.update(local_imports(node, str(namespace.get("__name__", ""))))
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


NO_DOCSTRING = "has no docstring"
"""How the problem of a derived attribute without a docstring ends."""
NONE_HAVE_DOCSTRINGS = "derived attributes have no docstring: "
"""What the problem that names a class's several such attributes says after their number."""


def is_missing_docstring(problem: Problem) -> bool:
    """Whether ``problem`` is a derived attribute without a docstring, or a class's several
    (:func:`without_docstrings_in_one`)."""
    return problem.kind == WarningKind.DOCSTRING and (
        problem.message.endswith(NO_DOCSTRING) or NONE_HAVE_DOCSTRINGS in problem.message
    )


def without_docstrings_in_one(scenario: ScenarioDoc) -> tuple[Problem, ...]:
    """The class's problems, with two or more derived attributes without a docstring
    reported as one problem at the class that names them all."""
    missing = [
        p
        for p in scenario.problems
        if p.kind is WarningKind.DOCSTRING and p.message.endswith(NO_DOCSTRING)
    ]
    if len(missing) < 2:
        return scenario.problems
    names = ", ".join(p.subject.rpartition(".")[2] for p in missing)
    summary = Problem(
        WarningKind.DOCSTRING,
        f"{len(missing)} {NONE_HAVE_DOCSTRINGS}{names}",
        scenario.location,
        scenario.qualname,
    )
    return (*(p for p in scenario.problems if p not in missing), summary)


NO_SOURCE = "no source code to read: the class was made at run time or its file is missing"


def _derived_doc(cls: type, prop: DeclaredProperty, problems: list[Problem]) -> DerivedDoc:
    qualname = f"{discovery.dotted_path(cls)}.{prop.name}"
    owner = prop.owner
    if prop.source is not None and owner.module is not None:
        extracted = extract_equation(owner.module, prop.source.node)
        equation = Equation(
            extracted.expression,
            _helper_paths(prop.function, extracted.calls, prop.source.node),
            extracted.reason,
        )
        reads = extracted.reads
        docstring = prop.source.docstring
        location = owner.location(prop.source.line)
        described = described_at(location.path, prop.source.docstring_line, docstring)
        returns = prop.source.node.returns
        annotation = owner.module.segment(returns) if returns is not None else ""
    else:
        equation = Equation(None, (), NO_SOURCE)
        reads, docstring, location = (), prop.doc, owner.location()
        annotation, described = "", None
    if not docstring and owner.cls is cls:
        problems.append(
            Problem(
                WarningKind.DOCSTRING,
                f"derived attribute {prop.name!r} {NO_DOCSTRING}",
                location,
                qualname,
            )
        )
    return DerivedDoc(
        name=prop.name,
        qualname=qualname,
        description=attribute_description(docstring),
        equation=equation,
        location=location,
        return_annotation=annotation,
        reads=reads,
        inherited_from=_inherited(owner, cls),
        description_location=described,
    )


def _derived_docs(
    reader: SourceReader, cls: type, problems: list[Problem], location: SourceLocation
) -> tuple[DerivedDoc, ...]:
    for name in misnamed_properties(cls):
        problems.append(
            Problem(
                WarningKind.ANALYSIS,
                f"property {name!r} is not named by a Python identifier; left out",
                location,
                discovery.dotted_path(cls),
            )
        )
    return tuple(_derived_doc(cls, prop, problems) for prop in declared_properties(reader, cls))


def _with_data_flow(
    inputs: tuple[InputDoc, ...], derived: tuple[DerivedDoc, ...]
) -> tuple[tuple[InputDoc, ...], tuple[DerivedDoc, ...]]:
    """Keep only reads of the class's own attributes and fill in who feeds whom."""
    known = {item.name for item in inputs} | {item.name for item in derived}
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
        target, error = call_user_code(discovery.resolve, reference.target)
        if error is not None:
            problems.append(
                Problem(
                    WarningKind.REFERENCE,
                    f"implementation reference {reference.target!r} cannot be imported: "
                    f"{describe_error(error)}",
                    reference.location or location,
                    subject,
                )
            )
            references.append(dataclasses.replace(reference, target=None))
            continue
        canonical = discovery.dotted_path(target) if callable(target) else reference.target
        references.append(dataclasses.replace(reference, target=canonical))
    return dataclasses.replace(docstring, references=tuple(references))


def _headline(docstring: Docstring, derived: Iterable[DerivedDoc]) -> str | None:
    """The derived attribute that the example's first figure shows."""
    if docstring.examples is None:
        return None
    names = {d.name for d in derived}
    statements = [
        line[4:] for line in docstring.examples.text.splitlines() if line.startswith(">>> ")
    ]
    for statement in statements:
        mentioned: list[str] = [n for n in re.findall(r"\.(\w+)", statement) if n in names]
        if mentioned:
            return mentioned[-1]
    return None


def _module_namespace(cls: type) -> dict[str, Any]:
    module = sys.modules.get(cls.__module__)
    return dict(vars(module)) if module is not None else {}


def _member_names(cls: type, inputs: Iterable[InputDoc], derived: Iterable[DerivedDoc]) -> set[str]:
    """What a name in the class's docstring may be relative to the class: its inputs,
    derived attributes and the public names its classes define."""
    names = {item.name for item in inputs} | {item.name for item in derived}
    for klass in cls.__mro__[:-1]:
        names.update(name for name in vars(klass) if not name.startswith("_"))
    return names


def written_docstring(cls: type) -> str | None:
    """The class's docstring as its author wrote it (or inherited it), cleaned.

    None for the text ``dataclasses`` makes up when there is none, the class's
    signature (``GPUConfig(name: str, ...)``): it is no description.
    """
    doc = inspect.getdoc(cls)
    if doc is None or not dataclasses.is_dataclass(cls):
        return doc
    try:
        made_up = cls.__name__ + str(inspect.signature(cls)).replace(" -> None", "")
    except Exception:  # a signature the class's own code refuses: keep what it says
        return doc
    return None if doc == made_up else doc


def _assigned_docstring(module: ModuleSource, doc: object) -> ast.Constant | None:
    """The string literal of the module that a docstring assigned to ``__doc__`` (in the
    class body or after it) was written as, so that its lines are the file's."""
    if not isinstance(doc, str) or not doc:
        return None
    found = [
        node
        for node in ast.walk(module.tree)
        if isinstance(node, ast.Constant) and node.value == doc
    ]
    return min(found, key=lambda node: node.lineno, default=None)


def analyse_class(reader: SourceReader, module_title: str, cls: type) -> ScenarioDoc:
    """The reference record of one scenario class (without its registry entries)."""
    qualname = discovery.dotted_path(cls)
    own = class_sources(reader, cls)[0] if class_sources(reader, cls) else None
    location = own.location() if own else module_location(cls.__module__)
    doc_node = docstring_node(own.node.body) if own and own.node else None
    if doc_node is None and own is not None and own.module is not None:
        doc_node = _assigned_docstring(own.module, cls.__doc__)
    if doc_node is not None:
        docstring = parse_docstring(str(doc_node.value), location.path, doc_node.lineno, qualname)
    else:
        docstring = parse_docstring(written_docstring(cls), location.path, location.line, qualname)
    problems = list(docstring.problems)
    docstring = _canonical_references(docstring, location, qualname, problems)
    inputs, derived = _with_data_flow(
        _input_docs(reader, cls), _derived_docs(reader, cls, problems, location)
    )
    docstring = resolve_see_also(
        docstring, _module_namespace(cls), qualname, _member_names(cls, inputs, derived)
    )
    return ScenarioDoc(
        name=cls.__name__,
        module=cls.__module__,
        qualname=qualname,
        category=module_title,
        source_path=discovery.display_path(cls.__module__),
        location=location,
        docstring=docstring,
        inputs=inputs,
        derived=derived,
        problems=tuple(problems),
        headline=_headline(docstring, derived),
    )

"""Members: the inputs and derived attributes of a class, whatever declares them.

Inputs come from dataclasses, pydantic v2 models, attrs classes or plain
annotations, and may be inherited; derived attributes are properties (or
cached properties), own or inherited. Both are read from the source of each
class in the method resolution order, with a fallback to the live objects for
classes that have no source. No third-party library is imported: pydantic and
attrs classes are recognised by the attributes they carry.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import inspect
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from refgen.analysis import discovery
from refgen.analysis.model import SourceLocation
from refgen.analysis.source import (
    FieldSource,
    ModuleSource,
    PropertySource,
    class_fields,
    class_properties,
    is_class_variable,
    last_name,
)

FRAMEWORK_MODULES = ("builtins", "typing", "pydantic", "attr", "abc", "dataclasses")
FIELD_CALLS = frozenset({"field", "Field", "ib", "attrib"})


@dataclass(frozen=True)
class ClassSource:
    """One class of an MRO with its source, when it has one."""

    cls: type
    module: ModuleSource | None
    node: ast.ClassDef | None

    @property
    def qualname(self) -> str:
        return discovery.dotted_path(self.cls)

    def location(self, line: int | None = None) -> SourceLocation:
        if self.module is None:
            # No source of its own (made at run time): its module's file, when there is one.
            return module_location(self.cls.__module__)
        return SourceLocation(self.module.path, line or (self.node.lineno if self.node else 1))


@dataclass(frozen=True)
class DeclaredInput:
    name: str
    annotation: str
    default: str | None
    description: str
    owner: ClassSource
    line: int | None
    description_line: int | None = None
    """Where the string literal of ``description`` begins (its docstring, ``description=``)."""


@dataclass(frozen=True)
class DeclaredProperty:
    name: str
    owner: ClassSource
    source: PropertySource | None
    function: Any
    """The getter (``fget`` or the cached property's ``func``)."""
    doc: str | None = None
    """The property's own docstring, for classes without source."""


def module_location(module_name: str) -> SourceLocation:
    """The first line of a module's file, or ``<module>`` when it has no file."""
    path = discovery.module_file(module_name)
    return SourceLocation(path, 1) if path else SourceLocation(f"<{module_name}>", 0)


def _is_framework(cls: type) -> bool:
    return cls.__module__.partition(".")[0] in FRAMEWORK_MODULES


class SourceReader(Protocol):
    """Where members read class sources from: the Project's analysis cache."""

    def class_source(self, cls: type) -> ClassSource: ...


def read_class_source(cls: type, module_source: Callable[[str], ModuleSource]) -> ClassSource:
    """``cls`` with its module's source and class definition, when they can be read."""
    try:
        path = discovery.source_file(cls)
        module = module_source(path) if path else None
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
        module = None
    node = module.find_class(cls.__qualname__) if module else None
    return ClassSource(cls, module if node else None, node)


def class_sources(reader: SourceReader, cls: type) -> list[ClassSource]:
    """The user-defined classes of ``cls.__mro__``, most derived first."""
    return [reader.class_source(klass) for klass in cls.__mro__ if not _is_framework(klass)]


def _input_names(reader: SourceReader, cls: type) -> list[str]:
    if dataclasses.is_dataclass(cls):
        return [f.name for f in dataclasses.fields(cls) if f.init]
    pydantic_fields = getattr(cls, "__pydantic_fields__", None)
    if isinstance(pydantic_fields, dict):
        return list(pydantic_fields)
    attrs_fields = getattr(cls, "__attrs_attrs__", None)
    if attrs_fields is not None:
        return [a.name for a in attrs_fields if getattr(a, "init", True)]
    names: dict[str, None] = {}
    for klass in reversed(class_sources(reader, cls)):
        for name, annotation in inspect.get_annotations(klass.cls).items():
            if not name.startswith("_") and not is_class_variable(annotation):
                names.setdefault(name)
    return list(names)


def _call_name(node: ast.expr) -> str:
    """The called function's last name (``field``, ``Field``, ``attr.ib``'s ``ib``)."""
    return last_name(node.func) if isinstance(node, ast.Call) else ""


def _factory_text(module: ModuleSource, node: ast.expr) -> str:
    """What a factory produces, as declared: a lambda's body or ``name()``."""
    if isinstance(node, ast.Lambda):
        return f"{module.segment(node.body)} (from a factory)"
    return f"{module.segment(node)}() (from a factory)"


def interpret_default(module: ModuleSource, node: ast.expr | None) -> tuple[str | None, str]:
    """The declared default of a field, and a description given beside it.

    Understands ``dataclasses.field``, pydantic's ``Field`` and attrs'
    ``attr.ib``/``attrs.field``/``Factory``; anything else is shown as written.
    Returns ``(None, ...)`` for a required input.
    """
    if node is None:
        return None, ""
    name = _call_name(node)
    if name == "Factory" and isinstance(node, ast.Call) and node.args:
        return _factory_text(module, node.args[0]), ""
    if name not in FIELD_CALLS or not isinstance(node, ast.Call):
        return module.segment(node), ""
    keywords = {k.arg: k.value for k in node.keywords if k.arg}
    described = field_description(node)
    text = str(described.value) if described is not None else ""
    if "default" in keywords:
        return module.segment(keywords["default"]), text
    for factory in ("default_factory", "factory"):
        if factory in keywords:
            return _factory_text(module, keywords[factory]), text
    if name == "Field" and node.args:
        first = node.args[0]
        required = isinstance(first, ast.Constant) and first.value is Ellipsis
        return (None if required else module.segment(first)), text
    return None, text


def field_description(node: ast.expr | None) -> ast.Constant | None:
    """The string literal of a field call's ``description=`` (pydantic's ``Field``)."""
    if not isinstance(node, ast.Call) or _call_name(node) not in FIELD_CALLS:
        return None
    written = [k.value for k in node.keywords if k.arg == "description"]
    if written and isinstance(written[0], ast.Constant) and isinstance(written[0].value, str):
        return written[0]
    return None


def _runtime_default(cls: type, name: str) -> str | None:
    if dataclasses.is_dataclass(cls):
        for field in dataclasses.fields(cls):
            if field.name == name:
                if field.default is not dataclasses.MISSING:
                    return repr(field.default)
                if field.default_factory is not dataclasses.MISSING:
                    factory = field.default_factory
                    return f"{getattr(factory, '__name__', 'factory')}() (from a factory)"
                return None
    value = inspect.getattr_static(cls, name, dataclasses.MISSING)
    return None if value is dataclasses.MISSING else repr(value)


def _annotation_text(cls: type, name: str) -> str:
    for klass in cls.__mro__:
        annotations = inspect.get_annotations(klass)
        if name in annotations:
            annotation = annotations[name]
            return (
                annotation if isinstance(annotation, str) else inspect.formatannotation(annotation)
            )
    return ""


def _declared_fields(reader: SourceReader, cls: type) -> dict[str, tuple[ClassSource, FieldSource]]:
    """Field declarations by name, the most derived class's winning."""
    declared: dict[str, tuple[ClassSource, FieldSource]] = {}
    for klass in class_sources(reader, cls):
        if klass.node is not None and klass.module is not None:
            for field in class_fields(klass.module, klass.node):
                declared.setdefault(field.name, (klass, field))
    return declared


def declared_inputs(reader: SourceReader, cls: type) -> Iterator[DeclaredInput]:
    """Every constructor input of ``cls``, in the order the constructor takes them."""
    declared = _declared_fields(reader, cls)
    for name in _input_names(reader, cls):
        found = declared.get(name)
        if found is None:
            yield DeclaredInput(
                name,
                _annotation_text(cls, name),
                _runtime_default(cls, name),
                "",
                reader.class_source(cls),
                None,
            )
            continue
        owner, field = found
        assert owner.module is not None
        default, described = interpret_default(owner.module, field.default_node)
        beside = field_description(field.default_node)
        yield DeclaredInput(
            name,
            field.annotation,
            default,
            field.docstring or described,
            owner,
            field.line,
            field.docstring_line if field.docstring else (beside.lineno if beside else None),
        )


def _getter(attribute: Any) -> Any:
    return getattr(attribute, "fget", None) or getattr(attribute, "func", None)


def _is_property(attribute: Any) -> bool:
    return isinstance(attribute, property | functools.cached_property)


def misnamed_properties(cls: type) -> list[str]:
    """Properties of ``cls`` whose names are not Python identifiers (set with ``setattr``):
    a name goes into anchors and links, so such a property is not documented."""
    return [
        name
        for klass in cls.__mro__[:-1]
        for name, attribute in vars(klass).items()
        if not name.isidentifier() and _is_property(attribute)
    ]


def declared_properties(reader: SourceReader, cls: type) -> list[DeclaredProperty]:
    """Public properties of ``cls`` and its bases; a base's come first."""
    found: dict[str, DeclaredProperty] = {}
    for klass in reversed(class_sources(reader, cls)):
        parsed = {p.name: p for p in class_properties(klass.node)} if klass.node is not None else {}
        for name, attribute in vars(klass.cls).items():
            if name.startswith("_") or not name.isidentifier() or not _is_property(attribute):
                continue
            found[name] = DeclaredProperty(
                name, klass, parsed.get(name), _getter(attribute), attribute.__doc__
            )
    ordered = sorted(
        found.values(),
        key=lambda p: (
            class_sources(reader, cls)[::-1].index(p.owner),
            p.source.line if p.source else 0,
        ),
    )
    return ordered

"""Discovery: import the configured modules and find what there is to document.

Scenario classes are the public classes a module defines that declare
annotated inputs or properties; registry entries are the instances a registry
object names. This is the only stage that imports user code.
"""

from __future__ import annotations

import functools
import importlib
import importlib.machinery
import importlib.util
import inspect
import os
import sys
import types
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any


def import_module(name: str) -> ModuleType:
    """Import ``name`` and make sure its parent packages imported too.

    After a package's ``__init__`` fails, submodules it imported stay in
    ``sys.modules`` and a second import of them "succeeds" with no parent;
    importing the parents again raises the original error instead.
    """
    module = importlib.import_module(name)
    parts = name.split(".")
    for depth in range(1, len(parts)):
        parent = ".".join(parts[:depth])
        if parent not in sys.modules:
            importlib.import_module(parent)
    return module


def resolve(dotted: str) -> Any:
    """The object a dotted path names: the longest importable module, then attributes."""
    parts = dotted.split(".")
    missing: ModuleNotFoundError | None = None
    for split in range(len(parts), 0, -1):
        module_name = ".".join(parts[:split])
        try:
            obj: Any = importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            # Only the path itself being no module means "try a shorter one";
            # a failed import inside the module is the user's error to see.
            if error.name is None or not (
                module_name == error.name or module_name.startswith(f"{error.name}.")
            ):
                raise
            missing = error
            continue
        for attribute in parts[split:]:
            obj = getattr(obj, attribute)
        return obj
    if missing is not None:  # not even its first name is a module: the name is at fault
        raise missing
    raise ImportError(f"no module found for {dotted!r}")


def dotted_path(obj: Any) -> str:
    return f"{obj.__module__}.{obj.__qualname__}"


def is_scenario_class(obj: Any, module: ModuleType) -> bool:
    """A public class defined in ``module`` with declared inputs or properties."""
    if not is_class(obj) or obj.__module__ != module.__name__:
        return False
    if obj.__name__.startswith("_"):
        return False
    has_inputs = bool(inspect.get_annotations(obj))
    has_properties = any(
        isinstance(v, property | functools.cached_property) for v in vars(obj).values()
    )
    return has_inputs or has_properties


def scenario_classes(module: ModuleType) -> list[type]:
    """The scenario classes of ``module`` in definition order (aliases skipped)."""
    return [
        obj
        for name, obj in vars(module).items()
        if is_scenario_class(obj, module) and name == obj.__name__
    ]


def public_functions(module: ModuleType) -> list[Any]:
    """Functions defined (not imported) in ``module``, in definition order."""
    return [
        obj
        for name, obj in vars(module).items()
        if inspect.isfunction(obj)
        and obj.__module__ == module.__name__
        and name == obj.__name__
        and not name.startswith("_")
    ]


# User objects are judged by their real type and the class's own slots, never by what
# they say of themselves: ``__class__`` (which isinstance and inspect consult),
# ``__bases__`` and ``__dict__`` may be properties that raise, even KeyboardInterrupt.
_TYPE_MRO = vars(type)["__mro__"]
_TYPE_DICT = vars(type)["__dict__"]
_DESCRIPTOR_METHODS = ("__get__", "__set__", "__delete__")
"""Functions, static and class methods, slots and properties are descriptors by these."""
_ROUTINES_NOT_DESCRIPTORS = (types.BuiltinFunctionType, types.MethodType, types.MethodWrapperType)


def is_class(obj: object) -> bool:
    return issubclass(type(obj), type)


def class_mro(cls: type) -> tuple[type, ...]:
    found: tuple[type, ...] = _TYPE_MRO.__get__(cls)
    return found


def class_dict(cls: type) -> Mapping[str, Any]:
    found: Mapping[str, Any] = _TYPE_DICT.__get__(cls)
    return found


def _is_no_entry(value: object) -> bool:
    """A class, a routine or a descriptor (a slot, a property): part of a registry, not one
    of its entries."""
    kind = type(value)
    if is_class(value) or issubclass(kind, _ROUTINES_NOT_DESCRIPTORS):
        return True
    return any(m in class_dict(base) for base in class_mro(kind) for m in _DESCRIPTOR_METHODS)


class NotARegistry(TypeError):
    """The registry setting names something that cannot hold named entries."""


def registry_items(registry: Any) -> Iterator[tuple[str, Any]]:
    """``(name, instance)`` for every public entry of a registry object.

    A registry is a mapping of names to scenarios, a module, a class (its own
    entries and those it inherits, base classes' first) or an instance (its
    attributes, ``__slots__`` included). Slots, properties, methods and classes
    are not entries. Anything else (``None``, a list) raises :class:`NotARegistry`.
    """
    if isinstance(registry, Mapping):
        namespace: dict[str, Any] = {str(key): value for key, value in registry.items()}
    elif registry is None or isinstance(registry, str | bytes | list | tuple | set | frozenset):
        raise NotARegistry(
            f"a registry names its scenarios: a class, a module or a mapping, "
            f"not {type(registry).__name__}"
        )
    elif inspect.ismodule(registry):
        namespace = dict(vars(registry))
    elif inspect.isclass(registry):
        namespace = {}
        for klass in reversed(registry.__mro__[:-1]):  # object has no entries
            namespace.update(vars(klass))
    else:
        namespace = {name: getattr(registry, name, None) for name in dir(registry)}
    for name, value in namespace.items():
        if not name.startswith("_") and not _is_no_entry(value):
            yield name, value


def registry_kind(registry: Any) -> str:
    """What a registry object is, in a word: ``dict``, ``mapping``, ``module``, ``class``
    or ``object``."""
    if isinstance(registry, dict):
        return "dict"
    if isinstance(registry, Mapping):
        return "mapping"
    if inspect.ismodule(registry):
        return "module"
    return "class" if inspect.isclass(registry) else "object"


def resolve_in_globals(namespace: Mapping[str, Any], dotted: str) -> Any | None:
    """Look up ``a.b.c`` in a function's globals (or builtins); None if absent."""
    head, *rest = dotted.split(".")
    builtins = namespace.get("__builtins__", {})
    if head in namespace:
        obj = namespace[head]
    elif isinstance(builtins, Mapping) and head in builtins:
        obj = builtins[head]
    else:
        return None
    for attribute in rest:
        obj = getattr(obj, attribute, None)
        if obj is None:
            return None
    return obj


def module_file(module_name: str) -> str | None:
    """The file of a module, found without executing it when not yet imported."""
    module = sys.modules.get(module_name)
    path = getattr(module, "__file__", None)
    if path is None:
        spec = _spec(module_name)
        path = spec.origin if spec is not None and spec.has_location else None
    return resolved_path(path) if path else None


def _spec(module_name: str) -> importlib.machinery.ModuleSpec | None:
    """How Python would import a module not imported yet (its parents are imported)."""
    try:
        return importlib.util.find_spec(module_name)
    except (ImportError, ValueError):
        return None


def resolved_path(path: str) -> str:
    """``path`` made absolute with symlinks resolved."""
    return os.path.realpath(path)


def source_file(obj: Any) -> str | None:
    """Absolute path of the file that defines ``obj``."""
    try:
        path = inspect.getsourcefile(obj)
    except TypeError:
        return None
    return resolved_path(path) if path else None


def package_folders(dotted: str) -> list[Path]:
    """The folders of the top-level package of the module ``dotted`` names (a top-level
    module's own file): one for a regular package, each of its portions for a namespace
    package (one without ``__init__.py``)."""
    top = dotted.partition(".")[0]
    top_file = module_file(top)
    if top_file:
        return [package_root(resolved_path(top_file))]
    module = sys.modules.get(top)
    locations = getattr(module, "__path__", None)
    if locations is None:
        spec = _spec(top)
        locations = spec.submodule_search_locations if spec is not None else None
    return [Path(resolved_path(folder)) for folder in list(locations or [])]


def package_root(top_file: str) -> Path:
    """The folder of a package from its ``__init__.py``, or a top-level module's own file."""
    root = Path(top_file)
    return root.parent if root.name == "__init__.py" else root


def display_path(module_name: str) -> str:
    """A module's file relative to the folder holding its top-level package."""
    module = sys.modules[module_name]
    path = Path(resolved_path(module.__file__ or module_name))
    top = sys.modules[module_name.partition(".")[0]]
    root = package_root(resolved_path(top.__file__ or str(path))).parent
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.name

"""Names as the code sees them: what an import binds, and what a dotted name holds.

The reach graph (:mod:`refgen.analysis.reach`) resolves every name a node reads
in the namespace its code runs in: its module's globals and the imports inside
its body. Resolving goes through modules and classes only, never running a
property; a module's ``__getattr__`` and the import of a module only a function
imports are the user's code that may run, guarded.
"""

from __future__ import annotations

import builtins
import functools
import importlib
import importlib.machinery
import importlib.util
import inspect
import sys
import types
from collections.abc import Iterable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from refgen.analysis.guard import call_user_code
from refgen.analysis.reach_index import Import, imports_in

Binding = tuple[Any, str, str]
"""What an import binds: the object, the module it was taken from and its name there
(the module itself and ``""`` for ``import``)."""


def resolved(dotted: str, namespace: dict[str, Any], local_names: dict[str, Binding]) -> Any:
    """The object ``dotted`` names, through modules and classes only."""
    head, *rest = dotted.split(".")
    if head in local_names:
        target = local_names[head][0]
    elif head in namespace:
        target = namespace[head]
    elif hasattr(builtins, head):
        target = getattr(builtins, head)
    else:
        return None
    return attributes(target, rest)[0] if rest else target


def attributes(target: Any, names: list[str]) -> tuple[Any, ModuleType | None, str]:
    """``target.a.b``, going through modules and classes only (never running a property),
    with the last module gone through and the name taken from it (for a constant
    read as ``module.NAME``: its statements are in that module)."""
    owner: ModuleType | None = None
    taken = ""
    for name in names:
        if not isinstance(target, ModuleType | type):
            break
        if isinstance(target, type):
            found = inspect.getattr_static(target, name, None)
        else:
            found, error = call_user_code(getattr, target, name, None)
            if error is not None:
                found = None
        if found is None:
            break
        if isinstance(target, ModuleType):
            owner, taken = target, name
        target = found
    return target, owner, taken


CONTENTS_LIMIT = 1000
"""Items of a module-level table looked into for functions and classes."""


def table_contents(value: Any) -> list[Any]:
    """The keys and values of a dict, the items of a list, tuple or set: a table of
    functions or classes (only the built-in kinds, whose iteration runs no user code)."""
    if type(value) is dict:
        return [*list(value)[:CONTENTS_LIMIT], *list(value.values())[:CONTENTS_LIMIT]]
    if type(value) in (list, tuple, set, frozenset):
        return list(value)[:CONTENTS_LIMIT]
    return []


def absolute_module(written: str, level: int, module_name: str) -> str | None:
    """The module a ``from`` import in ``module_name`` names."""
    if not level:
        return written
    package = module_name if is_package(module_name) else module_name.rpartition(".")[0]
    try:
        return importlib.util.resolve_name("." * level + written, package)
    except (ImportError, ValueError):
        return None


def is_package(module_name: str) -> bool:
    return hasattr(sys.modules.get(module_name), "__path__")


@dataclass(frozen=True)
class Unimported:
    """What an import inside a function body binds when nothing has imported the module yet:
    only its name (importing it to see would run it, and change the figures)."""

    names: tuple[str, ...]
    """The modules it may be: ``from p import m`` binds ``p.m`` or an attribute of ``p``."""


def static_module_file(dotted: str) -> str | None:
    """The file of module ``dotted``, found without importing it or a package on its way
    (Python's path finder, over the folders of the deepest package already imported)."""
    parts = dotted.split(".")
    depth, locations = 0, None  # a top-level module: looked for on sys.path
    for depth in range(len(parts) - 1, 0, -1):
        package = sys.modules.get(".".join(parts[:depth]))
        locations = getattr(package, "__path__", None)
        if locations is not None:
            break
    else:
        depth, locations = 0, None
    for number in range(depth, len(parts)):
        name = ".".join(parts[: number + 1])
        try:
            found_in = list(locations) if locations is not None else None
            spec = importlib.machinery.PathFinder.find_spec(name, found_in)
        except (ImportError, ValueError):
            return None
        if spec is None:
            return None
        if number == len(parts) - 1:
            return spec.origin if spec.has_location else None
        locations = spec.submodule_search_locations or []
    return None


def imported_names(statement: Import, module_name: str) -> list[str]:
    """The modules an import statement names (``from p import m`` may name ``p.m``)."""
    if not statement.is_from:
        return [name for name, _ in statement.names]
    origin = absolute_module(statement.module, statement.level, module_name)
    if not origin:
        return []
    return [origin, *(f"{origin}.{name}" for name, _ in statement.names if name != "*")]


def bindings(
    imports: Iterable[Import], module_name: str, importing: bool = False
) -> dict[str, Binding]:
    """Names bound by import statements inside a function or class body, with where each
    object was taken from. Unless ``importing`` (analysis, which links the helper a body
    imports), nothing is imported to see: a module the body would import that nothing
    has imported yet binds :class:`Unimported`."""
    bound: dict[str, Binding] = {}
    if importing:
        for statement in imports:
            for name in imported_names(statement, module_name):
                if name not in sys.modules:
                    call_user_code(importlib.import_module, name)
    for statement in imports:
        if statement.is_from:
            origin = absolute_module(statement.module, statement.level, module_name)
            module = sys.modules.get(origin or "")
            for name, asname in statement.names:
                found: Any = sys.modules.get(f"{origin}.{name}")
                if found is None and module is not None:
                    found = own_attribute(module, name)
                if found is None and origin:  # the module, or the submodule, not run yet
                    found = Unimported(
                        (f"{origin}.{name}",) if module else (origin, f"{origin}.{name}")
                    )
                if found is not None:
                    bound[asname or name] = (found, origin or "", name)
        else:
            for name, asname in statement.names:
                top = name.partition(".")[0]
                taken: Any = sys.modules.get(name if asname else top) or Unimported((name,))
                bound[asname or top] = (taken, name if asname else top, "")
    return bound


IMMUTABLE = (int, float, complex, str, bytes, bool, type(None), tuple, frozenset, range)


def mutable(value: Any) -> bool:
    """Whether another module could change what ``value`` holds (a dict, a list, an
    object), as it could not a number, a string or a tuple."""
    return not isinstance(value, IMMUTABLE) and not callable(value)


def local_imports(node: Any, module_name: str) -> dict[str, Any]:
    """Names bound by ``import`` statements inside a function or class body."""
    found = bindings(imports_in(node), module_name, importing=True)
    return {
        name: value for name, (value, _, _) in found.items() if not isinstance(value, Unimported)
    }


def unwrapped(function: Any) -> Any:
    """``function`` with its decorators' wrappers taken off (``functools.wraps`` sets
    ``__wrapped__`` in the wrapper's own dictionary), and the function of a bound method
    or a ``functools.partial``. Unlike :func:`inspect.unwrap`, it never asks an object
    for an attribute it lacks: a pint registry, say, would parse ``__wrapped__`` as a
    unit first."""
    seen = {id(function)}
    while True:
        if isinstance(function, types.MethodType):
            inner = function.__func__
        elif isinstance(function, functools.partial):
            inner = function.func
        else:
            inner = own_attribute(function, "__wrapped__")
        if inner is None or id(inner) in seen:
            return function
        seen.add(id(inner))
        function = inner


def own_attribute(value: Any, name: str) -> Any:
    """``value``'s attribute ``name`` if it is in its own dictionary (as ``functools.wraps``
    and ``singledispatch`` set them), else None; asks neither its class nor its
    ``__getattr__``."""
    try:
        own = object.__getattribute__(value, "__dict__")
    except (AttributeError, TypeError):
        return None
    return own.get(name) if isinstance(own, dict) else None


def is_code(value: Any) -> bool:
    """Whether ``value`` is a function (or wraps one) whose source can be followed."""
    return callable(value) and isinstance(unwrapped(value), types.FunctionType)

"""See Also targets: the object each name of a See Also section stands for.

A See Also name is written as its author sees it: an attribute of the class
(``step_floor``), a name of the module (``calc_training_flops``, imported or
defined there) or a dotted path (``pkg.physics.helper``). Each is looked up in
that order and, when found, given the dotted path the object is documented
under (a re-exported helper's defining module, the class an attribute
belongs to), so that its link resolves. A name found is linked where its
object is documented and shown as code elsewhere; a name nothing answers to is
no problem here (an intersphinx inventory may know it), and is reported, like
any unresolved reference, under ``nitpicky``.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Collection, Mapping
from typing import Any

from refgen.analysis import discovery
from refgen.analysis.guard import call_user_code
from refgen.analysis.model import Docstring, SeeAlsoName


def resolve_see_also(
    docstring: Docstring,
    namespace: Mapping[str, Any],
    owner: str = "",
    attributes: Collection[str] = (),
) -> Docstring:
    """``docstring`` with each See Also name's ``target`` filled in where it is found.

    ``namespace`` is the module's globals; ``owner`` the dotted path of the class
    whose docstring it is, and ``attributes`` the names documented on its page.
    """
    if not docstring.see_also:
        return docstring
    entries = tuple(
        dataclasses.replace(
            entry,
            names=tuple(_resolved(name, namespace, owner, attributes) for name in entry.names),
        )
        for entry in docstring.see_also
    )
    return dataclasses.replace(docstring, see_also=entries)


def _resolved(
    name: SeeAlsoName, namespace: Mapping[str, Any], owner: str, attributes: Collection[str]
) -> SeeAlsoName:
    path = name.path
    if owner and path.partition(".")[0] in attributes:
        return dataclasses.replace(name, target=f"{owner}.{path}")
    return dataclasses.replace(name, target=_documented_path(path, namespace))


def _documented_path(path: str, namespace: Mapping[str, Any]) -> str | None:
    """The dotted path of what ``path`` names, seen from ``namespace`` or imported:
    the longest part of it that is a module, class or function, by the path that
    object is documented under, then the rest (a property, a constant); None when it
    names nothing."""
    parts = path.split(".")
    for size in range(len(parts), 0, -1):
        found = _lookup(".".join(parts[:size]), namespace)
        named = _name_of(found) if found is not None else None
        if named is None:
            continue
        if not _has_attributes(found, parts[size:]):
            return None
        return ".".join([named, *parts[size:]])
    return None


def _lookup(path: str, namespace: Mapping[str, Any]) -> Any | None:
    found = discovery.resolve_in_globals(namespace, path)
    if found is None and "." in path:
        found, error = call_user_code(discovery.resolve, path)
        if error is not None:
            return None
    return found


def _has_attributes(obj: Any, names: list[str]) -> bool:
    """Whether ``obj.a.b`` exists for ``names`` ``[a, b]``, read without running code;
    a class's annotated fields (a dataclass input without a default) count."""
    for name in names:
        try:
            obj = inspect.getattr_static(obj, name)
        except AttributeError:
            if not _annotated(obj, name):
                return False
            obj = None
    return True


def _annotated(obj: Any, name: str) -> bool:
    if not inspect.isclass(obj):
        return False
    try:
        return any(name in inspect.get_annotations(klass) for klass in obj.__mro__)
    except (TypeError, ValueError):  # annotations that are not a dict
        return False


def _name_of(obj: Any) -> str | None:
    """The dotted path an object is documented under: a module's name, a class's or a
    function's defining module and qualified name."""
    if inspect.ismodule(obj):
        return obj.__name__
    if inspect.isclass(obj) or inspect.isroutine(obj):
        module, qualname = getattr(obj, "__module__", None), getattr(obj, "__qualname__", None)
        if isinstance(module, str) and isinstance(qualname, str) and "<" not in qualname:
            return f"{module}.{qualname}"
    return None

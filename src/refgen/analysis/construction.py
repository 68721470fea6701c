"""The Python that rebuilds a registry entry: the imports it needs, then its assignment as written.

A registry entry is written as ``Name = SomeScenario(keyword=value, ...)`` in
a class body. Pasted on its own, that statement needs the names it uses
(the class, ``ureg``, a constant) bound first. An earlier entry of the same
class body that it reads (``time_in_system=OtherEntry.latency``) comes first,
as written, with what that one needs. Every other name is imported the way
the registry's module binds it: its own import statement, narrowed to that
name (a relative import made absolute), or, for a name the module defines
itself, ``from <registry module> import name``. Built-in names need nothing;
a name bound nowhere at the module's top level is left as it is.

The statement keeps the author's text, line breaks and comments included;
only the indentation of the class body is taken off its continuation lines.
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Mapping

from refgen.analysis.source import ModuleSource

_BUILTINS = frozenset(dir(builtins))


def construction(
    source: ModuleSource,
    node: ast.Assign,
    module: str,
    siblings: Mapping[str, ast.Assign] | None = None,
    bindings: Mapping[str, Binding] | None = None,
) -> str:
    """The imports and the statement ``node`` (in ``module``, whose file is ``source``);
    ``siblings`` are the other assignments of its class body, by name, and ``bindings``
    the module's :func:`top_level_bindings`, when the caller has them already."""
    bindings = top_level_bindings(source, module) if bindings is None else bindings
    imports: list[Binding] = []
    statements: list[ast.Assign] = []

    def add(statement: ast.Assign) -> None:
        for name in free_names(statement.value):
            earlier = (siblings or {}).get(name)
            if earlier is not None and earlier.lineno < statement.lineno:
                if earlier not in statements:
                    add(earlier)
            elif (binding := bindings.get(name)) is not None and binding not in imports:
                imports.append(binding)
        statements.append(statement)

    add(node)
    written = [_dedented(source.segment(s), s) for s in statements]
    return "\n".join([*import_lines(imports), "", *written]) if imports else "\n".join(written)


Binding = tuple[str, str]
"""How a name is imported: ``("", "import numpy as np")`` or ``("pkg.mod", "name as alias")``."""


def import_lines(bindings: list[Binding]) -> list[str]:
    """``import`` statements first, then one ``from`` statement per module; both sorted."""
    plain = sorted({statement for module, statement in bindings if not module})
    grouped: dict[str, list[str]] = {}
    for module, name in bindings:
        if module:
            grouped.setdefault(module, []).append(name)
    froms = [
        f"from {module} import {', '.join(sorted(grouped[module]))}" for module in sorted(grouped)
    ]
    return [*plain, *froms]


def free_names(expression: ast.expr) -> list[str]:
    """Names ``expression`` reads and does not bind itself (in a lambda or a comprehension),
    in the order they first appear."""
    bound: set[str] = set()
    for node in ast.walk(expression):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            bound.add(node.id)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
    read = [
        node
        for node in ast.walk(expression)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)
    ]
    read.sort(key=lambda node: (node.lineno, node.col_offset))
    found = dict.fromkeys(n.id for n in read if n.id not in bound and n.id not in _BUILTINS)
    return list(found)


def top_level_bindings(source: ModuleSource, module: str) -> dict[str, Binding]:
    """Each name the module binds at its top level, with how to import it elsewhere
    (the last binding of a name wins, as when the module runs)."""
    package = module.rpartition(".")[0]
    found: dict[str, Binding] = {}
    for node in source.tree.body:
        if isinstance(node, ast.Import):
            for alias in node.names:
                bound = alias.asname or alias.name.partition(".")[0]
                alias_text = f" as {alias.asname}" if alias.asname else ""
                found[bound] = ("", f"import {alias.name}{alias_text}")
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node, package)
            for alias in node.names:
                if alias.name == "*" or base == "__future__":
                    continue
                named = alias.name + (f" as {alias.asname}" if alias.asname else "")
                found[alias.asname or alias.name] = (base, named)
        else:
            for name in _defined(node):
                found[name] = (module, name)
    return found


def _absolute(node: ast.ImportFrom, package: str) -> str:
    """The module an import names, made absolute from the importing module's ``package``."""
    if not node.level:
        return node.module or ""
    parts = package.split(".") if package else []
    base = ".".join(parts[: len(parts) - (node.level - 1)])
    return f"{base}.{node.module}" if node.module else base


def _defined(node: ast.stmt) -> list[str]:
    """Names a top-level statement other than an import defines."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return [node.name]
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, ast.AnnAssign | ast.AugAssign):
        targets = [node.target]
    else:
        return []
    return [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]


def _dedented(text: str, node: ast.Assign) -> str:
    """``text`` with the statement's own indentation taken off its continuation lines, unless a
    string spanning lines would change with it."""
    multiline_string = any(
        isinstance(n, ast.Constant)
        and isinstance(n.value, str | bytes)
        and n.lineno != getattr(n, "end_lineno", n.lineno)
        for n in ast.walk(node)
    )
    first, *rest = text.split("\n")
    if multiline_string or not rest:
        return text
    margin = " " * node.col_offset
    return "\n".join([first, *(line.removeprefix(margin) for line in rest)])

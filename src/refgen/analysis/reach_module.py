"""What a module does at its top level: which statements change which names, and what it sets
on objects other names hold.

The reach graph (:mod:`refgen.analysis.reach`) follows a constant to the
statements that *change* it: assign it (``RATE = 3.0``, ``for RATE in ...``),
set its attributes or items (``Gauge.EFFICIENCY = 0.5``, ``TABLE["a"] = 1``),
call a method on it or pass it to a call for effect (``ureg.load_definitions(...)``,
``Gauge.calibrate(0.5)``, ``setattr(Gauge, ...)``). A statement that only
reads a name (``C7 = BASE * 7``) does not change it: following only changes
keeps the graph linear in the source when a thousand constants read one base.
What a module sets on objects of *other* modules (a monkeypatch) is a
:class:`Patch`, found in its top-level statements and in its functions (one
called at import may do the setting).

Everything here reads syntax only, into the plain data of a
:class:`~refgen.analysis.reach_index.FileIndex`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from refgen.analysis.reach_index import (
    DEFINITIONS,
    FileIndex,
    Import,
    Local,
    Patch,
    imports_in,
    local_of,
)
from refgen.analysis.source import ModuleSource, dotted_name

STATEMENTS = (
    ast.Assign,
    ast.AnnAssign,
    ast.AugAssign,
    ast.Expr,
    ast.Delete,
    ast.If,
    ast.With,
    ast.AsyncWith,
    ast.Try,
    ast.TryStar,
    ast.For,
    ast.AsyncFor,
    ast.While,
    ast.Match,
)
"""Module-level statements that can set or change a constant (not definitions, imports)."""

Effect = tuple[str, str | None, bool]
"""What a statement changes: the dotted name of an object, the attribute it sets (None:
its items, or whatever a call does to it), and whether the statement binds the name
itself anew (``RATE = 3.0``) rather than changing what it holds."""

_STORED = (ast.Store, ast.Del)


def effects(node: ast.AST) -> Iterator[Effect]:
    """What ``node`` may change: names it binds, attributes and items it sets, and the
    objects whose methods it calls, or that it passes to a call, as a statement of its
    own (a call for effect, not for its value)."""
    for child in ast.walk(node):
        yield from _own_effects(child)


def _own_effects(child: ast.AST) -> Iterator[Effect]:
    """What ``child`` itself changes, its children aside."""
    stored = isinstance(getattr(child, "ctx", None), _STORED)
    if isinstance(child, ast.Name) and stored:
        yield child.id, None, True
    elif isinstance(child, ast.Attribute) and stored:
        if owner := dotted_name(child.value):
            yield owner, child.attr, False
    elif isinstance(child, ast.Subscript) and stored:
        if owner := dotted_name(child.value):
            yield owner, None, False
    elif isinstance(child, ast.Call) and dotted_name(child.func) in ("setattr", "delattr"):
        arguments = child.args
        if arguments and (owner := dotted_name(arguments[0])):
            name = arguments[1] if len(arguments) > 1 else None
            literal = name.value if isinstance(name, ast.Constant) else None
            yield owner, literal if isinstance(literal, str) else None, False
    elif isinstance(child, ast.Expr) and isinstance(child.value, ast.Call):
        call = child.value
        if isinstance(call.func, ast.Attribute) and (owner := dotted_name(call.func.value)):
            yield owner, None, False
        for argument in [*call.args, *(keyword.value for keyword in call.keywords)]:
            if passed := dotted_name(argument):
                yield passed, None, False


class _Function:
    """What one function may set: the names it declares ``global``, and its effects
    (:func:`effects`), the functions inside it included."""

    def __init__(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.local = local_of(node)
        self.globals: list[str] = []
        self.effects: dict[Effect, None] = {}


_MAY_CHANGE = (ast.Name, ast.Attribute, ast.Subscript, ast.Call, ast.Expr, ast.Global)
"""The nodes :func:`_own_effects` may find an effect in, and ``global``."""


def _functions(tree: ast.AST) -> list[_Function]:
    """Every function of ``tree``, in source order, in one walk of the syntax (one walk
    per function was 0.1 s of a 21,500-line module of methods). The walk keeps its own
    stack of the children still to visit: a long expression nests deeper than Python's
    recursion limit allows."""
    found: list[_Function] = []
    stack: list[tuple[Iterator[ast.AST], tuple[_Function, ...]]] = [
        (ast.iter_child_nodes(tree), ())
    ]
    while stack:
        children, enclosing = stack[-1]
        node = next(children, None)
        if node is None:
            stack.pop()
            continue
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            function = _Function(node)
            found.append(function)
            stack.append((ast.iter_child_nodes(node), (*enclosing, function)))
            continue
        if enclosing and isinstance(node, _MAY_CHANGE):
            if isinstance(node, ast.Global):
                for outer in enclosing:
                    outer.globals += node.names
            for effect in _own_effects(node):
                for outer in enclosing:
                    outer.effects[effect] = None
        stack.append((ast.iter_child_nodes(node), enclosing))
    return found


def _every_import(tree: ast.Module) -> tuple[Import, ...]:
    """Every import statement of the file, at its top level and in any body."""
    return imports_in(ast.If(test=ast.Constant(True), body=tree.body, orelse=[]))


def index_module(path: str, digest: str, source: ModuleSource) -> FileIndex:
    """A file's module-level structure; its nodes' facts come later, when asked for."""
    index = FileIndex(path, digest, changed=True)
    top_level: list[Local] = []
    statements: list[Local] = []
    stars: list[tuple[str, int]] = []
    changes: dict[str, list[Local]] = {}
    imported: dict[str, list[tuple[str, int, str]]] = {}
    patches: list[Patch] = []
    for statement in source.tree.body:
        local = local_of(statement)
        if isinstance(statement, ast.ImportFrom):
            for alias in statement.names:
                if alias.name == "*":
                    stars.append((statement.module or "", statement.level or 0))
                    continue
                origin = (statement.module or "", statement.level or 0, alias.name)
                imported.setdefault(alias.asname or alias.name, []).append(origin)
            continue
        if isinstance(statement, ast.Import):
            continue
        top_level.append(local)
        if isinstance(statement, DEFINITIONS):
            continue
        statements.append(local)
        if isinstance(statement, STATEMENTS):
            for owner, attribute, rebinds in set(effects(statement)):
                changes.setdefault(owner.partition(".")[0], []).append(local)
                if not rebinds:  # what another name may hold: a patch, if it is another's
                    patches.append(Patch(local, owner, attribute))
    set_by_functions: dict[str, list[Local]] = {}
    for function in _functions(source.tree):
        for name in dict.fromkeys(function.globals):
            set_by_functions.setdefault(name, []).append(function.local)
        # A function called at import (or later) may set what other names hold.
        for owner, attribute, rebinds in function.effects:
            if not rebinds:
                patches.append(Patch(function.local, owner, attribute))
    index.top_level, index.statements = tuple(top_level), tuple(statements)
    index.changes = {name: tuple(dict.fromkeys(found)) for name, found in changes.items()}
    index.imported = {name: tuple(found) for name, found in imported.items()}
    index.stars = tuple(stars)
    index.patches = tuple(dict.fromkeys(patches))
    index.set_by_functions = {name: tuple(found) for name, found in set_by_functions.items()}
    index.imports = _every_import(source.tree)
    return index

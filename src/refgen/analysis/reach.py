"""Reach: the source text a page's figures can depend on, followed name by name.

A class page shows what its class computes, and that depends on more than the
class: the helpers it calls, the helpers those call (in any module of the
project, imported at the top of a module or inside a function body), the
module-level constants they read, and the registry entries that instantiate
it. :class:`Reach` starts at a class, a function or a statement and follows
every name its source mentions that resolves, at run time, to a function,
class or module-level statement of the project's own files. What it collects
is text, so a fingerprint of it changes exactly when an edit could change the
figures, and a ``touch`` changes nothing.

Names are resolved in the namespaces the code runs in (a module's globals, a
function's own imports), never by calling the user's code: a module's
``__getattr__`` is the one exception, and it runs guarded.
"""

from __future__ import annotations

import ast
import collections
import functools
import hashlib
import importlib.util
import inspect
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

from refgen.analysis.guard import call_user_code
from refgen.analysis.source import ModuleSource

Unit = tuple[str, int, str]
"""One piece of source: its file, first line and text."""

_STATEMENTS = (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Expr, ast.If, ast.With, ast.Try)
"""Module-level statements that can set or change a constant (not definitions, imports)."""


Site = tuple[ModuleSource, ast.AST, str]
"""A node of a parsed module, with the name of the module whose globals it reads."""

NodeKey = tuple[str, int, int, str]
"""A node told apart from every other: file, line, column and kind (a lambda and
the statement holding it start on one line)."""


def _key(source: ModuleSource, node: ast.AST) -> NodeKey:
    line, column = getattr(node, "lineno", 0), getattr(node, "col_offset", 0)
    return (source.path, line, column, type(node).__name__)


class Reach:
    """The project's source reached from a starting point, as :data:`Unit` text.

    ``roots`` are the folders of the project's packages: code elsewhere (the
    standard library, pint) is outside, and its version is part of the
    fingerprint instead. What each node refers to is resolved once; each query
    walks the graph afresh, so cycles (helpers that call each other) are whole.
    """

    def __init__(self, read: Any, roots: Iterable[Path]) -> None:
        self.read = read
        """``path -> ModuleSource``: parsed source, shared with the rest of analysis."""
        self.roots = tuple(roots)
        self._edges: dict[NodeKey, tuple[Unit, tuple[Site, ...]]] = {}
        self._modules_by_file: dict[str, str] | None = None
        self._inside_roots: dict[str, bool] = {}
        self._resolved_paths: dict[str, str] = {}
        """Path as given -> resolved: resolving touches the disk, and the same few files
        are asked about thousands of times."""

    # ------------------------------------------------------------------ starting points

    def of_class(self, cls: type) -> frozenset[Unit]:
        """The class, its project bases, and everything their bodies reach."""
        return self._collect(self._class_sites(cls))

    def of_function(self, function: Any) -> frozenset[Unit]:
        return self._collect(self._function_sites(function))

    def of_statement(self, path: str, line: int) -> frozenset[Unit]:
        """The statement of ``path`` that starts at ``line`` (e.g. a registry entry)."""
        source = self._source(path)
        if source is None:
            return frozenset()
        node = source.statement_at(line)
        if node is None:
            return frozenset()
        return self._collect([(source, node, self.module_named(path))])

    def module_named(self, path: str) -> str:
        """The name of the imported project module whose file is ``path`` ("" if none)."""
        if self._modules_by_file is None:
            self._modules_by_file = {}
            prefixes = tuple(str(root) for root in self.roots)
            for name, module in list(sys.modules.items()):
                file = getattr(module, "__file__", None)
                resolved = self._resolved(file) if isinstance(file, str) else ""
                if resolved.startswith(prefixes):
                    self._modules_by_file[resolved] = name
        return self._modules_by_file.get(self._resolved(path), "")

    def of_module_statements(self, module_name: str) -> frozenset[Unit]:
        """A module's top-level statements other than definitions and imports (a registry
        module's entries, the loops that add entries), and what they reach."""
        source = self._module_source(module_name)
        if source is None:
            return frozenset()
        skipped = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)
        statements = [s for s in source.tree.body if not isinstance(s, skipped)]
        return self._collect((source, statement, module_name) for statement in statements)

    def of_code(self, text: str, module_name: str, label: str) -> frozenset[Unit]:
        """Code that is not a module's (an Examples section), run in ``module_name``'s
        namespace; ``label`` names it in place of a file."""
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            return frozenset({(label, 0, text)})
        if not tree.body:
            return frozenset()
        # One node for the whole text, so that its imports bind for every later line.
        whole = ast.If(test=ast.Constant(True), body=tree.body, orelse=[])
        last = tree.body[-1]
        whole.lineno, whole.col_offset = 1, 0
        whole.end_lineno, whole.end_col_offset = last.end_lineno, last.end_col_offset
        return self._collect([(ModuleSource(label, text, tree), whole, module_name)])

    def _collect(self, sites: Iterable[Site]) -> frozenset[Unit]:
        units: set[Unit] = set()
        visited: set[NodeKey] = set()
        stack = list(sites)
        while stack:
            source, node, module_name = stack.pop()
            key = _key(source, node)
            if key in visited:
                continue
            visited.add(key)
            unit, targets = self._edges_of(source, node, module_name)
            units.add(unit)
            stack.extend(targets)
        return frozenset(units)

    # ------------------------------------------------------------------ objects to sites

    def _inside(self, path: str | None) -> bool:
        if not path:
            return False
        if path not in self._inside_roots:
            resolved = Path(self._resolved(path))
            self._inside_roots[path] = any(resolved.is_relative_to(root) for root in self.roots)
        return self._inside_roots[path]

    def _resolved(self, path: str) -> str:
        if path not in self._resolved_paths:
            self._resolved_paths[path] = str(Path(path).resolve())
        return self._resolved_paths[path]

    def _source(self, path: str) -> ModuleSource | None:
        source, error = call_user_code(self.read, path)
        return None if error is not None else source

    def _module_source(self, module_name: str) -> ModuleSource | None:
        path = getattr(sys.modules.get(module_name), "__file__", None)
        return self._source(path) if path and self._inside(path) else None

    def _class_sites(self, cls: type) -> list[Site]:
        sites: list[Site] = []
        for klass in cls.__mro__:
            source = self._module_source(klass.__module__)
            node = source.find_class(klass.__qualname__) if source else None
            if source is not None and node is not None:
                sites.append((source, node, klass.__module__))
        return sites

    def _function_sites(self, function: Any) -> list[Site]:
        function = inspect.unwrap(function)
        while isinstance(function, functools.partial):
            function = function.func
        code = getattr(function, "__code__", None)
        if code is None or not self._inside(code.co_filename):
            return []
        source = self._source(code.co_filename)
        if source is None:
            return []
        first = code.co_firstlineno
        sites: list[Site] = []
        for node in ast.walk(source.tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) and (
                node.lineno == first
                or any(d.lineno == first for d in getattr(node, "decorator_list", ()))
            ):
                sites.append((source, node, getattr(function, "__module__", "") or ""))
                break
        # A decorator without functools.wraps: the decorated function is in a closure cell.
        for cell in getattr(function, "__closure__", None) or ():
            try:
                held = cell.cell_contents
            except ValueError:  # an empty cell
                continue
            if isinstance(held, type):
                sites += self._class_sites(held)
            elif callable(held) and hasattr(inspect.unwrap(held), "__code__"):
                sites += self._function_sites(held)
        return sites

    def _target_sites(
        self, target: Any, name: str, source: ModuleSource, module_name: str
    ) -> list[Site]:
        """Where the object a name resolved to is written."""
        if isinstance(target, type):
            return self._class_sites(target)
        if isinstance(target, ModuleType):
            return []
        if callable(target) and hasattr(inspect.unwrap(target), "__code__"):
            return self._function_sites(target)
        return self._constant_sites(name, source, module_name)

    def _constant_sites(self, name: str, source: ModuleSource, module_name: str) -> list[Site]:
        """The module-level statements that mention ``name``: where a constant is set
        and changed (``ureg = ...`` then ``ureg.load_definitions(...)``), or, for a
        constant imported from another project module, that module's statements."""
        sites: list[Site] = []
        for statement in source.tree.body:
            if isinstance(statement, ast.ImportFrom) and any(
                (alias.asname or alias.name) == name for alias in statement.names
            ):
                origin = _imported_module(statement, module_name) or ""
                imported = self._module_source(origin)
                original = next(a.name for a in statement.names if (a.asname or a.name) == name)
                if imported is not None:
                    sites += self._constant_sites(original, imported, origin)
            elif isinstance(statement, _STATEMENTS) and name in _names(statement):
                sites.append((source, statement, module_name))
        return sites

    # ------------------------------------------------------------------ one node

    def _edges_of(
        self, source: ModuleSource, node: ast.AST, module_name: str
    ) -> tuple[Unit, tuple[Site, ...]]:
        """A node's own text, and the sites of what it refers to (resolved once)."""
        key = _key(source, node)
        if key not in self._edges:
            unit = (source.path, key[1], source.segment(node))
            namespace = vars(sys.modules[module_name]) if module_name in sys.modules else {}
            local = local_imports(node, module_name)
            targets: list[Site] = []
            for dotted in sorted(set(_references(node))):
                head, *rest = dotted.split(".")
                if head in local:
                    target: Any = local[head]
                elif head in namespace:
                    target = namespace[head]
                else:
                    continue
                found, owner, taken = _attributes(target, rest)
                if owner is not None and taken:  # ``module.NAME``: look in that module
                    owned = self._module_source(owner.__name__)
                    if owned is not None:
                        targets += self._target_sites(found, taken, owned, owner.__name__)
                    continue
                targets += self._target_sites(found, head, source, module_name)
            self._edges[key] = (unit, tuple(targets))
        return self._edges[key]


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _references(node: ast.AST) -> Iterator[str]:
    """Every dotted name read in ``node``: ``helper``, ``module.helper``, ``a.b.c``."""
    for child in ast.walk(node):
        if isinstance(child, ast.Name) and isinstance(child.ctx, ast.Load):
            yield child.id
        elif isinstance(child, ast.Attribute):
            parts = [child.attr]
            value = child.value
            while isinstance(value, ast.Attribute):
                parts.append(value.attr)
                value = value.value
            if isinstance(value, ast.Name):
                yield ".".join([value.id, *reversed(parts)])


def _attributes(target: Any, names: list[str]) -> tuple[Any, ModuleType | None, str]:
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


def _imported_module(statement: ast.ImportFrom, module_name: str) -> str | None:
    package = module_name if _is_package(module_name) else module_name.rpartition(".")[0]
    relative = "." * statement.level + (statement.module or "")
    try:
        return importlib.util.resolve_name(relative, package) if statement.level else relative
    except (ImportError, ValueError):
        return None


def _imported(name: str | None) -> ModuleType | None:
    """The module ``name``, imported now if the function that imports it has not run yet."""
    if not name:
        return None
    if name not in sys.modules:
        call_user_code(importlib.import_module, name)
    return sys.modules.get(name)


def _is_package(module_name: str) -> bool:
    return hasattr(sys.modules.get(module_name), "__path__")


_BODIES = ("body", "orelse", "finalbody", "handlers", "cases")
"""Fields that hold nested statements (or handlers and match cases, which hold them)."""


def _import_statements(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements in ``node``, in ``ast.walk`` order, without walking every
    expression (most of a body's nodes, and this runs for every property)."""
    queue = collections.deque([node])
    while queue:
        current = queue.popleft()
        if isinstance(current, ast.Import | ast.ImportFrom):
            yield current
            continue
        for field in _BODIES:
            children = getattr(current, field, None)
            if isinstance(children, list):
                queue.extend(children)


def local_imports(node: ast.AST, module_name: str) -> dict[str, Any]:
    """Names bound by ``import`` statements inside a function or class body."""
    if isinstance(node, ast.Module):
        return {}
    bound: dict[str, Any] = {}
    for child in _import_statements(node):
        if isinstance(child, ast.ImportFrom):
            origin = _imported_module(child, module_name)
            module = _imported(origin)
            for alias in child.names:
                found = sys.modules.get(f"{origin}.{alias.name}") or getattr(
                    module, alias.name, None
                )
                if found is not None:
                    bound[alias.asname or alias.name] = found
        elif isinstance(child, ast.Import):
            for alias in child.names:
                top = alias.name.partition(".")[0]
                found = _imported(alias.name) and sys.modules.get(
                    alias.name if alias.asname else top
                )
                if found is not None:
                    bound[alias.asname or top] = found
    return bound


def digest(units: Iterable[Unit], *extra: str) -> str:
    """A fingerprint of source units and other text (settings, versions)."""
    hashed = hashlib.sha256()
    for path, line, text in sorted(units):
        hashed.update(f"{path}:{line}\0{text}\0".encode("utf-8", "surrogateescape"))
    for text in extra:
        hashed.update(f"{text}\0".encode("utf-8", "surrogateescape"))
    return hashed.hexdigest()


def data_files(roots: Iterable[Path]) -> list[Path]:
    """The files in the project's packages that are not Python source (unit
    definitions, tables): code may read any of them."""
    found = []
    for root in sorted(set(roots)):
        if not root.is_dir():
            continue
        for path in sorted(root.rglob("*")):
            if (
                path.is_file()
                and path.suffix not in (".py", ".pyc")
                and "__pycache__" not in path.parts
            ):
                found.append(path)
    return found


def data_files_digest(roots: Iterable[Path]) -> str:
    """A fingerprint of :func:`data_files`: their names and bytes."""
    hashed = hashlib.sha256()
    for root in sorted(set(roots)):
        for path in data_files([root]):
            hashed.update(f"{path.relative_to(root)}\0".encode())
            hashed.update(path.read_bytes())
    return hashed.hexdigest()

"""Reach: the source a page's figures can depend on, as a graph of nodes followed name by name.

A class page shows what its class computes, and that depends on more than the
class: the helpers it calls, the helpers those call (in any module of the
project, imported at the top of a module or inside a function body), the
module-level constants they read, the statements that set attributes of the
class or of a module after the fact (``Gauge.EFFICIENCY = 0.5``, a monkeypatch
from another module), and the registry entries that instantiate it.
:class:`Reach` starts at a class, a function or a statement and follows every
name its source mentions that resolves, at run time, to a function, class or
module-level statement of the project's own files.

Each node is resolved once per build, and the graph is content-addressed
(:mod:`refgen.analysis.reach_digest`): a node's digest holds its own text and
its children's digests, helpers that call each other sharing one. A page's
fingerprint combines the digests of its roots, so fingerprinting a whole site
costs time linear in the source it reaches, and a ``touch`` changes nothing.

Names are resolved in the namespaces the code runs in (a module's globals, a
function's own imports), never by calling the user's code: a module's
``__getattr__`` and the import of a module only a function imports are the
exceptions, and they run guarded. A module named by a string the code computes
(``importlib.import_module(name)``) cannot be known: the node says so
(:attr:`Reach.unknowable`), and the pages that reach it are never taken as
unchanged.
"""

from __future__ import annotations

import builtins
import functools
import importlib
import importlib.util
import inspect
import os
import sys
from collections.abc import Callable, Iterable
from importlib.util import decode_source
from pathlib import Path
from types import ModuleType
from typing import Any

from refgen.analysis.guard import call_user_code
from refgen.analysis.reach_index import (
    FILE_TEXT,
    SNIPPET,
    WHOLE_MODULE,
    FileIndex,
    Import,
    IndexStore,
    Local,
    NodeFacts,
    Parsed,
    Use,
    imports_in,
    index_module,
    node_facts,
    parse_text,
    unit_digest,
)
from refgen.analysis.source import ModuleSource

Node = tuple[str, Local, str]
"""A node of the graph: its file, its place in the file and the module whose globals
it reads."""

Binding = tuple[Any, str, str]
"""What an import binds: the object, the module it was taken from and its name there
(the module itself and ``""`` for ``import``)."""

_IMPORTERS = (importlib.import_module, builtins.__import__, importlib.__import__)


class Reach:
    """The project's source reached from starting points, as a graph of :data:`Node`.

    ``roots`` are the folders of the project's packages: code elsewhere (the
    standard library, pint) is outside, and its version is part of the
    fingerprint instead. ``read`` gives a file's parsed source (shared with the
    rest of analysis); ``store`` keeps each file's :class:`FileIndex` across builds.
    """

    def __init__(
        self,
        read: Callable[[str], ModuleSource],
        roots: Iterable[Path],
        store: IndexStore | None = None,
    ) -> None:
        self.read = read
        folders = {Path(os.path.abspath(root)) for root in roots}
        self.roots = tuple(sorted(folders | {Path(os.path.realpath(r)) for r in folders}))
        self.store = store or IndexStore()
        self.unknowable: dict[Node, list[tuple[str, int, str]]] = {}
        """Nodes that read a module by a name the code computes: where, and what."""
        self._files: dict[str, FileIndex | None] = {}
        self._parsed: dict[str, Parsed] = {}
        self._edges: dict[Node, tuple[Node, ...]] = {}
        self._inside_roots: dict[str, bool] = {}
        self._modules_by_file: dict[str, str] | None = None
        self._patches: dict[tuple[int, str | None], list[Node]] | None = None

    # ------------------------------------------------------------------ starting points

    def of_class(self, cls: type) -> list[Node]:
        """The class, its project bases, and what sets their attributes."""
        return self._class_sites(cls)

    def of_function(self, function: Any) -> list[Node]:
        return self._function_sites(function)

    def of_statement(self, path: str, line: int) -> list[Node]:
        """The statement of ``path`` that starts at ``line`` (e.g. a registry entry)."""
        local = self._lookup(path, "statement", line)
        return [] if local is None else [(path, local, self.module_named(path))]

    def of_module_statements(self, module_name: str) -> list[Node]:
        """A module's top-level statements other than definitions and imports (a registry
        module's entries, the loops that add entries)."""
        path = self._module_file(module_name)
        index = self._index(path) if path else None
        if index is None:
            return []
        return [(index.path, local, module_name) for local in index.statements]

    def of_file(self, path: str) -> Node | None:
        """The whole of a project file, as one node (its text only)."""
        return (path, FILE_TEXT, "") if self._index(path) is not None else None

    def of_code(self, text: str, module_name: str, label: str) -> Node:
        """Code that is not a module's (an Examples section), run in ``module_name``'s
        namespace; ``label`` names it in place of a file."""
        data = text.encode("utf-8", "surrogateescape")
        try:
            source = parse_text(label, data)
        except (SyntaxError, ValueError):
            source = ModuleSource(label, text, parse_text(label, b"").tree)
        index = index_module(label, "", source)
        index.facts[SNIPPET] = node_facts(label, source, source.tree, SNIPPET)
        self._files[label] = index
        return (label, SNIPPET, module_name)

    def module_named(self, path: str) -> str:
        """The name of the imported project module whose file is ``path`` ("" if none)."""
        if self._modules_by_file is None:
            self._modules_by_file = {}
            for name, module in list(sys.modules.items()):
                file = getattr(module, "__file__", None)
                if isinstance(file, str) and self._inside(file):
                    self._modules_by_file.setdefault(os.path.abspath(file), name)
                    self._modules_by_file.setdefault(os.path.realpath(file), name)
        found = self._modules_by_file
        return found.get(os.path.abspath(path)) or found.get(os.path.realpath(path), "")

    # ------------------------------------------------------------------ the graph

    def unit(self, node: Node) -> str:
        """The digest of a node's own text."""
        path, local, _module = node
        if local in (FILE_TEXT, WHOLE_MODULE):
            index = self._index(path)
            return unit_digest(path, 0, index.digest if index else "")
        facts = self._facts(node)
        return facts.unit if facts is not None else unit_digest(path, local[0], "")

    def children(self, node: Node) -> tuple[Node, ...]:
        """What a node refers to, resolved once per build."""
        if node not in self._edges:
            found, error = call_user_code(self._resolve, node)
            self._edges[node] = tuple(dict.fromkeys(found)) if error is None and found else ()
            if error is not None:  # resolving ran the user's code, which failed
                self.unknowable.setdefault(node, []).append(
                    (node[0], node[1][0], "its names cannot be resolved")
                )
        return self._edges[node]

    def _resolve(self, node: Node) -> list[Node]:
        path, local, module_name = node
        if local == FILE_TEXT:
            return []
        if local == WHOLE_MODULE:  # a module read by a name in a string: all of it
            index = self._index(path)
            return [(path, top, module_name) for top in index.top_level] if index else []
        facts = self._facts(node)
        if facts is None:
            return []
        module = sys.modules.get(module_name)
        namespace = vars(module) if module is not None else {}
        local_names = bindings(facts.imports, module_name)
        targets: list[Node] = []
        for dotted in facts.references:
            targets += self._sites_of_name(dotted, namespace, local_names, module_name)
        for use in facts.uses:
            targets += self._sites_of_use(node, use, namespace, local_names, module_name)
        return targets

    def _sites_of_name(
        self,
        dotted: str,
        namespace: dict[str, Any],
        local_names: dict[str, Binding],
        module_name: str,
    ) -> list[Node]:
        head, *rest = dotted.split(".")
        if head in local_names:
            target, origin, original = local_names[head]
        elif head in namespace:
            target, origin, original = namespace[head], module_name, head
        else:
            return []
        found, owner, taken = _attributes(target, rest)
        if owner is not None and taken:  # ``module.NAME``: look in that module
            return self._target_sites(found, taken, owner.__name__)
        return self._target_sites(found, original or head, origin)

    def _target_sites(self, target: Any, name: str, module_name: str) -> list[Node]:
        """Where the object a name resolved to is written, and what changes it."""
        if isinstance(target, type):
            return self._class_sites(target)
        if isinstance(target, ModuleType):
            return []
        if callable(target) and hasattr(inspect.unwrap(target), "__code__"):
            return self._function_sites(target)
        return self._constant_sites(name, module_name, set())

    def _sites_of_use(
        self,
        node: Node,
        use: Use,
        namespace: dict[str, Any],
        local_names: dict[str, Binding],
        module_name: str,
    ) -> list[Node]:
        """A module or attribute read by a string: followed when the string is written
        in the code, said to be unknowable when the code computes it."""
        function = _resolved(use.function, namespace, local_names)
        if use.subscript:
            if function is not sys.modules:
                return []
            return self._whole_module(use.literal) if use.literal else self._unknowable(node, use)
        if function is getattr:
            subject = _resolved(use.subject or "", namespace, local_names)
            if not isinstance(subject, ModuleType | type):
                return []
            if use.literal is not None:
                dotted = f"{use.subject}.{use.literal}"
                return self._sites_of_name(dotted, namespace, local_names, module_name)
            if isinstance(subject, type):
                return self._class_sites(subject)
            return self._whole_module(subject.__name__)
        if any(function is importer for importer in _IMPORTERS) or function is importlib.reload:
            return self._whole_module(use.literal) if use.literal else self._unknowable(node, use)
        return []

    def _unknowable(self, node: Node, use: Use) -> list[Node]:
        what = f"{use.function}[...]" if use.subscript else f"{use.function}(...)"
        self.unknowable.setdefault(node, []).append((node[0], use.line, what))
        return []

    def _whole_module(self, name: str | None) -> list[Node]:
        module = _imported(name)
        path = getattr(module, "__file__", None)
        if module is None or not isinstance(path, str) or not self._inside(path):
            return []
        if self._index(path) is None:
            return []
        return [(path, WHOLE_MODULE, module.__name__)]

    # ------------------------------------------------------------------ objects to sites

    def _class_sites(self, cls: type) -> list[Node]:
        sites: list[Node] = []
        for klass in cls.__mro__:
            path = self._module_file(klass.__module__)
            local = self._lookup(path, "class", klass.__qualname__) if path else None
            if path is None or local is None:
                continue
            sites.append((path, local, klass.__module__))
            # ``Gauge.EFFICIENCY = 0.5`` after the class body, in its module or another
            sites += self._constant_sites(klass.__name__, klass.__module__, set(), patches=False)
            sites += self._patches_of(klass, None)
        return sites

    def _function_sites(self, function: Any) -> list[Node]:
        function = inspect.unwrap(function)
        while isinstance(function, functools.partial):
            function = function.func
        code = getattr(function, "__code__", None)
        if code is None or not self._inside(code.co_filename):
            return []
        sites: list[Node] = []
        local = self._lookup(code.co_filename, "function", code.co_firstlineno)
        if local is not None:
            module_name = getattr(function, "__module__", "") or ""
            sites.append((code.co_filename, local, module_name))
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

    def _constant_sites(
        self, name: str, module_name: str, seen: set[tuple[str, str]], patches: bool = True
    ) -> list[Node]:
        """The module-level statements that mention ``name``: where a constant is set
        and changed (``ureg = ...`` then ``ureg.load_definitions(...)``); for a
        constant imported from another project module, that module's statements; and
        the statements of any module that set it from outside."""
        if (name, module_name) in seen:
            return []
        seen.add((name, module_name))
        path = self._module_file(module_name)
        index = self._index(path) if path else None
        if index is None:
            return []
        sites: list[Node] = [
            (index.path, local, module_name) for local in index.mentions.get(name, ())
        ]
        for written, level, original in index.imported.get(name, ()):
            origin = _absolute(written, level, module_name)
            if origin:
                sites += self._constant_sites(original, origin, seen)
        module = sys.modules.get(module_name)
        if patches and module is not None:
            sites += self._patches_of(module, name)
        return sites

    def _patches_of(self, owner: object, name: str | None) -> list[Node]:
        """The statements that set attribute ``name`` (any, for None) of ``owner``."""
        if self._patches is None:
            self._patches = self._find_patches()
        found = list(self._patches.get((id(owner), None), ()))
        if name is None:
            found += [
                n for (key, _), nodes in self._patches.items() if key == id(owner) for n in nodes
            ]
        else:
            found += self._patches.get((id(owner), name), ())
        return found

    def _find_patches(self) -> dict[tuple[int, str | None], list[Node]]:
        """Every module-level statement of the project's imported modules that sets an
        attribute of an object another name holds, by (object, attribute)."""
        found: dict[tuple[int, str | None], list[Node]] = {}
        for module_name, module in list(sys.modules.items()):
            file = getattr(module, "__file__", None)
            if not isinstance(file, str) or not file.endswith(".py") or not self._inside(file):
                continue
            index = self._index(file)
            for patch in index.patches if index is not None else ():
                head, *rest = patch.owner.split(".")
                owner, _, _ = _attributes(vars(module).get(head), rest)
                if isinstance(owner, ModuleType | type):
                    key = (id(owner), patch.attribute)
                    found.setdefault(key, []).append((file, patch.local, module_name))
        return found

    # ------------------------------------------------------------------ files

    def _inside(self, path: str | None) -> bool:
        """Whether ``path`` is the project's: under one of its folders as imported, or
        once symbolic links are resolved (a module linked in from elsewhere counts)."""
        if not path:
            return False
        if path not in self._inside_roots:
            as_given = Path(os.path.abspath(path))
            resolved = Path(os.path.realpath(path))
            self._inside_roots[path] = any(
                p.is_relative_to(root) for root in self.roots for p in (as_given, resolved)
            )
        return self._inside_roots[path]

    def _module_file(self, module_name: str) -> str | None:
        path = getattr(sys.modules.get(module_name), "__file__", None)
        return path if isinstance(path, str) and self._inside(path) else None

    def _index(self, path: str) -> FileIndex | None:
        if path not in self._files:
            self._files[path] = self._read_index(path)
        return self._files[path]

    def _read_index(self, path: str) -> FileIndex | None:
        try:
            data = Path(path).read_bytes()
        except OSError:
            return None
        try:
            return self.store.index(path, data, lambda: self._source(path, data))
        except (SyntaxError, ValueError, UnicodeDecodeError):
            return None

    def _source(self, path: str, data: bytes) -> ModuleSource:
        """``path``'s syntax as ``data`` holds it: the shared parse when it is of the same
        text, else a parse of its own."""
        shared, error = call_user_code(self.read, path)
        if error is None and shared is not None and shared.text == decode_source(data):
            return shared
        return parse_text(path, data)

    def _parsed_file(self, path: str) -> Parsed | None:
        if path not in self._parsed:
            index = self._index(path)
            if index is None:
                return None
            try:
                data = Path(path).read_bytes()
                self._parsed[path] = Parsed(self._source(path, data))
            except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
                return None
        return self._parsed[path]

    def _lookup(self, path: str, kind: str, key: object) -> Local | None:
        """A node of ``path`` by qualified name, first line or line, from the index."""
        index = self._index(path)
        if index is None:
            return None
        if (kind, key) not in index.lookups:
            parsed = self._parsed_file(path)
            if parsed is None:
                return None
            index.lookups[(kind, key)] = _find(parsed, kind, key)
            index.changed = True
        return index.lookups[(kind, key)]

    def _facts(self, node: Node) -> NodeFacts | None:
        path, local, _module = node
        index = self._index(path)
        if index is None:
            return None
        if local not in index.facts:
            parsed = self._parsed_file(path)
            found = parsed.nodes.get(local) if parsed is not None else None
            if parsed is None or found is None:
                return None
            index.facts[local] = node_facts(path, parsed.source, found, local)
            index.changed = True
        return index.facts[local]

    def forget_syntax(self) -> None:
        """Drop the syntax trees parsed for missing facts (the indices stay)."""
        self._parsed.clear()


def _find(parsed: Parsed, kind: str, key: object) -> Local | None:
    if kind == "class":
        found = parsed.source.find_class(str(key))
        return None if found is None else (found.lineno, found.col_offset, "ClassDef")
    if kind == "function":
        return parsed.functions.get(int(str(key)))
    return parsed.statements.get(int(str(key)))


# ---------------------------------------------------------------------- names


def _resolved(dotted: str, namespace: dict[str, Any], local_names: dict[str, Binding]) -> Any:
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
    return _attributes(target, rest)[0] if rest else target


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


def _absolute(written: str, level: int, module_name: str) -> str | None:
    """The module a ``from`` import in ``module_name`` names."""
    if not level:
        return written
    package = module_name if _is_package(module_name) else module_name.rpartition(".")[0]
    try:
        return importlib.util.resolve_name("." * level + written, package)
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


def bindings(imports: Iterable[Import], module_name: str) -> dict[str, Binding]:
    """Names bound by import statements inside a function or class body, with where each
    object was taken from. ``from p import m`` imports the submodule ``p.m`` when ``p``
    has no attribute ``m``, as Python does."""
    bound: dict[str, Binding] = {}
    for statement in imports:
        if statement.is_from:
            origin = _absolute(statement.module, statement.level, module_name)
            module = _imported(origin)
            for name, asname in statement.names:
                found = sys.modules.get(f"{origin}.{name}") or getattr(module, name, None)
                if found is None and origin:
                    found = _imported(f"{origin}.{name}")
                if found is not None:
                    bound[asname or name] = (found, origin or "", name)
        else:
            for name, asname in statement.names:
                top = name.partition(".")[0]
                found = _imported(name) and sys.modules.get(name if asname else top)
                if found is not None:
                    bound[asname or top] = (found, name if asname else top, "")
    return bound


def local_imports(node: Any, module_name: str) -> dict[str, Any]:
    """Names bound by ``import`` statements inside a function or class body."""
    return {name: found for name, (found, _, _) in bindings(imports_in(node), module_name).items()}

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
import importlib
import operator
import sys
import traceback
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

from refgen.analysis.failures import describe_error
from refgen.analysis.guard import call_user_code
from refgen.analysis.reach_files import Node, NotInSnapshot, ReachFiles
from refgen.analysis.reach_index import (
    FILE_TEXT,
    SNIPPET,
    UNIMPORTED,
    WHOLE_MODULE,
    IndexStore,
    Use,
    unit_digest,
)
from refgen.analysis.reach_names import (
    Binding,
    Unimported,
    absolute_module,
    attributes,
    bindings,
    imported_names,
    is_code,
    mutable,
    own_attribute,
    resolved,
    static_module_file,
    table_contents,
    unwrapped,
)
from refgen.analysis.reach_patches import Patches
from refgen.analysis.source import ModuleSource

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
        timeout: float | None = None,
    ) -> None:
        self.files = ReachFiles(read, roots, store)
        self.unknowable: dict[Node, list[tuple[str, int, str]]] = {}
        """Nodes that read a module by a name the code computes: where, and what."""
        self._edges: dict[Node, tuple[Node, ...]] = {}
        self._patches = Patches(self.files)
        self._modules: set[str] | None = None
        self.timeout = timeout
        """Seconds the user's code may run while one node is resolved."""
        self._globals: dict[tuple[str, str], list[Node]] = {}
        self._classes: dict[int, tuple[type, list[Node]]] = {}
        """By ``id``, with the class itself: kept alive, its ``id`` is not reused."""

    # ------------------------------------------------------------------ starting points

    def of_class(self, cls: type) -> list[Node]:
        """The class, its project bases, and what sets their attributes."""
        return self._class_sites(cls)

    def of_patches(self, owner: object) -> list[Node]:
        """What any module of the project sets on ``owner`` (a registry's entries replaced
        from another module)."""
        return self._patches.of(owner, None)

    def of_function(self, function: Any) -> list[Node]:
        return self._function_sites(function)

    def of_statement(self, path: str, line: int) -> list[Node]:
        """The statement of ``path`` that starts at ``line`` (e.g. a registry entry)."""
        local = self.files.lookup(path, "statement", line)
        return [] if local is None else [(path, local, self.files.module_named(path))]

    def of_module_statements(self, module_name: str) -> list[Node]:
        """A module's top-level statements other than definitions and imports (a registry
        module's entries, the loops that add entries)."""
        path = self.files.module_file(module_name)
        index = self.files.index(path) if path else None
        if index is None:
            return []
        return [(index.path, local, module_name) for local in index.statements]

    def of_file(self, path: str) -> Node | None:
        """The whole of a project file, as one node (its text only)."""
        return (path, FILE_TEXT, "") if self.files.index(path) is not None else None

    def of_code(self, text: str, module_name: str, label: str) -> Node:
        """Code that is not a module's (an Examples section), run in ``module_name``'s
        namespace; ``label`` names it in place of a file."""
        self.files.add_snippet(label, text)
        return (label, SNIPPET, module_name)

    # ------------------------------------------------------------------ the graph

    def unit(self, node: Node) -> str:
        """The digest of a node's own text."""
        path, local, _module = node
        if local in (FILE_TEXT, WHOLE_MODULE, UNIMPORTED):
            index = self.files.index(path)
            return unit_digest(path, 0, index.digest if index else "")
        facts = self.files.facts(path, local)
        return facts.unit if facts is not None else unit_digest(path, local[0], "")

    def children(self, node: Node) -> tuple[Node, ...]:
        """What a node refers to, resolved once per build (within the time limit of the
        user's code: a module's ``__getattr__`` runs)."""
        if node not in self._edges:
            found, error = call_user_code(self._resolve, node, timeout=self.timeout)
            if isinstance(error, NotInSnapshot):
                raise error  # not the user's code: the whole page cannot be known
            self._edges[node] = tuple(dict.fromkeys(found)) if error is None and found else ()
            if error is not None:  # resolving ran the user's code, which failed
                why = f"resolving the names this code reads failed: {describe_error(error)}"
                self.unknowable.setdefault(node, []).append(self._place_of(error, node, why))
        return self._edges[node]

    def _resolve(self, node: Node) -> list[Node]:
        path, local, module_name = node
        if local == FILE_TEXT:
            return []
        if local == WHOLE_MODULE:  # a module read by a name in a string: all of it
            index = self.files.index(path)
            return [(path, top, module_name) for top in index.top_level] if index else []
        if local == UNIMPORTED:  # not run yet: its text, and the modules it imports
            return self._imported_by(path, module_name)
        facts = self.files.facts(path, local)
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
            # A module's global names mean the same in each of its nodes: resolved once.
            key = (module_name, dotted)
            if key not in self._globals:
                self._globals[key] = self._sites_of_object(namespace[head], rest, head, module_name)
            return self._globals[key]
        else:
            return []
        return self._sites_of_object(target, rest, original or head, origin)

    def _sites_of_object(
        self, target: Any, rest: list[str], name: str, module_name: str
    ) -> list[Node]:
        """Where ``target.<rest>`` is written (``name`` in ``module_name`` holds ``target``)."""
        found, owner, taken = attributes(target, rest)
        if owner is not None and taken:  # ``module.NAME``: look in that module
            return self._target_sites(found, taken, owner.__name__)
        return self._target_sites(found, name, module_name)

    def _target_sites(self, target: Any, name: str, module_name: str) -> list[Node]:
        """Where the object a name resolved to is written, and what changes it."""
        if isinstance(target, type):
            if id(target) not in self._classes:
                self._classes[id(target)] = (target, self._class_sites(target))
            return self._classes[id(target)][1]
        if isinstance(target, ModuleType):
            return []
        if isinstance(target, Unimported):
            return [node for name in target.names for node in self._unimported_module(name)]
        # Where the name is bound (``scale = times(2)``, a partial, a bound method), what
        # sets it, and what other modules change of the object it holds.
        sites = self._constant_sites(name, module_name, set())
        if is_code(target):
            return [*sites, *self._function_sites(target)]
        if mutable(target):
            sites += self._patches.of(target, None)
        # A table of functions or classes (filled by a registering decorator): its
        # contents are what a lookup in it runs.
        for item in table_contents(target):
            sites += self._code_sites(item, set())
        return sites

    def _code_sites(self, item: Any, seen: set[int]) -> list[Node]:
        """Where a class or function held in a table or a closure is written."""
        if isinstance(item, type):
            return self._class_sites(item)
        if is_code(item):
            return self._function_sites(item, seen)
        return []

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
        function = resolved(use.function, namespace, local_names)
        if use.subscript:
            if function is not sys.modules:
                return []
            return self._whole_module(use.literal) if use.literal else self._unknowable(node, use)
        if function is vars:  # every name of a module or class, looked up by a string
            subject = resolved(use.subject or "", namespace, local_names)
            if isinstance(subject, type):
                return self._class_sites(subject)
            return self._whole_module(subject.__name__) if isinstance(subject, ModuleType) else []
        if function is operator.attrgetter or function is operator.methodcaller:
            return self._unknowable(node, use)  # of an object no name says
        if function is getattr:
            subject = resolved(use.subject or "", namespace, local_names)
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
        why = f"{what} reads a module or attribute by a name the code computes"
        self.unknowable.setdefault(node, []).append((node[0], use.line, why))
        return []

    def _whole_module(self, name: str | None) -> list[Node]:
        module = sys.modules.get(name or "")
        path = getattr(module, "__file__", None)
        if module is None or not isinstance(path, str):
            return self._unimported_module(name or "")
        if not self.files.inside(path) or self.files.index(path) is None:
            return []
        return [(path, WHOLE_MODULE, module.__name__)]

    def _unimported_module(self, name: str) -> list[Node]:
        """A project module nothing has imported yet (a function imports it in a branch
        that has not run): found without running it, as its text and what it imports."""
        path = static_module_file(name)
        if path is None or not self.files.inside(path) or self.files.index(path) is None:
            return []
        return [(path, UNIMPORTED, name)]

    def _imported_by(self, path: str, module_name: str) -> list[Node]:
        index = self.files.index(path)
        found: list[Node] = []
        for statement in index.imports if index is not None else ():
            for name in imported_names(statement, module_name):
                found += self._whole_module(name)
        return found

    # ------------------------------------------------------------------ objects to sites

    def _class_sites(self, cls: type) -> list[Node]:
        sites: list[Node] = []
        for klass in cls.__mro__:
            found = self._class_node(klass)
            if found is None:
                continue
            sites.append(found)
            # ``Gauge.EFFICIENCY = 0.5`` after the class body, in its module or another
            sites += self._constant_sites(klass.__name__, found[2], set(), patches=False)
            sites += self._patches.of(klass, None)
        return sites

    def _class_node(self, klass: type) -> Node | None:
        """Where a class is written: in the file of the module it says it is from, or, when
        that module's file has no such class (``__module__`` set to a public name), in
        the file its methods' code comes from."""
        path = self.files.module_file(klass.__module__)
        local = self.files.lookup(path, "class", klass.__qualname__) if path else None
        if path is not None and local is not None:
            return (path, local, klass.__module__)
        said = getattr(sys.modules.get(klass.__module__), "__file__", None)
        if isinstance(said, str) and not self.files.inside(said):
            return None  # a class of another package (pydantic's BaseModel, object)
        for value in list(vars(klass).values()):
            code = getattr(unwrapped(value), "__code__", None) if is_code(value) else None
            if code is None or not self.files.inside(code.co_filename):
                continue
            local = self.files.lookup(code.co_filename, "class", klass.__qualname__)
            module = unwrapped(value).__globals__.get("__name__", klass.__module__)
            return None if local is None else (code.co_filename, local, str(module))
        return None

    def _function_sites(self, function: Any, seen: set[int] | None = None) -> list[Node]:
        seen = set() if seen is None else seen
        if id(function) in seen:  # a closure that holds itself (a recursive inner function)
            return []
        seen.add(id(function))
        sites: list[Node] = []
        # functools.singledispatch: each type's implementation, registered apart
        dispatch = own_attribute(function, "dispatch")
        registry = own_attribute(function, "registry") if dispatch is not None else None
        for implementation in list(registry.values()) if isinstance(registry, Mapping) else ():
            if unwrapped(implementation) is not unwrapped(function):
                sites += self._function_sites(implementation, seen)
        function = unwrapped(function)
        code = getattr(function, "__code__", None)
        if code is None:
            return sites
        # The module whose globals the code reads (``__module__`` may name another).
        module_name = str(getattr(function, "__globals__", {}).get("__name__", ""))
        if code.co_filename.startswith("<") and module_name in self._project_modules():
            return [*sites, self._made_from_a_string(function, module_name)]
        if not self.files.inside(code.co_filename):
            return sites
        local = self.files.lookup(code.co_filename, "function", code.co_firstlineno)
        if local is not None:
            sites.append((code.co_filename, local, module_name))
        # A decorator without functools.wraps: the decorated function is in a closure cell.
        for cell in getattr(function, "__closure__", None) or ():
            try:
                held = cell.cell_contents
            except ValueError:  # an empty cell
                continue
            sites += self._code_sites(held, seen)
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
        path = self.files.module_file(module_name)
        index = self.files.index(path) if path else None
        if index is None:
            return []
        sites: list[Node] = [
            (index.path, local, module_name) for local in index.changes.get(name, ())
        ]
        for written, level, original in index.imported.get(name, ()):
            origin = absolute_module(written, level, module_name)
            if origin:
                sites += self._constant_sites(original, origin, seen)
        for written, level in index.stars:  # ``from consts import *`` may bind it
            origin = absolute_module(written, level, module_name)
            if origin:
                sites += self._constant_sites(name, origin, seen)
        sites += [
            (index.path, local, module_name) for local in index.set_by_functions.get(name, ())
        ]
        module = sys.modules.get(module_name)
        if patches and module is not None:
            sites += self._patches.of(module, name)
        if module is not None and name not in vars(module):  # computed by __getattr__
            sites += self._code_sites(vars(module).get("__getattr__"), set())
        return sites

    def _project_modules(self) -> set[str]:
        """The imported modules whose files are the project's."""
        if self._modules is None:
            self._modules = {
                name
                for name, module in list(sys.modules.items())
                if isinstance(getattr(module, "__file__", None), str)
                and self.files.inside(module.__file__)
            }
        return self._modules

    def _made_from_a_string(self, function: Any, module_name: str) -> Node:
        """Code made from a string (``exec``, ``eval``): what it depends on cannot be known.
        A node of its own, which makes every page that reaches it unknowable."""
        path = getattr(sys.modules.get(module_name), "__file__", "") or module_name
        node: Node = (f"<made from a string in {module_name}>", (0, 0, "Unknowable"), "")
        why = f"{getattr(function, '__name__', 'a function')} is made from a string (exec, eval)"
        self.unknowable[node] = [(path, 1, why)]
        self._edges[node] = ()
        return node

    # ------------------------------------------------------------------ files

    def _place_of(self, error: BaseException, node: Node, why: str) -> tuple[str, int, str]:
        """Where resolving ``node`` failed: the last line of the project's own files the
        error went through (a module's ``__getattr__``), else the node itself."""
        frames = traceback.extract_tb(error.__traceback__)
        ours = [frame for frame in frames if self.files.inside(frame.filename)]
        if not ours or ours[-1].lineno is None:
            return (node[0], node[1][0], why)
        return (ours[-1].filename, ours[-1].lineno, why)

    def forget_syntax(self) -> None:
        """Drop the syntax trees parsed for missing facts (the indices stay)."""
        self.files.forget_syntax()

"""Reach index: what the reach graph needs from one source file, read from its syntax once.

:mod:`refgen.analysis.reach` follows names from node to node. Everything it
needs from a file's syntax is here, as plain data: each node's text (as a
digest), the dotted names it reads, the imports inside it and the calls that
may import a module by a name it computes (:class:`NodeFacts`), and the
file's module-level structure (which statements mention a name, which names
are imported from where, which statements patch another module's objects).

A :class:`FileIndex` belongs to one version of one file: :class:`IndexStore`
keeps it across builds under the digest of the file's bytes, so a build in
which a file did not change parses nothing of it. Facts are filled in the
first time they are asked for, from the file's syntax tree, and kept.
"""

from __future__ import annotations

import ast
import collections
import contextlib
import hashlib
import importlib.util
import pickle
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from refgen import __version__
from refgen.analysis import source as source_module
from refgen.analysis.source import ModuleSource, SourceTooDeep, dotted_name, parse_source
from refgen.collector import collector_paused
from refgen.files import replace_atomically

Local = tuple[int, int, str]
"""A node within its file: first line, column and kind (a lambda and the statement
holding it start on one line)."""

FILE_TEXT: Local = (0, 0, "File")
"""A file's text as one node, and nothing it refers to (a registry's files)."""

UNIMPORTED: Local = (0, 0, "Unimported")
"""A project module nothing has imported yet, as one node: its text, and the modules it
imports (it cannot be resolved name by name without running it)."""

WHOLE_MODULE: Local = (0, 0, "Module")
"""A module as one node: its text and every top-level definition and statement (a module
read by a name only a string gives)."""

SNIPPET: Local = (1, 0, "Snippet")
"""Code that is not a module's (an Examples section) as one node."""

DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
IMPORTS = (ast.Import, ast.ImportFrom)

USE_NAMES = frozenset({"import_module", "__import__", "getattr", "reload", "vars", "attrgetter"})
"""Last parts of the names of calls that may read a module or an attribute by a string."""


@dataclass(frozen=True)
class Import:
    """One ``import`` or ``from ... import`` statement, as written."""

    module: str
    """The module after ``from`` (empty for ``from . import x``, and for ``import``)."""
    level: int
    names: tuple[tuple[str, str | None], ...]
    """``(name, asname)`` of each alias."""
    is_from: bool


@dataclass(frozen=True)
class Use:
    """A call or subscript that may read a module or attribute named by a string:
    ``importlib.import_module(...)``, ``__import__(...)``, ``getattr(obj, ...)``,
    ``sys.modules[...]``. Which it is, is decided on the live objects."""

    function: str
    """The dotted name called (or subscripted)."""
    subject: str | None
    """For ``getattr``: the dotted name of the object read from."""
    literal: str | None
    """The name, when the code gives it as a string literal."""
    line: int
    subscript: bool = False


@dataclass(frozen=True)
class NodeFacts:
    """One node of a file: its text as a digest and what it reads."""

    unit: str
    """Digest of the file's path, the node's first line and its text."""
    references: tuple[str, ...]
    """Every dotted name it reads (``helper``, ``module.helper``, ``a.b.c``), sorted."""
    imports: tuple[Import, ...]
    """Import statements inside it, in ``ast.walk`` order."""
    uses: tuple[Use, ...]


@dataclass(frozen=True)
class Patch:
    """A module-level statement that sets an attribute of an object another name
    holds: ``Gauge.EFFICIENCY = 0.5``, ``pkg.helpers.scale = fast``, ``setattr(C, ...)``."""

    local: Local
    owner: str
    """The dotted name of the object whose attribute is set."""
    attribute: str | None
    """The attribute's name; None when the code computes it."""


@dataclass
class FileIndex:
    """One version of one file: its module-level structure, and facts filled in on demand."""

    path: str
    digest: str
    """Of the file's bytes."""
    top_level: tuple[Local, ...] = ()
    """Every module-level definition and statement but imports."""
    statements: tuple[Local, ...] = ()
    """Module-level statements other than definitions and imports."""
    changes: dict[str, tuple[Local, ...]] = field(default_factory=dict)
    """Name -> the module-level statements that may change it
    (:mod:`refgen.analysis.reach_module`)."""
    imported: dict[str, tuple[tuple[str, int, str], ...]] = field(default_factory=dict)
    """Name -> ``(module, level, original name)`` of each module-level ``from`` import
    that binds it."""
    patches: tuple[Patch, ...] = ()
    stars: tuple[tuple[str, int], ...] = ()
    """``(module, level)`` of each module-level ``from ... import *``."""
    set_by_functions: dict[str, tuple[Local, ...]] = field(default_factory=dict)
    """Name -> the functions that set it (``global NAME``)."""
    imports: tuple[Import, ...] = ()
    """Every import statement of the file, at its top level and in any body."""
    facts: dict[Local, NodeFacts] = field(default_factory=dict)
    lookups: dict[tuple[str, object], Local | None] = field(default_factory=dict)
    """``("class", qualname)``, ``("function", first line)``, ``("statement", line)``
    -> the node found, if any."""
    changed: bool = False
    """Filled in since it was loaded: the store writes it again."""
    too_deep: tuple[int, str] | None = None
    """The line and the reason, when the file is nested too deeply for Python's parser
    (:class:`~refgen.analysis.source.SourceTooDeep`): then it holds nothing else."""
    _previous: dict[Local, NodeFacts] = field(default_factory=dict)
    """The facts of the file's last version (not kept): a node whose text did not change
    keeps them."""

    def __getstate__(self) -> dict[str, object]:
        return {k: v for k, v in self.__dict__.items() if not k.startswith("_")}

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state, _previous={})


class Parsed:
    """A file's syntax tree and every node in it by :data:`Local` (made when a fact is
    missing, dropped with the build)."""

    def __init__(self, source: ModuleSource) -> None:
        self.source = source
        self.nodes: dict[Local, ast.AST] = {}
        self.functions: dict[int, Local] = {}
        self.statements: dict[int, Local] = {}
        for node in ast.walk(source.tree):
            local = local_of(node)
            self.nodes.setdefault(local, node)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                first_lines = [
                    node.lineno,
                    *(d.lineno for d in getattr(node, "decorator_list", ())),
                ]
                for line in first_lines:
                    self.functions.setdefault(line, local)
            if isinstance(node, ast.stmt):
                self.statements.setdefault(node.lineno, local)
        self.classes: dict[str, Local] = {}
        """By qualified name; of two definitions, the later (as when the module runs)."""
        self._add_classes(source.tree.body, ())

    def _add_classes(self, body: list[ast.stmt], context: tuple[str, ...]) -> None:
        for node in body:
            if isinstance(node, ast.ClassDef):
                self.classes[".".join([*context, node.name])] = local_of(node)
                self._add_classes(node.body, (*context, node.name))
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                self._add_classes(node.body, (*context, node.name, "<locals>"))
            else:  # a class written in an ``if``, ``try`` or ``with`` block is still the module's
                for name in BODIES:
                    for child in getattr(node, name, None) or []:
                        nested = (
                            child.body
                            if isinstance(child, ast.ExceptHandler | ast.match_case)
                            else [child]
                        )
                        self._add_classes(nested, context)


def local_of(node: ast.AST) -> Local:
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0), type(node).__name__)


def unit_digest(path: str, line: int, text: str) -> str:
    data = f"{path}:{line}\0{text}\0".encode("utf-8", "surrogateescape")
    return hashlib.sha256(data).hexdigest()


def file_digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# ---------------------------------------------------------------------- reading syntax


def _reference(child: ast.AST) -> str | None:
    """The dotted name ``child`` reads, if it is a name or a chain of attributes on one."""
    if isinstance(child, ast.Name):
        return child.id if isinstance(child.ctx, ast.Load) else None
    if not isinstance(child, ast.Attribute):
        return None
    parts = [child.attr]
    value = child.value
    while isinstance(value, ast.Attribute):
        parts.append(value.attr)
        value = value.value
    return ".".join([value.id, *reversed(parts)]) if isinstance(value, ast.Name) else None


BODIES = ("body", "orelse", "finalbody", "handlers", "cases")
"""Fields that hold nested statements (or handlers and match cases, which hold them)."""


def import_statements(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements in ``node``, in ``ast.walk`` order, without walking every
    expression (most of a body's nodes, and this runs for every property)."""
    queue = collections.deque([node])
    while queue:
        current = queue.popleft()
        if isinstance(current, IMPORTS):
            yield current
            continue
        for name in BODIES:
            children = getattr(current, name, None)
            if isinstance(children, list):
                queue.extend(children)


def imports_in(node: ast.AST) -> tuple[Import, ...]:
    """The import statements inside a function or class body (none for a module)."""
    if isinstance(node, ast.Module):
        return ()
    return tuple(
        Import(
            getattr(statement, "module", None) or "",
            getattr(statement, "level", 0) or 0,
            tuple((alias.name, alias.asname) for alias in statement.names),
            isinstance(statement, ast.ImportFrom),
        )
        for statement in import_statements(node)
    )


def _string(node: ast.AST | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def read_in(node: ast.AST) -> tuple[tuple[str, ...], tuple[Use, ...]]:
    """What ``node`` reads, in one walk of its syntax (every unit a page reaches is read
    this way): every dotted name (``helper``, ``module.helper``, ``a.b.c``; sorted, once
    each), and the calls and subscripts that may read something named by a string."""
    names: set[str] = set()
    found: list[Use] = []
    for child in ast.walk(node):
        if isinstance(child, ast.Name | ast.Attribute):
            name = _reference(child)
            if name is not None:
                names.add(name)
        elif isinstance(child, ast.Call):
            use = _call_use(child)
            if use is not None:
                found.append(use)
        elif isinstance(child, ast.Subscript):
            subscripted = dotted_name(child.value)
            if subscripted is not None and subscripted.rpartition(".")[2] == "modules":
                literal = _string(child.slice)
                found.append(Use(subscripted, None, literal, child.lineno, subscript=True))
    return tuple(sorted(names)), tuple(found)


def _call_use(call: ast.Call) -> Use | None:
    function = dotted_name(call.func)
    if function is None or function.rpartition(".")[2] not in USE_NAMES:
        return None
    arguments = call.args
    if function.rpartition(".")[2] in ("getattr", "vars"):
        subject = dotted_name(arguments[0]) if arguments else None
        literal = _string(arguments[1]) if len(arguments) > 1 else None
        return Use(function, subject, literal, call.lineno)
    literal = _string(arguments[0]) if arguments else None
    return Use(function, None, literal, call.lineno)


def node_facts(
    path: str,
    source: ModuleSource,
    node: ast.AST,
    local: Local,
    previous: dict[Local, NodeFacts] | None = None,
) -> NodeFacts:
    """A node's facts; those of ``previous`` (the file's last version) when its text, and
    so everything else about it, is unchanged."""
    if local == SNIPPET:  # the whole text: its imports bind for every later line
        whole = ast.If(test=ast.Constant(True), body=source.tree.body, orelse=[])
        names, uses = read_in(source.tree)
        return NodeFacts(unit_digest(path, 0, source.text), names, imports_in(whole), uses)
    unit = unit_digest(path, local[0], definition_text(source, node))
    earlier = (previous or {}).get(local)
    if earlier is not None and earlier.unit == unit:
        return earlier
    names, uses = read_in(node)
    return NodeFacts(unit, names, imports_in(node), uses)


def definition_text(source: ModuleSource, node: ast.AST) -> str:
    """A node's text, with its decorators (``@times(2)``) for a definition: they are as
    much what it computes as its body."""
    decorators = getattr(node, "decorator_list", None) or []
    return "\n".join([*(f"@{source.segment(d)}" for d in decorators), source.segment(node)])


def parse_text(path: str, data: bytes) -> ModuleSource:
    """``data`` decoded as Python decodes a source file, and parsed."""
    text = importlib.util.decode_source(data)
    return ModuleSource(path, text, parse_source(text, path))


# ---------------------------------------------------------------------- the store


_MADE_BY = Path(__file__).read_bytes() + Path(source_module.__file__).read_bytes()
STORE_VERSION = f"{__version__} {sys.version} {hashlib.sha256(_MADE_BY).hexdigest()}"
"""Indices are kept only for the refgen, the Python (``ast`` changes) and the versions of
this module and of :mod:`refgen.analysis.source` that made them."""


class IndexStore:
    """The file indices of a project, kept across builds in one file (optional)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self._kept: dict[str, FileIndex] = self._load()
        self._current: dict[str, FileIndex] = {}

    def _load(self) -> dict[str, FileIndex]:
        if self.path is None:
            return {}
        try:
            with collector_paused():
                version, kept = pickle.loads(self.path.read_bytes())
        except (OSError, pickle.UnpicklingError, EOFError, ValueError, TypeError):
            return {}
        except Exception:  # a file from another refgen: its classes may be gone
            return {}
        return kept if version == STORE_VERSION and isinstance(kept, dict) else {}

    def known(self, path: str, data: bytes) -> FileIndex | None:
        """The index of ``path`` as ``data`` holds it, if one is made or kept already."""
        return self._known(path, file_digest(data))

    def _known(self, path: str, digest: str) -> FileIndex | None:
        for found in (self._current.get(path), self._kept.get(path)):  # this build's first
            if found is not None and found.digest == digest:
                self._current[path] = found
                return found
        return None

    def index(self, path: str, data: bytes, build: Callable[[str], FileIndex]) -> FileIndex:
        """The index of ``path`` as ``data`` holds it: the kept one if the bytes are
        the same, else ``build(digest)``, a new one."""
        digest = file_digest(data)
        found = self._known(path, digest)
        if found is not None:
            return found
        previous = self._kept.get(path)
        try:
            made = build(digest)
        except SourceTooDeep as error:
            deep = (error.lineno or 1, error.msg)
            made = FileIndex(path, digest, changed=True, too_deep=deep)
        except (SyntaxError, ValueError, UnicodeDecodeError):  # its text still counts
            made = FileIndex(path, digest, changed=True)
        # Facts of the nodes an edit left as they were are the same facts.
        made._previous = previous.facts if previous is not None else {}
        self._current[path] = made
        return made

    def save(self) -> None:
        """Keep the indices of this build's files, if any was filled in."""
        if self.path is None:
            return
        if not any(index.changed for index in self._current.values()) and set(self._current) == set(
            self._kept
        ):
            return
        for index in self._current.values():
            index.changed = False
        data = pickle.dumps((STORE_VERSION, self._current), pickle.HIGHEST_PROTOCOL)
        with contextlib.suppress(OSError):  # the store only saves time
            replace_atomically(self.path, data)

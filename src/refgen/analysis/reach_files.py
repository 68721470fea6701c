"""Reach files: the project's source files as the reach graph reads them.

Which files are the project's (under its folders, as imported or once symbolic
links are resolved), each file's :class:`~refgen.analysis.reach_index.FileIndex`
for its bytes as they are now, and the facts and lookups an index fills in from
the file's syntax tree when it lacks them.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterable
from importlib.util import decode_source
from pathlib import Path

from refgen.analysis.guard import call_user_code
from refgen.analysis.reach_index import (
    SNIPPET,
    FileIndex,
    IndexStore,
    Local,
    NodeFacts,
    Parsed,
    node_facts,
    parse_text,
)
from refgen.analysis.reach_module import index_module
from refgen.analysis.source import ModuleSource, SourceTooDeep, parse_problem


class NotInSnapshot(Exception):
    """A file the graph would read that the snapshot of the build's files lacks: what
    reaches it cannot be known (neither a ``SyntaxError`` nor an ``OSError``, which would
    leave it out of the graph)."""


Node = tuple[str, Local, str]
"""A node of the reach graph: its file, its place in the file and the module whose
globals it reads."""


class ReachFiles:
    """The files of a project's packages (``roots``), indexed once each per build."""

    def __init__(
        self,
        read: Callable[[str], ModuleSource],
        roots: Iterable[Path],
        store: IndexStore | None = None,
    ) -> None:
        self.read = read
        """``path -> ModuleSource``: parsed source, shared with the rest of analysis."""
        folders = {Path(os.path.abspath(root)) for root in roots}
        self.roots = tuple(sorted(folders | {Path(os.path.realpath(r)) for r in folders}))
        self.store = store or IndexStore()
        self._files: dict[str, FileIndex | None] = {}
        self._parsed: dict[str, Parsed] = {}
        self._inside_roots: dict[str, bool] = {}
        self._modules_by_file: dict[str, str] | None = None
        self._snapshot: dict[str, bytes] | None = None

    def add_snippet(self, label: str, text: str) -> None:
        """Code that is not a file's (an Examples section), indexed under ``label``."""
        data = text.encode("utf-8", "surrogateescape")
        try:
            source = parse_text(label, data)
        except (SyntaxError, ValueError):
            source = ModuleSource(label, text, parse_text(label, b"").tree)
        index = index_module(label, "", source)
        index.facts[SNIPPET] = node_facts(label, source, source.tree, SNIPPET)
        self._files[label] = index

    def module_named(self, path: str) -> str:
        """The name of the imported project module whose file is ``path`` ("" if none)."""
        if self._modules_by_file is None:
            self._modules_by_file = {}
            for name, module in list(sys.modules.items()):
                file = getattr(module, "__file__", None)
                if isinstance(file, str) and self.inside(file):
                    self._modules_by_file.setdefault(os.path.abspath(file), name)
                    self._modules_by_file.setdefault(os.path.realpath(file), name)
        found = self._modules_by_file
        return found.get(os.path.abspath(path)) or found.get(os.path.realpath(path), "")

    def inside(self, path: str | None) -> bool:
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

    def take_snapshot(self, files: Iterable[Path], most_bytes: int) -> bool:
        """Read now ``files`` and those of every imported project module, up to
        ``most_bytes`` in all (False: more than that, and no snapshot is kept).

        From then on the graph is made of the code as it was when the build ran it,
        though it is walked later (by a worker), when an editor may have saved a file
        again: a file the snapshot lacks is not read at all, and whatever reaches it
        cannot be known (:class:`NotInSnapshot`).
        """
        self.module_named("")
        assert self._modules_by_file is not None
        taken: dict[str, bytes] = {}
        size = 0
        for path in [*self._modules_by_file, *map(os.path.abspath, files)]:
            if path in taken:
                continue
            with contextlib.suppress(OSError):  # unreadable now: so it is later
                taken[path] = Path(path).read_bytes()
                size += len(taken[path])
            if size > most_bytes:
                return False
        self._snapshot = taken
        return True

    def _bytes(self, path: str) -> bytes:
        """The bytes of ``path``: as the snapshot holds them, or as they are now when
        there is none."""
        if self._snapshot is None:
            return Path(path).read_bytes()
        found = self._snapshot.get(os.path.abspath(path))
        if found is not None:
            return found
        if not os.path.isfile(path):  # no file (code made from a string): as before
            raise FileNotFoundError(path)
        raise NotInSnapshot(path)

    def module_file(self, module_name: str) -> str | None:
        path = getattr(sys.modules.get(module_name), "__file__", None)
        return path if isinstance(path, str) and self.inside(path) else None

    def index(self, path: str) -> FileIndex | None:
        if path not in self._files:
            self._files[path] = self._read_index(path)
        return self._files[path]

    def _read_index(self, path: str) -> FileIndex | None:
        try:
            data = self._bytes(path)
        except OSError:
            return None
        return self.store.index(
            path, data, lambda digest: index_module(path, digest, self._source(path, data))
        )

    def _source(self, path: str, data: bytes) -> ModuleSource:
        """``path``'s syntax as ``data`` holds it: the shared parse when it is of the same
        text, else a parse of its own."""
        shared, error = call_user_code(self.read, path)
        if error is None and shared is not None and shared.text == decode_source(data):
            return shared
        return parse_text(path, data)

    def _parsed_file(self, path: str) -> Parsed | None:
        if path not in self._parsed:
            index = self.index(path)
            if index is None:
                return None
            try:
                data = self._bytes(path)
                self._parsed[path] = Parsed(self._source(path, data))
            except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
                return None
        return self._parsed[path]

    def lookup(self, path: str, kind: str, key: object) -> Local | None:
        """A node of ``path`` by qualified name, first line or line, from the index."""
        index = self.index(path)
        if index is None:
            return None
        if (kind, key) not in index.lookups:
            parsed = self._parsed_file(path)
            if parsed is None:
                return None
            index.lookups[(kind, key)] = _find(parsed, kind, key)
            index.changed = True
        return index.lookups[(kind, key)]

    def facts(self, path: str, local: Local) -> NodeFacts | None:
        index = self.index(path)
        if index is None:
            return None
        if local not in index.facts:
            parsed = self._parsed_file(path)
            found = parsed.nodes.get(local) if parsed is not None else None
            if parsed is None or found is None:
                return None
            index.facts[local] = node_facts(path, parsed.source, found, local, index._previous)
            index.changed = True
        return index.facts[local]

    def forget_syntax(self) -> None:
        """Drop the syntax trees parsed for missing facts (the indices stay)."""
        self._parsed.clear()


def _find(parsed: Parsed, kind: str, key: object) -> Local | None:
    """A class by qualified name, a function by first line, a statement by line."""
    if kind == "class":
        return parsed.classes.get(str(key))
    if kind == "function":
        return parsed.functions.get(int(str(key)))
    return parsed.statements.get(int(str(key)))


def too_deep(
    store: IndexStore, path: str, read: Callable[[str], ModuleSource]
) -> SourceTooDeep | None:
    """Why Python's parser gives up on the file ``path`` as it is now, if it does (None
    too when the file cannot be read or parsed otherwise): from the index ``store``
    kept of its bytes, so the file is parsed only when they changed since the build that
    kept it. Then ``read`` parses it (analysis shares that parse); the file is indexed
    when the fingerprints need it, perhaps in another process."""
    try:
        data = Path(path).read_bytes()
    except OSError:
        return None
    known = store.known(path, data)
    if known is None:
        return parse_problem(path, read)
    if known.too_deep is None:
        return None
    line, reason = known.too_deep
    return SourceTooDeep(reason, (path, line, None, None))

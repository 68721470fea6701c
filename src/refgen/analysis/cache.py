"""The analysis cache: parsed files and analysed records, owned by one Project.

Each kind of record is memoised under a key that changes when what it was
computed from changes: a source file by its path, modification time and size;
a class, a registry or a helper by the live object (a re-imported module gives
new objects, so they are analysed afresh). Nothing is cached at module level:
the cache lives and dies with the Project that owns it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Hashable, Iterable
from typing import Any, TypeVar

from refgen.analysis import discovery, modules, registry, scenarios
from refgen.analysis.members import ClassSource, read_class_source
from refgen.analysis.model import HelperDoc, ModuleDoc, RegistryDoc, ScenarioDoc
from refgen.analysis.source import ModuleSource, parse_module

T = TypeVar("T")


class AnalysisCache:
    """Memoised analysis of one project's sources."""

    def __init__(self, category_titles: Iterable[tuple[str, str]] = ()) -> None:
        self._tables: dict[str, dict[Hashable, Any]] = {}
        self._category_titles = dict(category_titles)
        """Module name -> the title a setting gives its category page."""

    def remember(self, kind: str, key: Hashable, compute: Callable[[Any], T]) -> T:
        """``compute(key)``, computed once per ``kind`` and ``key``."""
        table = self._tables.setdefault(kind, {})
        if key not in table:
            table[key] = compute(key)
        return table[key]  # type: ignore[no-any-return]

    def knows(self, kind: str, key: Hashable) -> bool:
        """Whether ``remember`` has computed ``kind`` for ``key`` already."""
        return key in self._tables.get(kind, {})

    def forget(self, *kinds: str) -> None:
        """Drop the records of ``kinds`` (every kind when none is named)."""
        for kind in kinds or list(self._tables):
            self._tables.pop(kind, None)

    def release_syntax_trees(self) -> None:
        """Drop parsed source files, keeping their text and definition tags; analysed
        records stay.

        Keeping hundreds of syntax trees alive after planning only gives the
        garbage collector more to walk; anything analysed later parses again.
        """
        tags = self._tables.setdefault("definition-tags", {})
        for key, source in self._tables.get("source", {}).items():
            if key not in tags:
                tags[key] = _text_and_tags_of(source)
        self.forget("source", "class-source")

    # ------------------------------------------------------------------ sources

    def module_source(self, path: str) -> ModuleSource:
        """``path`` parsed; parsed again only when the file changes."""
        stat = os.stat(path)
        return self.remember("source", (path, stat.st_mtime_ns, stat.st_size), _parse)

    def text_and_tags(self, path: str) -> tuple[str, dict[str, tuple[str, int, int]]]:
        """``path``'s text and where each class and function in it is written
        (:meth:`ModuleSource.definition_tags`), as the file is now.

        viewcode asks once for every object a page documents: a table of the
        file answers without keeping the tree of a large module.
        """
        stat = os.stat(path)
        key = (path, stat.st_mtime_ns, stat.st_size)
        return self.remember("definition-tags", key, lambda _: _text_and_tags_of(_parse(key)))

    def class_source(self, cls: type) -> ClassSource:
        return self.remember("class-source", cls, self._read_class_source)

    def _read_class_source(self, cls: type) -> ClassSource:
        return read_class_source(cls, self.module_source)

    # ------------------------------------------------------------------ records

    def module(self, name: str) -> ModuleDoc:
        return self.remember("module", name, self._analyse_module)

    def _analyse_module(self, name: str) -> ModuleDoc:
        doc = modules.analyse_module(self.module_source, name)
        title = self._category_titles.get(name)
        return doc if title is None else modules.retitled(doc, title)

    def scenario(self, cls: type) -> ScenarioDoc:
        """The record of ``cls`` without registry entries (the Project adds them)."""
        return self.remember("scenario", cls, self._analyse_class)

    def _analyse_class(self, cls: type) -> ScenarioDoc:
        return scenarios.analyse_class(self, self.module(cls.__module__).title, cls)

    def helper(self, function: Any) -> HelperDoc:
        return self.remember("helper", function, self._analyse_helper)

    def _analyse_helper(self, function: Any) -> HelperDoc:
        return modules.analyse_helper(self.module_source, function)

    def registry(self, path: str) -> RegistryDoc:
        """The registry ``path`` names: read again only when it is a new object."""
        obj = discovery.resolve(path)
        known = self._tables.get("registry", {}).get(path)
        if known is not None and known[0] is obj:
            return known[1]  # type: ignore[no-any-return]
        doc = registry.read_registry(self.module_source, path, obj)
        self._tables.setdefault("registry", {})[path] = (obj, doc)
        return doc

    def registry_files(self, path: str) -> tuple[str, ...]:
        return registry.registry_files(self.module_source, path)

    def helper_modules(self, analysed: Iterable[ScenarioDoc]) -> list[str]:
        return modules.helper_modules(analysed)


def _parse(key: tuple[str, int, int]) -> ModuleSource:
    return parse_module(key[0])


def _text_and_tags_of(source: ModuleSource) -> tuple[str, dict[str, tuple[str, int, int]]]:
    return source.text, source.definition_tags()

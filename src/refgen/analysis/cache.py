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


FileKey = tuple[str, int, int]
"""A file as it is now: its path, modification time and size."""
DefinitionTags = dict[str, tuple[str, int, int]]
K = TypeVar("K", bound=Hashable)


def _remembered(table: dict[K, T], key: K, compute: Callable[[K], T]) -> T:
    """``table[key]``, computed by ``compute(key)`` the first time."""
    if key not in table:
        table[key] = compute(key)
    return table[key]


def _file_key(path: str) -> FileKey:
    stat = os.stat(path)
    return path, stat.st_mtime_ns, stat.st_size


class AnalysisCache:
    """Memoised analysis of one project's sources: one typed table per kind of record."""

    def __init__(self, category_titles: Iterable[tuple[str, str]] = ()) -> None:
        self._category_titles = dict(category_titles)
        """Module name -> the title a setting gives its category page."""
        self._sources: dict[FileKey, ModuleSource] = {}
        self._tags: dict[FileKey, tuple[str, DefinitionTags]] = {}
        self._class_sources: dict[type, ClassSource] = {}
        self._modules: dict[str, ModuleDoc] = {}
        self._scenarios: dict[type, ScenarioDoc] = {}
        self._helpers: dict[Any, HelperDoc] = {}
        self._registries: dict[str, tuple[object, RegistryDoc]] = {}
        self._registry_files: dict[str, tuple[str, ...]] = {}

    def release_syntax_trees(self) -> None:
        """Drop parsed source files, keeping their text and definition tags; analysed
        records stay.

        Keeping hundreds of syntax trees alive after planning only gives the
        garbage collector more to walk; anything analysed later parses again.
        """
        for key, source in self._sources.items():
            if key not in self._tags:
                self._tags[key] = _text_and_tags_of(source)
        self._sources.clear()
        self._class_sources.clear()

    # ------------------------------------------------------------------ sources

    def module_source(self, path: str) -> ModuleSource:
        """``path`` parsed; parsed again only when the file changes."""
        return _remembered(self._sources, _file_key(path), _parse)

    def text_and_tags(self, path: str) -> tuple[str, DefinitionTags]:
        """``path``'s text and where each class and function in it is written
        (:meth:`ModuleSource.definition_tags`), as the file is now.

        viewcode asks once for every object a page documents: a table of the
        file answers without keeping the tree of a large module.
        """
        return _remembered(self._tags, _file_key(path), self._read_text_and_tags)

    def _read_text_and_tags(self, key: FileKey) -> tuple[str, DefinitionTags]:
        # A file parsed for analysis and not yet let go gives its tree: a second parse
        # of a large module (viewcode asks before the trees are let go) cost 0.15 s.
        source = self._sources.get(key)
        return _text_and_tags_of(source if source is not None else _parse(key))

    def class_source(self, cls: type) -> ClassSource:
        return _remembered(self._class_sources, cls, self._read_class_source)

    def _read_class_source(self, cls: type) -> ClassSource:
        return read_class_source(cls, self.module_source)

    # ------------------------------------------------------------------ records

    def module(self, name: str) -> ModuleDoc:
        return _remembered(self._modules, name, self._analyse_module)

    def _analyse_module(self, name: str) -> ModuleDoc:
        doc = modules.analyse_module(self.module_source, name)
        title = self._category_titles.get(name)
        return doc if title is None else modules.retitled(doc, title)

    def scenario(self, cls: type) -> ScenarioDoc:
        """The record of ``cls`` without registry entries (the Project adds them)."""
        return _remembered(self._scenarios, cls, self._analyse_class)

    def _analyse_class(self, cls: type) -> ScenarioDoc:
        return scenarios.analyse_class(self, self.module(cls.__module__).title, cls)

    def helper(self, function: Any) -> HelperDoc:
        return _remembered(self._helpers, function, self._analyse_helper)

    def _analyse_helper(self, function: Any) -> HelperDoc:
        return modules.analyse_helper(self.module_source, function)

    def registry(self, path: str) -> RegistryDoc:
        """The registry ``path`` names: read again only when it is a new object."""
        obj = discovery.resolve(path)
        known = self._registries.get(path)
        if known is not None and known[0] is obj:
            return known[1]
        doc = registry.read_registry(self.module_source, path, obj)
        self._registries[path] = (obj, doc)
        return doc

    def registry_files(self, path: str) -> tuple[str, ...]:
        """Files an edit to which can change the registry ``path`` names, found once."""
        return _remembered(
            self._registry_files, path, lambda p: registry.registry_files(self.module_source, p)
        )

    def helper_modules(self, analysed: Iterable[ScenarioDoc]) -> list[str]:
        return modules.helper_modules(analysed)


def _parse(key: FileKey) -> ModuleSource:
    return parse_module(key[0])


def _text_and_tags_of(source: ModuleSource) -> tuple[str, DefinitionTags]:
    return source.text, source.definition_tags()

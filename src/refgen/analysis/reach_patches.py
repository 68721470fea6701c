"""Patches: what the project's modules set on objects their names hold, found once per build.

A module may change a class, a module or a table that another module defines:
``Gauge.EFFICIENCY = 0.7``, ``helpers.TABLE["a"] = 2.0``, ``CONFIG.update(...)``,
at its top level or in a function it calls at import. Each such statement
(a :class:`~refgen.analysis.reach_index.Patch` of the module's index) is
resolved in its module's namespace to the object it changes, so that whatever
reaches that object reaches what changes it (:mod:`refgen.analysis.reach`).
"""

from __future__ import annotations

import sys
from types import ModuleType

from refgen.analysis.reach_files import Node, ReachFiles
from refgen.analysis.reach_names import attributes, mutable

ByAttribute = dict[str | None, list[Node]]


class Patches:
    """The patches of the imported modules of a project, by object and attribute."""

    def __init__(self, files: ReachFiles) -> None:
        self.files = files
        self._found: dict[int, tuple[object, ByAttribute]] | None = None
        """By the object's ``id``, with the object itself: kept alive, its ``id`` is not
        reused."""

    def of(self, owner: object, name: str | None) -> list[Node]:
        """What sets attribute ``name`` of ``owner`` (any attribute, for None), or changes
        what it holds, in any module of the project."""
        if self._found is None:
            self._found = self._find()
        by_attribute = self._found.get(id(owner), (None, {}))[1]
        if name is None:
            return [node for nodes in by_attribute.values() for node in nodes]
        return [*by_attribute.get(None, ()), *by_attribute.get(name, ())]

    def _find(self) -> dict[int, tuple[object, ByAttribute]]:
        found: dict[int, tuple[object, ByAttribute]] = {}
        for module_name, module in list(sys.modules.items()):
            file = getattr(module, "__file__", None)
            if not isinstance(file, str) or not file.endswith(".py") or not self.files.inside(file):
                continue
            index = self.files.index(file)
            for patch in index.patches if index is not None else ():
                head, *rest = patch.owner.split(".")
                if head not in vars(module):
                    continue
                owner, _, _ = attributes(vars(module)[head], rest)
                if isinstance(owner, ModuleType | type) or mutable(owner):
                    by_attribute = found.setdefault(id(owner), (owner, {}))[1]
                    node = (file, patch.local, module_name)
                    by_attribute.setdefault(patch.attribute, []).append(node)
        return found

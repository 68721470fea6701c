"""Dependencies: the files whose edits can change what a page shows."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path

from refgen.analysis import discovery
from refgen.analysis.guard import call_user_code
from refgen.analysis.members import SourceReader, class_sources
from refgen.analysis.model import DerivedDoc
from refgen.analysis.source import imported_modules


def source_files(reader: SourceReader, cls: type, derived: Iterable[DerivedDoc]) -> tuple[str, ...]:
    """Files an edit to which can change what the page of ``cls`` shows."""
    files = {klass.module.path for klass in class_sources(reader, cls) if klass.module}
    for helper in {h for d in derived for h in d.equation.helpers}:
        target, error = call_user_code(discovery.resolve, helper)
        if error is None:
            files.add(discovery.source_file(target) or "")
    module = sys.modules.get(cls.__module__)
    own = class_sources(reader, cls)[0].module if class_sources(reader, cls) else None
    if module is not None and own is not None:
        package = module.__package__
        for name in imported_modules(own, package):
            imported = sys.modules.get(name)
            path = getattr(imported, "__file__", None)
            if path:
                files.add(discovery.resolved_path(path))
    return tuple(sorted(f for f in files if f and _in_project(reader, cls, f)))


def _in_project(reader: SourceReader, cls: type, path: str) -> bool:
    """Whether ``path`` belongs to the package that defines ``cls`` (or to its bases)."""
    top = sys.modules.get(cls.__module__.partition(".")[0])
    top_file = getattr(top, "__file__", None)
    if not top_file:
        return True
    root = discovery.package_root(discovery.resolved_path(top_file))
    return (
        Path(path) == root
        or root in Path(path).parents
        or any(
            klass.module is not None and klass.module.path == path
            for klass in class_sources(reader, cls)
        )
    )


def in_package(top: str, path: str) -> bool:
    """Whether ``path`` lies in the top-level package ``top`` (or is that module)."""
    root_file = discovery.module_file(top)
    if root_file is None:
        return False
    root = discovery.package_root(root_file)
    return Path(path) == root or root in Path(discovery.resolved_path(path)).parents

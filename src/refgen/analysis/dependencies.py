"""Dependencies: whether a file belongs to the documented package."""

from __future__ import annotations

from pathlib import Path

from refgen.analysis import discovery


def in_package(top: str, path: str) -> bool:
    """Whether ``path`` lies in the top-level package ``top`` (or is that module)."""
    root_file = discovery.module_file(top)
    if root_file is None:
        return False
    root = discovery.package_root(root_file)
    return Path(path) == root or root in Path(discovery.resolved_path(path)).parents

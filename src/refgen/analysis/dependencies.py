"""Dependencies: whether a file belongs to the documented package, and which files do."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from pathlib import Path

from refgen.analysis import discovery


def in_package(top: str, path: str) -> bool:
    """Whether ``path`` lies in the top-level package ``top`` (or is that module); each
    folder of a namespace package counts."""
    resolved = Path(discovery.resolved_path(path))
    return any(
        Path(path) == root or root in resolved.parents for root in discovery.package_folders(top)
    )


_INSTALLED = {"site-packages", "dist-packages"}


def source_folders(roots: Iterable[Path]) -> list[Path]:
    """Where the project's own code can be: the folders that hold its packages (``src/``,
    a checkout's root), so that a helper in a sibling package or module counts; for a
    package installed among others (site-packages), only the package itself."""
    return sorted({root if root.parent.name in _INSTALLED else root.parent for root in roots})


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
    """A fingerprint of :func:`data_files`: their names and bytes.

    A name is taken as the file system's bytes (it need not be UTF-8); a file that
    cannot be read counts by why (the error names it), so it never stops a build.
    """
    hashed = hashlib.sha256()
    for root in sorted(set(roots)):
        for path in data_files([root]):
            hashed.update(os.fsencode(path.relative_to(root)) + b"\0")
            try:
                hashed.update(path.read_bytes())
            except OSError as error:
                hashed.update(f"{type(error).__name__}: {error.strerror}".encode())
    return hashed.hexdigest()


def python_files(folders: Iterable[Path]) -> list[Path]:
    """The Python files under ``folders``, as the reach graph may read them, but not in
    hidden folders, caches, ``node_modules`` or virtual environments (a folder holding
    ``pyvenv.cfg``), and not through a folder that is a symbolic link."""
    found = []
    for folder in sorted(set(folders)):
        for place, subfolders, files in os.walk(folder):
            subfolders[:] = [
                name
                for name in subfolders
                if not name.startswith(".")
                and name not in ("__pycache__", "node_modules")
                and not os.path.exists(os.path.join(place, name, "pyvenv.cfg"))
            ]
            found += [Path(place, name) for name in files if name.endswith(".py")]
    return found

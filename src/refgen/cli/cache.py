"""The command line's disk cache: a lookup's page, kept until a file it came from changes.

``refgen show NAME`` imports the library, reads its registry and parses its
modules: seconds, for a library of hundreds of classes. What it prints is a
page of blocks, plain data, so the page is kept in ``.refgen_cache/`` beside
``pyproject.toml`` (or in the current folder), with what the lookup read
(:func:`source_files`): every imported module that is
not installed, by the path it was imported from, the project's modules and
data files, each with a digest of its bytes, and the folders holding them, with
a digest of the names in each. The next lookup of the same name, with the
same options, settings, folder, ``sys.path`` and versions of refgen, pint and
Python, uses the page when every one of those still has its digest, without
importing anything of the library. Not tracked: installed packages other than
pint, files outside those folders, environment variables and the clock; use
``--no-cache`` when a value depends on them. A project whose packages cannot
be located (a namespace package) is never cached.

The cache is an aid, never a source of errors: a file that cannot be read or
written is ignored, and ``--no-cache`` leaves it alone.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
import sysconfig
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from refgen import __version__
from refgen.analysis import discovery
from refgen.analysis.dependencies import data_files, source_folders
from refgen.analysis.guard import TimedOut
from refgen.config import Settings
from refgen.files import installed_version, replace_atomically

if TYPE_CHECKING:
    from refgen.project import Project

FOLDER = ".refgen_cache"
FORMAT = 1
"""Bumped whenever what is stored changes shape."""
_IGNORE_ALL = "# Written by refgen: nothing here belongs in version control.\n*\n"


@dataclass(frozen=True)
class Entry:
    """A stored page and the digests of the files it was computed from."""

    files: dict[str, str]
    page: Any


def folder_for(settings: Settings) -> Path:
    """Beside the settings' ``pyproject.toml``, or in the current folder."""
    base = settings.source.parent if settings.source else Path.cwd()
    return base / FOLDER


def lookup_key(settings: Settings, *query: str) -> str:
    """What the page depends on besides the files: the query, settings, folder, versions."""
    parts = [
        str(FORMAT),
        __version__,
        installed_version("pint"),
        sys.version,
        repr(settings),
        os.getcwd(),
        *sys.path,
        "\0",
        *query,
    ]
    return hashlib.sha256("\0".join(parts).encode("utf-8", "surrogateescape")).hexdigest()


def cached_page(
    folder: Path, key: str, compute: Callable[[], tuple[Any, Iterable[str] | None]]
) -> Any:
    """The page stored under ``key`` if its files are unchanged; else ``compute()``'s, stored.

    ``compute`` returns the page and the files and folders it was computed from
    (None when they cannot be known: then nothing is stored). A page during whose
    computation user code ran out of time is not stored either: on a less busy
    machine the value may be there.
    """
    stored = _load(folder / f"{key}.pickle")
    if stored is not None and _unchanged(stored.files):
        return stored.page
    timeouts = TimedOut.raised
    page, files = compute()
    if files is not None and TimedOut.raised == timeouts:
        digests = {path: digest for path in sorted(set(files)) if (digest := _digest(path))}
        _store(folder, f"{key}.pickle", Entry(digests, page))
    return page


def _load(path: Path) -> Entry | None:
    try:
        with path.open("rb") as file:
            found = pickle.load(file)
    except Exception:  # missing, unreadable, from another version: as if absent
        return None
    return found if isinstance(found, Entry) else None


def _unchanged(files: dict[str, str]) -> bool:
    return all(_digest(path) == digest for path, digest in files.items())


def _digest(path: str) -> str:
    """The bytes of a file; for a folder, the names in it (hidden ones and bytecode aside)."""
    try:
        found = Path(path)
        if found.is_dir():
            names = sorted(
                p.name
                for p in found.iterdir()
                if not p.name.startswith(".") and p.name != "__pycache__" and p.suffix != ".pyc"
            )
            return hashlib.sha256("\0".join(names).encode("utf-8", "surrogateescape")).hexdigest()
        return hashlib.sha256(found.read_bytes()).hexdigest()
    except OSError:
        return ""


def _store(folder: Path, name: str, entry: Entry) -> None:
    try:
        data = pickle.dumps(entry, protocol=pickle.HIGHEST_PROTOCOL)
        folder.mkdir(exist_ok=True)
        ignore = folder / ".gitignore"
        if not ignore.exists():
            ignore.write_text(_IGNORE_ALL, encoding="utf-8")
        replace_atomically(folder / name, data)
    except Exception:  # a page that cannot be pickled, a read-only folder: no cache
        return


# ---------------------------------------------------------------------- what a page came from


def source_files(project: Project) -> list[str] | None:
    """The files and folders what ``project`` shows is computed from, as far as they can
    be known; None when its packages cannot be found (a namespace package).

    Every imported module that is not installed (outside the standard library
    and site-packages, by the path it was imported from, symbolic links not
    followed), every module of the project's packages, their data files, and the
    folders holding any of these or the packages (a module added beside one can be
    imported by code that tries)."""
    roots = project.package_roots()
    if not roots:
        return None
    installed = _installed_folders()
    found: set[str] = {str(path) for path in data_files(roots)}
    found |= {str(folder) for folder in source_folders(roots)}
    found |= {str(folder) for root in roots for folder in _folders(root)}
    for module in list(sys.modules.values()):
        file = getattr(module, "__file__", None)
        if not isinstance(file, str):
            continue
        path = os.path.abspath(file)
        ours = any(Path(discovery.resolved_path(path)).is_relative_to(r) for r in roots)
        if ours or not path.startswith(installed):
            found |= {path, os.path.dirname(path)}
    return sorted(found)


def _installed_folders() -> tuple[str, ...]:
    """Where the standard library and installed packages live (their versions count,
    not their files)."""
    paths = sysconfig.get_paths()
    names = ("stdlib", "platstdlib", "purelib", "platlib")
    return tuple(os.path.join(os.path.abspath(paths[n]), "") for n in names if n in paths)


def _folders(root: Path) -> list[Path]:
    """``root`` and every folder below it, when it is a folder."""
    if not root.is_dir():
        return []
    return [root, *(p for p in root.rglob("*") if p.is_dir() and "__pycache__" not in p.parts)]

"""The command line's disk cache: a lookup's page, kept until a file it came from changes.

``refgen show NAME`` imports the library, reads its registry and parses its
modules: seconds, for a library of hundreds of classes. What it prints is a
page of blocks, plain data, so the page is kept in ``.refgen_cache/`` beside
``pyproject.toml`` (or in the current folder), with what the lookup read
(:meth:`refgen.project.Project.source_files`): every imported module that is
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
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from refgen import __version__
from refgen.analysis.guard import TimedOut
from refgen.config import Settings
from refgen.files import installed_version, replace_atomically

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

"""Files refgen keeps for itself (caches): written whole or not at all, and keyed by
the versions of what made them."""

from __future__ import annotations

import importlib.metadata
import os
import tempfile
from pathlib import Path


def replace_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file beside it, then a rename.

    A reader never sees half a file, and a failed write leaves nothing behind;
    the ``OSError`` is raised to the caller, for whom the file is usually optional.
    """
    handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def installed_version(distribution: str) -> str:
    """The installed version of ``distribution``; empty when it is not installed."""
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return ""

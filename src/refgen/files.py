"""Files refgen keeps for itself (caches), written whole or not at all and keyed by the
versions of what made them; and files written by a thread while the build goes on."""

from __future__ import annotations

import contextlib
import importlib.metadata
import os
import pickle
import queue
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any


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


def keep_under_token(path: Path, token: str, kept: dict[str, Any]) -> None:
    """``kept`` pickled to ``path`` under ``token`` (which the build that reads it back holds
    elsewhere); nothing is kept when it cannot be written."""
    data = pickle.dumps((token, kept), pickle.HIGHEST_PROTOCOL)
    with contextlib.suppress(OSError):
        replace_atomically(path, data)


def kept_under_token(path: Path, token: str) -> dict[object, object]:
    """What :func:`keep_under_token` kept in ``path`` under ``token``; empty from a file
    that is missing, damaged, of another build or of another shape."""
    try:
        kept, found = pickle.loads(path.read_bytes())
    except Exception:
        return {}
    return found if kept == token and isinstance(found, dict) else {}


def installed_version(distribution: str) -> str:
    """The installed version of ``distribution``; empty when it is not installed."""
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return ""


class WrittenAside:
    """Files written by a thread while the caller goes on.

    Writing many small files is mostly waiting in system calls, where a thread
    lets the interpreter run the caller's code. Each file is written by
    ``write(path, text)``; what stops the thread is raised by :meth:`finish`.
    The thread waits for more files until it is finished: one a caller never
    finished (a build stopped by Ctrl-C) is by :func:`finish_left_running`.
    """

    def __init__(self, files: list[tuple[Path, str]], write: Callable[[Path, str], object]) -> None:
        self.error: BaseException | None = None
        self._queue: queue.SimpleQueue[tuple[Path, str] | None] = queue.SimpleQueue()
        for file in files:
            self._queue.put(file)
        self._thread = threading.Thread(
            target=self._write, args=(write,), name="refgen-files", daemon=True
        )
        self._thread.start()
        _RUNNING.add(self)

    def add(self, path: Path, text: str) -> None:
        """One more file to write."""
        self._queue.put((path, text))

    def _write(self, write: Callable[[Path, str], object]) -> None:
        try:
            while (file := self._queue.get()) is not None:
                write(*file)
        except BaseException as error:  # raised again in the caller's thread, by finish()
            self.error = error

    def finish(self) -> None:
        """Wait for every file; raise what stopped the thread, if anything did."""
        self.join_quietly()
        if self.error is not None:
            raise self.error

    def join_quietly(self) -> None:
        """Wait for the thread, whatever stopped it."""
        self._queue.put(None)
        self._thread.join()
        _RUNNING.discard(self)


_RUNNING: set[WrittenAside] = set()
"""The writers not finished yet."""


def finish_left_running() -> None:
    """Wait for every writer a caller left running (quietly): a process that builds again
    may fork only once no other thread runs."""
    for writer in list(_RUNNING):
        writer.join_quietly()

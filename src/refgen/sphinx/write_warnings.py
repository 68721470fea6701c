"""Warnings given while pages are written: kept as the page's that gave them, and given
again for the pages a later build does not write.

Sphinx resolves each page (its post-transforms, then ``doctree-resolved``) and
then writes it (``write_doc_serialized``, ``write_doc``: the translator, the
template). What a page's post-transforms give is that page's, at its
``doctree-resolved``; what is given from there until the next page's
post-transforms (later ``doctree-resolved`` handlers, its table of contents, its
writing) is that page's writing's, while Sphinx is still writing pages:

- writing serially, Sphinx holds warnings back (``pending_warnings``) until the
  last page is written, then gives each again: what comes once its buffer is gone
  (those second copies, its indices, another handler's own held-back warnings) is
  no page's;
- writing in parallel, each writer's warnings reach this process later, named by
  the page it was writing (a log record factory, set only then); the writing is
  over when the pages are collected (``html-collect-pages``) or the build ends.

A page resolved a second time, or once every page is written (by an extension),
keeps what its writing gave; a page resolved while another is (an extension's
``doctree-resolved`` handler) is part of that other page's writing.
"""

from __future__ import annotations

import contextlib
import logging
import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util import logging as sphinx_logging

from refgen.files import replace_atomically
from refgen.sphinx.records import replay, stored
from refgen.sphinx.state import StoredWarning, build_state

FIRST = -1_000_000
"""The priority of :func:`writing_over`: before every other handler of its events."""
WRITTEN_BY = "refgen_written_page"
"""The attribute a parallel writer's warning is given, naming the page it was writing."""


def write_warnings_file(app: Sphinx) -> Path:
    """In the doctree folder, beside the environment (saved before pages are written):
    one file per builder, since ``sphinx -M`` builders share the folder and each writes,
    and warns, differently."""
    return Path(app.doctreedir) / f"refgen-write-warnings-{app.builder.name}.pickle"


class _WriteCapture(logging.Handler):
    """What pages gave as they were written, by page (see the module's docstring)."""

    def __init__(self, app: Sphinx) -> None:
        super().__init__(logging.WARNING)
        self.env = app.env
        self.builder = app.builder
        self.parallel = bool(getattr(app.builder, "parallel_ok", False))
        self.written: dict[str, list[StoredWarning]] = {}
        """The warnings of each generated page written in this build."""
        self.resolving: list[logging.LogRecord] = []
        """Given by a page's post-transforms (or, writing in parallel, by a builder that
        does not name the page it writes): that page's, at its ``doctree-resolved``."""
        self.resolved: set[str] = set()
        """Every page resolved to be written in this build."""
        self.page: str | None = None
        """The page resolved last, being written."""
        self.writing: list[StoredWarning] | None = None
        """Where its warnings go (for a page refgen does not generate, a list no one keeps)."""
        self.held_by: tuple[logging.Handler, ...] = ()
        """Serially: the buffer Sphinx holds warnings back in while it writes pages."""
        self.done = False
        """In parallel: the pages are written."""

    def emit(self, record: logging.LogRecord) -> None:
        if hasattr(record, WRITTEN_BY):
            self._from_a_parallel_writer(record)
        elif self.env.docname:  # a page's post-transforms
            self.resolving.append(record)
        elif self.writing is not None and self._still_writing():
            self.writing.append(stored(record))
        # else no page's: before the first page resolves (the theme's options, assets),
        # or once every page is written

    def _still_writing(self) -> bool:
        if self.parallel:
            return not self.done
        handlers = logging.getLogger(sphinx_logging.NAMESPACE).handlers
        if not self.held_by:  # no page resolved yet
            return any(isinstance(h, sphinx_logging.MemoryHandler) for h in handlers)
        return any(held is handler for held in self.held_by for handler in handlers)

    def _from_a_parallel_writer(self, record: logging.LogRecord) -> None:
        page = getattr(record, WRITTEN_BY, None)
        if page is None:  # a builder that does not say what it writes: the next page's
            self.resolving.append(record)
        elif page in self.written:
            self.written[page].append(stored(record))

    def page_resolved(self, docname: str, generated: bool) -> None:
        """``docname``'s post-transforms are done: it is written next."""
        given = [stored(r) for r in self.resolving]
        self.resolving.clear()
        if not self._still_writing():
            return  # resolved once every page is written (an extension's): no page's
        if not self.parallel and not _wrote(self.builder, self.page):
            if self.writing is not None:  # resolved inside the page's own resolving
                self.writing += given
            return
        if docname in self.resolved:
            return  # resolved again (an extension's): not its writing
        self.resolved.add(docname)
        self.page, self.writing = docname, given
        if generated:
            self.written[docname] = given
        if not self.parallel:
            handlers = logging.getLogger(sphinx_logging.NAMESPACE).handlers
            self.held_by = tuple(h for h in handlers if isinstance(h, sphinx_logging.MemoryHandler))


def _wrote(builder: Any, docname: str | None) -> bool:
    """Whether ``builder`` has written ``docname`` (the page resolved last) when another
    page is resolved; not so when an extension's ``doctree-resolved`` handler resolves
    a page while ``docname`` is. Builders that do not say which page they write are
    taken to have written it."""
    return docname is None or getattr(builder, "current_docname", docname) == docname


class _NamingWrittenPages:
    """A log record factory that names, in a parallel writer's process, the page it is
    writing (the builder's ``current_docname``); set while Sphinx writes in parallel."""

    def __init__(self, builder: Any) -> None:
        self.builder: Any = builder
        self.pid = os.getpid()
        previous = logging.getLogRecordFactory()
        if isinstance(previous, _NamingWrittenPages) and previous.builder is None:
            previous = previous.previous  # one another factory kept from being taken out
        self.previous: Callable[..., logging.LogRecord] = previous

    def __call__(self, *args: Any, **kwargs: Any) -> logging.LogRecord:
        record = self.previous(*args, **kwargs)
        if self.builder is not None and os.getpid() != self.pid:
            setattr(record, WRITTEN_BY, getattr(self.builder, "current_docname", None))
        return record

    def restore(self) -> None:
        """Names no page any more; taken out, unless another factory was set over it."""
        self.builder = None
        if logging.getLogRecordFactory() is self:
            logging.setLogRecordFactory(self.previous)


_captures: list[tuple[_WriteCapture, _NamingWrittenPages | None]] = []


def start(app: Sphinx, builder: Any) -> None:
    """``write-started``: warnings from here on are kept as the pages' that gave them.
    A capture an interrupted build left in this process goes first."""
    _stop_capturing()
    capture = _WriteCapture(app)
    logging.getLogger(sphinx_logging.NAMESPACE).addHandler(capture)
    naming = _NamingWrittenPages(builder) if capture.parallel else None
    if naming is not None:
        logging.setLogRecordFactory(naming)
    _captures.append((capture, naming))


def pages_written() -> set[str]:
    """The pages this build resolved to write, as they were written."""
    return {page for capture, _naming in _captures for page in capture.resolved}


def page_resolved(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """``doctree-resolved``: what ``docname``'s post-transforms gave (``nitpicky``) is its;
    what writing it gives follows."""
    generated = docname in build_state(app.env).pages
    for capture, _naming in _captures:
        capture.page_resolved(docname, generated)


def writing_over(*_args: Any) -> tuple[()]:
    """``html-collect-pages`` and ``build-finished``, before any other handler: whatever
    comes now is no page's writing. (No page to add to the collection.)"""
    for capture, _naming in _captures:
        capture.done = True
    return ()


def finish(app: Sphinx, exception: BaseException | None) -> None:
    """``build-finished``: give again the write warnings of the pages this build did not
    write, and keep those of every generated page for the next build."""
    written = {d: w for capture, _ in _captures for d, w in capture.written.items()}
    _stop_capturing()
    last = kept_warnings(app)
    known = build_state(app.env).pages
    if exception is None:
        for docname, warnings in last.items():
            if docname not in written and docname in known:
                replay(warnings)
    kept = {d: w for d, w in {**last, **written}.items() if d in known}
    path = write_warnings_file(app)
    if path.parent.is_dir():
        with contextlib.suppress(OSError):  # a folder Sphinx itself could not write either
            replace_atomically(path, pickle.dumps(kept))


def _stop_capturing() -> None:
    while _captures:
        capture, naming = _captures.pop()
        logging.getLogger(sphinx_logging.NAMESPACE).removeHandler(capture)
        if naming is not None:
            naming.restore()


def kept_warnings(app: Sphinx) -> dict[str, list[StoredWarning]]:
    """What the last build's writing of each generated page warned about."""
    try:
        found = pickle.loads(write_warnings_file(app).read_bytes())
    except Exception:  # missing, damaged, or written by another refgen: nothing to give again
        return {}
    if not isinstance(found, dict):
        return {}
    return {
        docname: warnings
        for docname, warnings in found.items()
        if isinstance(docname, str)
        and isinstance(warnings, list)
        and all(isinstance(w, tuple) and len(w) in (4, 5) for w in warnings)
    }

"""Page records: noted as each generated page is read and written, reported once all are read.

The records (:class:`~refgen.sphinx.state.PageRecord`) live in the build
state; :mod:`refgen.sphinx.incremental` decides from them what to read again;
the directives, the ``scenario`` role and the examples fill them in, and the
warnings each page gave are captured here.
"""

from __future__ import annotations

import contextlib
import logging
import os
import pickle
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging as sphinx_logging
from sphinx.util.build_phase import BuildPhase

from refgen.analysis.model import Problem
from refgen.files import replace_atomically
from refgen.site.compose import RecordedPage
from refgen.site.plan import PlannedPage
from refgen.sphinx.reporting import report
from refgen.sphinx.state import PageRecord, StoredWarning, build_state

logger = sphinx_logging.getLogger("refgen")


def record_of(env: BuildEnvironment, docname: str | None = None) -> PageRecord:
    """The record of ``docname`` (the page being read), begun if it has none."""
    return build_state(env).record_of(docname or env.docname)


def plan(env: BuildEnvironment, pages: list[PlannedPage], fingerprints: dict[str, str]) -> None:
    """The generated pages of this build, each with the fingerprint it is read at."""
    build_state(env).planned = {p.docname: (p, fingerprints.get(p.docname, "")) for p in pages}


def note_page(env: BuildEnvironment, page: RecordedPage) -> None:
    """The page just read: its digest and the fingerprint it was read at."""
    record = record_of(env)
    record.digest = page.digest
    planned = build_state(env).planned.get(env.docname)
    record.fingerprint = planned[1] if planned else None
    record.title = page.composed.page.title
    record.summary = page.composed.summary
    record.markdown = page.markdown
    record.values = page.composed.values
    record.problems = list(page.composed.problems)


def note_quote(env: BuildEnvironment, text: str, shown: str) -> None:
    record_of(env).quotes[text] = shown


def note_sweep(env: BuildEnvironment, key: str, shown: str) -> None:
    record_of(env).sweeps[key] = shown


# ---------------------------------------------------------------------- warnings


class _Capture(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def _listening() -> _Capture:
    """A new capture, attached to Sphinx's logger."""
    handler = _Capture()
    logging.getLogger(sphinx_logging.NAMESPACE).addHandler(handler)
    return handler


def _stop_listening(handler: logging.Handler) -> None:
    logging.getLogger(sphinx_logging.NAMESPACE).removeHandler(handler)


_capturing: list[_Capture] = []


def start_capture(app: Sphinx, docname: str, source: list[str]) -> None:
    """``source-read``: keep the warnings of the page about to be read."""
    _capturing.append(_listening())


def stop_capture(app: Sphinx, doctree: nodes.document) -> None:
    """``doctree-read``: the page is read; its warnings are stored if it is refgen's."""
    while _capturing:
        handler = _capturing.pop()
        _stop_listening(handler)
        docname = app.env.docname
        if docname in build_state(app.env).pages:
            record_of(app.env, docname).warnings += [_stored(r) for r in handler.records]


def write_warnings_file(app: Sphinx) -> Path:
    """In the doctree folder: the environment is saved before writing, so warnings given
    while pages are written are kept beside it, one file per builder (``sphinx -M``
    builders share the folder, and each writes, and warns, differently)."""
    return Path(app.doctreedir) / f"refgen-write-warnings-{app.builder.name}.pickle"


WRITTEN_BY = "refgen_written_page"
"""The attribute a parallel writer's warning is given, naming the page it was writing."""


class _WriteCapture(logging.Handler):
    """Warnings given while pages are written, kept as the page's that gave them.

    Sphinx resolves each page (post-transforms, ``doctree-resolved``) and then writes
    it. What is given while a page resolves is that page's, at its ``doctree-resolved``;
    what is given while it is written is kept as it comes: writing serially, Sphinx
    holds those warnings back to give them again at its end; writing in parallel, each
    writer's warnings reach this process later, named by the page (:data:`WRITTEN_BY`).
    """

    def __init__(self, builder: Any) -> None:
        super().__init__(logging.WARNING)
        self.builder = builder
        self.resolving: list[logging.LogRecord] = []
        """Given since the last page resolved: the next page's, at its ``doctree-resolved``."""
        self.page: str | None = None
        """The page resolved last, to be written next."""
        self.written: list[StoredWarning] | None = None
        """Where the warnings of :attr:`page` go as it is written (a page refgen does not
        generate: a list no one keeps)."""

    def emit(self, record: logging.LogRecord) -> None:
        if hasattr(record, WRITTEN_BY):
            self._from_a_parallel_writer(record)
        elif self.written is not None and self._writing_a_page():
            self.written.append(_stored(record))
        else:
            self.resolving.append(record)

    def _writing_a_page(self) -> bool:
        """Whether the page resolved last is being written now: not when the next one
        resolves, nor once every page is (its indices, its search index), when Sphinx
        gives what it held back a second time."""
        if getattr(self.builder, "phase", None) is not BuildPhase.WRITING:
            return False
        return _held_back() or getattr(self.builder, "parallel_ok", False)

    def _from_a_parallel_writer(self, record: logging.LogRecord) -> None:
        page = getattr(record, WRITTEN_BY, None)
        if page is None:  # a builder that does not say what it writes: as Sphinx gives it
            self.resolving.append(record)
        elif page in _written:
            _written[page].append(_stored(record))


def _held_back() -> bool:
    """Whether a warning given now is held back by Sphinx to be given at the end of its
    serial writing (``sphinx.util.logging.pending_warnings``)."""
    handlers = logging.getLogger(sphinx_logging.NAMESPACE).handlers
    return any(isinstance(h, sphinx_logging.MemoryHandler) for h in handlers)


class _NamingWrittenPages:
    """A log record factory that names, in a parallel writer's process, the page it is
    writing (the builder's ``current_docname``), for :class:`_WriteCapture`; set while
    Sphinx writes in parallel."""

    def __init__(self, builder: Any) -> None:
        self.builder = builder
        self.pid = os.getpid()
        self.previous = logging.getLogRecordFactory()

    def __call__(self, *args: Any, **kwargs: Any) -> logging.LogRecord:
        record = self.previous(*args, **kwargs)
        if os.getpid() != self.pid:
            setattr(record, WRITTEN_BY, getattr(self.builder, "current_docname", None))
        return record

    def restore(self) -> None:
        if logging.getLogRecordFactory() is self:
            logging.setLogRecordFactory(self.previous)


_writing: list[tuple[_WriteCapture, _NamingWrittenPages | None]] = []
_written: dict[str, list[StoredWarning]] = {}


def start_write_capture(app: Sphinx, builder: Any) -> None:
    """``write-started``: warnings from here on are kept as the pages' that gave them."""
    handler = _WriteCapture(builder)
    logging.getLogger(sphinx_logging.NAMESPACE).addHandler(handler)
    naming = _NamingWrittenPages(builder) if getattr(builder, "parallel_ok", False) else None
    if naming is not None:
        logging.setLogRecordFactory(naming)
    _writing.append((handler, naming))


def note_write_warnings(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """``doctree-resolved``: the warnings resolving ``docname``'s links gave (``nitpicky``);
    what writing it gives follows. A page written in this build is not given its last
    build's warnings again."""
    for handler, _naming in _writing:
        given = [_stored(r) for r in handler.resolving]
        handler.resolving.clear()
        if docname in build_state(app.env).pages:
            _written[docname] = given
        if _wrote_it(app.builder, handler.page):
            handler.page, handler.written = docname, _written.get(docname, [])


def _wrote_it(builder: Any, docname: str | None) -> bool:
    """Whether ``builder`` has written ``docname`` (the page resolved last) by the time
    another page is resolved; not when another extension's ``doctree-resolved`` handler
    resolves a page while ``docname`` is. Builders that do not say which page they write
    are taken to have written it."""
    return docname is None or getattr(builder, "current_docname", docname) == docname


def stop_write_capture(app: Sphinx, exception: BaseException | None) -> None:
    """``build-finished``: give again the write warnings of the pages this build did not
    write, and keep those of every generated page for the next build."""
    while _writing:
        handler, naming = _writing.pop()
        _stop_listening(handler)
        if naming is not None:
            naming.restore()
    last = write_warnings(app)
    if exception is None:
        for docname, warnings in last.items():
            if docname not in _written and docname in build_state(app.env).pages:
                replay(warnings)
    kept = {**last, **_written}
    _written.clear()
    path = write_warnings_file(app)
    if path.parent.is_dir():
        known = build_state(app.env).pages
        data = pickle.dumps({d: w for d, w in kept.items() if d in known})
        with contextlib.suppress(OSError):  # a folder Sphinx itself could not write either
            replace_atomically(path, data)


def write_warnings(app: Sphinx) -> dict[str, list[StoredWarning]]:
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


@contextmanager
def warnings_of(env: BuildEnvironment, docname: str) -> Iterator[None]:
    """Warnings given inside the block (e.g. by its examples) belong to ``docname``."""
    handler = _listening()
    try:
        yield
    finally:
        _stop_listening(handler)
        if docname in build_state(env).pages:
            record_of(env, docname).example_warnings += [_stored(r) for r in handler.records]


def _stored(record: logging.LogRecord) -> StoredWarning:
    location = getattr(record, "location", None)
    if isinstance(location, nodes.Node):
        location = sphinx_logging.get_node_location(location)
    kind, subtype = getattr(record, "type", None), getattr(record, "subtype", None)
    given = (_message(record, location, kind, subtype), kind, subtype, location)
    return (*given, True) if getattr(record, "once", False) else given


def _message(record: logging.LogRecord, location: Any, kind: Any, subtype: Any) -> str:
    """The warning's own text. Sphinx's handlers may have written the type into the
    message already (``text [type.subtype]``), and a warning a parallel writer gave
    reaches this process written out whole (``location: WARNING: text``): given again,
    it would say its location and type twice."""
    message = logging.LogRecord.getMessage(record)
    lead = f"{location}: {getattr(record, 'prefix', '')}" if location else ""
    if lead and message.startswith(lead):
        message = message[len(lead) :]
    shown = f"{kind}.{subtype}" if subtype else f"{kind}"
    return message.removesuffix(f" [{shown}]") if kind else message


def report_page_problems(env: BuildEnvironment) -> None:
    """Once every page is read: the problems of every generated page, those read in this
    build and those kept from the last, reported together (repeats grouped, a count of
    missing docstrings): a clean build and a rebuild print the same lines."""
    project = build_state(env).project
    if project is not None:
        known = build_state(env).pages
        report(
            (p for docname in sorted(known) for p in problems_of(known[docname])),
            project.settings,
        )


def problems_of(record: PageRecord) -> list[Problem]:
    """The record's problems (none for a record an older refgen kept without them)."""
    found: list[Problem] = vars(record).get("problems", [])
    return found


def replay(warnings: list[StoredWarning]) -> None:
    for message, kind, subtype, location, *once in warnings:
        logger.warning(message, type=kind, subtype=subtype, location=location, once=any(once))

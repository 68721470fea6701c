"""Page records: what the last build read for each generated page, kept in the environment.

:mod:`refgen.sphinx.incremental` decides from them what to read again; the
directives, the ``scenario`` role and the examples fill them in.
"""

from __future__ import annotations

import contextlib
import logging
import pickle
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util import logging as sphinx_logging

from refgen.analysis.model import Problem
from refgen.evaluate.values import EntryValues
from refgen.files import replace_atomically
from refgen.site.compose import RecordedPage
from refgen.site.plan import PlannedPage
from refgen.sphinx.reporting import report
from refgen.sphinx.state import project_if_any

logger = sphinx_logging.getLogger("refgen")

StoredWarning = tuple[str, str | None, str | None, Any]
"""A warning as given: message, type, subtype and location (a string or a pair)."""


@dataclass
class PageRecord:
    """What the last build read for one page."""

    fingerprint: str | None = None
    digest: str | None = None
    quotes: dict[str, str] = field(default_factory=dict)
    """``scenario`` role text -> what it showed, for pages that quote values."""
    sweeps: dict[str, str] = field(default_factory=dict)
    """``refgen-sweep`` request (:meth:`~refgen.evaluate.sweeps.SweepRequest.key`) -> a
    digest of what it showed, for pages that plot sweeps."""
    problems: list[Problem] = field(default_factory=list)
    """The problems of what the page shows, reported after reading with every other
    page's (:func:`report_page_problems`)."""
    warnings: list[StoredWarning] = field(default_factory=list)
    """Warnings given while the page was read."""
    example_warnings: list[StoredWarning] = field(default_factory=list)
    """Warnings of its examples, which run after reading (and again without a re-read)."""
    title: str = ""
    summary: str = ""
    """The page in one line, for ``llms.txt``."""
    markdown: str = ""
    """The page as Markdown (:mod:`refgen.render.markdown`), written beside it."""
    values: tuple[EntryValues, ...] = ()
    """The registry values it computed, for the registry's downloads."""


RECORDS = "refgen_pages"
PLANNED = "refgen_planned"
ROOT = "refgen_root"


def records(env: Any) -> dict[str, PageRecord]:
    if not hasattr(env, RECORDS):
        setattr(env, RECORDS, {})
    found: dict[str, PageRecord] = getattr(env, RECORDS)
    return found


def record_of(env: Any, docname: str | None = None) -> PageRecord:
    return records(env).setdefault(docname or env.docname, PageRecord())


def planned_pages(env: Any) -> dict[str, tuple[PlannedPage, str]]:
    """Generated pages of this build: docname -> (page, fingerprint)."""
    found: dict[str, tuple[PlannedPage, str]] = getattr(env, PLANNED, {})
    return found


def plan(env: Any, pages: list[PlannedPage], fingerprints: dict[str, str]) -> None:
    setattr(env, PLANNED, {p.docname: (p, fingerprints.get(p.docname, "")) for p in pages})


def note_page(env: Any, page: RecordedPage) -> None:
    """The page just read: its digest and the fingerprint it was read at."""
    record = record_of(env)
    record.digest = page.digest
    planned = planned_pages(env).get(env.docname)
    record.fingerprint = planned[1] if planned else None
    record.title = page.composed.page.title
    record.summary = page.composed.summary
    record.markdown = page.markdown
    record.values = page.composed.values
    record.problems = list(page.composed.problems)


def note_quote(env: Any, text: str, shown: str) -> None:
    record_of(env).quotes[text] = shown


def note_sweep(env: Any, key: str, shown: str) -> None:
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


def _stop_listening(handler: _Capture) -> None:
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
        if docname in records(app.env):
            record_of(app.env, docname).warnings += [_stored(r) for r in handler.records]


WRITE_WARNINGS = "refgen-write-warnings.pickle"
"""In the doctree folder: the environment is saved before writing, so warnings given
while pages are written are kept beside it."""

_writing: list[_Capture] = []
_written: dict[str, list[StoredWarning]] = {}


def start_write_capture(app: Sphinx, builder: Any) -> None:
    """``write-started``: warnings from here to each ``doctree-resolved`` are that page's."""
    _writing.append(_listening())


def note_write_warnings(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """``doctree-resolved``: the warnings resolving ``docname``'s links gave (``nitpicky``);
    a page written in this build is not given its last build's warnings again."""
    for handler in _writing:
        if docname in records(app.env):
            _written[docname] = [_stored(r) for r in handler.records]
        handler.records.clear()


def stop_write_capture(app: Sphinx, exception: BaseException | None) -> None:
    """``build-finished``: give again the write warnings of the pages this build did not
    write, and keep those of every generated page for the next build."""
    while _writing:
        _stop_listening(_writing.pop())
    last = write_warnings(app)
    if exception is None:
        for docname, warnings in last.items():
            if docname not in _written and docname in records(app.env):
                replay(warnings)
    kept = {**last, **_written}
    _written.clear()
    path = Path(app.doctreedir) / WRITE_WARNINGS
    if path.parent.is_dir():
        known = records(app.env)
        data = pickle.dumps({d: w for d, w in kept.items() if d in known})
        with contextlib.suppress(OSError):  # a folder Sphinx itself could not write either
            replace_atomically(path, data)


def write_warnings(app: Sphinx) -> dict[str, list[StoredWarning]]:
    """What the last build's writing of each generated page warned about."""
    try:
        found = pickle.loads((Path(app.doctreedir) / WRITE_WARNINGS).read_bytes())
    except Exception:  # missing, damaged, or written by another refgen: nothing to give again
        return {}
    if not isinstance(found, dict):
        return {}
    return {
        docname: warnings
        for docname, warnings in found.items()
        if isinstance(docname, str)
        and isinstance(warnings, list)
        and all(isinstance(w, tuple) and len(w) == 4 for w in warnings)
    }


@contextmanager
def warnings_of(env: Any, docname: str) -> Iterator[None]:
    """Warnings given inside the block (e.g. by its examples) belong to ``docname``."""
    handler = _listening()
    try:
        yield
    finally:
        _stop_listening(handler)
        if docname in records(env):
            record_of(env, docname).example_warnings += [_stored(r) for r in handler.records]


def _stored(record: logging.LogRecord) -> StoredWarning:
    location = getattr(record, "location", None)
    if isinstance(location, nodes.Node):
        location = sphinx_logging.get_node_location(location)
    kind, subtype = getattr(record, "type", None), getattr(record, "subtype", None)
    return (_message(record, location, kind, subtype), kind, subtype, location)


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


def report_page_problems(app: Sphinx, env: Any) -> list[str]:
    """``env-updated``: the problems of every generated page, those read in this build and
    those kept from the last, reported together (repeats grouped, a count of missing
    docstrings): a clean build and a rebuild print the same lines."""
    project = project_if_any(env)
    if project is not None:
        known = records(env)
        report(
            (p for docname in sorted(known) for p in problems_of(known[docname])),
            project.settings,
        )
    return []


def problems_of(record: PageRecord) -> list[Problem]:
    """The record's problems (none for a record an older refgen kept without them)."""
    found: list[Problem] = vars(record).get("problems", [])
    return found


def replay(warnings: list[StoredWarning]) -> None:
    for message, kind, subtype, location in warnings:
        logger.warning(message, type=kind, subtype=subtype, location=location)


def purge(app: Sphinx, env: Any, docname: str) -> None:
    """``env-purge-doc``: a page read again starts a new record."""
    records(env).pop(docname, None)


def merge(app: Sphinx, env: Any, docnames: set[str], other: Any) -> None:
    """``env-merge-info``: the records of pages a parallel reader read."""
    theirs = records(other)
    for docname in docnames:
        if docname in theirs:
            records(env)[docname] = theirs[docname]

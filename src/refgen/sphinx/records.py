"""Page records: noted as each generated page is read, reported once all are read.

The records (:class:`~refgen.sphinx.state.PageRecord`) live in the build
state; :mod:`refgen.sphinx.incremental` decides from them what to read again;
the directives, the ``scenario`` role and the examples fill them in, and the
warnings reading each page and running its examples gave are captured here, kept
as :func:`stored` and given again by :func:`replay` (those of writing it:
:mod:`refgen.sphinx.write_warnings`).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TypeGuard

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging as sphinx_logging

from refgen.analysis.model import Problem
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
    record.downloads = page.downloads or ()  # given with the Markdown when it is given later
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
            record_of(app.env, docname).warnings += [stored(r) for r in handler.records]


@contextmanager
def warnings_given() -> Iterator[list[logging.LogRecord]]:
    """The warnings given inside the block, those Sphinx's handlers suppress too."""
    handler = _listening()
    try:
        yield handler.records
    finally:
        _stop_listening(handler)


@contextmanager
def warnings_of(env: BuildEnvironment, docname: str) -> Iterator[None]:
    """Warnings given inside the block (e.g. by its examples) belong to ``docname``."""
    handler = _listening()
    try:
        yield
    finally:
        _stop_listening(handler)
        if docname in build_state(env).pages:
            record_of(env, docname).example_warnings += [stored(r) for r in handler.records]


def stored(record: logging.LogRecord) -> StoredWarning:
    """``record`` as it is kept, to be given again (:func:`replay`)."""
    location = getattr(record, "location", None)
    if isinstance(location, nodes.Node):
        location = sphinx_logging.get_node_location(location)
    kind, subtype = getattr(record, "type", None), getattr(record, "subtype", None)
    args = record.args if isinstance(record.args, tuple) else None
    if getattr(record, "once", False) and args is not None and _plain(args):
        # Sphinx shows a warning given once by its text and arguments: kept as they were
        return (str(record.msg), kind, subtype, location, args)
    given = (_message(record, location, kind, subtype), kind, subtype, location)
    return (*given, ()) if getattr(record, "once", False) else given


def _plain(args: tuple[object, ...]) -> TypeGuard[tuple[str | int | float, ...]]:
    """Whether a record's arguments are texts and numbers (which pickle, and compare as
    they were)."""
    return all(isinstance(a, str | int | float) and not isinstance(a, bool) for a in args)


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
    """Give ``warnings`` again, as they were given (:func:`stored`)."""
    for message, kind, subtype, location, *once in warnings:
        args = once[0] if once and isinstance(once[0], tuple) else ()
        logger.warning(
            message, *args, type=kind, subtype=subtype, location=location, once=bool(once)
        )

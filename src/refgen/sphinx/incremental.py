"""Incremental builds by content: a page is read again exactly when what it shows changes.

Sphinx decides what to re-read from file times; refgen pages depend on code
all over the project, and a ``touch`` changes nothing they show. So, for
every generated page, the environment keeps a :class:`PageRecord`:

- the *fingerprint* of the source its content can depend on, taken at
  ``builder-inited`` (:meth:`refgen.project.Project.fingerprints`);
- the *digest* of the page it read (:func:`refgen.render.compose.page_digest`);
- the *warnings* reading it gave (and its examples, when they ran).

At ``env-get-outdated`` a page whose fingerprint is unchanged is left alone;
one whose fingerprint changed is composed again, and re-read only if its
digest changed. Pages that quote values (the ``scenario`` role) keep the
values they quoted and are re-read when one changes. The warnings of every
page that is not re-read are shown again, so an incremental build reports,
and fails under ``-W``, exactly as a clean one. Output files of generated
pages that no longer exist are deleted.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util import logging as sphinx_logging

from refgen.analysis.guard import call_user_code
from refgen.project import PlannedPage
from refgen.render.compose import ComposedPage, compose, page_digest
from refgen.sphinx.state import project_of

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
    warnings: list[StoredWarning] = field(default_factory=list)


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


def note_page(env: Any, composed: ComposedPage) -> None:
    """The page just read: its digest and the fingerprint it was read at."""
    record = record_of(env)
    record.digest = page_digest(composed)
    planned = planned_pages(env).get(env.docname)
    record.fingerprint = planned[1] if planned else None


def note_quote(env: Any, text: str, shown: str) -> None:
    record_of(env).quotes[text] = shown


# ---------------------------------------------------------------------- warnings


class _Capture(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


_capturing: list[_Capture] = []


def start_capture(app: Sphinx, docname: str, source: list[str]) -> None:
    """``source-read``: keep the warnings of the page about to be read."""
    handler = _Capture()
    logging.getLogger(sphinx_logging.NAMESPACE).addHandler(handler)
    _capturing.append(handler)


def stop_capture(app: Sphinx, doctree: nodes.document) -> None:
    """``doctree-read``: the page is read; its warnings are stored if it is refgen's."""
    while _capturing:
        handler = _capturing.pop()
        logging.getLogger(sphinx_logging.NAMESPACE).removeHandler(handler)
        docname = app.env.docname
        if docname in records(app.env):
            record_of(app.env, docname).warnings += [_stored(r) for r in handler.records]


@contextmanager
def warnings_of(env: Any, docname: str) -> Iterator[None]:
    """Warnings given inside the block (e.g. by its examples) belong to ``docname``."""
    handler = _Capture()
    logging.getLogger(sphinx_logging.NAMESPACE).addHandler(handler)
    try:
        yield
    finally:
        logging.getLogger(sphinx_logging.NAMESPACE).removeHandler(handler)
        if docname in records(env):
            record_of(env, docname).warnings += [_stored(r) for r in handler.records]


def _stored(record: logging.LogRecord) -> StoredWarning:
    location = getattr(record, "location", None)
    if isinstance(location, nodes.Node):
        location = sphinx_logging.get_node_location(location)
    return (
        record.getMessage(),
        getattr(record, "type", None),
        getattr(record, "subtype", None),
        location,
    )


def replay(warnings: list[StoredWarning]) -> None:
    for message, kind, subtype, location in warnings:
        logger.warning(message, type=kind, subtype=subtype, location=location)


# ---------------------------------------------------------------------- events


def outdated_pages(
    app: Sphinx, env: Any, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    """``env-get-outdated``: the pages whose content changed though their stub did not."""
    project = project_of(env)
    known = records(env)
    outdated: list[str] = []
    for docname, (page, fingerprint) in planned_pages(env).items():
        if docname in added or docname in changed:
            continue
        record = known.get(docname)
        if record is None or record.fingerprint is None:
            outdated.append(docname)
        elif record.fingerprint != fingerprint:
            stub = env.doc2path(docname).as_posix()
            composed, error = call_user_code(compose, project, page, stub)
            if error is not None or page_digest(composed) != record.digest:  # type: ignore[arg-type]
                outdated.append(docname)
            else:
                record.fingerprint = fingerprint
    for docname, record in known.items():
        if docname in added or docname in changed or docname in removed or docname in outdated:
            continue
        if record.quotes and _quotes_changed(project, record.quotes):
            outdated.append(docname)
            continue
        replay(record.warnings)
    _delete_outputs(app, {d for d in removed if d in known})
    return outdated


def _quotes_changed(project: Any, quotes: dict[str, str]) -> bool:
    return any(quote_shown(project, text) != shown for text, shown in quotes.items())


def quote_shown(project: Any, text: str) -> str:
    """What the ``scenario`` role shows for ``text``, as one string to compare."""
    quoted, error = call_user_code(project.quote, text)
    if error is not None or quoted is None:
        return f"error: {error!r}"
    value = quoted.value.text if quoted.value is not None else ""
    return f"{quoted.target}\0{value}\0{quoted.problem}"


def _delete_outputs(app: Sphinx, docnames: set[str]) -> None:
    """A clean build would not have these pages' output: delete it."""
    filename = getattr(app.builder, "get_outfilename", None)
    for docname in docnames:
        if filename is not None:
            Path(filename(docname)).unlink(missing_ok=True)
        Path(app.doctreedir, f"{docname}.doctree").unlink(missing_ok=True)


def purge(app: Sphinx, env: Any, docname: str) -> None:
    records(env).pop(docname, None)


def merge(app: Sphinx, env: Any, docnames: set[str], other: Any) -> None:
    theirs = records(other)
    for docname in docnames:
        if docname in theirs:
            records(env)[docname] = theirs[docname]

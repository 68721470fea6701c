"""When the pages' fingerprints are taken: while planning, or beside the build in a fresh one.

An incremental build compares each page's fingerprint with the one its record
kept before it reads anything (:mod:`refgen.sphinx.incremental`), so it takes
them while it plans the pages. A build that has no record to compare with (a
fresh environment, a first build) needs them only to keep with the pages it
reads, for the next build. There they are taken on the other core: by the
worker that computes the classes' figures (:mod:`refgen.sphinx.ahead`), once
the pages are read and ended, while they are written; or, with no worker, by a
process forked when Sphinx starts reading
(:class:`~refgen.site.fingerprint.ForkedFingerprints`), whose answer the build
takes once every page is read (``env-updated``), before the environment is
pickled.

The worker's come after Sphinx pickled the environment, with the records'
fingerprints unknown (``""``). They are noted in the records at
``build-finished`` and kept in a file of their own in the doctree folder, under
a token the pickled environment holds too; the next build restores them from it
(:func:`restore_fingerprints`). A record the file does not give a fingerprint
(the build failed, or the file is another build's) keeps an unknown one, which
matches none: the next build composes that page again to see whether it
changed, never trusts it. Taken during the reading, they made the two
processes' work more than the two cores could do while the pages are read; on
the deep bench shape the build waited for them at ``env-updated``
(bench/RESULTS.md).

The fingerprints are those of the code the build ran, though they are taken
while the library is evaluated, or after: every Python file under the
project's folders is read when the pages are planned
(:meth:`~refgen.site.fingerprint.SiteIndex.take_snapshot`), and the graph is
made of those bytes only. A file saved while the build runs is seen by the
next build, and a page that reaches a file the snapshot lacks gets a
fingerprint that matches nothing. No snapshot, no fork: a parallel build, a
platform that cannot fork, a thread running, more Python than
:data:`~refgen.site.fingerprint.SNAPSHOT_MOST`; the build then takes the
fingerprints while planning. A process that cannot be made, dies or gives up
leaves the build to take them from the snapshot itself.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging

from refgen.evaluate.ahead import can_fork
from refgen.files import keep_under_token, kept_under_token
from refgen.site.fingerprint import Fingerprints, ForkedFingerprints, SiteIndex
from refgen.site.plan import PlannedPage
from refgen.sphinx import records
from refgen.sphinx.reporting import report
from refgen.sphinx.state import BuildState, build_state, project_of

logger = logging.getLogger(__name__)

FINGERPRINTS = "refgen-fingerprints.pickle"
"""The file, in a build's doctree folder, of the fingerprints taken after the environment
was pickled."""


def take_fingerprints(app: Sphinx, site: SiteIndex, pages: Sequence[PlannedPage]) -> None:
    """Once the pages are planned: their fingerprints now, or, in a fresh build, a
    snapshot of the files they will be taken from once Sphinx starts reading
    (:func:`start_fingerprinting`)."""
    state = build_state(app.env)
    fresh = not any(page.docname in state.pages for page in pages)
    if fresh and _may_fork(app) and site.take_snapshot():
        records.plan(app.env, list(pages), {})
        state.fingerprinting = ForkedFingerprints(site, pages)
        return
    records.plan(app.env, list(pages), _reported(app.env, site.take_fingerprints(pages)))


def start_fingerprinting(app: Sphinx) -> None:
    """``env-before-read-docs``, once every ``builder-inited`` handler has run (one that
    fails leaves no process behind): fork the process that takes the fingerprints."""
    pending = build_state(app.env).fingerprinting
    if pending is None or not _may_fork(app):
        return  # taken from the snapshot once the pages are read
    pid = pending.start(2 * project_of(app.env).settings.eval_timeout + 10)
    if pid is not None:
        logger.verbose("[refgen] pages fingerprinted in process %s", pid)


def receive_when_ready(app: Sphinx, doctree: object) -> None:
    """``doctree-read``: take in the fork's answer as soon as it is sent."""
    pending = build_state(app.env).fingerprinting
    if pending is not None:
        pending.receive_ready()


def keep_fingerprints(app: Sphinx, env: BuildEnvironment) -> None:
    """Once every page is read: the fork's fingerprints, kept with the pages it read; the
    worker's are taken at the end of the build (:func:`keep_fingerprints_given_later`),
    under a new token."""
    state = build_state(env)
    pending = state.fingerprinting
    if pending is None:
        return
    if state.ahead is not None and state.ahead.takes_fingerprints():
        state.fingerprints_token = secrets.token_hex(16)
        return
    state.fingerprinting = None
    _note(env, state, list(pending.pages), _reported(env, pending.take()))


def keep_fingerprints_given_later(app: Sphinx, exception: BaseException | None) -> None:
    """``build-finished``, before the worker is stopped: the fingerprints it took (taken
    here if it gave none), noted in the records and kept for the next build."""
    env = app.env
    state = build_state(env)
    pending = state.fingerprinting
    if pending is None or not state.fingerprints_token:
        return
    state.fingerprinting = None
    if exception is not None:
        return  # the next build composes those pages again
    given = state.ahead.take_fingerprints() if state.ahead is not None else None
    found = _reported(env, given if given is not None else pending.taken_here())
    pages = list(pending.pages)
    _note(env, state, pages, found)
    kept = {p.docname: found[p.docname] for p in pages if p.docname in found}
    # Without the file, those pages are composed again.
    keep_under_token(Path(app.doctreedir) / FINGERPRINTS, state.fingerprints_token, kept)


def restore_fingerprints(state: BuildState, doctreedir: Path) -> None:
    """At the start of a build: the records the last build pickled with unknown
    fingerprints given those its file kept under its token."""
    unknown = {d: record for d, record in state.pages.items() if record.fingerprint == ""}
    if not unknown or not state.fingerprints_token:
        return
    kept = _load(doctreedir / FINGERPRINTS, state.fingerprints_token)
    for docname, record in unknown.items():
        record.fingerprint = kept.get(docname, "")


def _load(path: Path, token: str) -> dict[str, str]:
    """The fingerprints kept in ``path`` under ``token``."""
    found = kept_under_token(path, token).items()
    return {d: f for d, f in found if isinstance(d, str) and isinstance(f, str)}


def _note(
    env: BuildEnvironment, state: BuildState, pages: list[PlannedPage], found: dict[str, str]
) -> None:
    """``found`` kept with the pages planned, and in the records read at an unknown one."""
    records.plan(env, pages, found)
    for page in pages:
        record = state.pages.get(page.docname)
        if record is not None and record.fingerprint == "":  # read at an unknown one
            record.fingerprint = found.get(page.docname, "")


def _reported(env: BuildEnvironment, fingerprints: Fingerprints) -> dict[str, str]:
    unknowable = fingerprints.problem()
    if unknowable is not None:
        report([unknowable], project_of(env).settings)
    return fingerprints.by_page


def _may_fork(app: Sphinx) -> bool:
    return app.parallel <= 1 and can_fork()

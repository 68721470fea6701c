"""When the pages' fingerprints are taken: while planning, or beside the build in a fresh one.

An incremental build compares each page's fingerprint with the one its record
kept before it reads anything (:mod:`refgen.sphinx.incremental`), so it takes
them while it plans the pages. A build that has no record to compare with (a
fresh environment, a first build) needs them only to keep with the pages it
reads, for the next build. There a process forked once the pages are planned
(:class:`~refgen.evaluate.ahead.AheadWorker`) walks the reach graph and
fingerprints every page on the other core, while Sphinx reads; the build
takes its answer once every page is read (``env-updated``), before the
environment is pickled. On the deep bench shape that is 1.4 s the build no
longer spends before reading (bench/RESULTS.md).

The fingerprints are those the build would have taken itself: the fork has
everything the build had once the pages were planned, and nothing the
evaluation did since (a module a helper imports in its body, a cache it
fills), and the files are read at planning
(:meth:`~refgen.site.fingerprint.SiteIndex.take_snapshot`), so a file saved
again while the build runs has its new text fingerprinted by the next build,
not this one. Without a fork (a parallel build, a platform that cannot fork,
a thread running), or once the fork has died or given up, the build takes them
itself.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging

from refgen.evaluate.ahead import can_fork
from refgen.site.fingerprint import Fingerprints, ForkedFingerprints, SiteIndex
from refgen.site.plan import PlannedPage
from refgen.sphinx import records
from refgen.sphinx.reporting import report
from refgen.sphinx.state import build_state, project_of

logger = logging.getLogger(__name__)


def take_fingerprints(app: Sphinx, site: SiteIndex, pages: Sequence[PlannedPage]) -> None:
    """Once the pages are planned: their fingerprints, now or in a fork (a fresh build)."""
    state = build_state(app.env)
    forked = None
    if not any(page.docname in state.pages for page in pages) and _may_fork(app):
        site.take_snapshot()
        patience = 2 * site.project.settings.eval_timeout + 10
        with contextlib.suppress(OSError):  # no fork today: the build takes them itself
            forked = ForkedFingerprints(site, pages, patience)
    if forked is None:
        records.plan(app.env, list(pages), _reported(app.env, site.take_fingerprints(pages)))
        return
    logger.verbose("[refgen] pages fingerprinted in process %s", forked.pid)
    records.plan(app.env, list(pages), {})
    state.fingerprinting = forked


def receive_when_ready(app: Sphinx, doctree: object) -> None:
    """``doctree-read``: take in the fork's answer as soon as it is sent."""
    pending = build_state(app.env).fingerprinting
    if pending is not None:
        pending.receive_ready()


def keep_fingerprints(app: Sphinx, env: BuildEnvironment) -> None:
    """Once every page is read: the fork's fingerprints, kept with the pages it read."""
    state = build_state(env)
    pending = state.fingerprinting
    if pending is None:
        return
    state.fingerprinting = None
    found = _reported(env, pending.take())
    records.plan(env, list(pending.pages), found)
    for page in pending.pages:
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

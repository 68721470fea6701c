"""When the pages' fingerprints are taken: while planning, or beside the build in a fresh one.

An incremental build compares each page's fingerprint with the one its record
kept before it reads anything (:mod:`refgen.sphinx.incremental`), so it takes
them while it plans the pages. A build that has no record to compare with (a
fresh environment, a first build) needs them only to keep with the pages it
reads, for the next build. There a process forked when Sphinx starts reading
(:class:`~refgen.site.fingerprint.ForkedFingerprints`) walks the reach graph
and fingerprints every page on the other core; the build takes its answer
once every page is read (``env-updated``), before the environment is
pickled. On the deep bench shape that is 1.4 s the build no longer spends
before reading (bench/RESULTS.md).

The fingerprints are those of the code the build ran, though the fork reads
the graph while the library is evaluated: every Python file under the
project's folders is read when the pages are planned
(:meth:`~refgen.site.fingerprint.SiteIndex.take_snapshot`), and the graph is
made of those bytes only. A file saved while the build runs is seen by the
next build, and a page that reaches a file the snapshot lacks gets a
fingerprint that matches nothing. No snapshot, no fork: a parallel build, a
platform that cannot fork, a thread running, more Python than
:data:`~refgen.site.fingerprint.SNAPSHOT_MOST`; the build then takes the
fingerprints while planning. A fork that cannot be made, dies or gives up
leaves the build to take them from the snapshot once the pages are read.
"""

from __future__ import annotations

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

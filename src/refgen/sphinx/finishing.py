"""Page endings: the digest, Markdown and downloads of the worker's class pages, given later.

While Sphinx reads the pages of a clean build, the worker that computes the
classes' figures (:mod:`refgen.sphinx.ahead`) is the slower of the two processes:
the build waits on it. A page's digest (what the next build compares to see
whether the page changed), its Markdown (written beside the HTML) and its
registry values laid out for the downloads are not needed to read the page,
so the worker gives them later, while the pages are
written and its core would idle: on the deep bench shape, 1.3 s of the worker's
10 s while pages were read (bench/RESULTS.md).

By then the environment holds the pages' records, and Sphinx has pickled it
with those records unended (``markdown`` None). Each ending is noted in its
record as it arrives (for this build's Markdown files and ``llms.txt``), and
at ``build-finished`` they are kept in a file of their own in the doctree
folder, under a token the pickled environment holds too. The next build ends
its records from that file (:func:`restore_endings`); a record the file does
not end (the build stopped before writing it, or another build's) is read again,
never trusted. A page the worker did not end (it died, or stopped) is composed
again here from the figures the build already holds.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import TypeGuard

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

from refgen.files import keep_under_token, kept_under_token
from refgen.render.downloads import RenderedEntry
from refgen.site.compose import recorded_page
from refgen.sphinx.ahead import PageEnding
from refgen.sphinx.exports import markdown_path
from refgen.sphinx.state import BuildState, PageRecord, build_state, project_of

ENDINGS = "refgen-page-endings.pickle"
"""The file, in a build's doctree folder, of the endings given after the environment was
pickled."""

Ending = tuple[str, str, tuple[RenderedEntry, ...]]
"""A page's digest, its Markdown and its registry values laid out for the downloads."""
Endings = dict[str, Ending]


def token_unended(app: Sphinx, env: BuildEnvironment) -> None:
    """``env-updated``, before Sphinx pickles the environment: records left unended get a
    new token, which the file of their endings will hold."""
    state = build_state(env)
    unended = frozenset(d for d, record in state.pages.items() if record.markdown is None)
    if unended:
        state.endings_token = secrets.token_hex(16)
        state.unended_when_pickled = unended


def take_every_ending(app: Sphinx) -> None:
    """Every ending the worker has yet to give, waited for (before it is stopped)."""
    prefetcher = build_state(app.env).ahead
    if prefetcher is not None:
        note_endings(app, prefetcher.take_endings(wait=True))


def note_endings(app: Sphinx, endings: dict[str, PageEnding | None]) -> None:
    """Each ending in its page's record, its Markdown to the files being written."""
    state = build_state(app.env)
    for docname, ending in endings.items():
        record = state.pages.get(docname)
        if ending is None or record is None or record.markdown is not None:
            continue  # composed again at the end
        _end(app, state, docname, (ending.digest, ending.markdown, ending.downloads))


def _end(app: Sphinx, state: BuildState, docname: str, ending: Ending) -> None:
    """The record of ``docname`` ended, its Markdown to the files being written."""
    record = state.pages[docname]
    record.digest, record.markdown, record.downloads = ending
    if state.markdown_files is not None:
        state.markdown_files.add(markdown_path(app, docname), record.markdown)


def _read_again(record: PageRecord) -> None:
    """A record that cannot be ended matches no fingerprint: its page is read again."""
    record.digest, record.markdown, record.fingerprint = None, "", None


def end_every_page(app: Sphinx, exception: BaseException | None) -> None:
    """``build-finished``, before the exports: every record ended (composed again if the
    worker did not end it), and the endings kept for the next build."""
    state = build_state(app.env)
    if exception is not None:
        return  # the next build reads the unended pages again
    take_every_ending(app)
    for docname in [d for d, record in state.pages.items() if record.markdown is None]:
        _compose_again(app, state, docname)
    if state.unended_when_pickled:
        _keep_endings(state, Path(app.doctreedir))


def _keep_endings(state: BuildState, doctreedir: Path) -> None:
    kept: Endings = {}
    for docname in state.unended_when_pickled:
        record = state.pages.get(docname)
        if record is not None and record.digest is not None and record.markdown is not None:
            kept[docname] = (record.digest, record.markdown, record.downloads)
    keep_under_token(doctreedir / ENDINGS, state.endings_token, kept)  # or read again
    state.unended_when_pickled = frozenset()


def _compose_again(app: Sphinx, state: BuildState, docname: str) -> None:
    planned = state.planned.get(docname)
    page = None
    if planned is not None:
        found = recorded_page(project_of(app.env), planned[0], app.env.doc2path(docname).as_posix())
        page = None if isinstance(found, str) else found
    if page is None or page.digest is None or page.markdown is None or page.downloads is None:
        _read_again(state.pages[docname])
    else:
        _end(app, state, docname, (page.digest, page.markdown, page.downloads))


def restore_endings(state: BuildState, doctreedir: Path) -> None:
    """At the start of a build: the last build's unended records ended from its file; one
    the file does not end is read again."""
    unended = {d: record for d, record in state.pages.items() if record.markdown is None}
    if not unended:
        return
    endings = _load_endings(doctreedir / ENDINGS, state.endings_token)
    for docname, record in unended.items():
        ending = endings.get(docname)
        if ending is None:
            _read_again(record)
        else:
            record.digest, record.markdown, record.downloads = ending


def _load_endings(path: Path, token: str) -> Endings:
    """The endings kept in ``path`` under ``token``; none from a file that is missing,
    damaged, of another build or of another shape."""
    found = kept_under_token(path, token)
    return {
        docname: ending
        for docname, ending in found.items()
        if isinstance(docname, str) and _is_ending(ending)
    }


def _is_ending(found: object) -> TypeGuard[Ending]:
    if not (isinstance(found, tuple) and len(found) == 3 and isinstance(found[2], tuple)):
        return False
    laid_out = (part for entry in found[2] if isinstance(entry, tuple) for part in entry)
    return (
        all(isinstance(part, str) for part in found[:2])
        and all(isinstance(entry, tuple) and len(entry) == 2 for entry in found[2])
        and all(isinstance(part, str) for part in laid_out)
    )

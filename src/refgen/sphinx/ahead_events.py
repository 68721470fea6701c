"""When the build computes ahead: the events that start the worker, take what it lexed and stop it.

The worker (:class:`~refgen.sphinx.ahead.Prefetcher`) computes each class's figures
in the order Sphinx reads the pages, then lexes the modules viewcode shows. It starts
at ``env-before-read-docs``, when Sphinx names the pages it reads
(:func:`compute_ahead`); in an incremental build, it first composes half the pages
whose fingerprint changed while the build composes the others (:func:`compose_early`).
Once every page is read, a worker with pages to end (:mod:`refgen.sphinx.finishing`)
or modules left to lex goes on while the pages are written; the endings are taken as
they come, and what it lexed is stored as soon as it has sent it all
(:func:`take_what_was_given`, without waiting), or when viewcode needs it
(:func:`store_lexed_source`, waiting). On the deep bench shape the build waited for
the lexing half a second at ``env-updated``; the worker living on adds 8 MB to the
summed memory of the build's processes (bench/RESULTS.md).

While the pages are read, the worker is the slower of the two processes: on the deep
bench shape a class's figures took it longer than its page took the build, and the
build waited for them 1.2-1.8 s in all. So refgen's pages that show no class's
figures (registry, helpers and index pages) are read first
(:func:`read_figure_free_pages_first`), while the worker computes ahead; what it sends
meanwhile is taken in after each page (:func:`take_in_what_was_sent`), so a full pipe
does not hold it back.

Starting the worker as soon as the pages are planned (every page of a fresh
environment is read) was tried: the worker then holds the syntax trees the build
lets go of before reading, 53 MB more, for a third of a second.
"""

from __future__ import annotations

from collections.abc import Sequence

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging

from refgen.site.compose import RecordedPage, recorded_page
from refgen.site.plan import PageKind, PlannedPage
from refgen.sphinx import ahead, fingerprinting, finishing, highlighting
from refgen.sphinx.state import build_state, project_of

logger = logging.getLogger(__name__)


FIGURE_FREE = frozenset(
    {PageKind.REGISTRY, PageKind.REGISTRY_PART, PageKind.HELPERS, PageKind.INDEX}
)
"""The kinds of page that show no class's figures: neither the worker's nor the build's
computing of figures holds them up."""


def read_figure_free_pages_first(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    """``env-before-read-docs``, before the worker starts: refgen's pages that show no
    class's figures move to the front of ``docnames`` (Sphinx reads them in that order),
    each kind in the order Sphinx gave; every other page keeps its order after them.

    The order is the same with a worker or without, so a build's warnings come in the
    same order whichever it has. Parallel readers keep Sphinx's order: they have no
    worker, and the order they merge what they read in (viewcode's links back from the
    source to the pages, for one) is Sphinx's to keep.
    """
    if app.parallel > 1:
        return
    planned = build_state(env).planned
    first = [name for name in docnames if name in planned and planned[name][0].kind in FIGURE_FREE]
    if first:
        moved = set(first)
        docnames[:] = [*first, *(name for name in docnames if name not in moved)]


def take_in_what_was_sent(app: Sphinx, doctree: nodes.document) -> None:
    """``doctree-read``: what the worker has sent so far, taken in without waiting."""
    prefetcher = build_state(app.env).ahead
    if prefetcher is not None:
        prefetcher.receive_ready()


def compute_ahead(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    """``env-before-read-docs``: start the worker on the class pages about to be read; in a
    fresh build it then fingerprints the pages, or, without a worker, a process of its
    own does (:mod:`refgen.sphinx.fingerprinting`)."""
    # Parsed files are let go only now: ``env-get-outdated`` composes the pages whose
    # fingerprint changed, and a class reached through its entries alone is analysed
    # there for the first time (parsing the 600-class module again cost 0.25 s).
    project_of(env).release_syntax_trees()
    state = build_state(env)
    planned = state.planned
    read = [planned[docname][0] for docname in docnames if docname in planned]
    if not _start(app, read, [page for page, _fingerprint in planned.values()]):
        fingerprinting.start_fingerprinting(app)


def _start(app: Sphinx, read: Sequence[PlannedPage], planned: Sequence[PlannedPage]) -> bool:
    """The worker on the class pages of ``read``, in that order, then on the fingerprints
    of a fresh build and the modules the pages of ``planned`` document; whether it
    started."""
    env = app.env
    state = build_state(env)
    prefetcher = state.ahead
    if app.parallel > 1 or prefetcher is None:
        return False  # Sphinx's readers use the other cores
    class_pages = {  # class -> its page and the stub Sphinx reads for it
        page.argument: (page, env.doc2path(page.docname).as_posix())
        for page in read
        if page.kind == "scenario"
    }
    lexing = highlighting.lexing_jobs(app, project_of(env), ahead.shown_modules(planned))
    pending = state.fingerprinting
    job = pending.taken_elsewhere if pending is not None else None
    worker = prefetcher.start(class_pages, lexing, fingerprinting=job)
    if worker is not None:
        logger.verbose(
            "[refgen] figures of %d classes computed ahead in process %s",
            len(worker.keys),
            worker.pid,
        )
    return worker is not None


def compose_early(
    app: Sphinx, pages: Sequence[tuple[PlannedPage, str]]
) -> dict[str, RecordedPage | str]:
    """``env-get-outdated``: ``pages`` (each with the path of its stub), whose fingerprints
    changed, composed again to see whether they changed, by docname; the class pages of
    the second half by the worker, while the build composes the first.

    On the deep bench shape, a helper that 62 classes reach took 1 s to compose
    one page after the other, a sixth of the edit build (bench/RESULTS.md).
    """
    env = app.env
    project = project_of(env)
    prefetcher = build_state(env).ahead
    half = len(pages) // 2
    if prefetcher is not None and app.parallel <= 1 and pages[half:]:
        later = [(page, stub) for page, stub in pages[half:] if page.kind == "scenario"]
        class_pages = {page.argument: (page, stub) for page, stub in later}
        prefetcher.start(class_pages, {}, endings_later=False)  # their digests are compared now
    composed: dict[str, RecordedPage | str] = {}
    for number, (page, stub) in enumerate(pages):
        taken = prefetcher.take_page(page) if prefetcher is not None and number >= half else None
        composed[page.docname] = taken if taken is not None else recorded_page(project, page, stub)
    return composed


def stop_computing_ahead(app: Sphinx, env: BuildEnvironment) -> None:
    """Once every page is read: a worker with nothing left to give stops; one with pages to
    end or modules to lex goes on while the pages are written."""
    prefetcher = build_state(env).ahead
    if prefetcher is not None and not prefetcher.work_left():
        prefetcher.stop()


def take_what_was_given(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """``doctree-resolved``: the page endings the worker has sent so far; once it has sent
    everything, the modules it lexed are stored where highlighting finds them, and it
    stops. Nothing is waited for."""
    prefetcher = build_state(app.env).ahead
    if prefetcher is None or not prefetcher.work_left():
        return
    finishing.note_endings(app, prefetcher.take_endings(wait=False))
    if prefetcher.has_given_all():
        _store_and_stop(app, prefetcher)


def store_lexed_source(app: Sphinx) -> list[tuple[str, dict[str, object], str]]:
    """``html-collect-pages``, before highlighting installs the pieces: the worker's last
    modules, waited for. No page of its own."""
    prefetcher = build_state(app.env).ahead
    if prefetcher is not None and prefetcher.work_left():
        _store_and_stop(app, prefetcher)
    return []


def stop_at_the_end(app: Sphinx, exception: BaseException | None) -> None:
    """``build-finished``: a worker still running (a builder that collects no HTML pages,
    a build that failed) stops."""
    build_state(app.env).stop_workers()


def _store_and_stop(app: Sphinx, prefetcher: ahead.Prefetcher) -> None:
    finishing.take_every_ending(app)
    prefetcher.take_fingerprints()  # kept until the build ends
    highlighting.store_lexed(app, prefetcher.take_lexed())
    prefetcher.stop()

"""Build state: everything refgen keeps on the Sphinx environment, as one typed object.

:func:`build_state` is the one way to it (as autodoc2's ``get_database(env)``).
The environment is pickled at the end of reading, kept for the next build and
sent back from parallel readers: :class:`PageRecord` per generated page, the
reference folder and what each HTML builder last wrote around the pages travel
with it. The Project (which pickles as its settings), the planned pages and the
queued examples are remade or refilled by every build. The compute-ahead
prefetcher and the shared navigation belong to one process and one build, and
are never pickled.

A parallel reader's records and queued examples come back at ``env-merge-info``
(:func:`merge_state`); a page about to be read again loses both at
``env-purge-doc`` (:func:`purge_page`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, ClassVar

from refgen.analysis.model import ExampleBlock, Problem
from refgen.evaluate.values import EntryValues
from refgen.files import WrittenAside, finish_left_running
from refgen.project import Project
from refgen.prose.docstrings import ClassText
from refgen.render.downloads import RenderedEntry
from refgen.site.plan import PlannedPage

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

    from refgen.site.fingerprint import ForkedFingerprints
    from refgen.sphinx.ahead import Prefetcher

StoredWarning = (
    tuple[str, str | None, str | None, Any]
    | tuple[str, str | None, str | None, Any, tuple[str | int | float, ...]]
)
"""A warning as given: message, type, subtype and location (a string or a pair); and,
fifth, for a warning given ``once`` (Sphinx shows it once per build), the arguments of
its message."""

Relations = dict[str, tuple[tuple[str | None, str], ...]]
"""Each page's (parent, previous, next), with their titles."""

Surroundings = tuple[str, Relations]
"""What an HTML builder writes around the pages: the contents tree's digest and each
page's relations (:func:`refgen.sphinx.incremental.pages_whose_surroundings_changed`)."""


@dataclass
class PageRecord:
    """What the last build read for one page."""

    fingerprint: str | None = None
    digest: str | None = None
    quotes: dict[str, str] = field(default_factory=dict)
    """``scenario`` role text -> what it showed, for pages that quote values."""
    sweeps: dict[str, str] = field(default_factory=dict)
    """``refgen-sweep`` request (:meth:`~refgen.evaluate.sweep_request.SweepRequest.key`) -> a
    digest of what it showed, for pages that plot sweeps."""
    problems: list[Problem] = field(default_factory=list)
    """The problems of what the page shows, reported after reading with every other
    page's (:func:`refgen.sphinx.records.report_page_problems`)."""
    warnings: list[StoredWarning] = field(default_factory=list)
    """Warnings given while the page was read."""
    example_warnings: list[StoredWarning] = field(default_factory=list)
    """Warnings of its examples, which run after reading (and again without a re-read)."""
    title: str = ""
    summary: str = ""
    """The page in one line, for ``llms.txt``."""
    markdown: str | None = ""
    """The page as Markdown (:mod:`refgen.render.markdown`), written beside it; None until
    the worker that composed the page gives it (:mod:`refgen.sphinx.finishing`)."""
    values: tuple[EntryValues, ...] = ()
    """The registry values it computed, to see whether they change."""
    downloads: tuple[RenderedEntry, ...] = ()
    """Each of ``values`` laid out for the registry's downloads, when it was computed."""


QueuedExamples = dict[str, list[tuple[str, ExampleBlock]]]
"""Per document, the ``(subject, block)`` of each Examples section to run after reading."""


@dataclass
class BuildState:
    """What refgen keeps on the environment between events, builds and parallel readers."""

    # Kept from build to build.
    pages: dict[str, PageRecord] = field(default_factory=dict)
    """What the last build read for each generated page (:mod:`refgen.sphinx.records`)."""
    root: str | None = None
    """The reference folder the stubs were written to (the ``root`` setting)."""
    endings_token: str = ""
    """The token of the file that ends the records pickled unended
    (:mod:`refgen.sphinx.finishing`)."""
    fingerprints_token: str = ""
    """The token of the file that gives the records pickled with unknown fingerprints
    theirs (:mod:`refgen.sphinx.fingerprinting`)."""
    settings_changes: int = 0
    """How many builds found Sphinx's settings of the environment changed (Sphinx then
    reads and writes every page): part of every page's layout
    (:func:`refgen.sphinx.written.page_layout`)."""

    # Made again by every build.
    project: Project | None = None
    """The Project of this build, made at ``builder-inited``; None until then."""
    planned: dict[str, tuple[PlannedPage, str]] = field(default_factory=dict)
    """Generated pages of this build: docname -> (page, fingerprint)."""
    queued_examples: QueuedExamples = field(default_factory=dict)
    """Examples of the pages read, run once reading is done (:mod:`refgen.sphinx.examples`)."""
    anything_read: bool = False
    """Whether this build reads any page again (:mod:`refgen.sphinx.incremental`)."""

    # Of this process and build only: never pickled.
    ahead: Prefetcher | None = None
    """Figures, pages and lexed source computed ahead (:mod:`refgen.sphinx.ahead`)."""
    navigation: str | None = None
    """The shared navigation tree as HTML, once rendered (:mod:`refgen.sphinx.navigation`)."""
    class_texts: list[ClassText] | None = None
    """The author's words of every class, from the site's outlines, for the prose audit
    (:mod:`refgen.sphinx.prose_audit`); None: not planned in this process."""
    fingerprinting: ForkedFingerprints | None = None
    """The pages' fingerprints being taken beside the build, until every page is read
    (:mod:`refgen.sphinx.fingerprinting`)."""

    markdown_files: WrittenAside | None = None
    """The pages' Markdown files being written while the HTML is (:mod:`refgen.sphinx.exports`)."""
    surroundings_now: Surroundings | None = None
    """What this build writes around the pages (HTML), kept once it ends
    (:mod:`refgen.sphinx.written`)."""
    unended_when_pickled: frozenset[str] = frozenset()
    """The pages whose records the environment was pickled with unended, until their
    endings are kept (:mod:`refgen.sphinx.finishing`)."""

    TRANSIENT: ClassVar[tuple[str, ...]] = (
        "ahead",
        "navigation",
        "class_texts",
        "fingerprinting",
        "markdown_files",
        "unended_when_pickled",
        "surroundings_now",
    )

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in vars(self).items() if k not in self.TRANSIENT}

    def __setstate__(self, state: dict[str, Any]) -> None:
        # A state pickled by another refgen may lack a field, or hold one no longer known.
        self.__init__()  # type: ignore[misc]
        known = {f.name for f in fields(self)}
        vars(self).update((k, v) for k, v in state.items() if k in known)

    def start_build(self, project: Project, ahead: Prefetcher) -> None:
        """``builder-inited``: a new Project and Prefetcher, nothing of the last build's own."""
        self.stop_workers()
        finish_left_running()  # of a build that stopped before its end, in this process
        self.markdown_files = None
        self.project = project
        self.ahead = ahead
        self.planned = {}
        self.anything_read = False
        self.surroundings_now = None
        self.navigation = None
        self.class_texts = None

    def stop_workers(self) -> None:
        """Stop the processes this build forked, if any are left."""
        if self.ahead is not None:
            self.ahead.stop()
        if self.fingerprinting is not None:
            self.fingerprinting.close()
            self.fingerprinting = None

    def record_of(self, docname: str) -> PageRecord:
        """The record of ``docname``, begun if it has none."""
        return self.pages.setdefault(docname, PageRecord())


STATE = "refgen_state"
"""The one attribute of the environment that refgen sets."""


def build_state(env: BuildEnvironment) -> BuildState:
    """refgen's state on ``env``, begun empty the first time it is asked for."""
    found = getattr(env, STATE, None)
    if not isinstance(found, BuildState):
        found = BuildState()
        setattr(env, STATE, found)
    return found


def project_of(env: BuildEnvironment) -> Project:
    """The Project of this build, made when the builder started."""
    project = build_state(env).project
    if project is None:
        raise RuntimeError("refgen: no Project before builder-inited")
    return project


def purge_page(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    """``env-purge-doc``: a page read again starts a new record and a new queue."""
    state = build_state(env)
    state.pages.pop(docname, None)
    state.queued_examples.pop(docname, None)


def merge_state(
    app: Sphinx, env: BuildEnvironment, docnames: set[str], other: BuildEnvironment
) -> None:
    """``env-merge-info``: the records and queued examples of the pages a parallel reader
    read."""
    state, theirs = build_state(env), build_state(other)
    state.pages.update((d, theirs.pages[d]) for d in docnames if d in theirs.pages)
    state.queued_examples.update(theirs.queued_examples)

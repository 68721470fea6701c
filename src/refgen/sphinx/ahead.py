"""Computing ahead: class figures, class pages and lexed source, made while Sphinx reads.

A clean build of a large library spends more than a tenth of its time on
registry values and elasticities (bench/RESULTS.md). At
``env-before-read-docs`` (:mod:`refgen.sphinx.ahead_events`) the build's
:class:`Prefetcher` forks a worker (:class:`~refgen.evaluate.ahead.AheadWorker`)
that computes, in the order the pages will be read, each class's
:class:`Figures`: its values, its elasticities and its page composed after
them. While the pages are written it goes on with what the build records of
those pages (:class:`PageEnding`: the page's digest and Markdown,
:mod:`refgen.sphinx.finishing`), then, in a clean build, lexes the modules
viewcode shows (:mod:`refgen.sphinx.highlighting`). The directive of a class
page takes its figures and page (:meth:`Prefetcher.take_page`), and whatever
the worker did not give is computed as it would be without one.

The Prefetcher also keeps the pages an incremental build composed at
``env-get-outdated`` to see whether they changed
(:meth:`Prefetcher.keep_page`), so that reading them composes nothing again;
a worker started there composes half of those
(:func:`~refgen.sphinx.ahead_events.compose_early`).

No worker in a parallel build (Sphinx's readers use the other cores there),
where forking is unsafe (:func:`~refgen.evaluate.ahead.can_fork`), or for fewer
than :data:`AHEAD_MINIMUM` classes with registry entries.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from sphinx.util import logging

from refgen.analysis.model import ScenarioDoc
from refgen.evaluate.ahead import AheadWorker, can_fork
from refgen.evaluate.sensitivity import Sensitivity
from refgen.evaluate.values import EntryValues
from refgen.project import Project
from refgen.render.downloads import RenderedEntry
from refgen.site import compose
from refgen.site.compose import ComposedPage, RecordedPage
from refgen.site.fingerprint import Fingerprints
from refgen.site.plan import PlannedPage
from refgen.sphinx.highlighting import LexedSource

logger = logging.getLogger(__name__)

AHEAD_MINIMUM = 8
"""Classes with registry entries below which a worker costs more than it saves."""


@dataclass(frozen=True)
class FiguresOf:
    """What to compute ahead: the :class:`Figures` of the class ``qualname``."""

    qualname: str


@dataclass(frozen=True)
class EndingOf:
    """What to compute ahead: the :class:`PageEnding` of the class ``qualname``'s page, as
    composed with its figures."""

    qualname: str


@dataclass(frozen=True)
class PagesFingerprinted:
    """What to compute ahead, once every page is ended: the pages' fingerprints."""


@dataclass(frozen=True)
class LexedModule:
    """What to compute ahead: the text of the module ``name`` lexed in pieces."""

    name: str


AheadKey = FiguresOf | EndingOf | PagesFingerprinted | LexedModule


@dataclass(frozen=True)
class Figures:
    """A class's values and elasticities, and its page composed with them."""

    values: tuple[EntryValues, ...]
    sensitivities: tuple[Sensitivity, ...]
    page: ComposedPage | None
    """None when composing the page failed: the build composes it and reports why."""
    ending: PageEnding | None = None
    """The page's ending, when the worker was asked for it with the page; None when it
    gives it later (an :class:`EndingOf` key)."""


@dataclass(frozen=True)
class PageEnding:
    """What the build records of a page the worker composed: its digest, its Markdown and
    its registry values laid out for the downloads."""

    digest: str
    markdown: str
    downloads: tuple[RenderedEntry, ...]


AheadResult = Figures | PageEnding | Fingerprints | LexedSource


class Prefetcher:
    """One build's results computed ahead: by its worker, or kept when composed early."""

    def __init__(self, project: Project) -> None:
        self.project = project
        self.worker: AheadWorker[AheadKey, AheadResult | None] | None = None
        self._class_pages: dict[str, tuple[PlannedPage, str]] = {}
        self._lexing: dict[str, Callable[[], LexedSource]] = {}
        self._pages: dict[PlannedPage, RecordedPage] = {}
        """Pages composed already, until the directive takes them."""
        self._unended: dict[str, str] = {}
        """Docname -> class of each page taken from the worker whose :class:`PageEnding`
        is not taken yet, in the order the worker computes them."""
        self._composed: dict[str, ComposedPage] = {}
        """In the worker: the class pages it composed, until it gives their endings."""
        self._endings_later = True
        self._fingerprinting: Callable[[], Fingerprints] | None = None
        """The job that takes the pages' fingerprints, until they are taken."""
        self._fingerprints: Fingerprints | None = None
        """The fingerprints the worker gave, once taken."""

    def start(
        self,
        class_pages: Mapping[str, tuple[PlannedPage, str]],
        lexing: Mapping[str, Callable[[], LexedSource]],
        endings_later: bool = True,
        fingerprinting: Callable[[], Fingerprints] | None = None,
    ) -> AheadWorker[AheadKey, AheadResult | None] | None:
        """Fork a worker computing the :class:`Figures` of the classes of ``class_pages``
        (dotted path -> the page and the path of its stub, in the order they will be
        read), then (``endings_later``) the endings of their pages, then running the
        ``fingerprinting`` job and the ``lexing`` jobs (module name -> job); None when a
        worker would not pay."""
        self._close_worker()
        wanted = [
            FiguresOf(s.qualname)
            for s in self._scenarios_of(class_pages)
            if s.registry_entries and not self.project.has_figures(s)
        ]
        if len(wanted) < AHEAD_MINIMUM or not can_fork():
            return None
        self._class_pages = dict(class_pages)
        self._lexing = dict(lexing)
        self._endings_later = endings_later
        # The child needs longer than one time limit only when the library's code runs
        # into it again and again; the build then does the rest itself.
        patience = 2 * self.project.settings.eval_timeout + 10
        endings = [EndingOf(key.qualname) for key in wanted] if endings_later else []
        self._fingerprinting = fingerprinting
        fingerprints = [PagesFingerprinted()] if fingerprinting is not None else []
        keys: list[AheadKey] = [*wanted, *endings, *fingerprints, *map(LexedModule, self._lexing)]
        self.worker = AheadWorker(self._compute, keys, patience)
        return self.worker

    def _compute(self, key: AheadKey) -> AheadResult | None:
        """In the worker: one key's result; None for figures the user's code does not let
        the worker compute (the build computes them, and says why)."""
        if isinstance(key, LexedModule):
            return self._lexing[key.name]()
        if isinstance(key, EndingOf):
            return self._ending(key.qualname)
        if isinstance(key, PagesFingerprinted):
            assert self._fingerprinting is not None  # asked for only with a job
            return self._fingerprinting()
        project = self.project
        scenario = project.scenario_named(key.qualname)
        if isinstance(scenario, str):
            return None
        values, sensitivities = project.values(scenario), project.sensitivities(scenario)
        if isinstance(values, str) or isinstance(sensitivities, str):
            return None
        planned, stub_path = self._class_pages[key.qualname]
        page = compose.compose(project, planned, stub_path)
        if isinstance(page, str):
            return Figures(values, sensitivities, None)
        self._composed[key.qualname] = page
        if self._endings_later:
            return Figures(values, sensitivities, page)
        return Figures(values, sensitivities, page, self._ending(key.qualname))

    def _ending(self, qualname: str) -> PageEnding | None:
        """In the worker, once every class's figures are given: the digest and Markdown
        of a page it composed (1.3 of the 10 s it worked while the deep bench shape's
        pages were read, where it is the slower of the two processes: bench/RESULTS.md)."""
        composed = self._composed.pop(qualname, None)
        if composed is None:
            return None
        page = compose.recorded(composed, self._class_pages[qualname][0].docname)
        assert page.digest is not None and page.markdown is not None
        assert page.downloads is not None
        return PageEnding(page.digest, page.markdown, page.downloads)

    def _scenarios_of(self, classes: Iterable[str]) -> list[ScenarioDoc]:
        found = (self.project.scenario_named(dotted) for dotted in classes)
        return [scenario for scenario in found if not isinstance(scenario, str)]

    def keep_page(self, planned: PlannedPage, page: RecordedPage) -> None:
        """A page composed already (to see whether it changed), for :meth:`take_page`."""
        self._pages[planned] = page

    def take_page(self, planned: PlannedPage) -> RecordedPage | None:
        """The page composed already, by the worker (a class page, whose figures the
        Project then keeps too) or by :meth:`keep_page`; None to compose it."""
        if planned.kind == "scenario" and self.worker is not None:
            self._take_figures(planned)
        return self._pages.pop(planned, None)

    def _take_figures(self, planned: PlannedPage) -> None:
        assert self.worker is not None
        scenario = self.project.scenario_named(planned.argument)
        if isinstance(scenario, str):
            return  # the directive composes the page, and reports why it cannot
        figures = self.worker.take(FiguresOf(scenario.qualname))
        if not isinstance(figures, Figures):
            return
        if len(figures.values) != len(scenario.registry_entries):
            return  # not this class's figures: nor what was made of them
        self.project.remember_figures(scenario, figures.values, figures.sensitivities)
        if figures.page is None:
            return
        planned = self._class_pages[scenario.qualname][0]
        ending = figures.ending
        if ending is not None:
            self._pages[planned] = RecordedPage(
                figures.page, ending.digest, ending.markdown, ending.downloads
            )
        else:
            self._pages[planned] = RecordedPage(figures.page, None, None)
            self._unended[planned.docname] = scenario.qualname

    def take_endings(self, wait: bool) -> dict[str, PageEnding | None]:
        """The endings of the pages taken from the worker, by docname: those it has sent
        (``wait``: all, waiting for them); None for one it did not give."""
        taken: dict[str, PageEnding | None] = {}
        for docname, qualname in list(self._unended.items()):
            key = EndingOf(qualname)
            if self.worker is not None and not wait and not self.worker.has_given(key):
                break  # they come in order
            found = self.worker.take(key) if self.worker is not None else None
            taken[docname] = found if isinstance(found, PageEnding) else None
            del self._unended[docname]
        return taken

    def work_left(self) -> bool:
        """Whether a running worker has endings, fingerprints or modules to give that are
        not taken."""
        pending = self._lexing or self._unended or self._fingerprinting
        return self.worker is not None and bool(pending)

    def takes_fingerprints(self) -> bool:
        """Whether the running worker was given the job of fingerprinting the pages."""
        return self.worker is not None and self._fingerprinting is not None

    def take_fingerprints(self) -> Fingerprints | None:
        """The fingerprints the worker took, waited for; None when it gave none, or was
        given no such job. Taken once, and kept after the worker stops."""
        if self.worker is not None and self._fingerprinting is not None:
            found = self.worker.take(PagesFingerprinted())
            self._fingerprints = found if isinstance(found, Fingerprints) else None
            self._fingerprinting = None
        return self._fingerprints

    def has_given_all(self) -> bool:
        """Whether the worker has sent everything it was asked for (or stopped)."""
        return self.worker is None or self.worker.has_given_all()

    def receive_ready(self) -> None:
        """Take in what the worker has sent, without waiting: a full pipe would hold it
        back while the build reads pages that ask it for nothing."""
        if self.worker is not None:
            self.worker.receive_ready()

    def take_lexed(self) -> list[LexedSource]:
        """Every module the worker lexed, waiting for the jobs it has not finished."""
        if self.worker is None:
            return []
        taken = (self.worker.take(LexedModule(name)) for name in self._lexing)
        return [found for found in taken if isinstance(found, LexedSource)]

    def stop(self) -> None:
        """Stop the worker, if any; what it has not given is computed when asked for."""
        self._pages.clear()
        self._close_worker()

    def _close_worker(self) -> None:
        if self.worker is not None:
            self.worker.close()
            self.worker = None
        self._lexing = {}
        self._fingerprinting = None  # fingerprints it gave were taken; others are taken here


def shown_modules(pages: Iterable[PlannedPage]) -> list[str]:
    """The modules whose objects ``pages`` document: those of categories and helpers, and
    the registry's (as far as its dotted path tells)."""
    found = []
    for page in pages:
        if page.kind in ("category", "helpers"):
            found.append(page.argument)
        elif page.kind == "registry":
            found.append(page.argument.rpartition(".")[0])
    return list(dict.fromkeys(found))

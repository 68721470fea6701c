"""Fingerprints: for every planned page, one digest of everything its content can depend on.

Equal fingerprints mean equal pages, so an incremental build reads again only
the pages whose fingerprint changed (:mod:`refgen.sphinx.incremental`). A
page's fingerprint combines the content digests of its roots in the reach
graph (:mod:`refgen.analysis.reach`, :mod:`refgen.analysis.reach_digest`) with
what else it shows: settings, versions, the project's data files, its title
and the pages it lists.

The roots of each kind of page:

- a class page: the class and its project bases (and what sets their
  attributes), its registry entries' statements, the registry module's own
  statements, its category's title and the code of its examples;
- a category page: its module's record and its classes' fingerprints (it
  shows their summaries and headline figures);
- a helper page: its module's text and each of its functions;
- a registry page: the text of the registry's files.

Each node of the graph is resolved and digested once per build, so the whole
site's fingerprints cost time linear in the source they reach. What a file
holds is kept across builds by content (:class:`~refgen.analysis.reach_index.IndexStore`),
and what planning needs of each class by the digest of its reach
(:mod:`refgen.site.outline`): a build in which nothing changed parses and
analyses nothing. A page that reaches code
whose dependencies cannot be known (a module imported by a name the code
computes) gets a fingerprint that matches nothing: it is composed again at
every build and compared, never taken as unchanged.
"""

from __future__ import annotations

import contextlib
import doctest
import os
import sys
import uuid
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import pint

from refgen import __version__
from refgen.analysis import discovery, modules
from refgen.analysis.dependencies import data_files_digest, python_files, source_folders
from refgen.analysis.guard import call_user_code
from refgen.analysis.model import Problem, SourceLocation, WarningKind
from refgen.analysis.reach import Reach
from refgen.analysis.reach_digest import Digest, DigestGraph
from refgen.analysis.reach_files import Node
from refgen.analysis.reach_index import IndexStore
from refgen.collector import collector_paused
from refgen.evaluate.ahead import AheadWorker
from refgen.loading import no_progress
from refgen.prose.docstrings import ClassText
from refgen.site.outline import OUTLINES, Outline, Outlines
from refgen.site.plan import PlannedPage

if TYPE_CHECKING:
    from refgen.project import Project

SNAPSHOT_MOST = 32 * 2**20
"""Bytes of Python source beyond which the files are not kept to be fingerprinted later."""

STORE = "refgen-reach.pickle"
"""The file, in a build's doctree folder, that keeps the reach index across builds."""


@dataclass
class Fingerprints:
    """The fingerprint of each page, and the places whose dependencies cannot be known."""

    by_page: dict[str, str] = field(default_factory=dict)
    unknowable: dict[str, list[tuple[str, int, str]]] = field(default_factory=dict)
    """Page -> the places in what it reaches that read a module by a computed name."""

    def problem(self) -> Problem | None:
        """One warning for every page that must be composed again at each build."""
        if not self.unknowable:
            return None
        places = sorted({place for found in self.unknowable.values() for place in found})
        path, line, why = places[0]
        more = f" (and {len(places) - 1} other place(s))" if len(places) > 1 else ""
        pages = len(self.unknowable)
        message = (
            f"{why}{more}: what {pages} page(s) depend on cannot be known statically, so "
            "they are composed again at every build and compared with the last (never "
            "stale, but slower)"
        )
        return Problem(WarningKind.REACH, message, SourceLocation(path, line), "")


class ForkedFingerprints:
    """The fingerprints of ``pages``, taken by a process forked from the build
    (:meth:`start`) from the files as a snapshot holds them
    (:meth:`SiteIndex.take_snapshot`).

    The fork has everything the build had when it was made; it saves what it
    learnt for the next build itself. When there is no fork (the system could not
    make one), or it gives nothing (it died, or gave up), :meth:`take` takes them
    here, from the same snapshot.
    """

    KEY = "fingerprints"

    def __init__(self, site: SiteIndex, pages: Sequence[PlannedPage]) -> None:
        self.site = site
        self.pages = tuple(pages)
        self.worker: AheadWorker[str, Fingerprints] | None = None

    def start(self, patience: float) -> int | None:
        """Fork the process that takes them; its process id, or None if it cannot be made."""
        try:
            self.worker = AheadWorker(self._in_fork, [self.KEY], patience)
        except OSError:
            return None
        return self.worker.pid

    def _in_fork(self, _key: str) -> Fingerprints:
        # Wanted only once every page is read: the core is the worker's computing figures
        # first, which the build waits for (bench/RESULTS.md).
        with contextlib.suppress(OSError):
            os.nice(10)
        return self.taken_elsewhere()

    def taken_elsewhere(self) -> Fingerprints:
        """The fingerprints, taken in a process forked from the build: this one's fork, or
        the build's worker once its other work is done."""
        self.site.project.progress = no_progress  # progress lines are the build's alone
        return self.taken_here()

    def taken_here(self) -> Fingerprints:
        """The fingerprints, taken in the build from the snapshot (no process gave them)."""
        return self.site.take_fingerprints(self.pages)

    def take(self) -> Fingerprints:
        """The fork's fingerprints, waited for; taken here when it gives none."""
        found = self.worker.take(self.KEY) if self.worker is not None else None
        self.close()
        return found if isinstance(found, Fingerprints) else self.taken_here()

    def receive_ready(self) -> None:
        """Take in what the fork has sent, without waiting: a fork done with its work then
        ends, rather than wait for the build to read its answer."""
        if self.worker is not None:
            self.worker.receive_ready()

    def close(self) -> None:
        if self.worker is not None:
            self.worker.close()
            self.worker = None


def file_store(folder: Path | None) -> IndexStore:
    """What the last build learnt of each file, kept in ``folder`` (a doctree folder)."""
    return IndexStore(folder / STORE if folder else None)


class SiteIndex:
    """The reach graph of one project for one build: class outlines for planning, then
    each page's fingerprint. ``folder`` (a build's doctree folder) keeps what it learns
    of each file and class for the next build."""

    def __init__(
        self, project: Project, folder: Path | None = None, store: IndexStore | None = None
    ) -> None:
        self.project = project
        roots = project.package_roots()
        self.store = store or file_store(folder)
        self.reach = Reach(
            project.module_source,
            source_folders(roots),
            self.store,
            timeout=project.settings.eval_timeout,
        )
        self.digests = DigestGraph(self.reach)
        self.outlines = Outlines(project, folder / OUTLINES if folder else None)
        self.common = (
            __version__,
            pint.__version__,
            sys.version,
            repr(project.settings),
            data_files_digest(roots),
        )
        self._classes: dict[type, Digest | None] = {}
        self._registry_statements: Digest | None = None
        self._planned: dict[str, PlannedPage] = {}
        self._outlines: list[Outline] = []
        self._outline_of: dict[type, Outline] = {}
        self._unkeyed: list[type] = []
        """Classes whose outline is kept by its digest only when saved."""

    # ------------------------------------------------------------------ planning

    def outline(self, cls: type) -> Outline:
        """What planning and fingerprinting need of ``cls``, analysed only if what it
        reaches changed since the last build.

        A class the last build kept no outline of is analysed without its digest,
        which :meth:`save` takes: in a fresh build, planning walks no reach graph.
        """
        found = self._outline_of.get(cls)
        if found is None:
            if self.outlines.has_kept(cls):
                found = self.outlines.of(cls, self._usable_digest(cls))
            else:
                found = self.outlines.of(cls, None)
                self._unkeyed.append(cls)
            self._outline_of[cls] = found
        return found

    def _usable_digest(self, cls: type) -> str | None:
        """The digest of ``cls`` to key its outline by (None: unknown, kept by none)."""
        digest = self.class_digest(cls)
        return digest.hexdigest if digest is not None and not digest.unknowable else None

    def class_digest(self, cls: type) -> Digest | None:
        """The class, its bases and what they reach (None when it cannot be taken)."""
        if cls not in self._classes:
            found, _error = call_user_code(
                lambda: self.digests.combined(self.reach.of_class(cls), *self.common)
            )
            self._classes[cls] = found
        return self._classes[cls]

    def helper_modules(self) -> list[str]:
        """The modules of every helper a class calls or references, first seen first."""
        classes = self.project.progress(self.project.classes, "analysing scenario classes")
        with collector_paused():  # a burst of small records without cycles
            self._outlines = [self.outline(cls) for cls in classes]
        targets = (t for outline in self._outlines for t in outline.helper_targets)
        return modules.modules_of(targets)

    def class_texts(self) -> list[ClassText]:
        """The author's words of every class, as the outlines of :meth:`helper_modules`
        keep them."""
        return [text for outline in self._outlines for text in outline.texts]

    def problems(self, paged: Collection[str]) -> list[Problem]:
        """Why the classes that cannot be analysed cannot, but for those ``paged`` (dotted
        paths of classes with a page of their own, which warns at the class's line):
        with only a registry configured, its classes have no page."""
        outlines = (self.outline(cls) for cls in self.project.classes)
        found = (outline.problem for outline in outlines if outline.problem is not None)
        return [problem for problem in found if problem.subject not in paged]

    # ------------------------------------------------------------------ fingerprints

    def fingerprints(self, pages: Sequence[PlannedPage]) -> Fingerprints:
        """A fingerprint per page of the source its content can depend on, with refgen's
        settings and versions."""
        result = Fingerprints()
        # A category shows its classes' headline figures: their fingerprints come first.
        in_order = sorted(pages, key=lambda planned: planned.kind == "category")
        self._planned = {page.docname: page for page in pages}
        with collector_paused():  # a burst of small records without cycles
            self._fingerprint(self.project.progress(in_order, "fingerprinting pages"), result)
        return result

    def take_fingerprints(self, pages: Sequence[PlannedPage]) -> Fingerprints:
        """:meth:`fingerprints`, then :meth:`save` what they learnt."""
        found = self.fingerprints(pages)
        self.save()
        return found

    def _fingerprint(self, pages: Iterable[PlannedPage], result: Fingerprints) -> None:
        for page in pages:
            found, _error = call_user_code(self._page_digest, page, result.by_page)
            if found is None or found.unknowable:
                result.by_page[page.docname] = f"unknown: {uuid.uuid4()}"
                if found is not None:
                    result.unknowable[page.docname] = sorted(
                        place for node in found.unknowable for place in self.reach.unknowable[node]
                    )
                continue
            extra = (page.kind, page.directive_argument, *page.children, *self.common)
            result.by_page[page.docname] = self.digests.combined((), *extra, also=[found]).hexdigest

    def take_snapshot(self) -> bool:
        """Read now every file the fingerprints may be made of, so that
        :meth:`fingerprints` can run later (in a worker, while the build evaluates the
        library) and still see the code the build ran. False when the project's folders
        hold more than :data:`SNAPSHOT_MOST` bytes of Python: no snapshot then."""
        folders = source_folders(self.project.package_roots())
        return self.reach.files.take_snapshot(python_files(folders), SNAPSHOT_MOST)

    def save(self) -> None:
        """Keep what this build learnt for the next, and let go of syntax trees."""
        for cls in self._unkeyed:
            digest = self._usable_digest(cls)
            if digest is not None:
                self.outlines.keep(cls, digest, self._outline_of[cls])
        self.reach.forget_syntax()
        self.store.save()
        self.outlines.save()

    def _page_digest(self, page: PlannedPage, earlier: dict[str, str]) -> Digest:
        match page.kind:
            case "scenario":
                return self._class_page(page.argument)
            case "category":
                folder = page.docname.rpartition("/")[0]
                rows = [self._row(f"{folder}/{child}", earlier) for child in page.children]
                return self.digests.combined((), _module_text(page.argument), *rows)
            case "helpers":
                module = discovery.resolve(page.argument)
                roots = self._files([discovery.module_file(page.argument) or ""])
                for value in list(vars(module).values()):
                    if callable(value) and getattr(value, "__module__", None) == page.argument:
                        roots += self.reach.of_function(value)
                return self.digests.combined(roots)
            case "registry" | "registry-part":
                return self.digests.combined(self._files(self.project.registry_files()))
        return self.digests.combined(())

    def _row(self, docname: str, earlier: dict[str, str]) -> str:
        """What a category's table shows of one class: its name and summary, and its
        headline figure, a computed value that only the class page's fingerprint covers."""
        planned = self._planned.get(docname)
        if planned is None or planned.kind != "scenario":
            return earlier.get(docname, "")
        outline = self.outline(discovery.resolve(planned.argument))
        if outline.headline or outline.problem is not None:
            return earlier.get(docname, "")
        return outline.row

    def _class_page(self, dotted: str) -> Digest:
        cls = discovery.resolve(dotted)
        roots = self.reach.of_class(cls)
        entries, extra = self._entries(cls)
        examples = self.outline(cls).examples
        if examples is not None:  # what they run decides whether they pass
            parsed = doctest.DocTestParser().get_examples(examples)
            code = "\n".join(example.source for example in parsed)
            roots.append(self.reach.of_code(code, cls.__module__, f"<examples of {dotted}>"))
        return self.digests.combined(
            [*roots, *entries],
            *extra,
            f"category of {dotted}\0{_module_text(cls.__module__)}",
            also=[self._statements()],
        )

    def _entries(self, cls: type) -> tuple[list[Node], list[str]]:
        """The statements of the registry entries that instantiate ``cls`` (what they read
        follows), and their names and places."""
        registry = self.project.registry
        if registry is None:
            return self._files(self.project.registry_files()), []
        roots: list[Node] = []
        extra: list[str] = []
        for entry in registry.entries_of(discovery.dotted_path(cls)):
            if entry.location is None:  # inherited from a base, or made by code
                roots += self._files(self.project.registry_files())
                holder = discovery.resolve(entry.registry)
                roots += self.reach.of_class(holder) if isinstance(holder, type) else []
            else:
                where = entry.location
                roots += self.reach.of_statement(where.path, where.line)
                extra.append(f"{where.path}:{where.line}\0{entry.name}")
        return roots, extra

    def _statements(self) -> Digest:
        """Entries made by module-level code (a module or dict registry, a loop that adds
        entries) are in the registry module's statements: the same for every class."""
        if self._registry_statements is None:
            project = self.project
            roots: list[Node] = []
            if project.registry is not None:
                roots += self.reach.of_module_statements(project.registry_module())
                # entries replaced or added from another module
                roots += self.reach.of_patches(discovery.resolve(project.registry.qualname))
            self._registry_statements = self.digests.combined(roots)
        return self._registry_statements

    def _files(self, paths: Iterable[str]) -> list[Node]:
        return [node for path in paths if (node := self.reach.of_file(path)) is not None]


def _module_text(module_name: str) -> str:
    """What a category's title and description are made of: its module's docstring and
    file (the setting that may retitle it is in every fingerprint)."""
    module = sys.modules.get(module_name)
    return f"{module_name}\0{getattr(module, '__file__', '')}\0{getattr(module, '__doc__', '')}"

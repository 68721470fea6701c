"""The directives of generated pages: each asks the Project, renders blocks, builds nodes.

A stub page holds one of ``refgen-scenario``, ``refgen-category``,
``refgen-helpers``, ``refgen-registry`` or ``refgen-index``. Its directive
composes the page (:mod:`refgen.site.compose`), notes its digest for the
next build (:mod:`refgen.sphinx.incremental`) with the problems of what it
shows (reported at their ``.py`` lines once every page is read, by
:func:`refgen.sphinx.records.report_page_problems`) and returns the page's
nodes. A page that cannot be composed because the user's code fails (the
Project, which guards that code, gives the reason) is one warning; the page is
left empty and the build goes on.
"""

from __future__ import annotations

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

from refgen.analysis.model import SourceLocation, WarningKind
from refgen.project import Project
from refgen.render.pages import (
    failure_page,
)
from refgen.render.reference_tables import settings_reference, warnings_reference
from refgen.site.compose import (
    ComposedPage,
    RecordedPage,
    recorded,
    recorded_page,
)
from refgen.site.plan import PlannedPage
from refgen.sphinx.examples import queue_examples
from refgen.sphinx.node_builder import NodeBuilder
from refgen.sphinx.records import note_page
from refgen.sphinx.reporting import warn
from refgen.sphinx.state import build_state, project_of
from refgen.sphinx.stubs import set_toc_depth


class PageDirective(SphinxDirective):
    """A generated page: ``.. refgen-<kind>:: argument`` with its children as content."""

    required_arguments = 1
    final_argument_whitespace = True
    has_content = True
    kind = ""
    failure_kind = WarningKind.ANALYSIS

    def run(self) -> list[nodes.Node]:
        project = project_of(self.env)
        planned = PlannedPage.from_directive(
            self.env.docname,
            self.kind,
            self.arguments[0],
            tuple(line.strip() for line in self.content if line.strip()),
        )
        page = self.recorded_page(project, planned)
        composed = page.composed
        note_page(self.env, page)  # with its problems, reported once every page is read
        self.note_toc_depth(planned)
        for subject, block in composed.examples:
            queue_examples(self.env, subject, block)
        return NodeBuilder(self).page(composed.page)

    def recorded_page(self, project: Project, planned: PlannedPage) -> RecordedPage:
        """The page composed already, by the worker of this build (a class page) or to see
        whether it changed (:mod:`refgen.sphinx.incremental`), or composed here; a page the
        user's code keeps from being composed is one warning, and the rest of the site
        builds."""
        ahead = build_state(self.env).ahead
        composed = ahead.take_page(planned) if ahead is not None else None
        if composed is not None:
            return composed
        page = recorded_page(project, planned, self.page_location().path)
        if not isinstance(page, str):
            return page
        reason = f"cannot document {self.arguments[0]}: {page}"
        warn(self.failure_kind, reason, self.failure_location(project))
        failure = failure_page(self.arguments[0], reason, self.page_location())
        return recorded(ComposedPage(failure), planned.docname)

    def note_toc_depth(self, page: PlannedPage) -> None:
        """A page refgen planned (its stub) enters tables of contents as deep as its kind says."""
        stub = build_state(self.env).planned.get(self.env.docname)
        if stub is not None and stub[0].kind == page.kind:
            set_toc_depth(self.env.metadata[self.env.docname], page)

    def page_location(self) -> SourceLocation:
        return SourceLocation(self.env.doc2path(self.env.docname).as_posix(), self.lineno)

    def failure_location(self, project: Project) -> SourceLocation:
        """Where a failure to document the page's object is reported: its source if known."""
        found = project.class_named(self.arguments[0])
        located = project.class_location(found) if not isinstance(found, str) else None
        return located or self.page_location()


class ScenarioDirective(PageDirective):
    """``.. refgen-scenario:: module.Class``: the reference page of one class."""

    kind = "scenario"


class CategoryDirective(PageDirective):
    """``.. refgen-category:: module``: the page of one category."""

    kind = "category"


class HelpersDirective(PageDirective):
    """``.. refgen-helpers:: module``: the page of a module of helper functions."""

    kind = "helpers"


class RegistryDirective(PageDirective):
    """``.. refgen-registry:: module.Registry``: the page of the named scenarios."""

    kind = "registry"
    failure_kind = WarningKind.REGISTRY


class RegistryPartDirective(PageDirective):
    """``.. refgen-registry-part:: module.Registry FIRST LAST``: entries of a split registry."""

    kind = "registry-part"
    failure_kind = WarningKind.REGISTRY


class IndexDirective(PageDirective):
    """``.. refgen-index:: Title`` with one table-of-contents entry per content line."""

    kind = "index"


class SettingsTableDirective(SphinxDirective):
    """``refgen-settings``: the table of every setting, generated from their declaration."""

    def run(self) -> list[nodes.Node]:
        return NodeBuilder(self).block(settings_reference())


class WarningsTableDirective(SphinxDirective):
    """``refgen-warnings``: the table of every warning type, generated from their declaration."""

    def run(self) -> list[nodes.Node]:
        return NodeBuilder(self).block(warnings_reference())

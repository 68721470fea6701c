"""The directives of generated pages: each asks the Project, renders blocks, builds nodes.

A stub page holds one of ``refgen-scenario``, ``refgen-category``,
``refgen-helpers``, ``refgen-registry`` or ``refgen-index``. Its directive
notes the files the page depends on, reports the problems of what it shows
(at their ``.py`` lines) and returns the page's nodes. A failure in the user's
code is one warning; the page is left empty and the build goes on.
"""

from __future__ import annotations

from collections.abc import Iterable

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

from refgen.analysis import discovery
from refgen.analysis.failures import describe_error
from refgen.analysis.guard import call_user_code
from refgen.analysis.model import ScenarioDoc, SourceLocation, WarningKind
from refgen.evaluate.values import EntryValues
from refgen.project import Project
from refgen.render.blocks import Page
from refgen.render.pages import (
    category_page,
    failure_page,
    helpers_page,
    index_page,
    registry_page,
)
from refgen.render.reference_tables import settings_reference, warnings_reference
from refgen.render.scenario_page import scenario_page
from refgen.sphinx.examples import queue_examples
from refgen.sphinx.nodes import NodeBuilder
from refgen.sphinx.reporting import warn, warn_problem
from refgen.sphinx.state import note_registry_dependency, project_of


class PageDirective(SphinxDirective):
    """Common parts of the directives that fill a generated page."""

    required_arguments = 1
    final_argument_whitespace = True
    has_content = True
    failure_kind = WarningKind.ANALYSIS

    def run(self) -> list[nodes.Node]:
        project = project_of(self.env)
        page, error = call_user_code(self.page, project)
        if error is not None:  # the user's code: one warning, the rest of the site builds
            reason = f"cannot document {self.arguments[0]}: {describe_error(error)}"
            warn(self.failure_kind, reason, self.failure_location(project))
            page = failure_page(self.arguments[0], reason, self.page_location())
        assert page is not None
        return NodeBuilder(self).page(page)

    def page_location(self) -> SourceLocation:
        return SourceLocation(self.env.doc2path(self.env.docname).as_posix(), self.lineno)

    def failure_location(self, project: Project) -> SourceLocation:
        """Where a failure to document the page's object is reported: its source if known."""
        found, _ = call_user_code(project.resolve, self.arguments[0])
        if found is not None and isinstance(found, type):
            return project.cache.class_source(found).location()
        return self.page_location()

    def page(self, project: Project) -> Page:
        raise NotImplementedError

    def depend_on_files(self, paths: Iterable[str]) -> None:
        for path in paths:
            self.env.note_dependency(path)


class ScenarioDirective(PageDirective):
    """``.. refgen-scenario:: module.Class``: the reference page of one class."""

    def run(self) -> list[nodes.Node]:
        module_file = discovery.module_file(self.arguments[0].rpartition(".")[0])
        if module_file:  # so that fixing a class that fails to analyse re-reads its page
            self.env.note_dependency(module_file)
        return super().run()

    def page(self, project: Project) -> Page:
        scenario = project.scenario(project.resolve(self.arguments[0]))
        note_registry_dependency(self.env)
        self.depend_on_files(scenario.source_files)
        for problem in scenario.problems:
            warn_problem(problem)
        if scenario.docstring.examples and project.settings.run_examples:
            queue_examples(self.env, scenario.qualname, scenario.docstring.examples)
        values = project.values(scenario)
        _report_raising_properties(scenario, values)
        return scenario_page(scenario, values, project.settings.value_precision, project.units)


def _report_raising_properties(scenario: ScenarioDoc, entries: Iterable[EntryValues]) -> None:
    """Warn about properties that raise, except for lack of an optional input."""
    for entry in entries:
        for value in entry.values:
            if value.available or value.missing_inputs:
                continue
            item = scenario.attribute(value.name)
            warn(
                WarningKind.VALUE,
                f"{scenario.qualname}.{value.name} cannot be computed for registry "
                f"entry {entry.entry}: {value.reason}",
                item.location if item else scenario.location,
            )


class CategoryDirective(PageDirective):
    """``.. refgen-category:: module``: the page of one category."""

    def page(self, project: Project) -> Page:
        module_name = self.arguments[0]
        doc = project.module(module_name)
        scenarios = project.scenarios_of(module_name)
        self.depend_on_files([doc.location.path])
        note_registry_dependency(self.env)
        headlines = {}
        for scenario in scenarios:
            self.depend_on_files(scenario.source_files)
            found = project.headline(scenario)
            if found is not None and found[1].available:
                headlines[scenario.qualname] = found
        pages = [line.strip() for line in self.content if line.strip()]
        return category_page(doc, scenarios, headlines, pages)


class HelpersDirective(PageDirective):
    """``.. refgen-helpers:: module``: the page of a module of helper functions."""

    def page(self, project: Project) -> Page:
        module_name = self.arguments[0]
        doc = project.module(module_name)
        helpers = project.helpers_of(module_name)
        self.depend_on_files([doc.location.path])
        for helper in helpers:
            for problem in helper.docstring.problems:
                warn_problem(problem)
        return helpers_page(doc, helpers, project.units)


class RegistryDirective(PageDirective):
    """``.. refgen-registry:: module.Registry``: the page of the named scenarios."""

    failure_kind = WarningKind.REGISTRY

    def page(self, project: Project) -> Page:
        note_registry_dependency(self.env)
        return registry_page(project.cache.registry(self.arguments[0]))


class IndexDirective(PageDirective):
    """``.. refgen-index:: Title`` with one table-of-contents entry per content line."""

    def page(self, project: Project) -> Page:
        entries = [line.strip() for line in self.content if line.strip()]
        return index_page(self.arguments[0], entries, self.page_location().path)


class SettingsTableDirective(SphinxDirective):
    """``refgen-settings``: the table of every setting, generated from their declaration."""

    def run(self) -> list[nodes.Node]:
        return NodeBuilder(self).block(settings_reference())


class WarningsTableDirective(SphinxDirective):
    """``refgen-warnings``: the table of every warning type, generated from their declaration."""

    def run(self) -> list[nodes.Node]:
        return NodeBuilder(self).block(warnings_reference())

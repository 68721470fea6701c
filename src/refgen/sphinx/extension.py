"""The Sphinx extension: settings, events, and the wiring of directives, roles and nodes.

At ``builder-inited`` the Project is loaded, its problems reported and the
page stubs written (:mod:`refgen.sphinx.stubs`); when Sphinx reads a stub, a
directive (:mod:`refgen.sphinx.directives`) renders the page's blocks and
builds its nodes (:mod:`refgen.sphinx.node_builder`); examples run once reading is
done (:mod:`refgen.sphinx.examples`).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.environment import BuildEnvironment
from sphinx.errors import ConfigError as SphinxConfigError
from sphinx.util import logging
from sphinx.util.display import status_iterator

from refgen import __version__
from refgen.analysis import discovery
from refgen.analysis.model import Problem, WarningKind
from refgen.analysis.reach_files import too_deep
from refgen.checks import CheckKind, run_checks
from refgen.config import PREFIX, ConfigError, Settings, setting_fields
from refgen.project import Project
from refgen.render import blocks
from refgen.site.fingerprint import SiteIndex, file_store
from refgen.site.plan import PageKind, PlannedPage, empty_reference, plan_pages
from refgen.sphinx import (
    ahead,
    ahead_events,
    compact_tables,
    directives,
    examples,
    exports,
    fingerprinting,
    finishing,
    highlighting,
    html_tables,
    incremental,
    links,
    memory,
    navigation,
    nodes,
    private,
    prose_audit,
    records,
    roles,
    search_index,
    smart_quotes,
    stubs,
    sweeps,
    viewcode,
    write_warnings,
    written,
)
from refgen.sphinx import state as kept_records
from refgen.sphinx.reporting import report
from refgen.sphinx.state import build_state, merge_state, purge_page
from refgen.sphinx.stubs import write_stubs

logger = logging.getLogger(__name__)
T = TypeVar("T")


def generate_pages(app: Sphinx) -> None:
    """Load the Project, report its problems and write the page stubs."""
    with memory.thawed_on_failure():
        try:
            _generate_pages(app)
        except BaseException:
            build_state(app.env).stop_workers()  # the build ends here
            raise


def _generate_pages(app: Sphinx) -> None:
    def progress(items: Sequence[T], summary: str) -> Iterable[T]:
        return status_iterator(
            items,
            f"[refgen] {summary}... ",
            "purple",
            len(items),
            app.verbosity,
            stringify_func=progress_name,
        )

    # What the last build learnt of each file and class is kept in the doctree folder:
    # whether refgen can parse a module too, so a build with nothing changed parses nothing.
    store = file_store(Path(app.doctreedir))
    project = Project(settings_of(app.config), progress, functools.partial(too_deep, store))
    state = build_state(app.env)
    state.start_build(project, ahead.Prefetcher(project))
    finishing.restore_endings(state, Path(app.doctreedir))
    fingerprinting.restore_fingerprints(state, Path(app.doctreedir))
    memory.freeze_what_sphinx_loaded()
    loading_problems = project.load()
    memory.freeze_what_lives_on()  # the library and its registry
    site = SiteIndex(project, Path(app.doctreedir), store)
    plan = plan_pages(project, site.helper_modules())
    pages = plan.pages
    state.class_texts = site.class_texts()
    empty = empty_reference(project, loading_problems)
    # A class that cannot be analysed is warned about on its page, at its line, if it has one.
    paged = {page.argument for page in pages if page.kind is PageKind.SCENARIO}
    unpaged = site.problems(paged)
    found = [*loading_problems, *plan.problems, *unpaged, *([empty] if empty else [])]
    report(found, project.settings)
    if project.settings.checks:
        report(check_problems(project), project.settings)
    project.registry_files()  # found once here: for a broken registry, that means importing it
    # Stubs of the last build's reference folder go too, when the setting changed.
    previous = state.root or project.settings.root
    roots = sorted({previous, project.settings.root})
    written = write_stubs(pages, Path(app.srcdir), roots)
    state.root = project.settings.root
    memory.freeze_what_lives_on()  # the analysis
    fingerprinting.take_fingerprints(app, site, pages)
    logger.info(
        "[refgen] %d scenario classes, %d pages planned, %d stubs rewritten",
        len(project.classes),
        len(pages),
        len(written),
    )


def after_reading(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """``env-updated``, once every page is read: refgen's steps, in this order; the pages
    to write again though they were not read.

    The examples run first: their warnings belong to their pages. The worker
    then gives the last of what it computed and stops. viewcode's module list
    is made a clean build's before the pages around which the site changed
    are found. The prose is audited here, not at ``env-check-consistency``,
    which Sphinx skips when it read no page: a rebuild with nothing changed
    warns as the clean build did. Every page's problems are reported last,
    together.
    """
    examples.run_queued_examples(app, env)
    fingerprinting.keep_fingerprints(app, env)
    ahead_events.stop_computing_ahead(app, env)
    viewcode.forget_modules_nothing_documents(env)
    write_again = [
        *incremental.pages_whose_surroundings_changed(app, env),
        *incremental.pages_with_unresolved_links(app, env),
        *written.pages_read_since_written(app, env),
    ]
    prose_audit.audit_pages(app, env)
    records.report_page_problems(env)
    finishing.token_unended(app, env)  # the last step before Sphinx pickles the environment
    return list(dict.fromkeys(write_again))


def progress_name(item: object) -> str:
    """How an item of a long phase is named on its progress line."""
    if isinstance(item, type):
        return discovery.dotted_path(item)
    if isinstance(item, PlannedPage):
        return item.docname
    return str(item)


def check_problems(project: Project) -> list[Problem]:
    """What ``refgen check`` finds beyond the problems the build reports anyway, as
    ``refgen.check`` problems (``Name: what [rule]``, the name as the subject)."""
    rules = {str(kind) for kind in CheckKind}
    found = []
    for finding in run_checks(project, values=False).findings:
        if finding.kind in rules:
            subject, colon, rest = finding.message.partition(": ")
            message = f"{rest if colon else finding.message} [{finding.kind}]"
            found.append(
                Problem(WarningKind.CHECK, message, finding.location, subject if colon else "")
            )
    return found


def settings_of(config: Config) -> Settings:
    """The refgen settings of ``conf.py``, validated."""
    values = {f"{PREFIX}{spec.name}": config[f"{PREFIX}{spec.name}"] for spec in setting_fields()}
    try:
        settings = Settings.from_mapping(values, "conf.py", prefix=PREFIX)
    except ConfigError as error:
        raise SphinxConfigError(str(error)) from error
    conf_py = private.raw_config(config).get("__file__")
    return dataclasses.replace(settings, source=Path(conf_py)) if conf_py else settings


def check_settings(app: Sphinx, config: Config) -> None:
    """Refuse a bad value, and a ``refgen_`` name that is no setting (a typo would be ignored)."""
    declared = {f"{PREFIX}{spec.name}" for spec in setting_fields()}
    unknown = sorted(
        name
        for name in private.raw_config(config)
        if name.startswith(PREFIX) and name not in declared
    )
    if unknown:
        raise SphinxConfigError(
            f"conf.py: unknown setting(s) {', '.join(unknown)}; "
            f"known settings are {', '.join(sorted(declared))}"
        )
    settings_of(config)


STATIC = Path(__file__).parent / "static"


def add_static_path(app: Sphinx, config: Config) -> None:
    # At config-inited, before the environment compares this configuration with
    # the pickled one: added later, the path would read as a change to conf.py.
    if str(STATIC) not in config.html_static_path:
        config.html_static_path.append(str(STATIC))


STATIC_MEDIA_TYPES = {
    ".woff2": "font/woff2",  # the math font; a core media type of EPUB 3.3
    ".txt": "text/plain",  # the font's licence, which travels with it
    ".md": "text/markdown",  # where the font comes from
}
"""Media types of the files in refgen's static folder that Sphinx's EPUB builder does not
know: without them it leaves the files out of the book, with a warning each."""


def add_media_types(app: Sphinx) -> None:
    """``builder-inited``: an EPUB builder packs refgen's static files too."""
    known = getattr(app.builder, "media_types", None)
    if isinstance(known, dict):
        app.builder.media_types = {**STATIC_MEDIA_TYPES, **known}  # type: ignore[attr-defined]


def add_nodes(app: Sphinx) -> None:
    """Register refgen's own nodes: HTML gets its markup; other builders skip the MathML
    and SVG (the code stands beside them), show names as code and folded content unfolded.

    ``bench/sphinx_floor.py`` registers them too, to have Sphinx write refgen's pages
    without refgen composing them.
    """
    app.add_node(nodes.pending_source_link)
    for node, html, elsewhere in (
        (nodes.refgen_markup, (nodes.visit_markup_html, None), (nodes.skip_node, None)),
        (
            nodes.refgen_identifier,
            (nodes.visit_identifier_html, None),
            (nodes.visit_identifier_as_literal, nodes.depart_identifier_as_literal),
        ),
        (
            nodes.refgen_file_link,
            (nodes.visit_file_link_html, None),
            (nodes.visit_file_link_elsewhere, nodes.depart_file_link_elsewhere),
        ),
        (nodes.refgen_copy_button, (nodes.visit_copy_button_html, None), (nodes.skip_node, None)),
        (
            nodes.refgen_table,
            (html_tables.visit_compact_table_html, None),
            (compact_tables.visit_compact_table, None),
        ),
        (nodes.refgen_search_words, (nodes.skip_node, None), (nodes.skip_node, None)),
        (
            nodes.refgen_details,
            (nodes.visit_details_html, nodes.depart_details_html),
            (nodes.unfolded, nodes.unfolded),
        ),
    ):
        app.add_node(
            node, html=html, latex=elsewhere, text=elsewhere, man=elsewhere, texinfo=elsewhere
        )


def setup(app: Sphinx) -> dict[str, Any]:
    memory.thaw_what_an_unfinished_build_froze()
    app.setup_extension("sphinx.ext.viewcode")
    for spec in setting_fields():
        default: Any = spec.default
        if spec.metadata["kind"] == "module names and titles":
            default = dict(default)  # written in conf.py as a dict
        elif isinstance(default, tuple):
            default = list(default)
        app.add_config_value(f"{PREFIX}{spec.name}", default, "env")
    add_nodes(app)
    app.add_role("scenario", roles.ScenarioValueRole())
    app.add_directive("refgen-scenario", directives.ScenarioDirective)
    app.add_directive("refgen-category", directives.CategoryDirective)
    app.add_directive("refgen-helpers", directives.HelpersDirective)
    app.add_directive("refgen-registry", directives.RegistryDirective)
    app.add_directive("refgen-registry-part", directives.RegistryPartDirective)
    app.add_directive("refgen-index", directives.IndexDirective)
    app.add_directive("refgen-settings", directives.SettingsTableDirective)
    app.add_directive("refgen-warnings", directives.WarningsTableDirective)
    app.add_directive("refgen-sweep", sweeps.SweepDirective)
    app.add_post_transform(links.ScriptLinks)
    app.add_transform(links.AnonymousLinks)
    app.add_transform(smart_quotes.PageSmartQuotes)
    app.connect("config-inited", check_settings)
    app.connect("config-inited", add_static_path)
    app.connect("config-inited", memory.freeze_before_the_environment_loads, priority=900)
    app.connect("builder-inited", written.count_settings_changes)
    app.connect("builder-inited", generate_pages)
    app.connect("builder-inited", add_media_types)
    app.connect("env-purge-doc", purge_page)
    app.connect("env-merge-info", merge_state)
    app.connect("env-get-outdated", incremental.outdated_pages)
    app.connect("env-before-read-docs", ahead_events.read_figure_free_pages_first, priority=450)
    app.connect("env-before-read-docs", ahead_events.compute_ahead)
    app.connect("env-updated", after_reading)
    app.connect("source-read", records.start_capture)
    app.connect("doctree-read", records.stop_capture)
    app.connect("doctree-read", memory.release_read_doctrees)
    app.connect("doctree-read", fingerprinting.receive_when_ready)
    app.connect("doctree-read", ahead_events.take_in_what_was_sent)
    app.connect("env-purge-doc", memory.let_go_of_pages_read)
    app.connect("write-started", write_warnings.start)
    app.connect("doctree-resolved", write_warnings.page_resolved)
    app.connect("html-collect-pages", write_warnings.writing_over, priority=write_warnings.FIRST)
    app.connect("build-finished", write_warnings.writing_over, priority=write_warnings.FIRST)
    app.connect("doctree-resolved", roles.resolve_source_links, priority=400)
    app.connect("doctree-resolved", compact_tables.expand_tables)
    app.connect("build-finished", write_warnings.finish)
    app.connect("build-finished", written.keep_what_was_written, priority=400)
    # furo fills its sidebar at priority 500: the first handler runs before it, the second after.
    app.connect("html-page-context", navigation.skip_theme_navigation, priority=400)
    app.connect("html-page-context", navigation.place_shared_navigation, priority=600)
    app.connect("html-page-context", stubs.no_stub_source)
    app.connect("build-finished", navigation.write_shared_navigation)
    app.connect("write-started", exports.start_markdown_files)
    app.connect("build-finished", finishing.end_every_page)
    app.connect("build-finished", fingerprinting.keep_fingerprints_given_later)
    app.connect("build-finished", exports.write_exports)
    app.connect("write-started", memory.freeze_what_was_read)
    app.connect("doctree-resolved", memory.take_apart_written_doctree, priority=900)
    app.connect("build-finished", memory.forget_build)
    app.connect("viewcode-find-source", viewcode.find_source)
    # viewcode collects its pages at priority 500: its modules are highlighted in pieces,
    # which the worker lexed while the pages were written.
    app.connect("doctree-resolved", ahead_events.take_what_was_given)
    app.connect("html-collect-pages", ahead_events.store_lexed_source, priority=399)
    app.connect("html-collect-pages", highlighting.install, priority=400)
    app.connect("build-finished", ahead_events.stop_at_the_end)
    app.connect("build-finished", highlighting.keep)
    app.connect("html-collect-pages", search_index.complete_search_index)
    app.connect("warn-missing-reference", nodes.quiet_optional_link)
    app.add_css_file("refgen.css")
    app.add_js_file("refgen-copy.js", loading_method="defer")
    app.add_js_file("refgen-filter.js", loading_method="defer")
    return {
        "version": __version__,
        "env_version": page_model_version(),
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }


def page_model_version() -> int:
    """A number that changes with the definition of what stored doctrees hold of the page
    model (its blocks, ``render/blocks.py``, and the compact tables made of them) and of
    what the environment keeps of each page (``sphinx/state.py``).

    Stored doctrees hold page-model tables (:class:`refgen.sphinx.nodes.refgen_table`);
    Sphinx reads every page again when an extension's ``env_version`` changes, so a
    page written by hand with a refgen directive is never expanded from a table of an
    older shape, and no page keeps a record of an older shape.
    """
    digest = hashlib.sha256()
    for module in (blocks, nodes, compact_tables, kept_records):
        digest.update(Path(module.__file__ or "").read_bytes())
    return int.from_bytes(digest.digest()[:4], "big")

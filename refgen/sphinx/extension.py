"""The Sphinx wiring: configuration, generated pages, directives and warnings.

This layer only connects the stages: at ``builder-inited`` it plans and writes
the page stubs (:mod:`refgen.pages`); when Sphinx reads a stub, a directive
analyses the object (:mod:`refgen.analysis`), renders it
(:mod:`refgen.render`), runs its examples (:mod:`refgen.examples`) and
reports every problem through :func:`warn`.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from functools import partial
from html import unescape
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.errors import ConfigError as SphinxConfigError
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging
from sphinx.util.display import status_iterator
from sphinx.util.docutils import SphinxDirective, SphinxRole
from sphinx.util.nodes import make_id, make_refnode
from sphinx.util.parsing import nested_parse_to_nodes

from refgen import __version__
from refgen.analysis import discovery
from refgen.analysis.model import ExampleBlock, Problem, ScenarioDoc, SourceLocation
from refgen.config import PREFIX, ConfigError, Settings, setting_fields
from refgen.evaluate import values
from refgen.evaluate.examples import run_examples
from refgen.project import Project
from refgen.render import fragments
from refgen.render import rest as render
from refgen.sphinx.stubs import write_stubs

logger = logging.getLogger(__name__)

INDEX_INTRO = (
    "Every page below is compiled from the scenario code: inputs, derived "
    "attributes and their equations are read from the source, and the examples "
    "run at every build."
)


def warn(kind: str, message: str, location: SourceLocation | str | None) -> None:
    """Report a problem as a Sphinx warning of type ``refgen.<kind>``."""
    logger.warning(
        message, type="refgen", subtype=kind, location=str(location) if location else None
    )


def warn_problem(problem: Problem) -> None:
    warn(problem.kind, f"{problem.subject}: {problem.message}", problem.location)


class pending_source_link(nodes.Inline, nodes.TextElement):
    """A link to the highlighted source of an object, resolved after reading."""


class SourceRole(SphinxRole):
    """``:refgen-source:`path <module.Class>``` links to the viewcode page of Class."""

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        label, _, target = self.text.partition(" <")
        node = pending_source_link("", "", nodes.literal(label, label))
        node["reftarget"] = target.rstrip(">")
        return [node], []


class SourceLinks(SphinxPostTransform):
    """Point source links at viewcode's module pages, or leave plain text."""

    default_priority = 100

    def run(self, **kwargs: Any) -> None:
        modules = getattr(self.env, "_viewcode_modules", {})
        for node in list(self.document.findall(pending_source_link)):
            target = node["reftarget"]
            module_name, _, fullname = self._split(target, modules)
            if self.app.builder.format == "html" and modules.get(module_name):
                page = "_modules/" + module_name.replace(".", "/")
                ref = make_refnode(
                    self.app.builder, self.env.docname, page, fullname, node.children[0].deepcopy()
                )
                node.replace_self(ref)
            else:
                node.replace_self(node.children[0].deepcopy())

    @staticmethod
    def _split(target: str, modules: dict[str, Any]) -> tuple[str, str, str]:
        parts = target.split(".")
        for split in range(len(parts) - 1, 0, -1):
            module_name = ".".join(parts[:split])
            if module_name in modules or module_name in sys.modules:
                return module_name, ".", ".".join(parts[split:])
        return target.rpartition(".")


class CodeRole(SphinxRole):
    """Code shown exactly as written (straight quotes and all), with a CSS class."""

    def __init__(self, css_class: str) -> None:
        self.css_class = css_class

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        return [nodes.literal(self.rawtext, self.text, classes=[self.css_class])], []


class TableDirective(SphinxDirective):
    """``.. refgen-table::``: a table whose cells are one line of inline markup each.

    The first content line is the header; cells are separated by
    :data:`refgen.render.CELL`. Building the nodes here costs a fraction of a
    ``list-table``, which runs a nested parser per cell.
    """

    has_content = True
    option_spec: ClassVar[dict[str, Any]] = {
        "class": directives.class_option,
        "stub-columns": directives.nonnegative_int,
    }

    def run(self) -> list[nodes.Node]:
        rows = [line.split(render.CELL) for line in self.content if line.strip()]
        if not rows:
            return []
        messages: list[nodes.system_message] = []
        width = len(rows[0])
        stubs = self.options.get("stub-columns", 0)
        group = nodes.tgroup(cols=width)
        for column, colwidth in enumerate(_column_widths(rows)):
            group += nodes.colspec(colwidth=colwidth, stub=int(column < stubs))
        head, body = nodes.thead(), nodes.tbody()
        head += self._row(rows[0], messages)
        for row in rows[1:]:
            body += self._row(row, messages)
        group += [head, body]
        table = nodes.table("", group, classes=["colwidths-auto", *self.options.get("class", [])])
        return [table, *messages]

    def _row(self, cells: list[str], messages: list[nodes.system_message]) -> nodes.row:
        row = nodes.row()
        for cell in cells:
            inline, problems = self.parse_inline(cell.strip(), lineno=self.lineno)
            messages += problems
            row += nodes.entry("", nodes.paragraph("", "", *inline))
        return row


WIDEST_COLUMN = 50
"""Characters; the text builder wraps longer cells, LaTeX reads widths as proportions."""


def _column_widths(rows: list[list[str]]) -> list[int]:
    """Each column's widest cell as written (HTML ignores this: the table is ``colwidths-auto``)."""
    return [
        min(WIDEST_COLUMN, max(1, *(len(row[column].strip()) for row in rows if column < len(row))))
        for column in range(len(rows[0]))
    ]


class html_fragment(nodes.raw):
    """HTML written by :mod:`refgen.fragments`; a ``raw`` node to Sphinx's writers and search.

    Builders other than HTML get its text instead (see :class:`FragmentLinks`).
    """


class HtmlDirective(SphinxDirective):
    """``.. refgen-html:: [classes]``: an HTML fragment from :mod:`refgen.fragments`, not parsed."""

    has_content = True
    optional_arguments = 1
    final_argument_whitespace = True

    def run(self) -> list[nodes.Node]:
        html = "\n".join(self.content)
        classes = self.arguments[0].split() if self.arguments else []
        return [html_fragment(html, html, format="html", classes=classes)]


_ENTRY = re.compile(r"(attribute|property) (\S+)(?: (.+))?$")


class AttributesDirective(SphinxDirective):
    """``.. refgen-attributes::``: the input or derived attribute entries of a section.

    Each entry is a line ``kind Class.name [annotation]`` followed by an
    indented body: the author's description (reST), then one last line, after
    :data:`refgen.render.HTML_LINE`, holding the attribute's fields as HTML.

    Every entry becomes a subsection titled with the attribute's name, holding
    the object description a ``py:attribute`` or ``py:property`` directive
    would build, registered with the Python domain for cross-references. It is
    built here without their signature parsing and field transforms.
    """

    has_content = True

    def run(self) -> list[nodes.Node]:
        sections: list[nodes.Node] = []
        for header, body in self._entries():
            match = _ENTRY.match(header)
            if match is None:
                raise self.error(f"not an attribute entry: {header!r}")
            kind, name, annotation = match.groups()
            sections.append(self._section(kind, name, annotation or "", body))
        return sections

    def _entries(self) -> Iterable[tuple[str, StringList]]:
        lines = self.content.data  # plain strings: far quicker to scan than the StringList
        starts = [i for i, line in enumerate(lines) if line and not line[0].isspace()]
        for start, end in zip(starts, [*starts[1:], len(lines)], strict=True):
            body = self.content[start + 1 : end]
            indents = [len(line) - len(line.lstrip()) for line in body.data if line.strip()]
            body.trim_left(min(indents, default=0))
            yield lines[start], body

    def _section(self, kind: str, name: str, annotation: str, body: StringList) -> nodes.section:
        attribute = name.rpartition(".")[2]
        section = nodes.section()
        section += nodes.title(attribute, attribute)
        self.state.document.note_implicit_target(section, section)
        module = self.env.ref_context.get("py:module", "")
        fullname = f"{module}.{name}" if module else name
        signature = self._signature(kind, name, annotation, module)
        node_id = make_id(self.env, self.state.document, "", fullname)
        signature["ids"].append(node_id)
        self.state.document.note_explicit_target(signature)
        self.env.get_domain("py").note_object(fullname, kind, node_id, location=signature)
        owner = fullname.rpartition(".")[0]
        section += addnodes.index(
            entries=[("single", f"{attribute} ({owner} {kind})", node_id, "", None)]
        )
        content = addnodes.desc_content()
        description, html = _split_fields(body)
        content += self._parse_description(description)
        if html:
            content += html_fragment(html, html, format="html")
        section += addnodes.desc(
            "", signature, content, domain="py", objtype=kind, desctype=kind, classes=["py", kind]
        )
        return section

    def _signature(
        self, kind: str, name: str, annotation: str, module: str
    ) -> addnodes.desc_signature:
        owner, _, attribute = name.rpartition(".")
        signature = addnodes.desc_signature("", "", module=module, fullname=name)
        signature["class"] = owner
        self.set_source_info(signature)
        if kind == "property":
            signature += addnodes.desc_annotation("property ", "property ")
        signature += addnodes.desc_addname(f"{owner}.", f"{owner}.")
        signature += addnodes.desc_name(attribute, attribute)
        if annotation:
            signature += addnodes.desc_annotation(f": {annotation}", f": {annotation}")
        return signature

    def _parse_description(self, lines: StringList) -> list[nodes.Node]:
        paragraphs = plain_paragraphs(lines)
        if paragraphs is None:
            return nested_parse_to_nodes(self.state, lines)
        parsed: list[nodes.Node] = []
        for text, line in paragraphs:
            inline, messages = self.parse_inline(text, lineno=line)
            parsed += [nodes.paragraph(text, "", *inline), *messages]
        return parsed


def _split_fields(body: StringList) -> tuple[StringList, str]:
    """An entry's body without its last line, and that line's HTML (if it holds fields)."""
    filled = [i for i, line in enumerate(body.data) if line.strip()]
    if not filled or not body.data[filled[-1]].startswith(render.HTML_LINE):
        return body, ""
    return body[: filled[-1]], body.data[filled[-1]][len(render.HTML_LINE) :]


def plain_paragraphs(lines: StringList) -> list[tuple[str, int]] | None:
    """The paragraphs of ``lines`` with their line numbers, if they hold nothing but text.

    Most descriptions are a sentence or two: those are parsed as inline markup,
    which costs a fraction of a nested reST parse (a state machine each). Lines
    that could start any block construct (a list, a directive, a literal block,
    a field, a table, a quote) return None, and get the full parse.
    """
    paragraphs: list[tuple[str, int]] = []
    current: list[str] = []
    start = 0
    for index, line in enumerate(lines.data):
        if not line.strip():
            if current:
                paragraphs.append(("\n".join(current), start))
                current = []
            continue
        if fragments.may_start_block(line):
            return None
        if not current:
            start = lines.info(index)[1] or 0
        current.append(line)
    if current:
        paragraphs.append(("\n".join(current), start))
    return paragraphs


class FragmentLinks(SphinxPostTransform):
    """Resolve the cross-references in HTML fragments; other builders get plain text.

    Links in fragments are written as :func:`refgen.fragments.xref`
    placeholders. Each is looked up among the Python domain's objects; one that
    is not found keeps its label, and is reported when ``nitpicky`` is on.
    """

    default_priority = 20

    def run(self, **kwargs: Any) -> None:
        html_output = self.app.builder.format == "html"
        for node in list(self.document.findall(html_fragment)):
            html = node.astext()
            if not html_output:
                text = fragments.plain_text(html)
                node.replace_self(nodes.paragraph(text, text) if text else [])
            elif fragments.XREF_SCHEME in html:
                resolved = fragments.XREF.sub(partial(self._link, node=node), html)
                node.replace_self(
                    html_fragment(resolved, resolved, format="html", classes=node["classes"])
                )

    def _link(self, match: re.Match[str], node: nodes.Node) -> str:
        css_class, domain, role, target, label = match.groups()
        target = unescape(target)
        entry = self.env.get_domain("py").objects.get(target) if domain == "py" else None
        if entry is None:
            if self.config.nitpicky:
                logger.warning(
                    "%s:%s reference target not found: %s",
                    domain,
                    role,
                    target,
                    type="ref",
                    subtype=f"{domain}:{role}",
                    location=node,
                )
            return label
        uri = (
            ""
            if entry.docname == self.env.docname
            else self.app.builder.get_relative_uri(self.env.docname, entry.docname)
        )
        return f'<a class="{css_class}" href="{uri}#{entry.node_id}">{label}</a>'


def _find_run(lines: list[str], run: list[str]) -> int | None:
    """Index where ``run`` occurs as consecutive items of ``lines``."""
    for start in range(len(lines) - len(run) + 1):
        if lines[start : start + len(run)] == run:
            return start
    return None


class ScenarioValueRole(SphinxRole):
    """``:scenario:`Entry.attribute``` or ``:scenario:`Entry.attribute:.1f```.

    Quotes a value of a registry scenario, computed at this build, and links it
    to the attribute's entry. The optional format spec applies to the number;
    units are always pint's short pretty form.
    """

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        fallback = [nodes.literal(self.rawtext, self.text, classes=["refgen-value", "unavailable"])]
        project = project_of(self.env)
        note_registry_dependency(self.env)
        if project.registry_failed:
            return fallback, []  # reported once, when the pages were planned
        quoted = project.quote(self.text)
        for path in quoted.source_files:
            self.env.note_dependency(path)
        if quoted.problem or quoted.value is None:
            warn("value", f"cannot quote {self.text!r}: {quoted.problem}", self.get_location())
            return fallback, []
        text = nodes.inline(quoted.value.text, quoted.value.text, classes=["refgen-value"])
        reference = addnodes.pending_xref(
            self.rawtext,
            text,
            refdomain="py",
            reftype="attr",
            reftarget=quoted.target,
            refexplicit=True,
            refwarn=True,
        )
        return [reference], []


class AttributeLinkRole(SphinxRole):
    """``:refgen-attr:`name <module.Class.name>```: a link to an entry on this page.

    Looks like a ``:py:attr:`` reference but needs no resolving.
    """

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        label, _, target = self.text.partition(" <")
        code = nodes.literal(label, label, classes=["xref", "py", "py-attr"])
        link = nodes.reference(self.rawtext, "", code, refid=target.rstrip(">"), internal=True)
        return [link], []


class _GeneratedPageDirective(SphinxDirective):
    """Common parts of the directives that fill a generated page."""

    required_arguments = 1
    has_content = False

    def parse_lines(
        self, lines: list[str], source: SourceLocation, verbatim: Iterable[ExampleBlock] = ()
    ) -> list[nodes.Node]:
        """Parse rendered lines, each mapped to a line of the Python source.

        Lines copied verbatim from a docstring block map to their own file line
        (so docutils and the doctest builder report them there); the rest map
        to ``source``.
        """
        origins = [(source.path, source.line - 1)] * len(lines)
        for block in verbatim:
            block_lines = block.text.split("\n")
            start = _find_run(lines, block_lines)
            if start is not None:
                for offset in range(len(block_lines)):
                    origins[start + offset] = (
                        block.location.path,
                        block.location.line - 1 + offset,
                    )
        content = StringList()
        for line, (path, offset) in zip(lines, origins, strict=True):
            content.append(line, path, offset)
        return nested_parse_to_nodes(self.state, content, allow_section_headings=True)

    def depend_on(self, *objects: Any) -> None:
        for obj in objects:
            path = discovery.source_file(obj)
            if path:
                self.env.note_dependency(path)


def project_of(env: Any) -> Project:
    """The Project of this build, made when the builder started."""
    project: Project = getattr(env, PROJECT)
    return project


PROJECT = "refgen_project"
"""Attribute of the environment holding the Project (pickled as its settings only)."""


def note_registry_dependency(env: Any) -> None:
    """Make the current page depend on the registry's files, even a broken registry's."""
    for path in project_of(env).registry_files():
        env.note_dependency(path)


class ScenarioDirective(_GeneratedPageDirective):
    """``.. refgen-scenario:: module.Class``: the reference page of one class."""

    def run(self) -> list[nodes.Node]:
        module_name = self.arguments[0].rpartition(".")[0]
        module_file = discovery.module_file(module_name)
        if module_file:  # so that fixing a class that fails to analyse re-reads its page
            self.env.note_dependency(module_file)
        project = project_of(self.env)
        try:
            cls = project.resolve(self.arguments[0])
            scenario = project.scenario(cls)
        except Exception as error:
            warn(
                "analysis",
                f"cannot document {self.arguments[0]}: {type(error).__name__}: {error}",
                self.get_location(),
            )
            return []
        note_registry_dependency(self.env)
        for path in scenario.source_files:
            self.env.note_dependency(path)
        for problem in scenario.problems:
            warn_problem(problem)
        if scenario.docstring.examples and self._runs_examples():
            queue_examples(self.env, scenario.qualname, scenario.docstring.examples)
        precision = project.settings.value_precision
        entry_values = project.values(scenario)
        self._report_raising_properties(scenario, entry_values)
        examples = [scenario.docstring.examples] if scenario.docstring.examples else []
        lines = render.render_scenario(scenario, entry_values, precision)
        return self.parse_lines(lines, scenario.location, examples)

    def _runs_examples(self) -> bool:
        return project_of(self.env).settings.run_examples

    @staticmethod
    def _report_raising_properties(
        scenario: ScenarioDoc, entry_values: Iterable[values.EntryValues]
    ) -> None:
        """Warn about properties that raise, except for lack of an optional input."""
        for entry in entry_values:
            for value in entry.values:
                if value.available or value.missing_inputs:
                    continue
                item = scenario.attribute(value.name)
                warn(
                    "value",
                    f"{scenario.qualname}.{value.name} cannot be computed for registry "
                    f"entry {entry.entry}: {value.reason}",
                    item.location if item else scenario.location,
                )


class CategoryDirective(_GeneratedPageDirective):
    """``.. refgen-category:: module``: the page of one category."""

    def run(self) -> list[nodes.Node]:
        module_name = self.arguments[0]
        project = project_of(self.env)
        try:
            module = discovery.import_module(module_name)
            doc = project.module(module_name)
            scenarios = project.scenarios_of(module_name)
        except Exception as error:
            warn("analysis", f"cannot document module {module_name}: {error}", self.get_location())
            return []
        self.depend_on(module)
        note_registry_dependency(self.env)
        headlines = {}
        for scenario in scenarios:
            for path in scenario.source_files:
                self.env.note_dependency(path)
            found = project.headline(scenario)
            if found is not None and found[1].available:
                headlines[scenario.qualname] = found
        return self.parse_lines(render.render_category(doc, scenarios, headlines), doc.location)


class HelpersDirective(_GeneratedPageDirective):
    """``.. refgen-helpers:: module``: the page of a module of helper functions."""

    def run(self) -> list[nodes.Node]:
        module_name = self.arguments[0]
        project = project_of(self.env)
        try:
            module = discovery.import_module(module_name)
            doc = project.module(module_name)
            helpers = project.helpers_of(module_name)
        except Exception as error:
            warn("analysis", f"cannot document module {module_name}: {error}", self.get_location())
            return []
        self.depend_on(module)
        for helper in helpers:
            for problem in helper.docstring.problems:
                warn_problem(problem)
        return self.parse_lines(render.render_helper_module(doc, helpers), doc.location)


class RegistryDirective(_GeneratedPageDirective):
    """``.. refgen-registry:: module.Registry``: the page of the named scenarios."""

    def run(self) -> list[nodes.Node]:
        note_registry_dependency(self.env)
        try:
            registry = project_of(self.env).cache.registry(self.arguments[0])
        except Exception as error:
            warn(
                "registry",
                f"cannot read registry {self.arguments[0]}: {error}",
                self.get_location(),
            )
            return []
        page = SourceLocation(self.env.doc2path(self.env.docname).as_posix(), self.lineno)
        return self.parse_lines(render.render_registry(registry), registry.location or page)


class IndexDirective(_GeneratedPageDirective):
    """``.. refgen-index:: Title`` with one toctree entry per content line."""

    has_content = True
    final_argument_whitespace = True

    def run(self) -> list[nodes.Node]:
        lines = render.render_index(
            self.arguments[0], INDEX_INTRO, [e.strip() for e in self.content]
        )
        location = SourceLocation(self.env.doc2path(self.env.docname).as_posix(), self.lineno)
        return self.parse_lines(lines, location)


# Examples are queued while pages are read (possibly in parallel workers) and run
# once, in the main process, when reading is done: one progress bar, one run each.
PENDING = "refgen_pending_examples"


def _pending(env: Any) -> dict[str, list[tuple[str, ExampleBlock]]]:
    if not hasattr(env, PENDING):
        setattr(env, PENDING, {})
    return getattr(env, PENDING)


def queue_examples(env: Any, subject: str, block: ExampleBlock) -> None:
    _pending(env).setdefault(env.docname, []).append((subject, block))


def purge_examples(app: Sphinx, env: Any, docname: str) -> None:
    _pending(env).pop(docname, None)


def merge_examples(app: Sphinx, env: Any, docnames: set[str], other: Any) -> None:
    _pending(env).update(_pending(other))


def run_queued_examples(app: Sphinx, env: Any) -> list[str]:
    """Run the examples of every page read in this build, with progress."""
    queued = _pending(env)
    jobs = [job for docname in sorted(queued) for job in queued[docname]]
    queued.clear()
    if app.builder.name == "doctest":
        return []  # the doctest builder runs these examples itself
    if project_of(env).registry_failed and jobs:
        logger.info("[refgen] examples not run: the registry could not be imported")
        return []
    for subject, block in status_iterator(
        jobs,
        "[refgen] running examples... ",
        "darkgreen",
        len(jobs),
        app.verbosity,
        stringify_func=lambda job: job[0],
    ):
        for failure in run_examples(block, subject).failures:
            warn("example", failure.describe(with_location=False), failure.location)
    return []


def generate_pages(app: Sphinx) -> None:
    """Load the Project, report its problems and write the page stubs."""

    def progress(modules: list[str]) -> Iterable[str]:
        return status_iterator(
            modules, "[refgen] reading scenario modules... ", "purple", len(modules), app.verbosity
        )

    project = Project(settings_of(app.config), progress)
    setattr(app.env, PROJECT, project)
    pages = project.pages()
    for problem in project.problems:
        warn_problem(problem)
    project.registry_files()  # found once here: for a broken registry, that means importing it
    project.cache.release_syntax_trees()
    written = write_stubs(pages, Path(app.srcdir), project.settings.root)
    logger.info(
        "[refgen] %d scenario classes, %d pages planned, %d stubs rewritten",
        len(project.classes),
        len(pages),
        len(written),
    )


def settings_of(config: Config) -> Settings:
    """The refgen settings of ``conf.py``, validated."""
    values = {f"{PREFIX}{spec.name}": config[f"{PREFIX}{spec.name}"] for spec in setting_fields()}
    try:
        return Settings.from_mapping(values, "conf.py", prefix=PREFIX)
    except ConfigError as error:
        raise SphinxConfigError(str(error)) from error


def check_settings(app: Sphinx, config: Config) -> None:
    settings_of(config)


STATIC = Path(__file__).parent / "static"


def add_static_path(app: Sphinx, config: Config) -> None:
    # At config-inited, before the environment compares this configuration with
    # the pickled one: added later, the path would read as a change to conf.py.
    if str(STATIC) not in config.html_static_path:
        config.html_static_path.append(str(STATIC))


def setup(app: Sphinx) -> dict[str, Any]:
    app.setup_extension("sphinx.ext.viewcode")
    for spec in setting_fields():
        default = list(spec.default) if isinstance(spec.default, tuple) else spec.default
        app.add_config_value(f"{PREFIX}{spec.name}", default, "env")
    app.connect("config-inited", check_settings)
    app.add_node(pending_source_link)
    app.add_node(html_fragment)
    app.add_role(render.SOURCE_ROLE, SourceRole())
    app.add_role(render.EQUATION_ROLE, CodeRole(render.EQUATION_CLASS))
    app.add_role(render.ATTRIBUTE_ROLE, AttributeLinkRole())
    app.add_role("scenario", ScenarioValueRole())
    app.add_directive(render.TABLE_DIRECTIVE, TableDirective)
    app.add_directive(render.HTML_DIRECTIVE, HtmlDirective)
    app.add_directive(render.ATTRIBUTES_DIRECTIVE, AttributesDirective)
    app.add_directive("refgen-scenario", ScenarioDirective)
    app.add_directive("refgen-category", CategoryDirective)
    app.add_directive("refgen-helpers", HelpersDirective)
    app.add_directive("refgen-registry", RegistryDirective)
    app.add_directive("refgen-index", IndexDirective)
    app.add_post_transform(SourceLinks)
    app.add_post_transform(FragmentLinks)
    app.connect("builder-inited", generate_pages)
    app.connect("env-purge-doc", purge_examples)
    app.connect("env-merge-info", merge_examples)
    app.connect("env-updated", run_queued_examples)
    app.connect("config-inited", add_static_path)
    app.add_css_file("refgen.css")
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}

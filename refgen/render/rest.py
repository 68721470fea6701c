"""Rendering: reStructuredText for the reference pages, from the data model only.

Each ``render_*`` function takes model records and returns the lines of one
page (or one part of it). Nothing here imports user code, evaluates an
attribute or talks to Sphinx; the Sphinx layer parses these lines.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

from refgen.analysis.model import (
    DerivedDoc,
    Docstring,
    Equation,
    HelperDoc,
    InputDoc,
    ModuleDoc,
    ParameterEntry,
    RegistryDoc,
    ScenarioDoc,
)
from refgen.evaluate.values import EntryValues, Value
from refgen.render import fragments
from refgen.render.diagram import data_flow_svg
from refgen.render.mathml import expression_to_mathml

SOURCE_ROLE = "refgen-source"
EQUATION_ROLE = "refgen-equation"
EQUATION_CLASS = "refgen-equation"
QUALNAME_CLASS = "refgen-qualname"
ATTRIBUTE_ROLE = "refgen-attr"

CONSTRUCTION_NOTE = (
    "Build this scenario with keyword arguments only. "
    "Each input below gives the type it is annotated with and its declared default."
)
EXAMPLES_INTRO = (
    "{entries} {verb} the inputs. "
    "The figures are what the model computes from them, not measurements."
)
IMPLEMENTATION_INTRO = (
    "Implementation: the helpers below carry the accounting rules this scenario "
    "relies on; each entry states its equation and assumptions."
)
BODY_EQUATION = (
    "The method body carries this accounting over several statements; "
    "the equation is stated by {helpers}."
)
BODY_EQUATION_NO_HELPER = (
    "The method body carries this accounting over several statements ({reason})."
)

_INLINE_MARKUP = re.compile(r"(``.+?``|`[^`]*`_{0,2}|:[\w:+-]+:`[^`]*`)")
_WORD = r"(?<![\w.`*/<|]){name}(?![\w`*>|])"


def heading(text: str, underline: str) -> list[str]:
    return [text, underline * len(text), ""]


def indent(lines: Iterable[str], prefix: str = "   ") -> list[str]:
    return [prefix + line if line else "" for line in lines]


def own_attribute(scenario: ScenarioDoc, name: str) -> str:
    """A link to an attribute's entry on the class's own page.

    The target is known to be on the same page, so the link is made directly
    (``refgen-attr``) instead of as a cross-reference for Sphinx to resolve: a
    class page holds dozens of them.
    """
    return f":{ATTRIBUTE_ROLE}:`{name} <{scenario.qualname}.{name}>`"


def own_attribute_link(scenario: ScenarioDoc, name: str) -> str:
    """The HTML counterpart of :func:`own_attribute`, for fragments."""
    return fragments.anchor_link(f"{scenario.qualname}.{name}", name)


def _mention_pattern(names: Iterable[str]) -> re.Pattern[str] | None:
    """Bare mentions of the names holding an underscore (``optimizer_moments`` is code;
    "weights" may be English)."""
    bare = sorted((name for name in names if "_" in name), key=len, reverse=True)
    if not bare:
        return None
    return re.compile("|".join(_WORD.format(name=re.escape(name)) for name in bare))


def link_names(text: str, targets: Mapping[str, str]) -> str:
    """Turn mentions of known names into cross-references.

    ``targets`` maps a name to the role text that replaces it, e.g.
    ``{"weights": ":py:attr:`~pkg.Cls.weights`"}``. A name written as a literal
    (````weights````) is always linked; a bare word only when it holds an
    underscore. Other inline markup is left alone.
    """
    if not targets:
        return text
    pattern = _mention_pattern(targets)
    pieces = _INLINE_MARKUP.split(text)
    for index, piece in enumerate(pieces):
        if index % 2 == 0:
            if pattern:
                pieces[index] = pattern.sub(lambda m: targets[m.group(0)], piece)
        elif piece.startswith("``") and piece[2:-2] in targets:
            pieces[index] = targets[piece[2:-2]]
    return "".join(pieces)


def link_names_html(text: str, links: Mapping[str, str]) -> str:
    """Verbatim text (:func:`refgen.fragments.is_verbatim`) as HTML, mentions linked.

    The HTML counterpart of :func:`link_names`: ``links`` maps a name to the
    HTML link that replaces its bare mentions.
    """
    pattern = _mention_pattern(links)
    if pattern is None:
        return fragments.escape(text, quote=False)
    html, position = [], 0
    for match in pattern.finditer(text):
        html += [fragments.escape(text[position : match.start()], quote=False)]
        html += [links[match.group(0)]]
        position = match.end()
    html.append(fragments.escape(text[position:], quote=False))
    return "".join(html)


def _helpers(scenario: ScenarioDoc) -> list[str]:
    helpers = [r.target for r in scenario.docstring.implementation_references]
    helpers += [h for d in scenario.derived for h in d.equation.helpers]
    return [helper for helper in helpers if helper]


def scenario_link_targets(scenario: ScenarioDoc) -> dict[str, str]:
    """Names a scenario's prose may mention: its attributes and its helpers."""
    targets = {name: own_attribute(scenario, name) for name in scenario.attribute_names}
    for helper in _helpers(scenario):
        targets.setdefault(helper.rpartition(".")[2], f":py:func:`~{helper}`")
    return targets


class Mentions(NamedTuple):
    """What a scenario's prose may mention, and the links that replace each mention."""

    rest: Mapping[str, str]
    """Name to reST cross-reference, for text parsed as reST."""
    html: Mapping[str, str]
    """Name to HTML link, for verbatim text written as HTML."""


def scenario_mentions(scenario: ScenarioDoc) -> Mentions:
    return Mentions(scenario_link_targets(scenario), scenario_link_html(scenario))


def scenario_link_html(scenario: ScenarioDoc) -> dict[str, str]:
    """The HTML links of :func:`scenario_link_targets`, for verbatim descriptions."""
    links = {name: own_attribute_link(scenario, name) for name in scenario.attribute_names}
    for helper in _helpers(scenario):
        links.setdefault(helper.rpartition(".")[2], fragments.xref("func", helper))
    return links


def inline_code(code: str, role: str | None = None) -> list[str]:
    """Code as an inline literal (through ``role`` if given), or as a block.

    A block is used when the code spans lines or holds characters that inline
    markup would swallow (backquotes, backslashes, edge spaces).
    """
    if "\n" in code or "`" in code or "\\" in code or code != code.strip():
        return ["", ".. code-block:: python", "", *indent(code.split("\n")), ""]
    return [f":{role}:`{code}`" if role else f"``{code}``"]


def field(name: str, body: list[str]) -> list[str]:
    """A field list item whose body may span several lines."""
    first, *rest = body or [""]
    return [f":{name}: {first}".rstrip(), *indent(rest)]


CELL = " \u2016 "
"""Separates the cells of a ``refgen-table`` row."""
TABLE_DIRECTIVE = "refgen-table"


def _one_line(text: str) -> str:
    return " ".join(text.split()).replace(CELL.strip(), "|")


def table(
    header: Sequence[str], rows: Iterable[Sequence[str]], css_class: str, stub_columns: int = 0
) -> list[str]:
    """A table of one-line inline-markup cells.

    The ``refgen-table`` directive builds the table nodes itself: docutils'
    list-table would run a nested parser for every cell, the largest cost of a
    page with several tables.
    """
    lines = [f".. {TABLE_DIRECTIVE}::", f"   :class: {css_class}"]
    if stub_columns:
        lines.append(f"   :stub-columns: {stub_columns}")
    lines += ["", "   " + CELL.join(header)]
    lines += ["   " + CELL.join(_one_line(cell) or "\\ " for cell in row) for row in rows]
    return [*lines, ""]


def render_notes(doc: Docstring, targets: Mapping[str, str]) -> list[str]:
    lines: list[str] = []
    for entry in doc.notes:
        text = link_names(entry.text, targets)
        if entry.label:
            lines += field(entry.label, text.split("\n"))
        else:
            lines += ["", text, ""]
    return lines


def _examples_intro(scenario: ScenarioDoc) -> str:
    links = [f":py:attr:`{e.name} <{e.registry}.{e.name}>`" for e in scenario.registry_entries]
    entries = ", ".join(links[:-1]) + f" and {links[-1]}" if len(links) > 1 else "".join(links)
    if not entries:
        return ""
    if len(scenario.registry_entries) == 1:
        return EXAMPLES_INTRO.format(entries=f"The registry entry {entries}", verb="supplies")
    return EXAMPLES_INTRO.format(entries=f"The registry entries {entries}", verb="supply")


def render_references(doc: Docstring) -> list[str]:
    lines: list[str] = []
    implementation = doc.implementation_references
    if implementation:
        lines += [IMPLEMENTATION_INTRO, ""]
        lines += [f"- :py:func:`{ref.target}`" for ref in implementation]
        lines.append("")
    literature = doc.literature_references
    if literature:
        lines += ["Literature:", ""]
        lines += [f"- {ref.text}" for ref in literature]
        lines.append("")
    return lines


def _attribute_table(scenario: ScenarioDoc, mentions: Mentions) -> list[str]:
    """Name and description of every attribute, as HTML when no description needs reST."""
    rows = [(i.name, i.description) for i in scenario.inputs]
    rows += [(d.name, d.description) for d in scenario.derived]
    rows.sort()
    if all(fragments.is_verbatim(description) or not description for _, description in rows):
        cells = [
            (own_attribute_link(scenario, name), link_names_html(description, mentions.html))
            for name, description in rows
        ]
        return html_block(fragments.table(("Name", "Description"), cells, "refgen-attributes"))
    return table(
        ("Name", "Description"),
        [(own_attribute(scenario, n), link_names(d, mentions.rest)) for n, d in rows],
        "refgen-attributes",
    )


def _signature(scenario: ScenarioDoc) -> str:
    parts = []
    for item in scenario.inputs:
        default = f"={' '.join(item.default.split())}" if item.default is not None else ""
        parts.append(f"{item.name}{default}")
    return f"{scenario.name}(*, {', '.join(parts)})" if parts else scenario.name


ATTRIBUTES_DIRECTIVE = "refgen-attributes"
HTML_DIRECTIVE = "refgen-html"
HTML_LINE = "\u2016 "
"""Starts the last line of an attribute entry's body: its fields, as HTML."""


def attribute_entry(
    kind: str,
    owner: str,
    name: str,
    annotation: str,
    description: str,
    fields: list[tuple[str, str]],
    mentions: Mentions,
    before: str = "",
) -> list[str]:
    """One entry of a ``refgen-attributes`` block: signature line, reST body, HTML line.

    The HTML line holds ``before`` (HTML), the description when it is verbatim
    text, and the fields: code and links that need no parsing. A description
    with reST markup is the body, parsed as reST.
    """
    signature = f"{kind} {owner}.{name} {' '.join(annotation.split())}".rstrip()
    body: list[str] = []
    if fragments.is_verbatim(description):
        before += fragments.paragraph(link_names_html(description, mentions.html))
    elif description:
        body = [link_names(description, mentions.rest)]
    html = before + fragments.field_list(fields)
    html_line = HTML_LINE + html.replace("\n", "&#10;")
    return [signature, *indent([*body, *([""] if body else []), html_line]), ""]


def attributes_block(entries: Iterable[list[str]]) -> list[str]:
    """The entries of one section, each under a heading of its own name.

    One directive holds them all: docutils starts a nested state machine for
    every directive in a section, which dominated a page's parse time.
    """
    lines = [f".. {ATTRIBUTES_DIRECTIVE}::", ""]
    for entry in entries:
        lines += indent(entry)
    return lines


NOT_SEARCHED = "no-search"
"""Sphinx's class for content its search index skips: figures and diagrams, not prose."""


def html_block(html: str, css_class: str = "") -> list[str]:
    """An HTML fragment for a ``refgen-html`` block, optionally with a CSS class."""
    return [f".. {HTML_DIRECTIVE}:: {css_class}".rstrip(), "", *indent(html.split("\n")), ""]


def _code_or_required(code: str | None) -> str:
    return fragments.code_body(code) if code is not None else fragments.paragraph("required")


def render_input(scenario: ScenarioDoc, item: InputDoc, mentions: Mentions) -> list[str]:
    fields = [
        ("Type", fragments.code_body(item.annotation)),
        ("Declared default", _code_or_required(item.default)),
        *_flow_fields(scenario, (), item.feeds),
        *_inherited_fields(item.inherited_from, item.name),
    ]
    return attribute_entry(
        "attribute", scenario.name, item.name, "", item.description, fields, mentions
    )


def _inherited_fields(base: str | None, name: str) -> list[tuple[str, str]]:
    if base is None:
        return []
    links = f"{fragments.xref('class', base)} ({fragments.xref('attr', f'{base}.{name}', name)})"
    return [("Inherited from", fragments.paragraph(links))]


def raw_html(html: str, css_class: str, searched: bool = True) -> list[str]:
    """A raw HTML block (other builders skip it; the code beside it stays)."""
    return [
        "",
        ".. raw:: html",
        *([] if searched else [f"   :class: {NOT_SEARCHED}"]),
        "",
        f'   <div class="{css_class}">',
        *indent(html.split("\n")),
        "   </div>",
        "",
    ]


def math_html(mathml: str) -> str:
    """MathML wrapped for the page, on one line."""
    return f'<div class="refgen-math">{mathml}</div>'.replace("\n", " ")


def math_block(expression: str, target: str = "") -> list[str]:
    """The expression as MathML, or nothing when it has no formula layout."""
    result = expression_to_mathml(expression)
    if result.mathml is None:
        return []
    mathml = result.mathml
    if target:
        opening, _, rest = mathml.partition(">")
        lhs = f'<mi mathvariant="normal">{target}</mi><mo>=</mo>'
        mathml = f"{opening}>{lhs}{rest}"
    return raw_html(mathml, "refgen-math")


def _equation_html(equation: Equation) -> str:
    """The Equation field: code and MathML, or the sentence naming the helpers."""
    if equation.expression is None:
        if equation.helpers:
            helpers = " and ".join(fragments.xref("func", h) for h in equation.helpers)
            return fragments.paragraph(BODY_EQUATION.format(helpers=helpers))
        sentence = BODY_EQUATION_NO_HELPER.format(reason=equation.reason)
        return fragments.paragraph(fragments.escape(sentence))
    shown = fragments.code_body(equation.expression, EQUATION_CLASS)
    result = expression_to_mathml(equation.expression)
    return shown + (math_html(result.mathml) if result.mathml else "")


def render_derived(scenario: ScenarioDoc, item: DerivedDoc, mentions: Mentions) -> list[str]:
    fields = [
        ("Equation", _equation_html(item.equation)),
        *_flow_fields(scenario, item.reads, item.feeds),
        *_inherited_fields(item.inherited_from, item.name),
    ]
    annotation = item.return_annotation or ""
    qualname = fragments.code_body(item.qualname, QUALNAME_CLASS)
    return attribute_entry(
        "property",
        scenario.name,
        item.name,
        annotation,
        item.description,
        fields,
        mentions,
        qualname,
    )


def _attribute_links(scenario: ScenarioDoc, names: Iterable[str]) -> str:
    return ", ".join(own_attribute_link(scenario, name) for name in names)


def _flow_fields(
    scenario: ScenarioDoc, reads: Iterable[str], feeds: Iterable[str]
) -> list[tuple[str, str]]:
    reads, feeds = list(reads), list(feeds)
    items = []
    if reads:
        items.append(("Reads", fragments.paragraph(_attribute_links(scenario, reads))))
    if feeds:
        items.append(("Feeds", fragments.paragraph(_attribute_links(scenario, feeds))))
    return items


DATA_FLOW_INTRO = (
    "Inputs on the left; each derived attribute stands to the right of everything "
    "it reads. Every box links to its entry."
)
VALUES_INTRO = (
    "Computed from the registry at this build; numbers to {precision} significant figures."
)


def render_data_flow(scenario: ScenarioDoc) -> list[str]:
    svg = data_flow_svg(scenario, lambda name: f"#{scenario.qualname}.{name}")
    if not svg:
        return []
    diagram = raw_html(svg, "refgen-diagram", searched=False)
    return heading("Data flow", "-") + [DATA_FLOW_INTRO, ""] + diagram


def _value_cell(value: object) -> str:
    text = getattr(value, "text", "")
    reason = getattr(value, "reason", "")
    return fragments.escape(f"{text} ({reason})" if reason else text)


def render_registry_values(
    scenario: ScenarioDoc, values: Sequence[EntryValues], precision: int
) -> list[str]:
    """One column per registry scenario, one row per attribute."""
    if not values:
        return []
    lines = heading("Registry values", "-") + [VALUES_INTRO.format(precision=precision), ""]
    header = ["Attribute", *(fragments.xref("attr", v.qualname, v.entry) for v in values)]
    rows = [
        [own_attribute_link(scenario, name), *(_value_cell(v.value(name)) for v in values)]
        for name in scenario.attribute_names
    ]
    table = fragments.table(header, rows, "refgen-values", stub_columns=1)
    return lines + html_block(table, NOT_SEARCHED)


def render_scenario(
    scenario: ScenarioDoc, values: Sequence[EntryValues] = (), precision: int = 5
) -> list[str]:
    """The whole reference page of one scenario class."""
    doc = scenario.docstring
    mentions = scenario_mentions(scenario)
    targets = mentions.rest
    lines = heading(scenario.name, "=")
    lines += [f".. py:currentmodule:: {scenario.module}", ""]
    lines += [
        ".. rst-class:: refgen-provenance",
        "",
        f":doc:`{scenario.category} <index>` · Implementation: "
        f":{SOURCE_ROLE}:`{scenario.source_path} <{scenario.qualname}>`",
        "",
        ".. rst-class:: refgen-construction",
        "",
        CONSTRUCTION_NOTE,
        "",
        f".. py:class:: {_signature(scenario)}",
        "",
    ]
    for paragraph in (doc.summary, *doc.description.split("\n\n")):
        if paragraph:
            lines += indent([link_names(paragraph, targets), ""])
    if doc.notes:
        lines += heading("Notes", "-") + render_notes(doc, targets) + [""]
    if doc.references:
        lines += heading("References", "-") + render_references(doc)
    if doc.examples:
        intro = _examples_intro(scenario)
        lines += heading("Examples", "-") + ([intro, ""] if intro else [])
        lines += doc.examples.text.split("\n") + [""]
    lines += heading("Attributes", "-") + _attribute_table(scenario, mentions)
    lines += render_data_flow(scenario)
    lines += render_registry_values(scenario, values, precision)
    if scenario.inputs:
        lines += heading("Inputs", "-")
        lines += attributes_block(render_input(scenario, i, mentions) for i in scenario.inputs)
    if scenario.derived:
        lines += heading("Derived attributes", "-")
        lines += attributes_block(render_derived(scenario, d, mentions) for d in scenario.derived)
    return lines


HEADLINE = "{name} = {value} ({entry})"


def render_category(
    module: ModuleDoc,
    scenarios: Iterable[ScenarioDoc],
    headlines: Mapping[str, tuple[str, Value]] | None = None,
) -> list[str]:
    """A category page: title, description, and a table of its scenarios.

    ``headlines`` maps a class's dotted path to the registry entry and value of
    its headline attribute (the figure its example shows).
    """
    scenarios = list(scenarios)
    headlines = headlines or {}
    lines = heading(module.title, "=")
    if module.description:
        lines += [module.description, ""]
    rows = []
    for scenario in scenarios:
        headline = headlines.get(scenario.qualname)
        figure = ""
        if headline is not None:
            entry, value = headline
            figure = HEADLINE.format(
                name=f":py:attr:`~{scenario.qualname}.{value.name}`", value=value.text, entry=entry
            )
        rows.append((f":doc:`{scenario.name}`", scenario.docstring.summary, figure))
    lines += table(("Scenario", "Summary", "Headline figure"), rows, "refgen-category")
    lines += [".. toctree::", "   :hidden:", ""]
    lines += [f"   {scenario.name}" for scenario in scenarios]
    return [*lines, ""]


def _parameter_fields(kind: str, entries: Iterable[ParameterEntry]) -> list[str]:
    lines: list[str] = []
    for entry in entries:
        lines += field(f"{kind} {entry.name}", [entry.description or entry.name])
        if entry.type:
            lines += field(f"type {entry.name}", [entry.type])
    return lines


def _returns_field(entries: tuple[ParameterEntry, ...]) -> list[str]:
    if not entries:
        return []
    items = [
        f"- **{e.name}** (``{e.type}``) -- {e.description}"
        if e.name
        else f"- ``{e.type}`` -- {e.description}"
        for e in entries
    ]
    return field("returns", ["", *items]) if len(items) > 1 else field("returns", [items[0][2:]])


HELPER_STEPS_INTRO = "The same accounting as the function body computes it, line by line:"


def _helper_steps(helper: HelperDoc) -> list[str]:
    """Each assignment of the helper's body as a formula (code where none fits)."""
    if not helper.steps:
        return []
    lines = [".. rst-class:: refgen-steps", "", HELPER_STEPS_INTRO, ""]
    for step in helper.steps:
        code = f"{step.target} = {step.expression}" if step.target else f"return {step.expression}"
        math = math_block(step.expression, step.target) if step.target else []
        shown = inline_code(" ".join(code.split()), EQUATION_ROLE)
        if len(shown) == 1:
            lines += ["- " + shown[0], *indent(math, "  "), ""]
        else:  # code inline markup cannot hold (backquotes, backslashes)
            lines += ["- Step:", *indent(shown, "  "), *indent(math, "  "), ""]
    return lines


def render_helper(helper: HelperDoc) -> list[str]:
    doc = helper.docstring
    lines = [f".. py:function:: {helper.name}{helper.signature}", ""]
    body: list[str] = []
    for paragraph in (doc.summary, *doc.description.split("\n\n")):
        if paragraph:
            body += [paragraph, ""]
    body += _parameter_fields("param", doc.parameters)
    body += _returns_field(doc.returns)
    body.append("")
    if doc.notes:
        body += [".. rubric:: Notes", ""] + render_notes(doc, {}) + [""]
    body += _helper_steps(helper)
    if doc.references:
        body += [".. rubric:: References", ""] + render_references(doc)
    if doc.examples:
        body += [".. rubric:: Examples", "", *doc.examples.text.split("\n"), ""]
    return lines + indent(body) + [""]


def render_helper_module(module: ModuleDoc, helpers: Iterable[HelperDoc]) -> list[str]:
    """A page of helper functions: each with its signature, equation and assumptions."""
    lines = heading(module.title, "=")
    lines += [f".. py:module:: {module.name}", ""]
    if module.description:
        lines += [module.description, ""]
    for helper in helpers:
        lines += render_helper(helper)
    return lines


def render_index(title: str, intro: str, entries: Iterable[str]) -> list[str]:
    """The reference's root page, a toctree of category and helper pages."""
    lines = heading(title, "=") + [intro, "", ".. toctree::", "   :maxdepth: 1", ""]
    return lines + [f"   {entry}" for entry in entries] + [""]


def render_registry(registry: RegistryDoc) -> list[str]:
    """The registry page: every named scenario with its class and stated inputs."""
    module, _, name = registry.qualname.rpartition(".")
    lines = heading("Registry", "=")
    if module:
        lines += [f".. py:currentmodule:: {module}", ""]
    lines += [f".. py:class:: {name}", ""]
    for paragraph in (registry.title, *registry.description.split("\n\n")):
        if paragraph:
            lines += indent([paragraph, ""])
    no_mentions = Mentions({}, {})
    entries = []
    for entry in registry.entries:
        fields = [("Scenario", fragments.paragraph(fragments.xref("class", entry.scenario)))]
        if entry.inputs:
            items = [fragments.code(f"{key}={value}") for key, value in entry.inputs]
            fields.append(("Stated inputs", fragments.bullet_list(items)))
        entries.append(
            attribute_entry(
                "attribute",
                name,
                entry.name,
                entry.scenario,
                entry.description,
                fields,
                no_mentions,
            )
        )
    return lines + attributes_block(entries)

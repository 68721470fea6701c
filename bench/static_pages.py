"""The pages refgen generates, written out once as plain reST: the benchmark's static baseline.

Run as a script with the synthetic package on ``sys.path``::

    python bench/static_pages.py DOCS MODULE [MODULE ...] --registry synth.registry.Named

It asks a :class:`refgen.project.Project` for the same pages the extension
builds and writes each page's blocks as reST, so Sphinx reads the same
content with no extension code running.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterable
from pathlib import Path
from typing import TypeVar, assert_never

from refgen.config import Settings
from refgen.project import Project
from refgen.render import blocks as b
from refgen.render.markup import serialize
from refgen.render.pages import category_page, helpers_page, index_page, registry_page
from refgen.render.scenario_page import scenario_page
from refgen.site.plan import PlannedPage, plan_pages

T = TypeVar("T")

UNDERLINES = "=-~^\"'"
_SPECIAL = re.compile(r"([\\`*_|\[\]<>:])")


def escaped(text: str) -> str:
    return _SPECIAL.sub(r"\\\1", text)


def indent(lines: Iterable[str], prefix: str = "   ") -> list[str]:
    return [prefix + line if line else "" for line in lines]


def inline(item: b.Inline) -> str:
    match item:
        case b.Text():
            return escaped(item.text)
        case b.Code():
            return f"``{item.text}``" if "`" not in item.text else escaped(item.text)
        case b.Xref():
            return f":py:{item.role}:`{escaped(item.label)} <{item.target}>`"
        case b.DocLink():
            return f":doc:`{escaped(item.label)} <{item.docname}>`"
        case b.AnchorLink():
            return f":py:attr:`{escaped(item.label)} <{item.anchor}>`"
        case b.SourceLink() | b.FileLink():
            return escaped(item.label)
        case b.ObjectName():  # registered with the domain by refgen's node; here as code
            return f"``{item.name.rpartition('.')[2]}``"
        case b.Figure():
            return escaped(f"{item.whole}{item.fraction}")
        case _:
            assert_never(item)


def block(item: b.Block, depth: int) -> list[str]:
    match item:
        case b.Paragraph():
            return ["\\ " + "".join(inline(i) for i in item.inlines), ""]
        case b.Prose():
            return [*item.text.split("\n"), ""]
        case b.CodeBlock():
            return [".. code-block:: python", "", *indent(item.text.split("\n")), ""]
        case b.Markup():
            return [".. raw:: html", "", "   " + serialize(item.element), ""]
        case b.FieldList():
            lines = []
            for field in item.fields:
                body = blocks(field.body, depth)
                lines += [f":{escaped(field.label)}:", *indent(body)]
            return [*lines, ""]
        case b.Definitions():
            lines = []
            for term, body in item.items:
                lines += [escaped(term), *indent(blocks(body, depth))]
            return [*lines, ""]
        case b.BulletList():
            lines = []
            for entry in item.items:
                first, *rest = blocks(entry, depth) or [""]
                lines += [f"- {first}", *indent(rest, "  ")]
            return [*lines, ""]
        case b.Table():
            lines = [".. list-table::", "   :header-rows: 1", ""]
            for row in (item.header, *item.rows):
                for column, cell in enumerate(row):
                    first, *rest = blocks(cell, depth) or ["\\ "]
                    lead = "   * - " if column == 0 else "     - "
                    lines += [lead + first, *indent(rest, "       ")]
            return [*lines, ""]
        case b.Rubric():
            return [f".. rubric:: {item.text}", ""]
        case b.Section():
            title = escaped(item.title)
            return [title, UNDERLINES[depth] * len(title), "", *blocks(item.blocks, depth + 1)]
        case b.PyObject():
            signature = item.name if item.objtype == "module" else f"{item.name}{item.signature}"
            lines = [f".. py:{item.objtype}:: {signature}"]
            if item.objtype != "module":
                lines.append(f"   :module: {item.module}")
            if item.annotation:
                lines.append(f"   :type: {' '.join(item.annotation.split())}")
            return [*lines, "", *indent(blocks(item.body, depth)), ""]
        case b.Collapsible():  # folded in HTML by refgen's node; here a rubric and its blocks
            return [f".. rubric:: {item.summary}", "", *blocks(item.blocks, depth)]
        case b.TocTree():
            options = ["   :hidden:"] if item.hidden else []
            options += [f"   :maxdepth: {item.maxdepth}"] if item.maxdepth > 0 else []
            return [".. toctree::", *options, "", *indent(item.entries), ""]
        case _:
            assert_never(item)


def blocks(items: Iterable[b.Block], depth: int) -> list[str]:
    return [line for item in items for line in block(item, depth)]


def page_text(page: b.Page) -> str:
    title = escaped(page.title)
    lines = [title, "=" * len(title), ""]
    if page.module:
        lines += [f".. py:currentmodule:: {page.module}", ""]
    return "\n".join([*lines, *blocks(page.blocks, 1)]) + "\n"


def known(found: T | str) -> T:
    """What the Project found; the benchmark's libraries have no failing code, so a reason
    stops the run."""
    if isinstance(found, str):
        raise SystemExit(f"static_pages: {found}")
    return found


def render(project: Project, planned: PlannedPage) -> b.Page:
    if planned.kind == "scenario":
        scenario = known(project.scenario_named(planned.argument))
        return scenario_page(scenario, known(project.values(scenario)), 5, project.units)
    if planned.kind == "category":
        scenarios = known(project.scenarios_of(planned.argument))
        headlines = {s.qualname: h for s in scenarios if (h := known(project.headline(s)))}
        return category_page(known(project.module(planned.argument)), scenarios, headlines)
    if planned.kind == "helpers":
        helpers = known(project.helpers_of(planned.argument))
        return helpers_page(known(project.module(planned.argument)), helpers, project.units)
    if planned.kind == "registry":
        return registry_page(known(project.registry_at(planned.argument)))
    return index_page(planned.argument, planned.children, "index")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("docs", type=Path)
    parser.add_argument("modules", nargs="+")
    parser.add_argument("--registry")
    args = parser.parse_args()
    project = Project(Settings(modules=tuple(args.modules), registry=args.registry))
    for planned in plan_pages(project).pages:
        path = args.docs / f"{planned.docname}.rst"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(page_text(render(project, planned)), encoding="utf-8")


if __name__ == "__main__":
    main()

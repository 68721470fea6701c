"""``refgen search WORD``: one line per class, attribute or entry that mentions a word."""

from __future__ import annotations

import argparse
import sys

from refgen.analysis.docstrings import summary
from refgen.cli.common import (
    EXIT_NOT_FOUND,
    EXIT_OK,
    build_project,
    emit,
    registry,
    scenarios,
)
from refgen.project import Project
from refgen.render.markup import printable
from refgen.render.summaries import search_results
from refgen.render.text import SummaryWriter


def run(args: argparse.Namespace) -> int:
    rows = search_rows(build_project(args), args.word)
    if not rows:
        print(printable(f"refgen: nothing matches {args.word!r}"), file=sys.stderr)
        return EXIT_NOT_FOUND
    emit(SummaryWriter().page(search_results(rows)))
    return EXIT_OK


def search_rows(project: Project, word: str) -> list[tuple[str, str, str]]:
    """``(name, kind, summary)`` of every class, input, derived attribute and
    registry entry whose name or description contains ``word`` (any case)."""
    wanted = word.casefold()

    def hit(*texts: str) -> bool:
        return any(wanted in text.casefold() for text in texts)

    rows = []
    for scenario in scenarios(project):
        doc = scenario.docstring
        if hit(scenario.name, doc.summary, doc.description):
            rows.append((scenario.name, "class", doc.summary))
        for item in scenario.inputs:
            if hit(item.name, item.description):
                rows.append((f"{scenario.name}.{item.name}", "input", summary(item.description)))
        for derived in scenario.derived:
            if hit(derived.name, derived.description):
                line = summary(derived.description)
                rows.append((f"{scenario.name}.{derived.name}", "derived", line))
    found = registry(project)
    for entry in found.entries if found else ():
        if hit(entry.name, entry.description):
            rows.append((entry.name, "entry", summary(entry.description)))
    return rows

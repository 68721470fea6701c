"""``refgen show NAME``: one registry entry, class, attribute or helper, as terminal text.

The summaries are built as blocks (:mod:`refgen.render.summaries`) and printed
by :class:`~refgen.render.text.SummaryWriter`; ``--page`` prints the class's
whole page (:func:`refgen.render.scenario_page.scenario_page`) with
:class:`~refgen.render.text.TextWriter`. Both walk the blocks the site is built from.
The page is kept on disk until a file it came from changes (:mod:`refgen.cli.cache`).
"""

from __future__ import annotations

import argparse
import sys

from refgen.analysis.failures import describe_error
from refgen.analysis.model import DerivedDoc
from refgen.cli.cache import cached_page, folder_for, lookup_key
from refgen.cli.common import EXIT_OK, Target, build_project, emit, resolve_target, where
from refgen.evaluate import values
from refgen.project import Project
from refgen.render.blocks import Page
from refgen.render.scenario_page import scenario_page
from refgen.render.summaries import (
    HelperOrFailure,
    attribute_summary,
    class_summary,
    entry_summary,
    helper_summary,
)
from refgen.render.text import SummaryWriter, TextWriter


def run(args: argparse.Namespace) -> int:
    project = build_project(args)
    whole_page = bool(getattr(args, "page", False))

    def compute() -> tuple[tuple[bool, Page], list[str] | None]:
        return lookup(project, args.name, whole_page), project.source_files()

    if getattr(args, "no_cache", False):
        (is_page, page), _ = compute()
    else:
        key = lookup_key(project.settings, "show", args.name, str(whole_page))
        is_page, page = cached_page(folder_for(project.settings), key, compute)
    if is_page:
        sys.stdout.write(TextWriter().page(page))
    else:
        emit(SummaryWriter().page(page))
    return EXIT_OK


def lookup(project: Project, name: str, whole_page: bool) -> tuple[bool, Page]:
    """What ``NAME`` names: the class's whole page (True) when asked for and there is
    one, else its summary page (False)."""
    target = resolve_target(project, name)
    if whole_page and target.scenario is not None:
        scenario = target.scenario
        page = scenario_page(
            scenario,
            project.values(scenario),
            project.settings.value_precision,
            project.units,
            sensitivities=project.sensitivities(scenario),
        )
        return True, page
    return False, summary(project, target)


def summary(project: Project, target: Target) -> Page:
    """The summary page of what ``NAME`` names, its values computed now."""
    if target.kind == "helper":
        assert target.helper is not None
        return helper_summary(target.helper, where)
    scenario = target.scenario
    assert scenario is not None
    if target.kind == "entry":
        assert target.entry is not None
        computed = project.entry_values(scenario, target.entry)
        return entry_summary(scenario, target.entry, computed, where)
    if target.kind == "class":
        return class_summary(scenario, where)
    name, entry = target.attribute, target.entry
    entries = [entry] if entry else list(scenario.registry_entries)
    timeout = project.settings.eval_timeout
    shown = [
        (each, values.compute(scenario, project.instance(each), name, timeout=timeout))
        for each in entries
    ]
    item = scenario.attribute(name)
    helpers = carriers(project, item) if isinstance(item, DerivedDoc) else []
    owner = entry.name if entry else scenario.name
    return attribute_summary(scenario, name, owner, shown, helpers, where, entry is not None)


def carriers(project: Project, derived: DerivedDoc) -> list[HelperOrFailure]:
    """The helpers that carry an equation the body does not state, or why each cannot be read."""
    found = []
    for path in derived.equation.helpers:
        try:
            found.append(HelperOrFailure(path, project.helper(path)))
        except Exception as error:  # user code: say so, keep going
            found.append(HelperOrFailure(path, failure=describe_error(error)))
    return found

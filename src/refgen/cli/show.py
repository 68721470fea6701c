"""``refgen show NAME``: one registry entry, class, attribute or helper, as terminal text or JSON.

The summaries are built as blocks (:mod:`refgen.render.summaries`) and printed
by :class:`~refgen.render.text.SummaryWriter` through rich; ``--page`` prints the
class's whole page (:func:`refgen.render.scenario_page.scenario_page`) with
:class:`~refgen.render.text.TextWriter`. Both walk the blocks the site is built from.
``--format json`` prints the records ``refgen export`` writes for the same
object instead. What is printed is kept on disk until a file it came from
changes (:mod:`refgen.cli.cache`).
"""

from __future__ import annotations

import argparse
from typing import Any

from refgen.analysis.model import DerivedDoc, InputDoc, RegistryEntryDoc
from refgen.cli.cache import cached_page, folder_for, lookup_key, source_files
from refgen.cli.common import (
    EXIT_OK,
    Target,
    build_project,
    emit_json,
    needed,
    print_page,
    print_text,
    resolve_target,
    terminal_width,
    where,
)
from refgen.cli.export import export_class, export_entry, export_helper, export_value
from refgen.evaluate.values import Value
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
from refgen.render.text import TextWriter


def run(args: argparse.Namespace) -> int:
    project = build_project(args)
    whole_page = bool(getattr(args, "page", False))
    as_json = args.format == "json"

    def compute() -> tuple[Any, list[str] | None]:
        if as_json:
            return record(project, resolve_target(project, args.name)), source_files(project)
        return lookup(project, args.name, whole_page), source_files(project)

    if getattr(args, "no_cache", False):
        shown, _ = compute()
    else:
        query = (args.name, str(whole_page), args.format)
        key = lookup_key(project.settings, "show", *query)
        shown = cached_page(folder_for(project.settings), key, compute)
    if as_json:
        emit_json(shown)
        return EXIT_OK
    is_page, page = shown
    if is_page:
        print_text(TextWriter(terminal_width()).page(page))
    else:
        print_page(page)
    return EXIT_OK


def lookup(project: Project, name: str, whole_page: bool) -> tuple[bool, Page]:
    """What ``NAME`` names: the class's whole page (True) when asked for and there is
    one, else its summary page (False)."""
    target = resolve_target(project, name)
    if whole_page and target.scenario is not None:
        scenario = target.scenario
        page = scenario_page(
            scenario,
            needed(project.values(scenario)),
            project.settings.value_precision,
            project.units,
            sensitivities=needed(project.sensitivities(scenario)),
        )
        return True, page
    return False, summary(project, target)


def record(project: Project, target: Target) -> dict[str, Any]:
    """What ``NAME`` names as JSON data: ``kind``, ``name``, ``qualname`` and the
    records of ``refgen export`` (the one for its kind filled in, the others null)."""
    found: dict[str, Any] = {"entry": None, "class": None, "attribute": None, "helper": None}
    if target.kind == "helper":
        assert target.helper is not None
        found["helper"] = export_helper(target.helper)
        name, qualname = target.helper.name, target.helper.qualname
    elif target.kind == "attribute":
        assert target.scenario is not None
        found["attribute"] = attribute_record(project, target)
        owner = target.entry.name if target.entry else target.scenario.name
        name = f"{owner}.{target.attribute}"
        qualname = f"{target.scenario.qualname}.{target.attribute}"
    elif target.kind == "entry":
        assert target.entry is not None
        found["entry"] = export_entry(project, target.entry)
        name, qualname = target.entry.name, found["entry"]["qualname"]
    else:
        assert target.scenario is not None
        found["class"] = export_class(target.scenario)
        name, qualname = target.scenario.name, target.scenario.qualname
    return {"kind": target.kind, "name": name, "qualname": qualname, **found}


def attribute_record(project: Project, target: Target) -> dict[str, Any]:
    """An attribute: its class's record of it, and its value for the entry (or for
    every entry of its class, when asked through the class)."""
    scenario = target.scenario
    assert scenario is not None
    item = scenario.attribute(target.attribute)
    assert item is not None
    kind = "input" if isinstance(item, InputDoc) else "derived"
    exported = export_class(scenario)["inputs" if kind == "input" else "derived"]
    own = next(record for record in exported if record["name"] == item.name)
    return {
        "class": scenario.qualname,
        "kind": kind,
        "input": own if kind == "input" else None,
        "derived": own if kind == "derived" else None,
        "values": [
            {"entry": entry.name, **export_value(value, kind)}
            for entry, value in attribute_values(project, target)
        ],
    }


def attribute_values(project: Project, target: Target) -> list[tuple[RegistryEntryDoc, Value]]:
    """The attribute's value for the entry asked through, or for every entry of its class."""
    scenario = target.scenario
    assert scenario is not None
    entries = [target.entry] if target.entry else list(scenario.registry_entries)
    return [
        (entry, needed(project.value_of(scenario, entry, target.attribute))) for entry in entries
    ]


def summary(project: Project, target: Target) -> Page:
    """The summary page of what ``NAME`` names, its values computed now."""
    if target.kind == "helper":
        assert target.helper is not None
        return helper_summary(target.helper, where)
    scenario = target.scenario
    assert scenario is not None
    if target.kind == "entry":
        assert target.entry is not None
        computed = needed(project.entry_values(scenario, target.entry))
        return entry_summary(scenario, target.entry, computed, where)
    if target.kind == "class":
        return class_summary(scenario, where)
    name, entry = target.attribute, target.entry
    shown = attribute_values(project, target)
    item = scenario.attribute(name)
    helpers = carriers(project, item) if isinstance(item, DerivedDoc) else []
    owner = entry.name if entry else scenario.name
    return attribute_summary(scenario, name, owner, shown, helpers, where, entry is not None)


def carriers(project: Project, derived: DerivedDoc) -> list[HelperOrFailure]:
    """The helpers that carry an equation the body does not state, or why each cannot be read."""
    found = []
    for path in derived.equation.helpers:
        helper = project.helper(path)
        if isinstance(helper, str):  # the user's code: say so, keep going
            found.append(HelperOrFailure(path, failure=helper))
        else:
            found.append(HelperOrFailure(path, helper))
    return found

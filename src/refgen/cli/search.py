"""``refgen search QUERY``: classes, attributes, entries and helpers ranked by the words they share.

Text is cut into tokens: identifiers split on ``_``, dots and changes of case
(``kv_cache_bytes`` and ``KvCacheCapacityScenario`` give ``kv``, ``cache``,
...), words on anything that is not a letter or digit, each case-folded and a
plural ``s`` dropped. Each item offers its tokens in three tiers: its name;
its summary (the first line of its docstring); its description, equation (the
returned expression, the helpers it calls, a class's or helper's stated
Equation) and units (pint's short and long names of its computed values). A
query token scores 3, 2 or 1 for the best tier it is found in (half as much
when it only starts a token there). Results are ranked by how many query
tokens they match, then by score; an item must match at least half of the
query's tokens. Small words (``the``, ``of``, ``in``, ...) are left out of a
query unless it has nothing else.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from refgen.analysis.docstrings import summary
from refgen.analysis.model import DerivedDoc, HelperDoc, InputDoc, ScenarioDoc
from refgen.cli.common import (
    EXIT_NOT_FOUND,
    EXIT_OK,
    build_project,
    emit_json,
    helpers,
    needed,
    print_page,
    registry,
    scenarios,
    warn,
)
from refgen.evaluate.values import EntryValues
from refgen.project import Project
from refgen.render.summaries import search_results

NAME, SUMMARY, TEXT = 3, 2, 1
"""The weight of a query token found in an item's name, summary, or other text."""
TIERS = {NAME: "name", SUMMARY: "summary", TEXT: "text"}
SMALL_WORDS = frozenset(
    {"a", "an", "and", "as", "at", "by", "for", "from", "in", "into", "is", "it", "of", "on"}
    | {"or", "per", "the", "to", "with"}
)

_CASE_CHANGE = re.compile(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_DIGITS = re.compile(r"(?<=\D)(?=\d)|(?<=\d)(?=\D)")


def tokens(text: str) -> list[str]:
    """The search tokens of ``text``: ``"KvCacheCapacity kv_cache_bytes"`` gives
    ``kv, cache, capacity, kv, cache, byte``. Non-ASCII letters stay inside their word."""
    found = []
    for word in re.split(r"[\W_]+", text):
        for piece in _CASE_CHANGE.split(word):
            for part in _DIGITS.split(piece):
                if part:
                    found.append(normalised(part))
    return found


def normalised(token: str) -> str:
    """Case-folded, with a plural ``s`` dropped (``bytes`` is ``byte``, ``class`` stays)."""
    token = token.casefold()
    if len(token) > 3 and token.endswith("s") and not token.endswith(("ss", "us", "is")):
        return token[:-1]
    return token


def query_tokens(query: str) -> list[str]:
    """The tokens of a query, once each, small words left out unless nothing else is left."""
    found = list(dict.fromkeys(tokens(query)))
    return [t for t in found if t not in SMALL_WORDS] or found


@dataclass(frozen=True)
class Item:
    """Something search can find, with its text in tiers."""

    name: str
    kind: str
    qualname: str
    summary: str
    tiers: dict[int, frozenset[str]]
    """Tokens by weight (:data:`NAME`, :data:`SUMMARY`, :data:`TEXT`)."""


@dataclass(frozen=True)
class Hit:
    """An item that matched, and how well."""

    item: Item
    matched: tuple[str, ...]
    """The query tokens it matched, in query order."""
    score: float
    fields: tuple[str, ...]
    """Where its matches were: ``name``, ``summary``, ``text``."""

    def record(self) -> dict[str, Any]:
        """The hit as JSON data (``refgen search --format json``)."""
        return {
            "name": self.item.name,
            "kind": self.item.kind,
            "qualname": self.item.qualname,
            "summary": self.item.summary,
            "score": self.score,
            "matched": list(self.matched),
            "fields": list(self.fields),
        }


def item(name: str, kind: str, qualname: str, first_line: str, *texts: str) -> Item:
    """An item whose name tier is the last part of ``name``."""
    return Item(
        name,
        kind,
        qualname,
        first_line,
        {
            NAME: frozenset(tokens(name.rpartition(".")[2])),
            SUMMARY: frozenset(tokens(first_line)),
            TEXT: frozenset(t for text in texts for t in tokens(text)),
        },
    )


def weight(token: str, found: frozenset[str], tier: int) -> float:
    """``tier`` when ``token`` is among ``found``, half of it when it starts one of them
    (for a token of three letters or more), else 0."""
    if token in found:
        return float(tier)
    if len(token) >= 3 and any(t.startswith(token) for t in found):
        return tier / 2
    return 0.0


def hit(candidate: Item, wanted: Sequence[str]) -> Hit | None:
    """How ``candidate`` matches the query tokens; None below half of them."""
    matched, fields, score = [], set(), 0.0
    for token in wanted:
        best, where = max(
            ((weight(token, found, tier), tier) for tier, found in candidate.tiers.items()),
            default=(0.0, TEXT),
        )
        if best:
            matched.append(token)
            fields.add(where)
            score += best
    if not matched or 2 * len(matched) < len(wanted):
        return None
    ordered = tuple(TIERS[tier] for tier in sorted(fields, reverse=True))
    return Hit(candidate, tuple(matched), score, ordered)


def ranked(items: Iterable[Item], query: str) -> list[Hit]:
    """The items that match ``query``, best first; ties keep the reference's order."""
    wanted = query_tokens(query)
    hits = [h for candidate in items if (h := hit(candidate, wanted)) is not None]
    return sorted(hits, key=lambda h: (-len(h.matched), -h.score))


# --------------------------------------------------------------------------- the items


def searchable(project: Project) -> Iterator[Item]:
    """Every class with its inputs and derived attributes, every entry, every helper."""
    found = registry(project)
    units = units_by_attribute(project) if found else {}
    for scenario in scenarios(project):
        yield class_item(scenario)
        attributes: list[InputDoc | DerivedDoc] = [*scenario.inputs, *scenario.derived]
        for each in attributes:
            yield attribute_item(scenario, each, units.get((scenario.qualname, each.name), ()))
    for entry in found.entries if found else ():
        yield item(
            entry.name,
            "entry",
            f"{entry.registry}.{entry.name}",
            summary(entry.description),
            entry.description,
            entry.scenario.rpartition(".")[2],
        )
    for helper in helpers(project):
        yield helper_item(helper)


def class_item(scenario: ScenarioDoc) -> Item:
    doc = scenario.docstring
    notes = [note.text for note in doc.notes]
    return item(scenario.name, "class", scenario.qualname, doc.summary, doc.description, *notes)


def attribute_item(
    scenario: ScenarioDoc, attribute: InputDoc | DerivedDoc, units: Iterable[str]
) -> Item:
    texts = [attribute.description, *units]
    kind = "input"
    if isinstance(attribute, DerivedDoc):
        kind = "derived"
        texts += [attribute.equation.expression or "", *attribute.equation.helpers]
    return item(
        f"{scenario.name}.{attribute.name}",
        kind,
        f"{scenario.qualname}.{attribute.name}",
        summary(attribute.description),
        *texts,
    )


def helper_item(helper: HelperDoc) -> Item:
    doc = helper.docstring
    steps = [f"{step.target} {step.expression}" for step in helper.steps]
    notes = [note.text for note in doc.notes]
    return item(
        helper.name, "helper", helper.qualname, doc.summary, doc.description, *notes, *steps
    )


def units_by_attribute(project: Project) -> dict[tuple[str, str], tuple[str, ...]]:
    """For each ``(class, attribute)``, the short and long unit names its values come in."""
    found: dict[tuple[str, str], dict[str, None]] = {}
    for scenario in scenarios(project):
        for computed in needed(project.values(scenario)):
            for name, names in value_units(computed):
                found.setdefault((scenario.qualname, name), {}).update(dict.fromkeys(names))
    return {key: tuple(names) for key, names in found.items()}


def value_units(computed: EntryValues) -> Iterator[tuple[str, tuple[str, ...]]]:
    for value in computed.values:
        names = tuple(n for n in (value.unit, value.units) if n and n != "dimensionless")
        if value.available and names:
            yield value.name, names


# --------------------------------------------------------------------------- the command


def run(args: argparse.Namespace) -> int:
    hits = ranked(searchable(build_project(args)), args.query)
    shown = hits[: args.limit] if args.limit > 0 else hits
    if args.format == "json":
        emit_json(
            {
                "query": args.query,
                "tokens": query_tokens(args.query),
                "total": len(hits),
                "results": [h.record() for h in shown],
            }
        )
    elif shown:
        print_page(search_results((h.item.name, h.item.kind, h.item.summary) for h in shown))
        if len(shown) < len(hits):
            warn(f"refgen: {len(hits) - len(shown)} more; --limit 0 shows all")
    if not hits:
        warn(f"refgen: nothing matches {args.query!r}")
        return EXIT_NOT_FOUND
    return EXIT_OK

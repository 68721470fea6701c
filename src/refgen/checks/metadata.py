"""The metadata rules: what a scenario class's docstrings must give (all but units)."""

from __future__ import annotations

from refgen.analysis.docstrings import NOTE_LABELS
from refgen.analysis.model import Docstring, ScenarioDoc, SourceLocation, WarningKind
from refgen.checks.findings import CheckKind, Finding, finding, from_problem


def docstring_is_empty(doc: Docstring) -> bool:
    return not (doc.summary or doc.description or doc.notes or doc.references or doc.examples)


def _owner(scenario: ScenarioDoc, inherited_from: str | None) -> str:
    """The class a member is written in: a member every subclass inherits is one finding,
    at the base's line and under the base's name, however many subclasses show it."""
    return inherited_from.rpartition(".")[2] if inherited_from else scenario.name


def lint_scenario(scenario: ScenarioDoc) -> list[Finding]:
    """Missing docstrings, Notes entries and examples of one class, and its analysis problems."""
    found = []
    doc = scenario.docstring
    location = scenario.location
    if docstring_is_empty(doc):
        found.append(
            finding(
                CheckKind.MISSING_DOCSTRING,
                f"{scenario.name}: the class has no docstring",
                location,
            )
        )
    for label in NOTE_LABELS:
        if not (doc.note(label) or "").strip():
            found.append(
                finding(
                    CheckKind(f"missing-{label.lower()}"),
                    f"{scenario.name}: the Notes section has no {label}: entry",
                    location,
                )
            )
    if doc.examples is None:
        found.append(
            finding(
                CheckKind.MISSING_EXAMPLE,
                f"{scenario.name}: the docstring has no Examples section",
                location,
            )
        )
    for item in scenario.inputs:
        if not item.description:
            found.append(
                finding(
                    CheckKind.MISSING_DOCSTRING,
                    f"{_owner(scenario, item.inherited_from)}.{item.name}: input has no docstring",
                    item.location,
                )
            )
    undocumented: set[tuple[str, SourceLocation]] = set()
    for derived in scenario.derived:
        if not derived.description:
            undocumented.add((derived.qualname, derived.location))
            found.append(
                finding(
                    CheckKind.MISSING_DOCSTRING,
                    f"{_owner(scenario, derived.inherited_from)}.{derived.name}: "
                    "derived attribute has no docstring",
                    derived.location,
                )
            )
    for problem in scenario.problems:
        # analysis reports an undocumented property too; missing-docstring covers it
        if (
            problem.kind == WarningKind.DOCSTRING
            and (problem.subject, problem.location) in undocumented
        ):
            continue
        found.append(from_problem(problem))
    return found

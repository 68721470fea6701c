"""Checks: what ``refgen check`` reports about a project, as data.

:func:`run_checks` applies the metadata rules (:mod:`refgen.checks.metadata`)
and the unit rule (:mod:`refgen.checks.units`) to every scenario class of a
:class:`~refgen.project.Project`, and adds every problem the Sphinx build
reports about the same code, one finding each, where the build may count or
group them (:mod:`refgen.sphinx.reporting`): a module that cannot be
imported, a class that cannot be analysed, a docstring section refgen does
not know, a registry entry of a class no module defines, a property that
raises for a registry entry. Nothing here prints, and nothing imports Sphinx
or docutils.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from refgen.analysis.model import HelperDoc, ScenarioDoc, WarningKind
from refgen.checks.findings import FINDING_KINDS, CheckKind, Finding, finding, from_problem
from refgen.checks.metadata import lint_scenario
from refgen.checks.units import unit_findings
from refgen.evaluate.values import raising_properties
from refgen.site.plan import empty_reference

if TYPE_CHECKING:
    from refgen.project import Project

__all__ = ["FINDING_KINDS", "CheckKind", "CheckReport", "Finding", "run_checks"]


@dataclass(frozen=True)
class CheckReport:
    """Every finding, sorted by file and line, and what was checked."""

    findings: tuple[Finding, ...]
    classes: int
    """Scenario classes checked."""
    without_entries: int
    """Classes with no registry entry, whose units could not be compared."""


def run_checks(project: Project, values: bool = True) -> CheckReport:
    """Every finding about ``project``'s scenario classes and the helpers they use.

    ``values=False`` leaves out the properties that raise for a registry entry
    (the build, which computes every value anyway, reports those itself).
    """
    loading_problems = project.load()
    scenarios, analysis_problems = project.analysed()
    findings = []
    for problem in [*loading_problems, *analysis_problems]:
        if problem.kind == WarningKind.IMPORT:
            findings.append(from_problem(problem))
        elif problem.kind == WarningKind.ANALYSIS:
            findings.append(
                finding(problem.kind, problem.message, problem.location, problem.subject)
            )
        elif problem.kind == WarningKind.REGISTRY and STRAY not in problem.message:
            findings.append(from_problem(problem))
    empty = empty_reference(project, loading_problems)
    if empty is not None:
        findings.append(from_problem(empty))
    findings += stray_entries(project)
    for scenario in scenarios:
        findings += lint_scenario(scenario)
        findings += unit_findings(project, scenario)
        if values:
            findings += value_findings(project, scenario)
    helpers: dict[str, HelperDoc] = {}
    for module_name in project.helper_modules():
        found = project.helpers_of(module_name)
        if isinstance(found, str):  # the user's code: reported, never a crash
            message = f"cannot read helper module: {found}"
            findings.append(finding(WarningKind.IMPORT, message, None, module_name))
        else:
            helpers.update((h.qualname, h) for h in found)
    for helper in helpers.values():
        findings += [from_problem(p) for p in helper.docstring.problems]
    without_entries = sum(1 for s in scenarios if not s.registry_entries)
    return CheckReport(tuple(sorted(set(findings))), len(scenarios), without_entries)


STRAY = "no module in refgen_modules defines"
"""What a problem about registry entries of undocumented classes says (the build gives
one for them all; here each is a finding of its own)."""


def stray_entries(project: Project) -> list[Finding]:
    """A finding for each registry entry whose class no configured module defines."""
    registry = project.registry
    if registry is None or not project.settings.modules:
        return []
    documented = project.documented_classes()
    return [
        finding(
            WarningKind.REGISTRY,
            f"{registry.qualname}.{entry.name}: registry entry {entry.name!r} is a "
            f"{entry.scenario}, which {STRAY}",
            entry.location,
            f"{registry.qualname}.{entry.name}",
        )
        for entry in registry.entries
        if entry.scenario not in documented
    ]


def value_findings(project: Project, scenario: ScenarioDoc) -> list[Finding]:
    """A finding for each derived attribute that raises for a registry entry (other than
    for lack of an optional input), as the class's page reports it."""
    computed = project.values(scenario)
    if isinstance(computed, str):  # the registry page says why
        return []
    return [
        finding(p.kind, p.message, p.location, p.message.split(" ", 1)[0])
        for p in raising_properties(scenario, computed)
    ]

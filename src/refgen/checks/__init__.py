"""Checks: what ``refgen check`` reports about a project, as data.

:func:`run_checks` applies the metadata rules (:mod:`refgen.checks.metadata`)
and the unit rule (:mod:`refgen.checks.units`) to every scenario class of a
:class:`~refgen.project.Project`, and adds the problems analysis found (a
module that cannot be imported, a class that cannot be analysed, a docstring
section refgen does not know). Nothing here prints, and nothing imports
Sphinx or docutils.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from refgen.analysis.failures import describe_error
from refgen.analysis.guard import call_user_code
from refgen.analysis.model import HelperDoc, WarningKind
from refgen.checks.findings import CheckKind, Finding, finding, from_problem
from refgen.checks.metadata import lint_scenario
from refgen.checks.units import unit_findings

if TYPE_CHECKING:
    from refgen.project import Project

__all__ = ["CheckKind", "CheckReport", "Finding", "run_checks"]


@dataclass(frozen=True)
class CheckReport:
    """Every finding, sorted by file and line, and what was checked."""

    findings: tuple[Finding, ...]
    classes: int
    """Scenario classes checked."""
    without_entries: int
    """Classes with no registry entry, whose units could not be compared."""


def run_checks(project: Project) -> CheckReport:
    """Every finding about ``project``'s scenario classes and the helpers they use."""
    scenarios = project.scenarios()
    findings = []
    for problem in project.problems:
        if problem.kind == WarningKind.IMPORT:
            findings.append(from_problem(problem))
        elif problem.kind == WarningKind.ANALYSIS:
            findings.append(
                finding(problem.kind, problem.message, problem.location, problem.subject)
            )
    for scenario in scenarios:
        findings += lint_scenario(scenario)
        findings += unit_findings(project, scenario)
    helpers: dict[str, HelperDoc] = {}
    for module_name in project.helper_modules():
        found, error = call_user_code(project.helpers_of, module_name)
        if found is not None:
            helpers.update((h.qualname, h) for h in found)
        if error is not None:  # user code: report, never crash
            message = f"cannot read helper module: {describe_error(error)}"
            findings.append(finding(WarningKind.IMPORT, message, None, module_name))
    for helper in helpers.values():
        findings += [from_problem(p) for p in helper.docstring.problems]
    without_entries = sum(1 for s in scenarios if not s.registry_entries)
    return CheckReport(tuple(sorted(set(findings))), len(scenarios), without_entries)

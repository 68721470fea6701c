"""Findings: what a check reports, as data (a file, a line, a kind and a message)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from refgen.analysis.model import Problem, SourceLocation, WarningKind


class CheckKind(StrEnum):
    """The kinds of finding the checks add to the analysis's own problems.

    A finding's kind is one of these or a :class:`~refgen.analysis.model.WarningKind`
    (``docstring``, ``reference``, ``import``, ``analysis``), for the problems that
    analysis reports and the Sphinx build shows as warnings.
    """

    MISSING_DOCSTRING = "missing-docstring"
    MISSING_EQUATION = "missing-equation"
    MISSING_ASSUMPTIONS = "missing-assumptions"
    MISSING_EXCLUDES = "missing-excludes"
    MISSING_EXAMPLE = "missing-example"
    UNIT_MISMATCH = "unit-mismatch"


FINDING_KINDS = (
    *(str(kind) for kind in CheckKind),
    *(
        str(kind)
        for kind in (
            WarningKind.DOCSTRING,
            WarningKind.REFERENCE,
            WarningKind.IMPORT,
            WarningKind.ANALYSIS,
            WarningKind.REGISTRY,
            WarningKind.VALUE,
        )
    ),
)
"""Every kind a finding can have: the rules', then the build's problems that checks list."""


@dataclass(frozen=True, order=True)
class Finding:
    """One finding; sorts by file, then line.

    ``line`` is 0 when there is no source location; ``path`` then holds the
    dotted name of the object at fault.
    """

    path: str
    line: int
    kind: str
    """A :class:`CheckKind` or a :class:`~refgen.analysis.model.WarningKind`."""
    message: str

    @property
    def location(self) -> SourceLocation | None:
        return SourceLocation(self.path, self.line) if self.line else None


def finding(kind: str, message: str, location: SourceLocation | None, subject: str = "") -> Finding:
    """A finding at ``location``, or at ``subject`` (a dotted name) when there is none."""
    if location is None:
        return Finding(subject or "(unknown location)", 0, kind, message)
    return Finding(location.path, location.line, kind, message)


def from_problem(problem: Problem) -> Finding:
    """A problem that analysis reported, as a finding naming its subject."""
    return finding(problem.kind, f"{problem.subject}: {problem.message}", problem.location)

"""Warnings: every problem reported as a Sphinx warning of type ``refgen.<kind>``.

Users silence one kind with ``suppress_warnings = ["refgen.<kind>"]``; the
location is the Python file and line at fault whenever it is known.
"""

from __future__ import annotations

from sphinx.util import logging

from refgen.analysis.model import Problem, SourceLocation, WarningKind

logger = logging.getLogger("refgen")


def warn(kind: WarningKind, message: str, location: SourceLocation | str | None) -> None:
    """Report a problem as a Sphinx warning of type ``refgen.<kind>``."""
    logger.warning(
        message, type="refgen", subtype=str(kind), location=str(location) if location else None
    )


def warn_problem(problem: Problem) -> None:
    message = f"{problem.subject}: {problem.message}" if problem.subject else problem.message
    warn(problem.kind, message, problem.location)

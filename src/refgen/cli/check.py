"""``refgen check``: print the findings of :mod:`refgen.checks`, one line each."""

from __future__ import annotations

import argparse
import sys

from refgen.checks import CheckReport, Finding, run_checks
from refgen.cli.common import EXIT_NOT_FOUND, EXIT_OK, build_project, emit, shown_path


def run(args: argparse.Namespace) -> int:
    report = run_checks(build_project(args))
    emit(finding_line(f) for f in report.findings)
    print(summary(report), file=sys.stderr)
    return EXIT_NOT_FOUND if report.findings else EXIT_OK


def finding_line(finding: Finding) -> str:
    """``path:line: [kind] message``, the path relative to the working folder if below it."""
    place = f"{shown_path(finding.path)}:{finding.line}" if finding.line else finding.path
    return f"{place}: [{finding.kind}] {finding.message}"


def summary(report: CheckReport) -> str:
    """How many findings in how many classes, and how many could not have units compared."""
    count = len(report.findings)
    text = (
        f"refgen check: {count or 'no'} finding{'' if count == 1 else 's'} in "
        f"{report.classes} scenario class{'' if report.classes == 1 else 'es'}"
    )
    if report.without_entries:
        text += (
            f"; units not compared for {report.without_entries} "
            f"class{'' if report.without_entries == 1 else 'es'} with no registry entry"
        )
    return text

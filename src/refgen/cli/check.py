"""``refgen check``: print the findings of :mod:`refgen.checks`, one line each, or as JSON.

``refgen check --prose PATH...`` prints the prose audit of files instead
(:mod:`refgen.checks.prose`): typed figures that quote a registry value.

Each finding starts a line with ``path:line: [kind]``, so editors can jump to
it; a message longer than the terminal is wide goes on indented lines.
"""

from __future__ import annotations

import argparse
import dataclasses
from typing import Any

from refgen.checks import FINDING_KINDS, CheckReport, Finding, run_checks
from refgen.checks.prose import ProseReport, audit_files
from refgen.cli.common import (
    EXIT_NOT_FOUND,
    EXIT_OK,
    CliError,
    build_project,
    console,
    emit_json,
    shown_path,
    warn,
)
from refgen.render.text import Wrapped


def run(args: argparse.Namespace) -> int:
    if getattr(args, "prose", None):
        return run_prose(args)
    kinds = set(getattr(args, "kind", None) or ())
    unknown = sorted(kinds - set(FINDING_KINDS))
    if unknown:
        raise CliError(
            f"refgen check: no finding is of kind {', '.join(unknown)}; "
            f"the kinds are {', '.join(FINDING_KINDS)}"
        )
    report = run_checks(build_project(args))
    if kinds:
        report = dataclasses.replace(
            report, findings=tuple(f for f in report.findings if f.kind in kinds)
        )
    if args.format == "json":
        emit_json(report_record(report))
    else:
        out = console()
        for found in report.findings:
            out.print(Wrapped(finding_line(found), hanging="    "))
        warn(summary(report))
    return EXIT_NOT_FOUND if report.findings else EXIT_OK


def run_prose(args: argparse.Namespace) -> int:
    """``refgen check --prose PATH...``: the typed figures of the files that quote the registry."""
    missing = [str(path) for path in args.prose if not path.exists()]
    if missing:
        raise CliError(f"refgen check --prose: no such file or folder: {', '.join(missing)}")
    report = audit_files(build_project(args), args.prose)
    if args.format == "json":
        emit_json(
            {
                "files": [shown_path(f) for f in report.files],
                "disagreements": report.disagreements,
                "findings": [finding_record(f) for f in report.findings],
            }
        )
    else:
        out = console()
        for found in report.findings:
            out.print(Wrapped(finding_line(found), hanging="    "))
        warn(prose_summary(report))
    return EXIT_NOT_FOUND if report.disagreements else EXIT_OK


def prose_summary(report: ProseReport) -> str:
    wrong, files = report.disagreements, len(report.files)
    right = len(report.findings) - wrong
    one = wrong == 1
    return (
        f"refgen check --prose: {wrong or 'no'} typed figure{'' if one else 's'} "
        f"disagree{'s' if one else ''} with the registry and {right} agree (a role would "
        f"keep them current), in {files} file{'' if files == 1 else 's'}"
    )


def finding_record(finding: Finding) -> dict[str, Any]:
    return {
        "path": shown_path(finding.path) if finding.line else finding.path,
        "line": finding.line,
        "kind": finding.kind,
        "message": finding.message,
    }


def report_record(report: CheckReport) -> dict[str, Any]:
    """The report as JSON data: the counts, then each finding (path as printed)."""
    return {
        "classes": report.classes,
        "without_entries": report.without_entries,
        "findings": [finding_record(f) for f in report.findings],
    }


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

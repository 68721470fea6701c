"""The prose audit over files: each typed figure that quotes a registry value, as a finding.

``refgen check --prose PATH...`` reads Markdown, Quarto, reST, LaTeX and text
files (a folder: every such file below it) with :mod:`refgen.prose.formats`
and audits them against the project's registry. A quote that disagrees is a
``prose`` finding; one that agrees is a ``prose-quote`` finding, a suggestion
to write the scenario role instead, never a failure.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from refgen.checks.findings import Finding
from refgen.prose.audit import audit
from refgen.prose.formats import FORMATS, passages_of_file
from refgen.prose.lookup import Lookup

if TYPE_CHECKING:
    from refgen.project import Project

DISAGREES = "prose"
"""The kind of a finding whose typed figure disagrees with the registry."""
AGREES = "prose-quote"
"""The kind of a finding whose typed figure agrees: a suggestion, not a failure."""


@dataclass(frozen=True)
class ProseReport:
    """Every quote found in the files, disagreements and agreements, by file and line."""

    findings: tuple[Finding, ...]
    files: tuple[str, ...]

    @property
    def disagreements(self) -> int:
        return sum(1 for f in self.findings if f.kind == DISAGREES)


def prose_files(paths: Iterable[Path]) -> list[Path]:
    """The files to read: each file given, and the files of a known suffix below a folder."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found += sorted(p for p in path.rglob("*") if p.suffix.lower() in FORMATS)
        else:
            found.append(path)
    return found


def audit_files(project: Project, paths: Iterable[Path]) -> ProseReport:
    """The audit of ``paths`` (see :func:`prose_files`) against the project's registry."""
    files = prose_files(paths)
    passages = [passage for path in files for passage in passages_of_file(path)]
    findings = [
        Finding(q.path, q.line, AGREES if q.agrees else DISAGREES, q.message)
        for q in audit(passages, Lookup(project))
    ]
    return ProseReport(tuple(sorted(set(findings))), tuple(str(f) for f in files))

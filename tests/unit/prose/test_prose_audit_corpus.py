"""The prose audit on a corpus of realistic paragraphs: no false warning, and most quotes found.

``tests/prose_corpus/chapter.md`` labels each paragraph with what it quotes
(``<!-- expect: disagree Entry.attribute -->``, ``agree ...`` or ``none``). The
audit runs over it as ``refgen check --prose`` does, against
``refgen_scenarios``'s registry; a reported disagreement that is not labelled
one is a false warning, which must never happen.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from refgen.checks.prose import AGREES, DISAGREES, audit_files
from refgen.config import load_settings
from refgen.project import Project

REPO = Path(__file__).resolve().parents[3]
CORPUS = Path(__file__).parents[3] / "tests" / "prose_corpus"
LABEL = re.compile(r"<!-- expect: (.*?) -->")
RECALL_FLOOR = 0.9
"""Measured: 15 of the corpus's 16 disagreements are found (0.94; the one missed types
410 MB in a sentence naming five attributes in bytes), and every agreeing quote. The
floor leaves room for a rule made stricter for precision's sake."""


@dataclass(frozen=True)
class Case:
    first: int
    last: int
    expected: frozenset[tuple[str, str]]
    """(kind, Entry.attribute) pairs."""


def cases(path: Path) -> list[Case]:
    lines = path.read_text(encoding="utf-8").splitlines()
    found = []
    for number, line in enumerate(lines, start=1):
        label = LABEL.fullmatch(line.strip())
        if not label:
            continue
        last = number + 1
        while last < len(lines) and lines[last].strip():  # lines[last] is line last + 1
            last += 1
        expected = frozenset(
            (DISAGREES if kind == "disagree" else AGREES, target)
            for kind, target in re.findall(r"(agree|disagree) (\S+)", label.group(1))
        )
        found.append(Case(number + 1, last, expected))
    return found


@pytest.fixture(scope="module")
def scenarios_project() -> Project:
    return Project(load_settings(REPO))


@dataclass(frozen=True)
class Scores:
    precision: float
    recall: float
    false_warnings: list[str]
    missed: list[str]


def scores(project: Project, kind: str) -> Scores:
    path = CORPUS / "chapter.md"
    report = audit_files(project, [path])
    every = cases(path)
    found: dict[int, set[tuple[str, str]]] = {}
    for finding in report.findings:
        case = next((i for i, c in enumerate(every) if c.first <= finding.line <= c.last), None)
        target = re.search(r"(?:disagrees with|quotes) (\S+?)[,( ]", finding.message)
        assert case is not None, f"a finding outside every case: {finding}"
        assert target is not None
        found.setdefault(case, set()).add((finding.kind, target.group(1)))
    right = wrong = 0
    false_warnings, missed = [], []
    expected_total = 0
    for index, case in enumerate(every):
        expected = {e for e in case.expected if e[0] == kind}
        reported = {f for f in found.get(index, set()) if f[0] == kind}
        expected_total += len(expected)
        right += len(reported & expected)
        wrong += len(reported - expected)
        false_warnings += [f"line {case.first}: {f}" for f in reported - expected]
        missed += [f"line {case.first}: {e}" for e in expected - reported]
    precision = right / (right + wrong) if right + wrong else 1.0
    recall = right / expected_total if expected_total else 1.0
    return Scores(precision, recall, false_warnings, missed)


def test_no_disagreement_is_reported_that_is_not_one(scenarios_project: Project) -> None:
    result = scores(scenarios_project, DISAGREES)
    print(f"disagreements: precision {result.precision:.2f}, recall {result.recall:.2f}")
    assert result.false_warnings == []
    assert result.precision == 1.0
    assert result.recall >= RECALL_FLOOR, result.missed


def test_agreeing_quotes_are_listed_as_suggestions(scenarios_project: Project) -> None:
    result = scores(scenarios_project, AGREES)
    print(f"agreements: precision {result.precision:.2f}, recall {result.recall:.2f}")
    assert result.recall >= RECALL_FLOOR, result.missed
    assert result.precision >= 0.9, result.false_warnings

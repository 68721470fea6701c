"""Warnings: every problem reported as a Sphinx warning of type ``refgen.<kind>``,
in as few lines as a person can read.

Users silence one kind with ``suppress_warnings = ["refgen.<kind>"]``; the
location is the Python file and line at fault whenever it is known.

A library of hundreds of classes repeats the same problem hundreds of times.
:func:`report` therefore

- counts derived attributes without a docstring in one line of the build's
  output, not a warning (``missing_docstrings = "summary"``, the default); the
  setting's other values warn about each class or each attribute;
- folds more than :data:`GROUP_OVER` problems of one kind that say the same
  thing of different objects (:func:`shape`) into one warning of that kind, at
  the first one's file and line, naming how many there are and the next few
  (``group_warnings``; ``refgen check`` lists every one).

Problems are reported sorted by file and line, so a build and a rebuild that
replays them (:mod:`refgen.sphinx.records`) print the same lines.
"""

from __future__ import annotations

import logging as std_logging
import re
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager

from sphinx.util import logging

from refgen.analysis.model import Problem, SourceLocation, WarningKind
from refgen.analysis.scenarios import is_missing_docstring
from refgen.config import PREFIX, Settings
from refgen.render.markup import printable

logger = logging.getLogger("refgen")

GROUP_OVER = 5
"""More problems of one shape than this are one warning."""
NAMED = 3
"""How many problems after the first a grouped warning names."""


def warn(kind: WarningKind, message: str, location: SourceLocation | str | None) -> None:
    """Report a problem as a Sphinx warning of type ``refgen.<kind>``.

    The message is cleaned as the command line cleans its output (``printable``):
    text from the user's code (an example's output, an exception's message) may hold
    terminal escapes and bidirectional controls.
    """
    with _despite_logging_disable():
        logger.warning(
            printable(message),
            type="refgen",
            subtype=str(kind),
            location=str(location) if location else None,
        )


@contextmanager
def _despite_logging_disable() -> Iterator[None]:
    """Lift ``logging.disable`` while the block logs.

    A scenario module may call ``logging.disable(logging.WARNING)`` at import to
    silence a noisy library; refgen's warnings (and with them ``-W``) must not go
    with it. Only refgen's own warnings are let through: the user's setting is
    back in force when the block ends.
    """
    disabled = std_logging.root.manager.disable
    if not disabled:
        yield
        return
    std_logging.disable(std_logging.NOTSET)
    try:
        yield
    finally:
        std_logging.disable(disabled)


def warn_problem(problem: Problem) -> None:
    message = f"{problem.subject}: {problem.message}" if problem.subject else problem.message
    warn(problem.kind, message, problem.location)


def report(problems: Iterable[Problem], settings: Settings) -> None:
    """Report ``problems`` (each once, however often it is given) as the settings say."""
    unique = sorted(set(problems), key=order)
    missing = [p for p in unique if is_missing_docstring(p)]
    if missing and settings.missing_docstrings == "summary":
        logger.info(missing_docstrings_line(missing))
    else:
        for problem in missing:
            warn_problem(problem)
    rest = [p for p in unique if not is_missing_docstring(p)]
    for problem in grouped(rest) if settings.group_warnings else rest:
        warn_problem(problem)


def order(problem: Problem) -> tuple[bool, str, int, str, str, str]:
    """Sort key: by file and line (problems without a location last), then by what they say."""
    where = problem.location
    return (
        where is None,
        where.path if where else "",
        where.line if where else 0,
        str(problem.kind),
        problem.subject,
        problem.message,
    )


def missing_docstrings_line(missing: Sequence[Problem]) -> str:
    """The build's one line about derived attributes without a docstring (each a problem)."""
    classes = len({p.subject.rpartition(".")[0] for p in missing})
    return (
        f"[refgen] {_count(classes, 'class', 'classes')} "
        f"{'has' if classes == 1 else 'have'} "
        f"{_count(len(missing), 'derived attribute', 'derived attributes')} without a "
        f"docstring (not a warning): `refgen check --kind missing-docstring` lists them, and "
        f'{PREFIX}missing_docstrings = "warn" makes each class a warning'
    )


def _count(number: int, one: str, many: str) -> str:
    return f"{number:,} {one if number == 1 else many}"


# ---------------------------------------------------------------------- grouping

_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|`[^`]*`")
_ENTRY = re.compile(r"\b(registry entry) \w+")
_DOTTED = re.compile(r"\b[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def shape(problem: Problem) -> str:
    """What ``problem`` says with the names of what it is about taken out: its subject,
    quoted text, dotted names, a registry entry's name and numbers.

    ``pkg.A: unknown docstring section 'Caveats'`` and ``pkg.B: unknown docstring
    section 'Notez'`` have one shape; so have ``pkg.A.x cannot be computed for
    registry entry One: ZeroDivisionError: division by zero`` and the same of
    ``pkg.B.y`` for entry ``Two``.
    """
    text = problem.message.replace(problem.subject, "…") if problem.subject else problem.message
    text = _QUOTED.sub("'…'", text)
    text = _ENTRY.sub(r"\1 …", text)
    text = _DOTTED.sub("…", text)
    return _NUMBER.sub("N", text)


def grouped(problems: Sequence[Problem]) -> list[Problem]:
    """``problems``, with more than :data:`GROUP_OVER` of one kind and shape folded into
    one (:func:`folded`); sorted by file and line."""
    shapes: dict[tuple[str, str], list[Problem]] = {}
    for problem in problems:
        shapes.setdefault((str(problem.kind), shape(problem)), []).append(problem)
    found: list[Problem] = []
    for members in shapes.values():
        if len(members) > GROUP_OVER:
            found.append(folded(sorted(members, key=order)))
        else:
            found += members
    return sorted(found, key=order)


def folded(members: Sequence[Problem]) -> Problem:
    """One problem for several of one shape, sorted by :func:`order`: the first one's
    message, location and subject, with how many more there are and the next few."""
    first, others = members[0], members[1:]
    labels = list(dict.fromkeys(label(p) for p in others if label(p) != label(first)))
    named = ", ".join(labels[:NAMED]) + (", …" if len(labels) > NAMED else "")
    message = (
        f"{first.message} (and {len(others):,} more like it"
        f"{': ' + named if named else ''}; `refgen check --kind {finding_kind(first)}` "
        f"lists them all, and {PREFIX}group_warnings = False warns about each)"
    )
    return Problem(first.kind, message, first.location, first.subject)


_RULE = re.compile(r"\[([\w-]+)\]$")


def finding_kind(problem: Problem) -> str:
    """The kind ``refgen check`` gives the problem: its own, or for a ``refgen.check``
    problem the rule its message ends with."""
    rule = _RULE.search(problem.message) if problem.kind == WarningKind.CHECK else None
    return rule.group(1) if rule else str(problem.kind)


def label(problem: Problem) -> str:
    """What a problem is about, in a few words: its subject, else the dotted name its
    message opens with, else its location."""
    if problem.subject:
        return problem.subject
    opening = problem.message.split(" ", 1)[0]
    if _DOTTED.fullmatch(opening):
        return opening
    return str(problem.location) if problem.location else opening

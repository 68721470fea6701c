"""Fuzzing the parsers that read other people's text (issue 13: hostile input).

refgen reads docstrings and equation source written by authors it does not
know, so these properties feed its parsers generated input, hostile on
purpose, and check what the pipeline promises for any input:

* the docstring parser never raises, keeps every word of a known section
  (or says in a problem why not) and points its locations at the lines they
  name;
* equations read from property and helper source are the author's
  expressions, whatever the indentation, line endings or literals;
* the MathML of any expression is well-formed XML made of MathML elements
  only, carries string literals as text, holds no character XML forbids,
  and is produced quickly (no catastrophic regular expression);
* text the Sphinx layer writes without parsing (``is_verbatim``) is what
  docutils would show.

Each property runs a modest number of examples so the file stays fast;
``@example`` rows hold the inputs that failed before their fix.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import timedelta

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from refgen.analysis.docstrings import KNOWN_SECTIONS, parse_docstring
from refgen.analysis.model import Docstring, Problem, WarningKind

FAST = settings(
    max_examples=150,
    deadline=timedelta(seconds=1),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

# --- Docstrings --------------------------------------------------------------

PATH = "/src/pkg/mod.py"

# Any character a docstring literal can hold (lone surrogates cannot be in source).
ANY_CHARACTER = st.characters(blacklist_categories=["Cs"])
TEXT = st.text(ANY_CHARACTER, max_size=40)

_TITLE_LIKE = re.compile(r"[A-Z][A-Za-z ]*\s*")
_UNDERLINE_LIKE = re.compile(r"\s*-{3,}\s*")


def _free_line(line: str) -> bool:
    """A line that cannot take part in a section header (title or underline)."""
    return "\n" not in line and not any(
        pattern.fullmatch(line.expandtabs()) for pattern in (_TITLE_LIKE, _UNDERLINE_LIKE)
    )


FREE_TEXT = TEXT.filter(_free_line)
SECTION_LINES = st.one_of(
    FREE_TEXT,
    st.sampled_from(
        [
            "Equation: a = b + c",
            "Assumptions: none",
            "Excludes:",
            "Equation:x",
            "Other label: text",
            "- pkg.mod.helper",
            "* :func:`pkg.mod.other`",
            "-   a bullet\twith a tab",
            "- ",
            ":class:`~pkg.Thing`",
            "Somebody, \"A paper\", 2020,",
            "  continued on an indented line",
            "\tindented by a tab",
            "name : int",
            "a, b : float",
            "*args : tuple",
            "**kwargs",
            "not a parameter!",
            "value",
            "x :",
            ">>> 1 + 1",
            "... continued",
            "2",
            "   ",
            "",
            "\x00",
            "ünïcödé wörds",
            "x" * 3000,
            "a, " * 500 + "b : int",
        ]
    ),
)


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text)


def _lines(raw: str) -> list[str]:
    """The docstring's lines as the file has them (split at ``\\n`` only)."""
    return raw.split("\n")


@st.composite
def sectioned_docstrings(draw: st.DrawFn) -> tuple[str, list[str], dict[str, list[str]]]:
    """A docstring of a preamble and known sections (each once), with its parts.

    Returns the raw text, the preamble lines and each section's body lines.
    Body lines never look like a section header, so the parts are exactly the
    sections the parser must find.
    """
    preamble = draw(st.lists(FREE_TEXT, max_size=4))
    titles = draw(st.lists(st.sampled_from(KNOWN_SECTIONS), unique=True, max_size=5))
    sections = {title: draw(st.lists(SECTION_LINES, max_size=6)) for title in titles}
    lines = list(preamble)
    for title, body in sections.items():
        trailing = draw(st.sampled_from(["", " ", "\t"]))
        lines += ["", title + trailing, "-" * draw(st.integers(3, 12)) + trailing, *body]
    indent = draw(st.sampled_from(["", "    ", "        ", "\t", " \t"]))
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    raw = (newline + indent).join(lines) + draw(st.sampled_from(["", newline, newline + indent]))
    return raw, preamble, sections


def _section_output(doc: Docstring, title: str) -> str:
    """Every text the parser kept from section ``title``, as one string."""
    if title == "Notes":
        return "\n".join(f"{n.label}\n{n.text}" for n in doc.notes)
    if title == "References":
        return "\n".join(r.text for r in doc.references)
    if title == "Examples":
        return doc.examples.text if doc.examples else ""
    entries = doc.parameters if title == "Parameters" else doc.returns
    return "\n".join(f"{e.name}\n{e.type}\n{e.description}" for e in entries)


def _problems_text(problems: Iterable[Problem]) -> str:
    return "\n".join(problem.message for problem in problems)


@FAST
@given(sectioned_docstrings(), st.integers(1, 5000))
@example(  # the line before the first bullet was dropped
    ("References\n---\nSee:\n- pkg.mod.helper", [], {"References": ["See:", "- pkg.mod.helper"]}),
    1,
)
@example(("Parameters\n---\n  orphan", [], {"Parameters": ["  orphan"]}), 1)  # dropped
def test_no_word_of_a_docstring_is_lost(
    generated: tuple[str, list[str], dict[str, list[str]]], first_line: int
) -> None:
    """Every word of the preamble and of each known section is kept, or a problem says why."""
    raw, preamble, sections = generated
    doc = parse_docstring(raw, PATH, first_line, "pkg.mod.Thing")
    opening = f"{doc.summary}\n{doc.description}"
    for word in _words("\n".join(preamble)):
        assert word in opening
    reported = _problems_text(doc.problems)
    for title, body in sections.items():
        kept = _section_output(doc, title)
        for line in body:
            for word in _words(line):
                assert word in kept or word in reported, (title, line, word)


@FAST
@given(sectioned_docstrings(), st.integers(1, 5000))
def test_locations_point_at_the_lines_they_name(
    generated: tuple[str, list[str], dict[str, list[str]]], first_line: int
) -> None:
    """The examples' location is the line of their first line; a problem's line holds
    what it names."""
    raw, _, _ = generated
    doc = parse_docstring(raw, PATH, first_line, "pkg.mod.Thing")
    lines = _lines(raw)

    def line_at(number: int) -> str:
        assert first_line <= number < first_line + len(lines)
        return lines[number - first_line].expandtabs().strip()

    if doc.examples is not None:
        assert doc.examples.location.path == PATH
        assert line_at(doc.examples.location.line) == doc.examples.text.split("\n")[0].strip()
    for problem in doc.problems:
        assert problem.kind is WarningKind.DOCSTRING
        assert problem.subject == "pkg.mod.Thing"
        assert problem.location is not None
        assert repr(line_at(problem.location.line)) in problem.message


FRAGMENTS = st.one_of(
    TEXT,
    st.sampled_from(
        [*KNOWN_SECTIONS, "Bogus", "See Also", "---", "-----\t", "-", "", "\t", "\r", "\x00"]
    ),
    SECTION_LINES,
)


@FAST
@given(
    st.lists(FRAGMENTS, max_size=30),
    st.sampled_from(["\n", "\r\n", "\r", "\n    ", "\n\t"]),
    st.integers(1, 5000),
)
def test_section_shaped_text_never_raises(
    fragments: list[str], newline: str, first_line: int
) -> None:
    """Fragments of sections in any order: a Docstring, every problem inside the docstring."""
    raw = newline.join(fragments)
    doc = parse_docstring(raw, PATH, first_line, "pkg.mod.Thing")
    assert isinstance(doc, Docstring)
    last_line = first_line + raw.count("\n")
    for problem in doc.problems:
        assert isinstance(problem, Problem)
        assert problem.location is not None
        assert first_line <= problem.location.line <= last_line
    if doc.examples is not None:
        assert first_line <= doc.examples.location.line <= last_line

"""The docstring parser: sections, line numbers, problems, and robustness."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from refgen.analysis.docstrings import docstring_lines, parse_docstring

DOC = '''A summary line.

    A description that mentions optimizer_moments,
    over two lines.

    A second paragraph.

    Notes
    -----
    Equation: a = b + c;
        continued.
    Assumptions: None worth noting.
    Excludes: Everything else.

    References
    ----------
    - pkg.physics.helper
    - :func:`pkg.physics.other`
    - Somebody, "A paper", 2020,
      Table 3.

    Examples
    --------
    >>> 1 + 1
    2
    '''


def parse(raw: str = DOC, first_line: int = 10):
    return parse_docstring(raw, "/src/pkg/mod.py", first_line, "pkg.mod.Thing")


def test_summary_and_description() -> None:
    doc = parse()
    assert doc.summary == "A summary line."
    assert doc.description == (
        "A description that mentions optimizer_moments,\nover two lines.\n\nA second paragraph."
    )


def test_the_description_keeps_its_lines_for_lists_directives_and_literal_blocks() -> None:
    doc = parse(
        """A summary
        on two lines.

        - one item,
          continued;
        - another.

        .. note::
           :class: aside

           Indented.
        """
    )
    assert doc.summary == "A summary on two lines."
    assert doc.description == (
        "- one item,\n  continued;\n- another.\n\n.. note::\n   :class: aside\n\n   Indented."
    )


def test_notes_are_labelled_entries_with_continuations() -> None:
    doc = parse()
    assert [(n.label, n.text) for n in doc.notes] == [
        ("Equation", "a = b + c; continued."),
        ("Assumptions", "None worth noting."),
        ("Excludes", "Everything else."),
    ]
    assert doc.note("Excludes") == "Everything else."
    assert doc.note("Missing") is None


def test_references_split_implementation_from_literature() -> None:
    doc = parse()
    assert [r.target for r in doc.implementation_references] == [
        "pkg.physics.helper",
        "pkg.physics.other",
    ]
    assert [r.text for r in doc.literature_references] == ['Somebody, "A paper", 2020, Table 3.']


def test_examples_keep_their_file_line() -> None:
    doc = parse(first_line=10)
    assert doc.examples is not None
    assert doc.examples.text == ">>> 1 + 1\n2"
    offset = DOC.split("\n").index("    >>> 1 + 1")
    assert doc.examples.location.line == 10 + offset == 33
    assert doc.examples.location.path == "/src/pkg/mod.py"


def test_docstring_lines_keep_leading_blank_lines() -> None:
    assert docstring_lines("\n    Summary.\n\n    Text.\n    ") == ["", "Summary.", "", "Text.", ""]


def test_unknown_and_repeated_sections_are_problems_with_lines() -> None:
    raw = "Summary.\n\n    Notse\n    -----\n    x\n\n"
    raw += "    Notes\n    -----\n    a\n\n    Notes\n    -----\n    b\n"
    doc = parse(raw, first_line=5)
    messages = [(p.message.split(";")[0], p.location.line) for p in doc.problems]
    assert messages == [
        ("unknown docstring section 'Notse'", 7),
        ("docstring section 'Notes' appears twice", 15),
    ]
    assert all(p.subject == "pkg.mod.Thing" for p in doc.problems)


def test_parameters_and_returns() -> None:
    raw = """Helper.

    Parameters
    ----------
    weights : Quantity
        Bytes of weights.
    count
        How many.

    Returns
    -------
    total : Quantity
        The sum.
    """
    doc = parse(raw)
    assert [(p.name, p.type, p.description) for p in doc.parameters] == [
        ("weights", "Quantity", "Bytes of weights."),
        ("count", "", "How many."),
    ]
    assert [(r.name, r.type) for r in doc.returns] == [("total", "Quantity")]


def test_empty_docstring() -> None:
    assert parse("").summary == ""
    assert parse(None).examples is None  # type: ignore[arg-type]


section_titles = st.sampled_from(
    ["Notes", "References", "Examples", "Parameters", "Returns", "Bogus", "See Also"]
)
body_lines = st.lists(
    st.one_of(
        st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=40),
        st.sampled_from(["Equation: x", "- a.b.c", ">>> 1", "  indented", "name : type", "---"]),
    ),
    max_size=8,
)


@st.composite
def docstrings(draw: st.DrawFn) -> str:
    parts = [draw(st.text(max_size=30))]
    for _ in range(draw(st.integers(0, 4))):
        title = draw(section_titles)
        parts += ["", title, "-" * draw(st.integers(1, 12)), *draw(body_lines)]
    indent = " " * draw(st.integers(0, 8))
    return ("\n" + indent).join(parts)


@settings(max_examples=300, deadline=None)
@given(docstrings(), st.integers(1, 10_000))
def test_parser_never_raises_and_locations_stay_in_the_docstring(raw: str, first: int) -> None:
    doc = parse_docstring(raw, "f.py", first)
    last_line = first + raw.count("\n")
    if doc.examples is not None:
        assert first <= doc.examples.location.line <= last_line
    for problem in doc.problems:
        assert problem.location is not None
        assert first <= problem.location.line <= last_line


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_parser_never_raises_on_arbitrary_text(raw: str) -> None:
    parse_docstring(raw, "f.py", 1)

"""The docstring parser: sections, line numbers, problems, and robustness."""

from __future__ import annotations

import warnings

from hypothesis import given
from hypothesis import strategies as st

from refgen.analysis.docstrings import attribute_description, docstring_lines, parse_docstring
from refgen.analysis.model import Docstring, ParameterEntry, SourceLocation, WarningKind
from refgen.testing import analyse_source

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


PATH = "/src/pkg/mod.py"


def parse(raw: str = DOC, first_line: int = 10) -> Docstring:
    return parse_docstring(raw, PATH, first_line, "pkg.mod.Thing")


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


@given(docstrings(), st.integers(1, 10_000))
def test_parser_never_raises_and_locations_stay_in_the_docstring(raw: str, first: int) -> None:
    doc = parse_docstring(raw, "f.py", first)
    last_line = first + raw.count("\n")
    if doc.examples is not None:
        assert first <= doc.examples.location.line <= last_line
    for problem in doc.problems:
        assert problem.location is not None
        assert first <= problem.location.line <= last_line


@given(st.text())
def test_parser_never_raises_on_arbitrary_text(raw: str) -> None:
    parse_docstring(raw, "f.py", 1)


# --- Every standard numpydoc section (issue 15) --------------------------------

FULL = '''Summary.

    Parameters
    ----------
    size : float
        How big.

    Attributes
    ----------
    doubled : float
        Twice the size.

    Methods
    -------
    grow(by)
        Grow the size.

    Returns
    -------
    float
        The area.

    Yields
    ------
    step : int
        Each step.

    Receives
    --------
    command : str
        What to do next.

    Other Parameters
    ----------------
    colour : str, optional
        Rarely needed;
        not used.

    Raises
    ------
    ValueError
        If the size is negative.

    Warns
    -----
    RuntimeWarning
        When the size is huge.

    Warnings
    --------
    The area is approximate.

    See also
    --------
    doubled : The attribute.
    pkg.physics.helper, :func:`~pkg.physics.other`
    numpy.dot

    Notes
    -----
    A free paragraph before the labels,
    over two lines.

    Equation: area = size ** 2;
        continued.
    Assumptions: A square.

    - a free list
    - after the labels

    Excludes: Circles.
    '''


def full() -> Docstring:
    return parse(FULL, first_line=100)


def line(text: str, raw: str = FULL, first_line: int = 100) -> int:
    """The file line of the first line of ``raw`` that holds ``text``."""
    return first_line + next(i for i, row in enumerate(raw.split("\n")) if text in row)


def test_every_standard_section_is_read_with_the_line_of_each_entry() -> None:
    doc = full()
    assert doc.problems == ()

    def entries(found: tuple[ParameterEntry, ...]) -> list[tuple[str, str, str, int]]:
        return [(e.name, e.type, e.description, e.location.line) for e in found if e.location]

    assert entries(doc.parameters) == [("size", "float", "How big.", line("size : float"))]
    assert entries(doc.attributes) == [("doubled", "float", "Twice the size.", line("doubled :"))]
    assert entries(doc.methods) == [("grow(by)", "", "Grow the size.", line("grow(by)"))]
    assert entries(doc.returns) == [("", "float", "The area.", line("    float"))]
    assert entries(doc.yields) == [("step", "int", "Each step.", line("step : int"))]
    assert entries(doc.receives) == [("command", "str", "What to do next.", line("command :"))]
    assert entries(doc.other_parameters) == [
        ("colour", "str, optional", "Rarely needed;\nnot used.", line("colour :"))
    ]
    assert entries(doc.raises) == [("", "ValueError", "If the size is negative.", line("ValueE"))]
    assert entries(doc.warns) == [
        ("", "RuntimeWarning", "When the size is huge.", line("RuntimeW"))
    ]
    assert doc.warnings is not None
    assert doc.warnings.text == "The area is approximate."
    assert doc.warnings.location == SourceLocation(PATH, line("approximate"))
    assert [title for title, _ in doc.entry_sections] == [
        "Parameters",
        "Attributes",
        "Methods",
        "Returns",
        "Yields",
        "Receives",
        "Other Parameters",
        "Raises",
        "Warns",
    ]


def test_see_also_keeps_each_name_its_role_and_description() -> None:
    doc = full()
    found = [
        (
            [(n.name, n.role, n.label) for n in e.names],
            e.description,
            e.location and e.location.line,
        )
        for e in doc.see_also
    ]
    assert found == [
        ([("doubled", "", "doubled")], "The attribute.", line("doubled : The")),
        (
            [
                ("pkg.physics.helper", "", "pkg.physics.helper"),
                ("~pkg.physics.other", "func", "other"),
            ],
            "",
            line("pkg.physics.helper,"),
        ),
        ([("numpy.dot", "", "numpy.dot")], "", line("numpy.dot")),
    ]
    assert all(name.target is None for e in doc.see_also for name in e.names)  # analysis fills it


def test_notes_keep_free_paragraphs_beside_the_labelled_entries() -> None:
    doc = full()
    assert [(n.label, n.text, n.location and n.location.line) for n in doc.notes] == [
        ("", "A free paragraph before the labels,\nover two lines.", line("A free paragraph")),
        ("Equation", "area = size ** 2; continued.", line("Equation:")),
        ("Assumptions", "A square.", line("Assumptions:")),
        ("", "- a free list\n- after the labels", line("- a free list")),
        ("Excludes", "Circles.", line("Excludes:")),
    ]
    assert doc.note("Assumptions") == "A square."


def test_section_titles_are_read_as_numpydoc_reads_them() -> None:
    """``See also`` is See Also; ``=`` underlines too; a longer underline is fine."""
    doc = parse(
        "Summary.\n\n    SEE ALSO\n    ========\n    pkg.thing\n\n    Notes\n    ---------\n    x\n"
    )
    assert doc.problems == ()
    assert [n.name for e in doc.see_also for n in e.names] == ["pkg.thing"]
    assert [n.text for n in doc.notes] == ["x"]


def test_a_short_underline_is_a_problem_and_the_text_stays_in_the_description() -> None:
    raw = "Summary.\n\n    Parameters\n    -----\n    x : int\n"
    doc = parse(raw, first_line=7)
    assert doc.parameters == ()
    assert "x : int" in doc.description
    assert [(p.message, p.location and p.location.line) for p in doc.problems] == [
        (
            "the underline of 'Parameters' is shorter than the title, "
            "so it is not read as a section heading",
            line("Parameters", raw, 7),
        )
    ]


def test_what_numpydoc_refuses_is_a_problem_at_its_line_and_the_rest_is_kept() -> None:
    raw = '''Summary.

    See Also
    --------
    pkg.good : Fine.
    not a list of names!
    pkg.also_good

    Receives
    --------
    command : str
        Without Yields, numpydoc refuses the whole docstring.

    Examples
    --------
    >>> 1
    1
    '''
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # numpydoc's own warnings never escape
        doc = parse(raw, first_line=20)
    assert [n.name for e in doc.see_also for n in e.names] == ["pkg.good", "pkg.also_good"]
    assert [e.name for e in doc.receives] == ["command"]
    assert doc.examples is not None
    assert [(p.kind, p.location and p.location.line) for p in doc.problems] == [
        (WarningKind.DOCSTRING, line("Receives", raw, 20)),
        (WarningKind.DOCSTRING, line("not a list", raw, 20)),
    ]
    assert "needs a Yields section" in doc.problems[0].message
    assert "numpydoc cannot read the See Also entry 'not a list of names!'" in (
        doc.problems[1].message
    )


def test_numpydoc_warnings_become_problems() -> None:
    raw = "Summary.\n\n    See Also\n    --------\n    pkg.a, pkg.b, : Trailing comma.\n"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        doc = parse(raw, first_line=1)
    assert [n.name for e in doc.see_also for n in e.names] == ["pkg.a", "pkg.b"]
    assert [(p.location and p.location.line, p.message.split(":")[0]) for p in doc.problems] == [
        (5, "numpydoc, reading the See Also entry 'pkg.a, pkg.b, ")
    ]


structured = st.sampled_from(["See Also", "Parameters", "Raises", "Receives", "Attributes"])


@given(structured, st.lists(st.text(max_size=30), max_size=6), st.integers(1, 1000))
def test_numpydoc_never_raises_or_warns_through_the_parser(
    title: str, body: list[str], first: int
) -> None:
    raw = "\n".join(["Summary.", "", title, "-" * len(title), *body])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        doc = parse_docstring(raw, "f.py", first)
    for problem in doc.problems:
        assert problem.location is not None
        assert first <= problem.location.line <= first + raw.count("\n")


# --- See Also names, resolved by analysis ----------------------------------------

SEE_ALSO = '''
    """Tanks"""

    from dataclasses import dataclass

    from memo import physics
    from memo.physics import fill_time


    @dataclass(frozen=True, kw_only=True)
    class Tank:
        """A tank.

        See Also
        --------
        volume : Its own derived attribute.
        fill_time, physics.drain_time : Helpers, as the module names them.
        memo.physics.fill_time : The same helper by its re-exported path.
        Other.capacity
        memo.physics.nowhere, no_such_name
        """

        side: float
        """Side in metres."""

        @property
        def volume(self) -> float:
            """Volume in cubic metres."""
            return self.side**3


    @dataclass(frozen=True, kw_only=True)
    class Other:
        """Another tank."""

        capacity: float
        """Litres."""
'''

PHYSICS = {
    "physics/__init__": '"""Physics."""\n\nfrom memo.physics.flow import drain_time, fill_time\n',
    "physics/flow": '''
        """Flow."""


        def fill_time(volume: float) -> float:
            """Seconds to fill."""
            return volume


        def drain_time(volume: float) -> float:
            """Seconds to drain."""
            return volume
    ''',
}


def test_see_also_names_are_resolved_to_the_path_their_object_is_documented_under() -> None:
    analysed = analyse_source(SEE_ALSO, others=PHYSICS)
    tank = analysed["Tank"]
    targets = {n.name: n.target for e in tank.docstring.see_also for n in e.names}
    assert targets == {
        "volume": "memo.mod.Tank.volume",
        "fill_time": "memo.physics.flow.fill_time",
        "physics.drain_time": "memo.physics.flow.drain_time",
        "memo.physics.fill_time": "memo.physics.flow.fill_time",
        "Other.capacity": "memo.mod.Other.capacity",
        "memo.physics.nowhere": None,
        "no_such_name": None,
    }
    assert tank.problems == ()  # a name nothing answers to may be documented elsewhere


def test_an_attribute_description_stops_at_a_section_title() -> None:
    """Sections belong to no table cell: they would become the page's own sections."""
    raw = """The size.

    - in bytes
    - rounded up

    Parameters
    ----------
    x : int
        Not a description.
    """
    assert attribute_description(raw) == "The size.\n\n- in bytes\n- rounded up"

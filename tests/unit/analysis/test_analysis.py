"""What analysis reads from a scenario module, checked in memory without Sphinx.

Each test gives a module as source text to :func:`refgen.testing.analyse_source`
and reads the records it makes: milliseconds a test, so the cases can be many.
"""

from __future__ import annotations

import sys

import pytest

from refgen.analysis.model import WarningKind
from refgen.analysis.source import SourceTooDeep, parse_source
from refgen.testing import AnalysedModule, analyse_source

BOXES = '''
    """Boxes

    Boxes and what they hold.
    """

    from dataclasses import dataclass


    def volume_of(side: float) -> float:
        """A cube's volume."""
        return side**3


    @dataclass(frozen=True, kw_only=True)
    class Box:
        """A box.

        Notse
        -----
        A misspelt section.
        """

        side: float
        """Length of a side, in metres."""
        bandwidth: float = 51.2e9 / 8
        """Bytes per second, as a product sheet gives it."""
        count: int = 2
        """How many boxes."""

        @property
        def area(self) -> float:
            """Area of one face."""
            return self.side * self.side

        @property
        def total(self) -> float:
            """All the faces of all the boxes."""
            return 6 * self.area * self.count

        @property
        def volume(self) -> float:
            """Volume of one box."""
            return volume_of(self.side)

        @property
        def undocumented(self) -> float:
            return 1.0


    class Named:
        """Named boxes."""

        Small = Box(side=2 * 0.5)
        """A small box."""
'''


@pytest.fixture(scope="module")
def boxes() -> AnalysedModule:
    return analyse_source(BOXES, registry="Named")


def test_an_input_default_is_shown_as_written(boxes: AnalysedModule) -> None:
    inputs = {i.name: i for i in boxes["Box"].inputs}
    assert inputs["bandwidth"].default == "51.2e9 / 8"
    assert inputs["count"].default == "2"
    assert inputs["side"].default is None  # required
    assert inputs["side"].description == "Length of a side, in metres."
    assert inputs["side"].location.line == boxes.line_of("    side: float")


def test_a_derived_attribute_has_its_equation_and_reads(boxes: AnalysedModule) -> None:
    total = next(d for d in boxes["Box"].derived if d.name == "total")
    assert total.equation.expression == "6 * self.area * self.count"
    assert total.reads == ("area", "count")
    assert total.description == "All the faces of all the boxes."
    area = next(d for d in boxes["Box"].derived if d.name == "area")
    assert area.feeds == ("total",)


def test_a_helper_call_names_the_helper(boxes: AnalysedModule) -> None:
    volume = next(d for d in boxes["Box"].derived if d.name == "volume")
    assert volume.equation.expression == "volume_of(self.side)"
    assert volume.equation.helpers == ("memo.mod.volume_of",)
    assert volume.reads == ("side",)


def test_docstring_problems_give_file_and_line(boxes: AnalysedModule) -> None:
    problems = {p.subject: p for p in boxes.problems}
    section = problems["memo.mod.Box"]
    assert section.kind is WarningKind.DOCSTRING
    assert section.message.startswith("unknown docstring section 'Notse'")
    assert (section.location.path, section.location.line) == (boxes.path, boxes.line_of("Notse"))
    missing = problems["memo.mod.Box.undocumented"]
    assert missing.message == "derived attribute 'undocumented' has no docstring"
    assert missing.location.line == boxes.line_of("def undocumented")


def test_registry_entries_keep_their_inputs_as_written(boxes: AnalysedModule) -> None:
    assert boxes.registry is not None
    (small,) = boxes.registry.entries
    assert (small.name, small.scenario, small.description) == (
        "Small",
        "memo.mod.Box",
        "A small box.",
    )
    assert small.inputs == (("side", "2 * 0.5"),)
    assert small.location.line == boxes.line_of("Small = Box")
    assert boxes["Box"].registry_entries == (small,)


def test_a_module_that_raises_on_import_is_a_problem_at_the_raising_line() -> None:
    analysed = analyse_source(
        '''
        """Needs configuration"""

        SETTING = 1
        raise RuntimeError("no configuration found")
        '''
    )
    assert analysed.scenarios == {}
    (problem,) = analysed.problems
    assert problem.kind is WarningKind.IMPORT
    assert "RuntimeError: no configuration found" in problem.message
    assert problem.location.line == analysed.line_of("raise RuntimeError")


def test_a_syntax_error_is_a_problem_at_its_line() -> None:
    analysed = analyse_source('"""Broken"""\n\ndef oops(:\n    pass\n')
    (problem,) = analysed.problems
    assert problem.kind is WarningKind.IMPORT
    assert (problem.location.path, problem.location.line) == (analysed.path, 3)


@pytest.mark.parametrize(
    ("written", "line", "why"),
    [
        ("x = 1\n\ny = " + "(" * 1_000 + "1" + ")" * 1_000 + "\n", 3, "too many nested"),
        ("x = " + " + ".join(["1"] * 4_000) + "\n", 1, "RecursionError"),
        ("x = " + "-" * 7_000 + "1\n", 1, "MemoryError"),
    ],
    ids=["parentheses", "sum", "unary"],
)
def test_source_too_deep_for_pythons_parser_is_a_syntax_error_at_its_file(
    written: str, line: int, why: str
) -> None:
    """Every parse of a user's file goes through parse_source: what Python's parser gives
    up on is a SyntaxError at the file (the line Python names, else 1), never a
    RecursionError or MemoryError raised inside refgen. At Python's default recursion
    limit: importing jedi (IPython's, for the notebook tests) raises it for the process."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(1_000)
    try:
        with pytest.raises(SourceTooDeep) as raised:
            parse_source(written, "/project/deep.py")
    finally:
        sys.setrecursionlimit(limit)
    assert isinstance(raised.value, SyntaxError)
    assert (raised.value.filename, raised.value.lineno) == ("/project/deep.py", line)
    assert raised.value.msg.startswith("nested too deeply for Python to parse (")
    assert why in raised.value.msg


def test_each_description_is_located_at_its_first_line() -> None:
    """Not at the attribute's line: its docstring (after an empty first line, too), a
    property's and a lambda property's docstring, a pydantic ``Field(description=...)``
    and a registry entry's docstring."""
    analysed = analyse_source(
        '''
        """Gauges"""

        from dataclasses import dataclass

        from pydantic import BaseModel, Field


        @dataclass(frozen=True)
        class Gauge:
            """A gauge."""

            size: float = 2.0
            """
            The size, after an empty line.
            """

            @property
            def doubled(self) -> float:
                """Twice the size."""
                return self.size * 2

            halved = property(
                lambda self: self.size / 2,
                doc="Half the size.",
            )


        class Meter(BaseModel):
            """A meter."""

            reading: float = Field(
                default=1.0,
                description="The reading.",
            )


        class Registry:
            """Named gauges."""

            Small = Gauge()
            """The small gauge."""
        ''',
        registry="Registry",
    )
    gauge, meter = analysed["Gauge"], analysed["Meter"]
    [size], [reading] = gauge.inputs, meter.inputs
    doubled, halved = gauge.derived
    [small] = analysed.registry.entries if analysed.registry else []
    for record, text in [
        (size, "The size, after"),
        (doubled, "Twice the size."),
        (halved, "Half the size."),
        (reading, "The reading."),
        (small, "The small gauge."),
    ]:
        assert record.description_location is not None, record
        assert record.description_location.path == analysed.path
        assert record.description_location.line == analysed.line_of(text), record

"""Equations read from property bodies by static analysis."""

from __future__ import annotations

import ast
import textwrap

import pytest
from hypothesis import given
from hypothesis import strategies as st

from refgen.analysis.equations import extract_equation
from refgen.analysis.source import ModuleSource, class_properties


def properties_of(body: str) -> dict[str, object]:
    source = "class Thing:\n" + textwrap.indent(textwrap.dedent(body), "    ")
    module = ModuleSource("thing.py", source, ast.parse(source))
    classdef = module.find_class("Thing")
    assert classdef is not None
    return {p.name: extract_equation(module, p.node) for p in class_properties(classdef)}


def test_single_return_is_shown_exactly_as_written() -> None:
    found = properties_of(
        '''
        @property
        def weights(self):
            """Docstring is skipped."""
            return (self.parameters  *  self.bytes_per_param).to('MB')
        '''
    )
    assert found["weights"].expression == "(self.parameters  *  self.bytes_per_param).to('MB')"


def test_multi_line_expression_keeps_its_lines() -> None:
    found = properties_of(
        """
        @property
        def total(self):
            return (
                self.a
                + self.b
            )
        """
    )
    assert found["total"].expression == "(\n    self.a\n    + self.b\n)"


def test_longer_body_names_the_helpers_it_calls() -> None:
    found = properties_of(
        """
        @property
        def traffic(self):
            total, _ = calc_traffic(self.w, self.g)
            return physics.scale(total).to('MB')
        """
    )
    equation = found["traffic"]
    assert equation.expression is None
    assert equation.calls == ("calc_traffic", "physics.scale")
    assert "2 statements" in equation.reason


def test_cached_property_and_qualified_decorators_count() -> None:
    found = properties_of(
        """
        @functools.cached_property
        def a(self):
            return self.x

        @cached_property
        def b(self):
            return self.y

        def not_a_property(self):
            return 1
        """
    )
    assert set(found) == {"a", "b"}


def test_empty_body_after_docstring() -> None:
    found = properties_of(
        '''
        @property
        def nothing(self):
            """Only a docstring."""
        '''
    )
    assert found["nothing"].expression is None
    assert found["nothing"].reason == "the body is empty"


statements = st.sampled_from(
    [
        "return self.a",
        "return (self.a + self.b).to('MB')",
        "x, y = helper(self.a)",
        "from math import sqrt",
        "if self.a:\n    return 1",
        "return [i for i in range(3)]",
        "pass",
        "raise ValueError('no')",
        "return lambda: 1",
        "return f'{self.a}'",
        "import os",
        "return (\n    self.a\n    * self.b\n)",
        '"""doc"""',
    ]
)


@given(st.lists(statements, min_size=1, max_size=5))
def test_extractor_never_raises(body: list[str]) -> None:
    code = "\n".join(body)
    source = "@property\ndef f(self):\n" + textwrap.indent(code, "    ") + "\n"
    found = properties_of(source)
    equation = found["f"]
    if equation.expression is not None:
        ast.parse(equation.expression, mode="eval")
    else:
        assert equation.reason


@pytest.mark.parametrize("expression", ["self.a", "-self.a ** 2", "max(self.a, self.b) / 2"])
def test_expression_round_trips_through_the_parser(expression: str) -> None:
    found = properties_of(f"@property\ndef f(self):\n    return {expression}\n")
    assert found["f"].expression == expression


@pytest.mark.parametrize("separator", ["\f", "\u2028", "\x85"])
def test_line_separators_other_than_newline_do_not_shift_segments(separator: str) -> None:
    found = properties_of(
        f'''
        @property
        def note(self):
            """A docstring with an odd separator:{separator} here."""
            return self.a * self.b
        '''
    )
    assert found["note"].expression == "self.a * self.b"

"""Tests for refgen.mathml: Python expressions laid out as presentation MathML.

Every assertion reads the output as XML and checks its structure; nothing
searches the serialized string.
"""

from __future__ import annotations

import ast
import cmath
import dataclasses
import math
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from refgen.evaluate.units import UnitSymbols
from refgen.render.math_elements import MATHML_NAMESPACE
from refgen.render.mathml import MathResult, assignment, expression_to_mathml, typeset

APPLY = "\u2061"


# --- Reading the output ----------------------------------------------------


def local(element: ET.Element) -> str:
    """The tag without its namespace."""
    return element.tag.removeprefix(f"{{{MATHML_NAMESPACE}}}")


def math_of(source: str) -> ET.Element:
    """The parsed <math> element of ``source``, which must be supported."""
    result = expression_to_mathml(source)
    assert result.mathml is not None, result.reason
    assert result.reason == ""
    root = ET.fromstring(result.mathml)
    assert root.tag == f"{{{MATHML_NAMESPACE}}}math"
    assert root.get("display") == "inline"
    assert len(root) == 1
    return root


def leaf_texts(element: ET.Element) -> list[str]:
    """Visible texts of the leaves, in reading order."""
    return [
        node.text
        for node in element.iter()
        if len(node) == 0 and node.text and node.text.strip() and node.text != APPLY
    ]


def body(source: str) -> ET.Element:
    return math_of(source)[0]


def elements(root: ET.Element, tag: str) -> list[ET.Element]:
    return [node for node in root.iter() if local(node) == tag]


def grouping_opening_brackets(root: ET.Element) -> int:
    """``(`` operators that are not the bracket of a function application.

    A function application is laid out as name, U+2061, then an mrow that
    starts with ``(``; every other ``(`` is a grouping bracket.
    """
    count = 0
    for parent in root.iter():
        children = list(parent)
        for position, child in enumerate(children):
            if local(child) != "mrow" or len(child) == 0:
                continue
            first = child[0]
            if local(first) != "mo" or first.text != "(":
                continue
            previous = children[position - 1] if position else None
            applied = previous is not None and local(previous) == "mo" and previous.text == APPLY
            count += not applied
    return count


# --- The result type ---------------------------------------------------------


def test_result_is_frozen() -> None:
    result = expression_to_mathml("self.a")
    assert isinstance(result, MathResult)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.mathml = None  # type: ignore[misc]


# --- Layout, case by case ---------------------------------------------------

LEAF_CASES = [
    (
        "(self.parameters * self.bytes_per_param).to('MB')",
        ["parameters", "×", "bytes_per_param", "in MB"],
    ),
    ("self.floor + self.activation_factor_high", ["floor", "+", "activation_factor_high"]),
    ("(self.weights + self.gradients).to('MB')", ["(", "weights", "+", "gradients", ")", "in MB"]),
    (
        "(self.step_traffic / self.bandwidth).to('millisecond')",
        ["step_traffic", "bandwidth", "in ms"],
    ),
    ("traffic.to(ureg.ms)", ["traffic", "in ms"]),
    ("traffic.to('megabyte')", ["traffic", "in MB"]),
    ("traffic.to('MB/s')", ["traffic", "in MB/s"]),
    ("traffic.to('furlong_per_jiffy_xyz')", ["traffic", "in furlong_per_jiffy_xyz"]),
    ("traffic.m_as('MB')", ["traffic", "in MB"]),
    ("self.x.to_base_units().magnitude", ["x"]),
    ("self.x.to_reduced_units().m", ["x"]),
    ("self.x.to('dimensionless')", ["x"]),
    ("self.m + self.magnitude", ["m", "+", "magnitude"]),
    ("a + b * c", ["a", "+", "b", "×", "c"]),
    ("a - b", ["a", "−", "b"]),
    ("a // b % c", ["a", "//", "b", "mod", "c"]),
    ("-self.x", ["−", "x"]),
    ("+self.x", ["+", "x"]),
    ("- -x", ["−", "(", "−", "x", ")"]),
    ("min(self.a, self.b)", ["min", "(", "a", ",", "b", ")"]),
    ("max(a, b, c)", ["max", "(", "a", ",", "b", ",", "c", ")"]),
    ("calc_x(self.a, self.b)", ["calc_x", "(", "a", ",", "b", ")"]),
    ("physics.calc_x(self.a)", ["physics.calc_x", "(", "a", ")"]),
    ("self.helper(n)", ["helper", "(", "n", ")"]),
    ("now()", ["now", "(", ")"]),
    ("math.log(x)", ["ln", "(", "x", ")"]),
    ("abs(self.a - self.b)", ["|", "a", "−", "b", "|"]),
    ("math.ceil(x)", ["⌈", "x", "⌉"]),
    ("np.floor(x)", ["⌊", "x", "⌋"]),
    ("a <= b < c", ["a", "≤", "b", "<", "c"]),
    ("a >= b > c", ["a", "≥", "b", ">", "c"]),
    ("a == b != c", ["a", "=", "b", "≠", "c"]),
    ("a and not b or c", ["a", "∧", "¬", "b", "∨", "c"]),
    ("math.pi * r ** 2", ["π", "×", "r", "2"]),
    ("None", ["None"]),
    ("True", ["True"]),
    ("'fp16'", ["'fp16'"]),
    ("'<a & \"b\">'", ["'<a & \"b\">'"]),
    ("0.5 + 1_000_000 + 0x1F", ["0.5", "+", "1000000", "+", "0x1F"]),
    ("  self.a\n", ["a"]),
    ("(self.a # the a\n + self.b)", ["a", "+", "b"]),
    ("self.t_1 + t_12 - self.n_layers", ["t", "1", "+", "t", "12", "−", "n_layers"]),
    ("self.x ** 0.5 + y ** (1 / 2)", ["x", "+", "y"]),
    ("self.dérivé", ["dérivé"]),
]


@pytest.mark.parametrize(("source", "expected"), LEAF_CASES)
def test_leaf_texts(source: str, expected: list[str]) -> None:
    assert leaf_texts(math_of(source)) == expected


def test_self_is_dropped_and_every_name_is_upright() -> None:
    root = math_of("(self.parameters * x).to('MB') + self.bytes_per_param")
    names = elements(root, "mi")
    assert [name.text for name in names] == ["parameters", "x", "bytes_per_param"]
    assert all(name.get("mathvariant") == "normal" for name in names)


def test_dimensionless_ratio_is_a_fraction_without_unit() -> None:
    fraction = body("(self.total / self.weights).to('').magnitude")
    # The source's brackets are not needed around a fraction; no unit follows it.
    assert local(fraction) == "mfrac"
    numerator, denominator = fraction
    assert (local(numerator), numerator.text) == ("mi", "total")
    assert (local(denominator), denominator.text) == ("mi", "weights")
    assert elements(fraction, "mtext") == []


def test_unit_follows_the_quantity_after_a_space() -> None:
    row = body("(self.step_traffic / self.bandwidth).to('millisecond')")
    assert [local(child) for child in row] == ["mfrac", "mspace", "mtext"]
    assert row[2].text == "in ms"


@pytest.mark.parametrize(
    ("source", "grouping"),
    [
        ("(a + b) * c", 1),
        ("a + b * c", 0),
        ("((a))", 0),
        ("(a)", 0),
        ("f(a)", 0),
        ("f((a))", 0),
        ("min((a), b)", 0),
        ("max(a, (b + c))", 0),
        ("(f(a))", 0),
        ("sqrt(x)", 0),
        ("self.x.to('MB')", 0),
        ("(self.x).to('MB')", 0),
        ("(a) + (b)", 0),
        ("-(a)", 0),
        ("(a if b else c)", 0),
        ("(\n  a\n  + b\n)", 0),
        ("a - (b + c)", 1),
        ("a - (b - c)", 1),
        ("a + (b - c)", 0),
        ("a * (b * c)", 0),
        ("a * (b // c)", 1),
        ("a * -b", 1),
        ("-(a + b)", 1),
        ("-(-a)", 1),
        ("-a ** 2", 0),
        ("(-a) ** 2", 1),
        ("(a / b) ** 2", 1),
        ("(a + b) ** 2", 1),
        ("2 ** (a + b)", 0),
        ("(a + b) / (c - d)", 0),
        ("(self.a * self.b).to('MB')", 0),
        ("(self.a + self.b).to('MB')", 1),
        ("self.a.to('MB') + b", 1),
        ("(a < b) == c", 1),
        ("a and (b or c)", 1),
        ("(a and b) or c", 0),
        ("not (a and b)", 1),
        ("(x if c else y) * 2", 1),
    ],
)
def test_brackets_are_where_precedence_needs_them(source: str, grouping: int) -> None:
    assert grouping_opening_brackets(math_of(source)) == grouping


def test_a_fraction_groups_its_parts_without_brackets() -> None:
    fraction = body("(a + b) / c")
    assert local(fraction) == "mfrac"
    assert leaf_texts(fraction[0]) == ["a", "+", "b"]
    assert leaf_texts(fraction[1]) == ["c"]


def test_a_square_root_is_a_radical_however_it_is_written() -> None:
    for source in ("self.x ** 0.5", "self.x ** (1 / 2)", "math.sqrt(self.x)"):
        root = body(source)
        assert local(root) == "msqrt", source
        assert leaf_texts(root) == ["x"]


def test_an_indexed_name_is_subscripted_and_other_names_stay_whole() -> None:
    indexed = body("self.t_1")
    assert local(indexed) == "msub"
    assert [indexed[0].text, indexed[1].text] == ["t", "1"]
    assert elements(math_of("self.n_layers + bytes_per_param_2"), "msub") == []


def test_power_is_a_superscript() -> None:
    power = body("(self.a + 1) ** -2")
    assert local(power) == "msup"
    assert leaf_texts(power[0]) == ["(", "a", "+", "1", ")"]
    assert leaf_texts(power[1]) == ["−", "2"]


@pytest.mark.parametrize(
    ("source", "mantissa", "exponent"),
    [("10e6", "10", ["6"]), ("2.5e-3", "2.5", ["−", "3"]), ("1E+09", None, ["9"])],
)
def test_exponent_notation_is_a_power_of_ten(
    source: str, mantissa: str | None, exponent: list[str]
) -> None:
    number = body(source)
    if mantissa is None:
        power = number
    else:
        assert [(local(child), child.text) for child in number[:2]] == [
            ("mn", mantissa),
            ("mo", "×"),
        ]
        power = number[2]
    assert local(power) == "msup"
    assert (local(power[0]), power[0].text) == ("mn", "10")
    assert leaf_texts(power[1]) == exponent


@pytest.mark.parametrize("source", ["sqrt(x)", "math.sqrt(x)", "np.sqrt(x)", "numpy.sqrt(x)"])
def test_square_root(source: str) -> None:
    root = body(source)
    assert local(root) == "msqrt"
    assert leaf_texts(root) == ["x"]


@pytest.mark.parametrize(
    ("source", "base"),
    [("math.log(x, b)", "b"), ("math.log2(x)", "2"), ("log10(x)", "10"), ("np.log10(x)", "10")],
)
def test_logarithm_with_base_is_subscripted(source: str, base: str) -> None:
    application = body(source)
    function, apply, arguments = application
    assert local(function) == "msub"
    assert [child.text for child in function] == ["log", base]
    assert apply.text == APPLY
    assert leaf_texts(arguments) == ["(", "x", ")"]


@pytest.mark.parametrize("source", ["exp(self.rate * t)", "math.exp(self.rate * t)"])
def test_exponential_is_a_power_of_e(source: str) -> None:
    power = body(source)
    assert local(power) == "msup"
    assert (local(power[0]), power[0].text) == ("mi", "e")
    assert leaf_texts(power[1]) == ["rate", "×", "t"]


def test_function_application_is_marked() -> None:
    application = body("calc_x(self.a, self.b)")
    assert [local(child) for child in application] == ["mi", "mo", "mrow"]
    assert application[1].text == APPLY


def test_conditional_is_piecewise() -> None:
    brace, table = body("self.a if self.flag else self.b")
    assert (local(brace), brace.text) == ("mo", "{")
    assert local(table) == "mtable"
    rows = [[leaf_texts(cell) for cell in row] for row in table]
    assert rows == [[["a"], ["if", "flag"]], [["b"], ["otherwise"]]]


def test_chained_conditional_is_one_table() -> None:
    _, table = body("a if x < 0 else b if x < 1 else c")
    rows = [[leaf_texts(cell) for cell in row] for row in table]
    assert rows == [
        [["a"], ["if", "x", "<", "0"]],
        [["b"], ["if", "x", "<", "1"]],
        [["c"], ["otherwise"]],
    ]


def test_bracketed_inner_conditional_stays_a_table_of_its_own() -> None:
    root = math_of("a if x else (b if y else c)")
    assert len(elements(root, "mtable")) == 2
    assert grouping_opening_brackets(root) == 0  # a table needs no brackets in a cell


# --- Refusals ----------------------------------------------------------------

REFUSALS = [
    ("self.a[0]", "subscript"),
    ("self.a[1:2]", "subscript"),
    ("lambda x: x", "lambda"),
    ("[x for x in self.xs]", "list comprehension"),
    ("{x for x in self.xs}", "set comprehension"),
    ("{x: 1 for x in self.xs}", "dict comprehension"),
    ("sum(x for x in self.xs)", "generator expression"),
    ("f'{self.a} MB'", "f-string"),
    ("config.threshold", "attribute '.threshold' of a non-self object"),
    ("self.a.b", "attribute '.b' of a non-self object"),
    ("f(*args)", "starred argument"),
    ("f(a, key=1)", "keyword argument"),
    ("f(**options)", "keyword argument"),
    ("(a, b)", "tuple"),
    ("[a, b]", "list"),
    ("{1: 2}", "dict"),
    ("(n := 3)", "assignment expression"),
    ("a @ b", "matrix multiplication"),
    ("a | b", "bitwise operator"),
    ("~a", "bitwise inversion"),
    ("a is None", "identity comparison"),
    ("a in b", "membership test"),
    ("b'raw'", "bytes literal"),
    ("...", "ellipsis"),
    ("(a + b).sum()", "method call '.sum()'"),
    ("self.xs.sum()", "method call"),
    ("f(a)(b)", "call of a computed function"),
    ("(f)(a)", "parenthesised function"),
    ("x.to()", ".to() with 0 arguments"),
    ("x.to(self.unit)", "unit that is neither"),
    ("x.to(unit='MB')", "keyword argument"),
]


@pytest.mark.parametrize(("source", "construct"), REFUSALS)
def test_unsupported_syntax_is_refused_with_its_name(source: str, construct: str) -> None:
    result = expression_to_mathml(source)
    assert result.mathml is None
    assert result.reason.startswith("unsupported syntax: ")
    assert construct in result.reason


@pytest.mark.parametrize(
    ("source", "reason"),
    [
        ("", "empty expression"),
        ("   \n ", "empty expression"),
        ("a +", "syntax error"),
        ("x = 1", "not a single expression"),
        ("a\nb", "not a single expression"),
        ("import os", "not a single expression"),
        ("self.a;", "not a single expression"),
        ("a\x00b", "syntax error"),
        ("1" * 20_000, "too long"),
        ("-" * 200 + "a", "nested too deeply"),
        ("+".join(["a"] * 2_000), "nested too deeply"),
    ],
)
def test_text_that_is_no_expression_is_refused(source: str, reason: str) -> None:
    result = expression_to_mathml(source)
    assert result.mathml is None
    assert reason in result.reason


def test_control_characters_never_reach_the_xml() -> None:
    root = math_of("'a\x01b'")
    assert leaf_texts(root) == ["'a\ufffdb'"]


# --- Properties --------------------------------------------------------------

# Precedence levels of the generated expressions, loosest first.
CONDITIONAL, OR, AND, NOT, COMPARISON, SUM, PRODUCT, UNARY, POWER, ATOM = range(10)


@dataclass(frozen=True)
class Generated:
    text: str
    level: int


def at_least(child: Generated, level: int) -> str:
    """The child's text, bracketed if Python would otherwise parse it differently."""
    return child.text if child.level >= level else f"({child.text})"


NAMES = st.sampled_from(["a", "b", "x", "rate", "n_layers", "self.parameters", "self.b"])
NUMBERS = st.sampled_from(["0", "2", "0.5", "1_000", "1e9", "2.5e-3", "10E6"])
LEAVES = st.one_of(
    NAMES.map(lambda text: Generated(text, ATOM)),
    NUMBERS.map(lambda text: Generated(text, POWER)),
)
BINARY = {"+": SUM, "-": SUM, "*": PRODUCT, "/": PRODUCT, "//": PRODUCT, "%": PRODUCT}


def binary(left: Generated, operator: str, right: Generated) -> Generated:
    if operator == "**":
        return Generated(f"{at_least(left, ATOM)} ** {at_least(right, UNARY)}", POWER)
    level = BINARY[operator]
    return Generated(f"{at_least(left, level)} {operator} {at_least(right, level + 1)}", level)


def comparison(operands: list[Generated], operators: list[str]) -> Generated:
    text = at_least(operands[0], SUM)
    for operator, operand in zip(operators, operands[1:], strict=False):
        text += f" {operator} {at_least(operand, SUM)}"
    return Generated(text, COMPARISON)


def boolean(operator: str, left: Generated, right: Generated) -> Generated:
    level = AND if operator == "and" else OR
    return Generated(f"{at_least(left, level + 1)} {operator} {at_least(right, level + 1)}", level)


def conditional(value: Generated, condition: Generated, otherwise: Generated) -> Generated:
    text = f"{at_least(value, OR)} if {at_least(condition, OR)} else {otherwise.text}"
    return Generated(text, CONDITIONAL)


def call(function: str, arguments: list[Generated]) -> Generated:
    return Generated(f"{function}({', '.join(argument.text for argument in arguments)})", ATOM)


def extend(children: st.SearchStrategy[Generated]) -> st.SearchStrategy[Generated]:
    return st.one_of(
        st.builds(binary, children, st.sampled_from([*BINARY, "**"]), children),
        st.builds(
            lambda sign, operand: Generated(f"{sign}{at_least(operand, UNARY)}", UNARY),
            st.sampled_from(["-", "+", "- "]),
            children,
        ),
        st.builds(
            comparison,
            st.lists(children, min_size=2, max_size=3),
            st.lists(st.sampled_from(["<", "<=", "==", "!=", ">", ">="]), min_size=2, max_size=2),
        ),
        st.builds(lambda operand: Generated(f"not {at_least(operand, NOT)}", NOT), children),
        st.builds(boolean, st.sampled_from(["and", "or"]), children, children),
        st.builds(conditional, children, children, children),
        st.builds(
            call, st.sampled_from(["min", "max"]), st.lists(children, min_size=1, max_size=3)
        ),
        st.builds(lambda radicand: call("sqrt", [radicand]), children),
        st.builds(
            lambda quantity: Generated(f"{at_least(quantity, ATOM)}.to('MB')", ATOM), children
        ),
        children.map(lambda inner: Generated(f"({inner.text})", ATOM)),
    )


EXPRESSIONS = st.recursive(LEAVES, extend, max_leaves=12).map(lambda generated: generated.text)


# --- Reading the layout back --------------------------------------------------

READ_OPERATORS = {
    "×": "*",
    "−": "-",
    "mod": "%",
    "≤": "<=",
    "≥": ">=",
    "≠": "!=",
    "=": "==",
    "∧": "and",
    "∨": "or",
    "¬": "not",
    APPLY: "",
}


def read_as_written(node: ET.Element) -> str:
    """The layout read as a reader reads it, as one line of Python: brackets where it
    shows them, fractions, powers, roots, tables and "in MB" grouped as drawn, and
    everything else in reading order, left to Python's precedence."""
    tag, children = local(node), list(node)
    parts = [read_as_written(child) for child in children]
    match tag:
        case "mi" | "mn":
            return node.text or ""
        case "mo":
            return READ_OPERATORS.get(node.text or "", node.text or "")
        case "mfrac":
            return f"({parts[0]}) / ({parts[1]})"
        case "msup":
            return f"({parts[0]}) ** ({parts[1]})"
        case "msqrt":
            return f"sqrt({' '.join(parts)})"
        case "msub":
            return f"{parts[0]}_{parts[1]}"
        case "mspace" | "mtext":
            return ""
        case "mtable":
            return read_table(children)
    if children and local(children[-1]) == "mtext" and (children[-1].text or "").startswith("in "):
        unit = (children[-1].text or "").removeprefix("in ")
        return f"to_unit({' '.join(parts[:-1])}, {unit!r})"
    return " ".join(part for part in parts if part and part != "{")


def read_table(rows: list[ET.Element]) -> str:
    """A piecewise table as nested conditional expressions."""
    value, condition = (cell[0] for cell in rows[0])
    if len(rows) == 1:
        return f"({read_as_written(value)})"
    test = " ".join(read_as_written(part) for part in list(condition))
    return f"(({read_as_written(value)}) if ({test}) else {read_table(rows[1:])})"


class Conversions(ast.NodeTransformer):
    """``x.to('MB')`` as ``to_unit(x, 'MB')``, ``self.x`` as ``x``, ``x ** 0.5`` as
    ``sqrt(x)``, and whole numbers as floats (an integer tower would not end)."""

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        method = node.func
        if isinstance(method, ast.Attribute) and method.attr == "to":
            return ast.Call(ast.Name("to_unit", ast.Load()), [method.value, *node.args], [])
        return node

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.value, ast.Name) and node.value.id == "self":
            return ast.Name(node.attr, ast.Load())
        return node

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        square_root = isinstance(node.right, ast.Constant) and node.right.value == 0.5
        if isinstance(node.op, ast.Pow) and square_root:
            return ast.Call(ast.Name("sqrt", ast.Load()), [node.left], [])
        return node

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        if isinstance(node.value, int) and not isinstance(node.value, bool):
            return ast.Constant(float(node.value))
        return node


def evaluated(text: str, names: dict[str, float]) -> object:
    """What ``text`` computes for ``names``, or the type of the error it raises."""
    tree = ast.fix_missing_locations(Conversions().visit(ast.parse(text, mode="eval")))
    scope = {
        **names,
        "min": min,
        "max": max,
        "sqrt": lambda value: abs(value) ** 0.5,
        "to_unit": lambda value, unit: value,
    }
    try:
        return eval(compile(tree, "<layout>", "eval"), {"__builtins__": {}}, scope)
    except Exception as error:
        return type(error)


def same_value(left: object, right: object) -> bool:
    if isinstance(left, type) or isinstance(right, type):
        return left == right
    if isinstance(left, complex) or isinstance(right, complex):
        return cmath.isclose(complex(left), complex(right), rel_tol=1e-9, abs_tol=1e-12)
    if isinstance(left, float) and isinstance(right, float):
        both_nan = math.isnan(left) and math.isnan(right)
        return both_nan or math.isclose(left, right, rel_tol=1e-9, abs_tol=1e-12)
    return left == right


VALUES = st.fixed_dictionaries(
    {
        name: st.floats(min_value=0.25, max_value=4.0)
        for name in ["a", "b", "x", "rate", "n_layers", "parameters"]
    }
)


@given(EXPRESSIONS, VALUES)
def test_the_layout_read_as_written_computes_what_the_source_computes(
    source: str, names: dict[str, float]
) -> None:
    """Brackets are where the meaning needs them: read as drawn, left to right with the
    usual precedence, the equation computes what the code computes."""
    ast.parse(source, mode="eval")  # the generator writes valid Python
    read = read_as_written(math_of(source))
    expected, shown = evaluated(source, names), evaluated(read, names)
    assert same_value(expected, shown), (source, read, expected, shown)
    assert not any("self" in text for text in leaf_texts(math_of(source)))


PYTHONISH = st.lists(
    st.sampled_from(
        [
            "self.", "a", "x", "1", "2.5e3", "'MB'", "(", ")", "[", "]", "{", "}", ",", ":",
            " + ", " - ", " * ", " / ", " ** ", " // ", " % ", " < ", " == ", " and ", " not ",
            " if ", " else ", " lambda ", " for ", " in ", ".to(", ".magnitude", "min(", "sqrt(",
            "f'", "*", "=", "\n", " ", "\\", "#", "\x00", "é",
        ]
    ),
    max_size=20,
).map("".join)  # fmt: skip


@given(st.one_of(st.text(), PYTHONISH, EXPRESSIONS.map(lambda text: text[:-1])))
def test_any_text_gives_a_result_and_never_raises(source: str) -> None:
    result = expression_to_mathml(source)
    assert isinstance(result, MathResult)
    if result.mathml is None:
        assert result.reason
    else:
        assert local(ET.fromstring(result.mathml)) == "math"


# --- Units of the project's own registry --------------------------------------


def project_units() -> UnitSymbols:
    """Two registries of a project, bound to ``ureg`` and ``text_units``."""
    import pint

    compute, text = pint.UnitRegistry(), pint.UnitRegistry()
    compute.define("FLOP = [computation]")
    text.define("token = [text]")
    return UnitSymbols(find_registries=lambda: {"ureg": compute, "text_units": text})


def test_a_unit_of_the_projects_registry_is_shown_as_a_unit() -> None:
    result = expression_to_mathml("(2 * ureg.FLOP * self.parameters).to('TFLOP')", project_units())
    assert result.element is not None, result.reason
    assert [node.text for node in elements(result.element, "mtext")] == ["FLOP", "in TFLOP"]
    ratio = expression_to_mathml("(text_units.token / self.step).to('token/s')", project_units())
    assert ratio.element is not None, ratio.reason


def test_pints_own_definitions_are_loaded_only_for_a_unit_no_project_registry_knows() -> None:
    import pint

    bare = pint.UnitRegistry(None)  # none of pint's definitions
    bare.define("FLOP = [computation]")
    bare.define("token = [text]")
    units = UnitSymbols(find_registries=lambda: {"ureg": bare})
    assert units.symbol("FLOP") == "FLOP"
    assert units.symbol("token/FLOP") == "token/FLOP"
    assert units._registry is None  # loading pint's definitions takes a third of a second
    assert units.symbol("millisecond") == "ms"
    assert units._registry is not None


@pytest.mark.parametrize(
    "source",
    [
        "2 * ureg.not_a_unit * self.n",
        "self.n * calendar.year",  # pint knows "year", but calendar is no registry
        "self.n + calendar.hour",
        "2 * ureg.token * self.n",  # a unit of the other registry
    ],
)
def test_an_attribute_that_is_no_unit_of_its_registry_is_refused(source: str) -> None:
    result = expression_to_mathml(source, project_units())
    assert result.element is None
    assert "of a non-self object" in result.reason


# --- Line breaks --------------------------------------------------------------


def pieces_of(source: str, name: str = "") -> list[ET.Element]:
    """The ``<math>`` pieces a long equation is set in (one when it has no break)."""
    shown = typeset(source, UnitSymbols(), name)
    assert shown is not None
    broken = shown.element
    return [broken] if broken.tag == "math" else [c for c in broken if c.tag == "math"]


def test_an_equation_is_typeset_as_the_block_a_page_shows_or_not_at_all() -> None:
    shown = typeset("a + b", UnitSymbols(), "c")
    assert shown is not None and shown.classes == ("refgen-math",)
    assert [text for piece in pieces_of("a + b", "c") for text in leaf_texts(piece)] == [
        "c",
        "=",
        "a",
        "+",
        "b",
    ]
    assert typeset("table[0]", UnitSymbols()) is None  # the page shows the code instead


def piece_texts(source: str) -> list[str]:
    return ["".join(leaf_texts(piece)) for piece in pieces_of(source)]


@pytest.mark.parametrize(
    ("source", "pieces"),
    [
        ("a + b - c * d", ["a", "+b", "−c×d"]),  # the loosest operators only
        ("a * b * (c + d)", ["a", "×b", "×(c+d)"]),
        ("(a + b + c).to('MB')", ["(a", "+b", "+c)", "in MB"]),
        ("f(a, b + c, d)", ["f(", "a,", "b+c,", "d)"]),
        ("a / (b + c)", ["ab+c"]),  # a fraction never breaks
        ("x", ["x"]),
    ],
)
def test_a_long_equation_may_break_before_its_loosest_operators(
    source: str, pieces: list[str]
) -> None:
    assert piece_texts(source) == pieces


def test_an_operator_that_starts_a_line_is_spaced_as_between_terms() -> None:
    _, second = pieces_of("a + b")
    assert second[0].text == "+" and second[0].get("form") == "infix"


@given(EXPRESSIONS)
def test_breaking_an_equation_keeps_every_symbol_in_order(source: str) -> None:
    whole = expression_to_mathml(source).element
    if whole is None:
        return
    expected = leaf_texts(whole)
    assert [text for piece in pieces_of(source) for text in leaf_texts(piece)] == expected


@pytest.mark.parametrize("source", ["-(a + b)", "-a", "+a * b", "-f(a, b)"])
def test_a_formula_that_starts_with_a_sign_breaks_after_its_name(source: str) -> None:
    """``c = -(a + b)``: a break after ``=`` and a sign right after it are one break."""
    whole = assignment("c", expression_to_mathml(source))
    expected = leaf_texts(whole.element)
    pieces = pieces_of(source, "c")
    assert all(len(piece) for piece in pieces)
    assert [text for piece in pieces for text in leaf_texts(piece)] == expected


def test_only_an_operator_between_terms_is_spaced_as_one_where_a_line_starts() -> None:
    pieces = pieces_of("(a + b).to('MB')")
    forms = {mo.text: mo.get("form") for piece in pieces for mo in piece.iter("mo")}
    assert forms["+"] == "infix" and forms["("] is None  # the bracket stays a fence


def test_a_quantity_class_bound_in_a_documented_module_lends_its_registry(
    tmp_path: Path,
) -> None:
    """``Q_ = ureg.Quantity`` in a documented module, ``ureg`` defined elsewhere: units are
    looked up in that registry (its own units too), and pint's are not loaded."""
    from refgen.config import Settings
    from refgen.project import Project
    from refgen.testing import fresh_imports

    package = tmp_path / "quantities_only"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "units.py").write_text(
        "import pint\nureg = pint.UnitRegistry()\nureg.define('FLOP = [computation]')\n"
    )
    (package / "models.py").write_text(
        "from quantities_only import units\nQ_ = units.ureg.Quantity\n"
    )
    with fresh_imports(tmp_path):
        project = Project(Settings(modules=("quantities_only.models",)))
        registries = project.unit_registries()
        assert list(registries) == ["Q_._REGISTRY"]
        assert registries["Q_._REGISTRY"] is sys.modules["quantities_only.units"].ureg
        assert project.units.symbol("TFLOP") == "TFLOP"
        assert project.units.symbol("millisecond") == "ms"
        assert project.units._registry is None  # pint's own definitions were not needed

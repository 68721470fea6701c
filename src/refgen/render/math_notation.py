"""Notation: how each Python operator, function and constant of an equation is shown.

The tables the equation layout (:mod:`refgen.render.mathml`) reads: the symbol
of each operator and comparison, what each construct it refuses is called,
the named constants and the functions with a notation of their own, and how
tightly each shown operator binds, which decides where brackets go.
"""

from __future__ import annotations

import ast
import re
import xml.etree.ElementTree as ET

from refgen.render.math_elements import (
    MINUS_SIGN,
    MULTIPLICATION_SIGN,
    application,
    element,
    identifier,
    number,
    operator,
    row,
)

BINARY_OPERATORS: dict[type[ast.operator], str] = {
    ast.Add: "+",
    ast.Sub: MINUS_SIGN,
    ast.Mult: MULTIPLICATION_SIGN,
    ast.FloorDiv: "//",
    ast.Mod: "mod",
}

UNSUPPORTED_BINARY_OPERATORS: dict[type[ast.operator], str] = {
    ast.MatMult: "matrix multiplication (@)",
    ast.BitAnd: "bitwise operator (&)",
    ast.BitOr: "bitwise operator (|)",
    ast.BitXor: "bitwise operator (^)",
    ast.LShift: "bitwise operator (<<)",
    ast.RShift: "bitwise operator (>>)",
}

UNARY_OPERATORS: dict[type[ast.unaryop], str] = {
    ast.USub: MINUS_SIGN,
    ast.UAdd: "+",
    ast.Not: "¬",
}

BOOLEAN_OPERATORS: dict[type[ast.boolop], str] = {ast.And: "∧", ast.Or: "∨"}

COMPARISONS: dict[type[ast.cmpop], str] = {
    ast.Lt: "<",
    ast.LtE: "≤",
    ast.Gt: ">",
    ast.GtE: "≥",
    ast.Eq: "=",
    ast.NotEq: "≠",
}

UNSUPPORTED_COMPARISONS: dict[type[ast.cmpop], str] = {
    ast.Is: "identity comparison (is)",
    ast.IsNot: "identity comparison (is not)",
    ast.In: "membership test (in)",
    ast.NotIn: "membership test (not in)",
}

UNSUPPORTED_CONSTRUCTS: dict[type[ast.AST], str] = {
    ast.Subscript: "subscript",
    ast.Slice: "slice",
    ast.Lambda: "lambda",
    ast.ListComp: "list comprehension",
    ast.SetComp: "set comprehension",
    ast.DictComp: "dict comprehension",
    ast.GeneratorExp: "generator expression",
    ast.JoinedStr: "f-string",
    ast.FormattedValue: "f-string",
    ast.Starred: "starred expression",
    ast.Tuple: "tuple",
    ast.List: "list",
    ast.Set: "set",
    ast.Dict: "dict",
    ast.NamedExpr: "assignment expression (:=)",
    ast.Await: "await",
    ast.Yield: "yield",
    ast.YieldFrom: "yield from",
}

NAMED_CONSTANTS = {
    f"{module}.{name}": symbol
    for module in ("math", "np", "numpy")
    for name, symbol in {"pi": "π", "e": "e", "inf": "∞", "tau": "τ"}.items()
}

FUNCTION_FAMILIES = {
    **{
        spelling: family
        for family in ("sqrt", "exp", "log", "log2", "log10", "ceil", "floor")
        for spelling in (family, f"math.{family}", f"np.{family}", f"numpy.{family}")
    },
    **dict.fromkeys(
        ("abs", "math.fabs", "np.abs", "numpy.abs", "np.absolute", "numpy.absolute"), "abs"
    ),
}
"""Spellings of the functions with a notation of their own, by family."""

UNIT_CONVERSIONS = frozenset({"to", "m_as"})
UNIT_NORMALISATIONS = frozenset({"to_base_units", "to_reduced_units"})
MAGNITUDES = frozenset({"magnitude", "m"})


INDEXED_NAME = re.compile(r"([^\W\d_]+)_([0-9]{1,3})")


def name_element(text: str) -> ET.Element:
    """A name, upright and whole; ``t_1`` (letters, one underscore, a number) as t₁."""
    indexed = INDEXED_NAME.fullmatch(text)
    if indexed is None:
        return identifier(text)
    return element("msub", identifier(indexed[1]), number(indexed[2]))


def bracketed(left: str, inner: ET.Element, right: str) -> ET.Element:
    return row(operator(left), inner, operator(right))


def special_function(family: str | None, arguments: list[ET.Element]) -> ET.Element | None:
    """The usual notation of a known function, or None to show a plain call."""
    match family, arguments:
        case "sqrt", [radicand]:
            return element("msqrt", radicand)
        case "exp", [exponent]:
            return element("msup", identifier("e"), exponent)
        case "abs", [value]:
            return bracketed("|", value, "|")
        case "ceil", [value]:
            return bracketed("⌈", value, "⌉")
        case "floor", [value]:
            return bracketed("⌊", value, "⌋")
        case "log", [value]:
            return application(identifier("ln"), [value])
        case "log", [value, base]:
            return application(element("msub", identifier("log"), base), [value])
        case "log2" | "log10", [value]:
            return application(element("msub", identifier("log"), number(family[3:])), [value])
    return None


# How tightly what the layout shows binds, loosest first: an operand looser than its
# place needs brackets.
(
    CONVERSION,
    CONDITIONAL,
    OR,
    AND,
    NOT,
    COMPARISON,
    SUM,
    PRODUCT,
    UNARY,
    POWER,
    ATOM,
) = range(11)
LEVELS: dict[type[ast.AST], int] = {
    ast.Add: SUM,
    ast.Sub: SUM,
    ast.Mult: PRODUCT,
    ast.FloorDiv: PRODUCT,
    ast.Mod: PRODUCT,
    ast.Div: ATOM,  # a fraction: its bar groups both parts
    ast.Pow: POWER,
    ast.USub: UNARY,
    ast.UAdd: UNARY,
    ast.Not: NOT,
    ast.And: AND,
    ast.Or: OR,
}


def is_square_root(node: ast.BinOp) -> bool:
    """``x ** 0.5`` or ``x ** (1 / 2)``."""
    exponent = node.right
    if isinstance(exponent, ast.Constant):
        return exponent.value == 0.5 and not isinstance(exponent.value, bool)
    return (
        isinstance(exponent, ast.BinOp)
        and isinstance(exponent.op, ast.Div)
        and all(isinstance(part, ast.Constant) for part in (exponent.left, exponent.right))
        and (exponent.left.value, exponent.right.value) == (1, 2)  # type: ignore[attr-defined]
    )

"""Presentation MathML for the equations of scenario classes.

A derived attribute's equation is the source text of one Python expression,
such as ``(self.parameters * self.bytes_per_param).to('MB')``. This module turns
that text into a ``<math>`` element that every modern browser renders natively:
no JavaScript, no web fonts, no network. It only reads the code; nothing is
evaluated, and pint is imported (lazily) only to spell unit symbols.

The layout follows the source:

* ``self.`` is dropped and every name is shown upright and in full, underscores
  included (``bytes_per_param``);
* brackets appear exactly where the source has them: the AST forgets grouping
  parentheses, so they are recovered from the tokens (call parentheses are not
  grouping brackets);
* a unit conversion ``x.to('MB')`` shows ``x`` followed by "in MB", the unit in
  pint's short form; ``.to('')``, ``.magnitude``, ``.m``, ``.to_base_units()``
  and ``.to_reduced_units()`` show nothing;
* ``*`` is ``×``, ``/`` a fraction, ``**`` a superscript, ``//`` stays ``//``,
  ``%`` is ``mod``, comparisons use ``≤ ≥ ≠``, and ``and``/``or``/``not`` are
  ``∧ ∨ ¬``;
* ``sqrt``, ``exp``, ``log`` (``ln``, or ``log`` with the base as a subscript),
  ``abs``, ``ceil`` and ``floor`` get their usual notation; any other call,
  ``min`` and ``max`` included, is the function's name applied to its arguments;
* numbers are shown as written, except that digit-grouping underscores are
  dropped and exponent notation is shown as a power of ten (``2.5e9`` is
  2.5 × 10⁹ and ``1e-3`` is 10⁻³);
* ``a if c else b`` is a piecewise definition: a brace before a table of rows
  "value | if condition" ending with "value | otherwise".

Anything else (subscripts, lambdas, comprehensions, f-strings, keyword
arguments, ...) is refused: :func:`expression_to_mathml` then returns no MathML
and a reason, and the caller shows the code instead. It never raises.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
import warnings
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from refgen.analysis.source import dotted_name
from refgen.render.markup import serialize, xml_safe

MATHML_NAMESPACE = "http://www.w3.org/1998/Math/MathML"

MAX_SOURCE_LENGTH = 10_000
"""Longer sources are refused rather than laid out."""

MAX_NESTING_DEPTH = 100
"""Deeper syntax trees are refused, which keeps the recursive layout safe."""

FUNCTION_APPLICATION = "\u2061"
"""The invisible operator between a function's name and its bracketed arguments."""

MULTIPLICATION_SIGN = "×"
MINUS_SIGN = "−"


@dataclass(frozen=True)
class MathResult:
    """The MathML of an expression, or why there is none.

    ``mathml`` is a complete ``<math>`` element, or None when the expression
    cannot be laid out; ``reason`` then says why (it is empty on success).
    """

    element: ET.Element | None
    """The ``<math>`` element, or None when the expression cannot be laid out."""
    reason: str = ""

    @property
    def mathml(self) -> str | None:
        """The ``<math>`` element as markup (through :func:`refgen.render.markup.serialize`)."""
        return serialize(self.element) if self.element is not None else None


class _Refusal(Exception):
    """Raised inside this module when an expression cannot be laid out."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _unsupported(construct: str) -> _Refusal:
    return _Refusal(f"unsupported syntax: {construct}")


def expression_to_mathml(source: str) -> MathResult:
    """Lay out the Python expression ``source`` as presentation MathML.

    Never raises: anything that cannot be laid out gives a result whose
    ``mathml`` is None and whose ``reason`` names the problem.
    """
    try:
        text, tree = _parse_expression(source)
        _refuse_deep_nesting(tree, text)
        body = _Layout(text, tree).render(tree.body)
        return MathResult(math_element(body))
    except _Refusal as refusal:
        return MathResult(None, refusal.reason)
    except RecursionError:
        return MathResult(None, "expression nested too deeply")
    except Exception as error:  # the promise is to never raise; the caller shows code
        return MathResult(None, f"internal error: {type(error).__name__}")


# --- Parsing ---------------------------------------------------------------


def _parse_expression(source: object) -> tuple[str, ast.Expression]:
    """The normalised source text and its syntax tree, or a refusal."""
    if not isinstance(source, str):
        raise _Refusal(f"not a string but {type(source).__name__}")
    if len(source) > MAX_SOURCE_LENGTH:
        raise _Refusal(f"expression too long ({len(source)} characters)")
    text = source.replace("\r\n", "\n").replace("\r", "\n").strip()
    if not text:
        raise _Refusal("empty expression")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return text, ast.parse(text, mode="eval")
        except (SyntaxError, ValueError) as error:
            raise _Refusal(_why_not_an_expression(text, error)) from None


def _why_not_an_expression(text: str, error: SyntaxError | ValueError) -> str:
    """Tell statements apart from text that is not Python at all."""
    try:
        module = ast.parse(text, mode="exec")
    except (SyntaxError, ValueError):
        message = error.msg if isinstance(error, SyntaxError) else str(error)
        return f"syntax error: {message}"
    if len(module.body) == 1 and isinstance(module.body[0], ast.Expr):
        return "not a single expression: statement syntax around it (such as ';')"
    if len(module.body) == 1:
        return f"not a single expression but a statement ({type(module.body[0]).__name__})"
    return f"not a single expression: {len(module.body)} statements"


def _refuse_deep_nesting(tree: ast.AST, text: str) -> None:
    # Every level of the tree below the Expression holds at least one character
    # of the source, plus one for an expression context: short text cannot nest
    # deeper than the limit, and needs no walk.
    if len(text) + 2 <= MAX_NESTING_DEPTH:
        return
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_NESTING_DEPTH:
            raise _Refusal(f"expression nested too deeply (over {MAX_NESTING_DEPTH} levels)")
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))


# --- Grouping brackets -----------------------------------------------------


@dataclass(frozen=True)
class _Token:
    text: str
    start: tuple[int, int]
    end: tuple[int, int]


_LAYOUT_TOKEN_TYPES = frozenset(
    {
        tokenize.NL,
        tokenize.NEWLINE,
        tokenize.COMMENT,
        tokenize.INDENT,
        tokenize.DEDENT,
        tokenize.ENDMARKER,
        tokenize.ENCODING,
    }
)


def _significant_tokens(text: str) -> list[_Token]:
    try:
        return [
            _Token(token.string, token.start, token.end)
            for token in tokenize.generate_tokens(io.StringIO(text).readline)
            if token.type not in _LAYOUT_TOKEN_TYPES
        ]
    except (tokenize.TokenError, SyntaxError) as error:
        raise _Refusal(f"could not read the tokens: {error}") from None


def _matching_parentheses(tokens: list[_Token]) -> dict[int, int]:
    """Index of each ``(`` token mapped to the index of its ``)``."""
    openers = {"(": ")", "[": "]", "{": "}"}
    pending: list[int] = []
    closing: dict[int, int] = {}
    for index, token in enumerate(tokens):
        if token.text in openers:
            pending.append(index)
        elif token.text in openers.values() and pending:
            opening = pending.pop()
            if tokens[opening].text == "(":
                closing[opening] = index
    return closing


class _Brackets:
    """How many grouping parentheses the source puts around each expression.

    A pair of parentheses groups a node when its ``(`` is the token just before
    the node's first token and its ``)`` the token just after its last, unless
    the pair is the argument list of a call.
    """

    def __init__(self, text: str, tree: ast.AST) -> None:
        self._lines = text.split("\n")
        # Without a "(" there is nothing to group, and no need to tokenize.
        tokens = _significant_tokens(text) if "(" in text else []
        self._index_by_start = {token.start: index for index, token in enumerate(tokens)}
        self._index_by_end = {token.end: index for index, token in enumerate(tokens)}
        self._closing = _matching_parentheses(tokens)
        self._call_closers = {
            self._index_by_end.get(self._end(node))
            for node in ast.walk(tree)
            if isinstance(node, ast.Call)
        }

    def around(self, node: ast.expr) -> int:
        first = self._index_by_start.get(self._start(node))
        last = self._index_by_end.get(self._end(node))
        if first is None or last is None:
            return 0
        count = 0
        while self._is_grouping_pair(first - count - 1, last + count + 1):
            count += 1
        return count

    def _is_grouping_pair(self, opening: int, closing: int) -> bool:
        return self._closing.get(opening) == closing and closing not in self._call_closers

    def _start(self, node: ast.AST) -> tuple[int, int]:
        return node.lineno, self._character_column(node.lineno, node.col_offset)

    def _end(self, node: ast.AST) -> tuple[int, int]:
        line, offset = node.end_lineno or 0, node.end_col_offset or 0
        return line, self._character_column(line, offset)

    def _character_column(self, line: int, byte_offset: int) -> int:
        """The AST counts columns in UTF-8 bytes, tokenize in characters."""
        if not 1 <= line <= len(self._lines):
            return -1
        prefix = self._lines[line - 1].encode("utf-8")[:byte_offset]
        return len(prefix.decode("utf-8", errors="ignore"))


# --- MathML elements -------------------------------------------------------


def _element(tag: str, *children: ET.Element, **attributes: str) -> ET.Element:
    element = ET.Element(tag, attributes)
    element.extend(children)
    return element


def _leaf(tag: str, text: str, **attributes: str) -> ET.Element:
    element = ET.Element(tag, attributes)
    element.text = xml_safe(text)
    return element


def _row(*children: ET.Element) -> ET.Element:
    return _element("mrow", *children)


def _name(text: str) -> ET.Element:
    """An identifier, always upright (MathML slants single letters by default)."""
    return _leaf("mi", text, mathvariant="normal")


def _operator(symbol: str) -> ET.Element:
    return _leaf("mo", symbol)


def _number(text: str) -> ET.Element:
    return _leaf("mn", text)


def _words(text: str) -> ET.Element:
    return _leaf("mtext", text)


def _space() -> ET.Element:
    return _element("mspace", width="0.5em")


def _parenthesized(inner: ET.Element) -> ET.Element:
    return _row(_operator("("), inner, _operator(")"))


def _application(function: ET.Element, arguments: list[ET.Element]) -> ET.Element:
    """``f(a, b)``: the name, the invisible function application, the brackets."""
    bracketed = [_operator("(")]
    for position, argument in enumerate(arguments):
        if position:
            bracketed.append(_operator(","))
        bracketed.append(argument)
    bracketed.append(_operator(")"))
    return _row(function, _operator(FUNCTION_APPLICATION), _row(*bracketed))


def math_element(*body: ET.Element) -> ET.Element:
    """A ``<math>`` element around ``body``."""
    return _element("math", *body, xmlns=MATHML_NAMESPACE, display="inline")


def assignment(target: str, result: MathResult) -> MathResult:
    """``target = expression``: the laid-out expression with its name in front."""
    if result.element is None:
        return result
    body = list(result.element)
    return MathResult(math_element(_name(target), _operator("="), *body))


# --- Numbers ---------------------------------------------------------------

_EXPONENT_NOTATION = re.compile(
    r"(?P<mantissa>[0-9]*\.?[0-9]*)[eE](?P<sign>[+-]?)(?P<exponent>[0-9]+)"
)


def _signed_integer(sign: str, digits: str) -> ET.Element:
    magnitude = _number(digits.lstrip("0") or "0")
    return _row(_operator(MINUS_SIGN), magnitude) if sign == "-" else magnitude


def _number_as_written(written: str) -> ET.Element:
    """A numeric literal; exponent notation becomes a power of ten."""
    digits = written.replace("_", "")
    match = _EXPONENT_NOTATION.fullmatch(digits)
    if match is None:
        return _number(digits)
    power = _element("msup", _number("10"), _signed_integer(match["sign"], match["exponent"]))
    if match["mantissa"] == "1":
        return power
    return _row(_number(match["mantissa"]), _operator(MULTIPLICATION_SIGN), power)


# --- Units -----------------------------------------------------------------

_PLAIN_UNIT_FACTOR = r"[^\W\d][\w ]*(?:(?:\*\*|\^)\s*-?\d{1,2})?"
_PLAIN_UNIT = re.compile(rf"\s*{_PLAIN_UNIT_FACTOR}(?:\s*[*/]\s*{_PLAIN_UNIT_FACTOR})*\s*")
"""Unit spellings handed to pint: names, products, quotients, small powers.

Anything else (numbers, long powers) is shown as written, so that pint never
evaluates arithmetic taken from the page.
"""


@cache
def _unit_registry() -> Any:
    import pint

    return pint.UnitRegistry()


@lru_cache(maxsize=256)
def _unit_symbol(written: str) -> str | None:
    """Pint's short form of a unit (``millisecond`` → ``ms``); None if dimensionless."""
    if not written.strip():
        return None
    if len(written) > 100 or not _PLAIN_UNIT.fullmatch(written):
        return written
    try:
        symbol = f"{_unit_registry().Unit(written):~P}"
    except Exception:  # pint is missing or does not know the unit: show it as written
        return written
    return symbol or None


# --- Layout ----------------------------------------------------------------

_BINARY_OPERATORS: dict[type[ast.operator], str] = {
    ast.Add: "+",
    ast.Sub: MINUS_SIGN,
    ast.Mult: MULTIPLICATION_SIGN,
    ast.FloorDiv: "//",
    ast.Mod: "mod",
}

_UNSUPPORTED_BINARY_OPERATORS: dict[type[ast.operator], str] = {
    ast.MatMult: "matrix multiplication (@)",
    ast.BitAnd: "bitwise operator (&)",
    ast.BitOr: "bitwise operator (|)",
    ast.BitXor: "bitwise operator (^)",
    ast.LShift: "bitwise operator (<<)",
    ast.RShift: "bitwise operator (>>)",
}

_UNARY_OPERATORS: dict[type[ast.unaryop], str] = {
    ast.USub: MINUS_SIGN,
    ast.UAdd: "+",
    ast.Not: "¬",
}

_BOOLEAN_OPERATORS: dict[type[ast.boolop], str] = {ast.And: "∧", ast.Or: "∨"}

_COMPARISONS: dict[type[ast.cmpop], str] = {
    ast.Lt: "<",
    ast.LtE: "≤",
    ast.Gt: ">",
    ast.GtE: "≥",
    ast.Eq: "=",
    ast.NotEq: "≠",
}

_UNSUPPORTED_COMPARISONS: dict[type[ast.cmpop], str] = {
    ast.Is: "identity comparison (is)",
    ast.IsNot: "identity comparison (is not)",
    ast.In: "membership test (in)",
    ast.NotIn: "membership test (not in)",
}

_UNSUPPORTED_CONSTRUCTS: dict[type[ast.AST], str] = {
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

_NAMED_CONSTANTS = {
    f"{module}.{name}": symbol
    for module in ("math", "np", "numpy")
    for name, symbol in {"pi": "π", "e": "e", "inf": "∞", "tau": "τ"}.items()
}

_FUNCTION_FAMILIES = {
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

_UNIT_CONVERSIONS = frozenset({"to", "m_as"})
_UNIT_NORMALISATIONS = frozenset({"to_base_units", "to_reduced_units"})
_MAGNITUDES = frozenset({"magnitude", "m"})


def _is_self(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id == "self"


def _may_be_unit_registry(node: ast.expr) -> bool:
    """``ureg`` in ``ureg.MB``: a plain (dotted) name other than ``self``."""
    return not _is_self(node) and dotted_name(node) is not None


def _bracketed(left: str, inner: ET.Element, right: str) -> ET.Element:
    return _row(_operator(left), inner, _operator(right))


def _special_function(family: str | None, arguments: list[ET.Element]) -> ET.Element | None:
    """The usual notation of a known function, or None to show a plain call."""
    match family, arguments:
        case "sqrt", [radicand]:
            return _element("msqrt", radicand)
        case "exp", [exponent]:
            return _element("msup", _name("e"), exponent)
        case "abs", [value]:
            return _bracketed("|", value, "|")
        case "ceil", [value]:
            return _bracketed("⌈", value, "⌉")
        case "floor", [value]:
            return _bracketed("⌊", value, "⌋")
        case "log", [value]:
            return _application(_name("ln"), [value])
        case "log", [value, base]:
            return _application(_element("msub", _name("log"), base), [value])
        case "log2" | "log10", [value]:
            return _application(_element("msub", _name("log"), _number(family[3:])), [value])
    return None


class _Layout:
    """Renders the nodes of one parsed expression, brackets included."""

    def __init__(self, text: str, tree: ast.Expression) -> None:
        self._text = text
        self._brackets = _Brackets(text, tree)

    def render(self, node: ast.expr) -> ET.Element:
        element = self._render_unbracketed(node)
        for _ in range(self._brackets.around(node)):
            element = _parenthesized(element)
        return element

    def _render_unbracketed(self, node: ast.expr) -> ET.Element:
        match node:
            case ast.Name():
                return _name(node.id)
            case ast.Constant():
                return self._constant(node)
            case ast.Attribute():
                return self._attribute(node)
            case ast.BinOp():
                return self._binary(node)
            case ast.UnaryOp():
                return self._unary(node)
            case ast.BoolOp():
                return self._boolean(node)
            case ast.Compare():
                return self._comparison(node)
            case ast.IfExp():
                return self._conditional(node)
            case ast.Call():
                return self._call(node)
        construct = _UNSUPPORTED_CONSTRUCTS.get(type(node), type(node).__name__)
        raise _unsupported(construct)

    def _as_written(self, node: ast.expr) -> str:
        return ast.get_source_segment(self._text, node) or repr(getattr(node, "value", ""))

    def _constant(self, node: ast.Constant) -> ET.Element:
        value = node.value
        if value is None or isinstance(value, bool):
            return _name(repr(value))
        if isinstance(value, str):
            return _words(self._as_written(node))
        if isinstance(value, int | float | complex):
            return _number_as_written(self._as_written(node))
        if isinstance(value, bytes):
            raise _unsupported("bytes literal")
        raise _unsupported("ellipsis")

    def _attribute(self, node: ast.Attribute) -> ET.Element:
        if _is_self(node.value):
            return _name(node.attr)
        if node.attr in _MAGNITUDES:
            return self.render(node.value)
        constant = _NAMED_CONSTANTS.get(dotted_name(node) or "")
        if constant is not None:
            return _name(constant)
        raise _unsupported(f"attribute '.{node.attr}' of a non-self object")

    def _binary(self, node: ast.BinOp) -> ET.Element:
        operator = type(node.op)
        if operator in _UNSUPPORTED_BINARY_OPERATORS:
            raise _unsupported(_UNSUPPORTED_BINARY_OPERATORS[operator])
        left, right = self.render(node.left), self.render(node.right)
        if operator is ast.Div:
            return _element("mfrac", left, right)
        if operator is ast.Pow:
            return _element("msup", left, right)
        return _row(left, _operator(_BINARY_OPERATORS[operator]), right)

    def _unary(self, node: ast.UnaryOp) -> ET.Element:
        symbol = _UNARY_OPERATORS.get(type(node.op))
        if symbol is None:
            raise _unsupported("bitwise inversion (~)")
        return _row(_operator(symbol), self.render(node.operand))

    def _boolean(self, node: ast.BoolOp) -> ET.Element:
        symbol = _BOOLEAN_OPERATORS[type(node.op)]
        parts = [self.render(node.values[0])]
        for value in node.values[1:]:
            parts += [_operator(symbol), self.render(value)]
        return _row(*parts)

    def _comparison(self, node: ast.Compare) -> ET.Element:
        parts = [self.render(node.left)]
        for operator, comparator in zip(node.ops, node.comparators, strict=True):
            if type(operator) in _UNSUPPORTED_COMPARISONS:
                raise _unsupported(_UNSUPPORTED_COMPARISONS[type(operator)])
            parts += [_operator(_COMPARISONS[type(operator)]), self.render(comparator)]
        return _row(*parts)

    def _conditional(self, node: ast.IfExp) -> ET.Element:
        """A brace and one row per case; ``a if c else b if d else e`` has three."""
        rows = []
        case = node
        while True:
            condition = _row(_words("if"), _space(), self.render(case.test))
            rows.append(_table_row(self.render(case.body), condition))
            otherwise = case.orelse
            if not isinstance(otherwise, ast.IfExp) or self._brackets.around(otherwise):
                break
            case = otherwise
        rows.append(_table_row(self.render(otherwise), _words("otherwise")))
        return _row(_operator("{"), _element("mtable", *rows, columnalign="left"))

    def _call(self, node: ast.Call) -> ET.Element:
        unit_conversion = self._unit_conversion(node)
        if unit_conversion is not None:
            return unit_conversion
        self._refuse_unusual_arguments(node)
        function = self._function_name(node.func)
        arguments = [self.render(argument) for argument in node.args]
        family = _FUNCTION_FAMILIES.get(dotted_name(node.func) or "")
        special = _special_function(family, arguments)
        return special if special is not None else _application(_name(function), arguments)

    def _refuse_unusual_arguments(self, node: ast.Call) -> None:
        if node.keywords:
            raise _unsupported("keyword argument")
        if any(isinstance(argument, ast.Starred) for argument in node.args):
            raise _unsupported("starred argument")

    def _function_name(self, function: ast.expr) -> str:
        """The name shown for a called function: ``calc_x``, ``physics.calc_x``."""
        if self._brackets.around(function):
            raise _unsupported("parenthesised function")
        dotted = dotted_name(function)
        if dotted is None:
            if isinstance(function, ast.Attribute):
                raise _unsupported(f"method call '.{function.attr}()' on a computed value")
            raise _unsupported("call of a computed function")
        owner, _, member = dotted.partition(".")
        if owner != "self":
            return dotted
        if "." in member:
            raise _unsupported(f"method call '{dotted.removeprefix('self.')}()' on an attribute")
        return member

    def _unit_conversion(self, node: ast.Call) -> ET.Element | None:
        """``x.to('MB')`` as ``x in MB``; None when ``node`` is no unit conversion."""
        method = node.func
        if not isinstance(method, ast.Attribute) or _is_self(method.value):
            return None
        if method.attr not in _UNIT_CONVERSIONS | _UNIT_NORMALISATIONS:
            return None
        if self._brackets.around(method):
            raise _unsupported("parenthesised method")
        self._refuse_unusual_arguments(node)
        if method.attr in _UNIT_NORMALISATIONS:
            if node.args:
                raise _unsupported(f"arguments to .{method.attr}()")
            return self.render(method.value)
        if len(node.args) != 1:
            raise _unsupported(f".{method.attr}() with {len(node.args)} arguments")
        quantity = self.render(method.value)
        unit = self._unit(node.args[0])
        if unit is None:
            return quantity
        return _row(quantity, _space(), _words(f"in {unit}"))

    def _unit(self, node: ast.expr) -> str | None:
        """The short symbol of a unit given as ``'MB'`` or ``ureg.MB``."""
        if self._brackets.around(node):
            raise _unsupported("parenthesised unit")
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return _unit_symbol(node.value)
        if isinstance(node, ast.Attribute) and _may_be_unit_registry(node.value):
            return _unit_symbol(node.attr)
        raise _unsupported("unit that is neither a string nor a registry attribute")


def _table_row(value: ET.Element, condition: ET.Element) -> ET.Element:
    return _element("mtr", _element("mtd", value), _element("mtd", condition))

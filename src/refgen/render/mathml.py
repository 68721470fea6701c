"""Presentation MathML for the equations of scenario classes.

A derived attribute's equation is the source text of one Python expression,
such as ``(self.parameters * self.bytes_per_param).to('MB')``. This module turns
that text into a ``<math>`` element that every modern browser renders natively:
no JavaScript, no web fonts, no network. It only reads the code; nothing is
evaluated, and pint is imported (lazily) only to spell unit symbols.

The layout follows the source:

* ``self.`` is dropped and every name is shown upright and in full, underscores
  included (``bytes_per_param``), except that a name of letters, one underscore
  and a number is subscripted (``t_1`` is t₁);
* brackets appear where precedence needs them, whatever the source wrote: none
  around a fraction's parts, an exponent or a function's arguments (the layout
  groups those), none around a product converted to a unit, always around a sum
  so converted, a negative right operand, a conversion or a conditional used as
  an operand;
* a unit conversion ``x.to('MB')`` shows ``x`` followed by "in MB", the unit in
  pint's short form; ``.to('')``, ``.magnitude``, ``.m``, ``.to_base_units()``
  and ``.to_reduced_units()`` show nothing;
* a unit of one of the project's own pint registries used as a value
  (``2 * ureg.FLOP``, ``ureg`` a registry the project's modules bind) is shown
  as its symbol; an attribute of anything else is refused;
* ``*`` is ``×``, ``/`` a fraction, ``**`` a superscript (``** 0.5`` a root), ``//`` stays ``//``,
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

Pages call :func:`typeset`: the layout made here, cut where a long equation's
lines may break (:mod:`refgen.render.math_lines`). The symbol of each
operator and how tightly it binds are in :mod:`refgen.render.math_notation`.
"""

from __future__ import annotations

import ast
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from refgen.analysis.source import dotted_name
from refgen.evaluate.units import UnitSymbols
from refgen.render.blocks import Markup
from refgen.render.markup import serialize
from refgen.render.math_elements import (
    application,
    element,
    identifier,
    math_element,
    number_as_written,
    operator,
    parenthesized,
    row,
    space,
    words,
)
from refgen.render.math_lines import breakable_at_operators
from refgen.render.math_notation import (
    ATOM,
    BINARY_OPERATORS,
    BOOLEAN_OPERATORS,
    COMPARISON,
    COMPARISONS,
    CONDITIONAL,
    CONVERSION,
    FUNCTION_FAMILIES,
    LEVELS,
    MAGNITUDES,
    NAMED_CONSTANTS,
    NOT,
    POWER,
    PRODUCT,
    UNARY,
    UNARY_OPERATORS,
    UNIT_CONVERSIONS,
    UNIT_NORMALISATIONS,
    UNSUPPORTED_BINARY_OPERATORS,
    UNSUPPORTED_COMPARISONS,
    UNSUPPORTED_CONSTRUCTS,
    is_square_root,
    name_element,
    special_function,
)
from refgen.render.math_source import (
    Brackets,
    Refusal,
    parse_expression,
    refuse_deep_nesting,
    unsupported,
)


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


def expression_to_mathml(source: str, units: UnitSymbols | None = None) -> MathResult:
    """Lay out the Python expression ``source`` as presentation MathML.

    ``units`` spells unit conversions (``.to('MB')``); pass one that lives as
    long as the pages (the Project's), since each new one loads pint again.
    Never raises: anything that cannot be laid out gives a result whose
    ``mathml`` is None and whose ``reason`` names the problem.
    """
    try:
        text, tree = parse_expression(source)
        refuse_deep_nesting(tree, text)
        body = _Layout(text, tree, units or UnitSymbols()).render(tree.body)
        return MathResult(math_element(body))
    except Refusal as refusal:
        return MathResult(None, refusal.reason)
    except RecursionError:
        return MathResult(None, "expression nested too deeply")
    except Exception as error:  # the promise is to never raise; the caller shows code
        return MathResult(None, f"internal error: {type(error).__name__}")


MATH_CLASS = "refgen-math"


def typeset(expression: str, units: UnitSymbols, name: str = "") -> Markup | None:
    """The equation ``expression`` (``name = expression`` when named) as a block of MathML
    that a browser wraps at its operators; None where no MathML fits (show the code)."""
    result = expression_to_mathml(expression, units)
    if name:
        result = assignment(name, result)
    if result.element is None:
        return None
    return Markup(breakable_at_operators(result.element), (MATH_CLASS,))


def assignment(target: str, result: MathResult) -> MathResult:
    """``target = expression``: the laid-out expression with its name in front."""
    if result.element is None:
        return result
    body = list(result.element)
    return MathResult(math_element(identifier(target), operator("="), *body))


def _is_self(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id == "self"


def _may_be_unit_registry(node: ast.expr) -> bool:
    """``ureg`` in ``ureg.MB``: a plain (dotted) name, not ``self`` nor an attribute of it."""
    dotted = dotted_name(node)
    return dotted is not None and dotted.partition(".")[0] != "self"


class _Layout:
    """Renders the nodes of one parsed expression, with the brackets precedence needs."""

    def __init__(self, text: str, tree: ast.Expression, units: UnitSymbols) -> None:
        self._text = text
        self._brackets = Brackets(text, tree)
        self._units = units

    def operand(self, node: ast.expr, tightest_needed: int) -> ET.Element:
        """``node`` in a place that binds ``tightest_needed``: bracketed if looser."""
        shown = self.render(node)
        return parenthesized(shown) if self.level(node) < tightest_needed else shown

    def level(self, node: ast.expr) -> int:
        """How tightly ``node`` binds as laid out (not as Python parses it)."""
        match node:
            case ast.BinOp():
                if isinstance(node.op, ast.Pow) and is_square_root(node):
                    return ATOM
                return LEVELS.get(type(node.op), ATOM)
            case ast.UnaryOp() | ast.BoolOp():
                return LEVELS.get(type(node.op), ATOM)
            case ast.Compare():
                return COMPARISON
            case ast.IfExp():
                return CONDITIONAL
            case ast.Constant() if isinstance(node.value, int | float) and not isinstance(
                node.value, bool
            ):
                shown = number_as_written(self._as_written(node)).tag  # 2.5×10⁹ is a product
                return {"mn": ATOM, "msup": POWER}.get(shown, PRODUCT)
            case ast.Attribute() if node.attr in MAGNITUDES and not _is_self(node.value):
                return self.level(node.value)
            case ast.Call():
                return self._call_level(node)
        return ATOM

    def _call_level(self, node: ast.Call) -> int:
        method = node.func
        if isinstance(method, ast.Attribute) and not _is_self(method.value):
            if method.attr in UNIT_NORMALISATIONS:
                return self.level(method.value)
            if method.attr in UNIT_CONVERSIONS and len(node.args) == 1:
                if self._unit(node.args[0]) is None:  # .to(''): only the quantity is shown
                    return self.level(method.value)
                return CONVERSION
        if FUNCTION_FAMILIES.get(dotted_name(node.func) or "") == "exp":
            return POWER
        return ATOM

    def render(self, node: ast.expr) -> ET.Element:
        """``node`` laid out; its own operands bracketed where precedence needs it."""
        match node:
            case ast.Name():
                return name_element(node.id)
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
        construct = UNSUPPORTED_CONSTRUCTS.get(type(node), type(node).__name__)
        raise unsupported(construct)

    def _as_written(self, node: ast.expr) -> str:
        return ast.get_source_segment(self._text, node) or repr(getattr(node, "value", ""))

    def _constant(self, node: ast.Constant) -> ET.Element:
        value = node.value
        if value is None or isinstance(value, bool):
            return identifier(repr(value))
        if isinstance(value, str):
            return words(self._as_written(node))
        if isinstance(value, int | float | complex):
            return number_as_written(self._as_written(node))
        if isinstance(value, bytes):
            raise unsupported("bytes literal")
        raise unsupported("ellipsis")

    def _attribute(self, node: ast.Attribute) -> ET.Element:
        if _is_self(node.value):
            return name_element(node.attr)
        if node.attr in MAGNITUDES:
            return self.render(node.value)
        constant = NAMED_CONSTANTS.get(dotted_name(node) or "")
        if constant is not None:
            return identifier(constant)
        owner = dotted_name(node.value)
        if owner is not None and self._units.knows(owner, node.attr):
            return words(self._units.symbol(node.attr) or node.attr)  # ureg.FLOP: a unit
        raise unsupported(f"attribute '.{node.attr}' of a non-self object")

    def _binary(self, node: ast.BinOp) -> ET.Element:
        kind = type(node.op)
        if kind in UNSUPPORTED_BINARY_OPERATORS:
            raise unsupported(UNSUPPORTED_BINARY_OPERATORS[kind])
        if kind is ast.Div:
            return element("mfrac", self.render(node.left), self.render(node.right))
        if kind is ast.Pow:
            if is_square_root(node):
                return element("msqrt", self.render(node.left))
            # Anything but a name, a number or a call as the base is bracketed, a
            # fraction too; the exponent never is.
            base = self.render(node.left)
            fraction = isinstance(node.left, ast.BinOp) and isinstance(node.left.op, ast.Div)
            if self.level(node.left) < ATOM or fraction:
                base = parenthesized(base)
            return element("msup", base, self.render(node.right))
        level = LEVELS[kind]
        left = self.operand(node.left, level)
        right = self.render(node.right)
        # a - (b + c) and a * (b // c) keep their brackets, as does a negative right
        # operand; a + (b - c) and a * (b * c) need none.
        regrouped = kind is ast.Add or (
            kind is ast.Mult
            and not isinstance(getattr(node.right, "op", None), ast.FloorDiv | ast.Mod)
        )
        negated = isinstance(node.right, ast.UnaryOp) and not isinstance(node.right.op, ast.Not)
        if negated or self.level(node.right) < level + (not regrouped):
            right = parenthesized(right)
        return row(left, operator(BINARY_OPERATORS[kind]), right)

    def _unary(self, node: ast.UnaryOp) -> ET.Element:
        symbol = UNARY_OPERATORS.get(type(node.op))
        if symbol is None:
            raise unsupported("bitwise inversion (~)")
        if isinstance(node.op, ast.Not):
            return row(operator(symbol), self.operand(node.operand, NOT))
        # -(a + b) keeps its brackets, and so does -(-a); -a² needs none.
        return row(operator(symbol), self.operand(node.operand, UNARY + 1))

    def _boolean(self, node: ast.BoolOp) -> ET.Element:
        symbol = BOOLEAN_OPERATORS[type(node.op)]
        tighter = LEVELS[type(node.op)] + 1
        parts = [self.operand(node.values[0], tighter)]
        for value in node.values[1:]:
            parts += [operator(symbol), self.operand(value, tighter)]
        return row(*parts)

    def _comparison(self, node: ast.Compare) -> ET.Element:
        parts = [self.operand(node.left, COMPARISON + 1)]
        for comparison, comparator in zip(node.ops, node.comparators, strict=True):
            if type(comparison) in UNSUPPORTED_COMPARISONS:
                raise unsupported(UNSUPPORTED_COMPARISONS[type(comparison)])
            parts += [
                operator(COMPARISONS[type(comparison)]),
                self.operand(comparator, COMPARISON + 1),
            ]
        return row(*parts)

    def _conditional(self, node: ast.IfExp) -> ET.Element:
        """A brace and one row per case; ``a if c else b if d else e`` has three."""
        rows = []
        case = node
        while True:
            condition = row(words("if"), space(), self.render(case.test))
            rows.append(_table_row(self.render(case.body), condition))
            otherwise = case.orelse
            if not isinstance(otherwise, ast.IfExp) or self._brackets.around(otherwise):
                break
            case = otherwise
        rows.append(_table_row(self.render(otherwise), words("otherwise")))
        return row(operator("{"), element("mtable", *rows, columnalign="left"))

    def _call(self, node: ast.Call) -> ET.Element:
        unit_conversion = self._unit_conversion(node)
        if unit_conversion is not None:
            return unit_conversion
        self._refuse_unusual_arguments(node)
        function = self._function_name(node.func)
        arguments = [self.render(argument) for argument in node.args]
        family = FUNCTION_FAMILIES.get(dotted_name(node.func) or "")
        special = special_function(family, arguments)
        return special if special is not None else application(identifier(function), arguments)

    def _refuse_unusual_arguments(self, node: ast.Call) -> None:
        if node.keywords:
            raise unsupported("keyword argument")
        if any(isinstance(argument, ast.Starred) for argument in node.args):
            raise unsupported("starred argument")

    def _function_name(self, function: ast.expr) -> str:
        """The name shown for a called function: ``calc_x``, ``physics.calc_x``."""
        if self._brackets.around(function):
            raise unsupported("parenthesised function")
        dotted = dotted_name(function)
        if dotted is None:
            if isinstance(function, ast.Attribute):
                raise unsupported(f"method call '.{function.attr}()' on a computed value")
            raise unsupported("call of a computed function")
        owner, _, member = dotted.partition(".")
        if owner != "self":
            return dotted
        if "." in member:
            raise unsupported(f"method call '{dotted.removeprefix('self.')}()' on an attribute")
        return member

    def _unit_conversion(self, node: ast.Call) -> ET.Element | None:
        """``x.to('MB')`` as ``x in MB``; None when ``node`` is no unit conversion."""
        method = node.func
        if not isinstance(method, ast.Attribute) or _is_self(method.value):
            return None
        if method.attr not in UNIT_CONVERSIONS | UNIT_NORMALISATIONS:
            return None
        if self._brackets.around(method):
            raise unsupported("parenthesised method")
        self._refuse_unusual_arguments(node)
        if method.attr in UNIT_NORMALISATIONS:
            if node.args:
                raise unsupported(f"arguments to .{method.attr}()")
            return self.render(method.value)
        if len(node.args) != 1:
            raise unsupported(f".{method.attr}() with {len(node.args)} arguments")
        unit = self._unit(node.args[0])
        if unit is None:
            return self.render(method.value)
        # "a × b in MB" reads as one quantity; a sum is bracketed: "(a + b) in MB".
        quantity = self.operand(method.value, PRODUCT)
        return row(quantity, space(), words(f"in {unit}"))

    def _unit(self, node: ast.expr) -> str | None:
        """The short symbol of a unit given as ``'MB'`` or ``ureg.MB``."""
        if self._brackets.around(node):
            raise unsupported("parenthesised unit")
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return self._units.symbol(node.value)
        if isinstance(node, ast.Attribute) and _may_be_unit_registry(node.value):
            return self._units.symbol(node.attr)
        raise unsupported("unit that is neither a string nor a registry attribute")


def _table_row(value: ET.Element, condition: ET.Element) -> ET.Element:
    return element("mtr", element("mtd", value), element("mtd", condition))

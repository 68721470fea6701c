"""Equations from the AST: what a derived attribute's body computes.

A body that is a single ``return EXPR`` (after the docstring) yields EXPR as
written. Any other body yields the functions it calls, so the page can point
at the helper that carries the accounting. Nothing here executes code.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from dataclasses import dataclass

from refgen.analysis.model import EquationStep
from refgen.analysis.source import ModuleSource, docstring_node, dotted_name


@dataclass(frozen=True)
class ExtractedEquation:
    """The static reading of one function body."""

    expression: str | None
    calls: tuple[str, ...]
    """Dotted source names of called functions (``calc_x``, ``physics.calc_x``)."""
    reason: str = ""
    reads: tuple[str, ...] = ()
    """Names read as ``self.NAME`` anywhere in the body, first read first."""


def _calls_and_reads(node: ast.AST) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Dotted names of the functions called under ``node`` and the names read from ``self``.

    Both in source order, once each, found in one walk of the tree. Method calls
    on ``self`` and on computed values (``x.to('MB')``) are left out: only plain
    names and module attributes can name a helper.
    """
    calls, reads = [], []
    for child in ast.walk(node):
        if isinstance(child, ast.Call):
            name = dotted_name(child.func)
            if name and not name.startswith("self."):
                calls.append((child.lineno, child.col_offset, name))
        elif (
            isinstance(child, ast.Attribute)
            and isinstance(child.value, ast.Name)
            and child.value.id == "self"
            and isinstance(child.ctx, ast.Load)
        ):
            reads.append((child.lineno, child.col_offset, child.attr))
    return (
        tuple(dict.fromkeys(name for _, _, name in sorted(calls))),
        tuple(dict.fromkeys(name for _, _, name in sorted(reads))),
    )


def _body_without_docstring(function: ast.FunctionDef) -> list[ast.stmt]:
    """The statements that compute: no docstring, and no imports (a helper imported
    inside the body is still a single-return equation)."""
    body = function.body[1:] if docstring_node(function.body) is not None else function.body
    return [s for s in body if not isinstance(s, ast.Import | ast.ImportFrom)]


_LEADING_SPACE = re.compile(r"\A(?:\s|\\\n)+")
"""Whitespace and line continuations between ``return`` (or ``=``) and the expression."""


def _rows_inside_tokens(text: str) -> set[int] | None:
    """Rows of ``text`` (from 1) that begin inside a token: the later lines of a
    triple-quoted string. None when ``text`` cannot be tokenized."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return None
    return {row for token in tokens for row in range(token.start[0] + 1, token.end[0] + 1)}


def _standalone(text: str, margin: str) -> str:
    """Text cut from a statement after ``return`` or ``=``, as an expression on its own.

    Leading line continuations are dropped, and continuation lines lose the
    statement's indentation ``margin``, except lines that begin inside a
    string, whose text is the string's value.
    """
    text = _LEADING_SPACE.sub("", text).rstrip()
    first, *rest = text.split("\n")
    inside = _rows_inside_tokens(text)
    if inside is None:
        return text
    kept = (
        line if row in inside else line.removeprefix(margin) for row, line in enumerate(rest, 2)
    )
    return "\n".join([first, *kept])


def _after_assignment_sign(text: str) -> str | None:
    """``text`` after its first ``=`` outside brackets, or None if it has none."""
    lines = text.split("\n")
    depth = 0
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.string in ("(", "[", "{"):
                depth += 1
            elif token.string in (")", "]", "}"):
                depth -= 1
            elif token.string == "=" and depth == 0:
                row, column = token.end
                return "\n".join([lines[row - 1][column:], *lines[row:]])
    except (tokenize.TokenError, SyntaxError):
        return None
    return None


def _written_value(module: ModuleSource, statement: ast.Return | ast.Assign) -> str:
    """The text after ``return`` or ``target =``, brackets included.

    The value node's own span would drop brackets that wrap the whole
    expression (and a value broken over lines inside them would no longer
    parse), so the text is cut from the statement instead.
    """
    written = module.segment(statement)
    margin = " " * statement.col_offset
    if isinstance(statement, ast.Return):
        return _standalone(written.removeprefix("return"), margin)
    value = _after_assignment_sign(written)
    if value is None:
        return module.segment(statement.value)
    return _standalone(value, margin)


def extract_equation(module: ModuleSource, function: ast.FunctionDef) -> ExtractedEquation:
    """Read the equation of ``function`` from its body."""
    body = _body_without_docstring(function)
    tree = ast.Module(body=body, type_ignores=[])
    calls, reads = _calls_and_reads(tree)
    if len(body) == 1 and isinstance(body[0], ast.Return) and body[0].value is not None:
        return ExtractedEquation(_written_value(module, body[0]), calls, reads=reads)
    if not body:
        return ExtractedEquation(None, (), "the body is empty")
    return ExtractedEquation(
        None, calls, f"the body has {len(body)} statements, not a single return", reads
    )


def extract_steps(module: ModuleSource, function: ast.FunctionDef) -> tuple[EquationStep, ...]:
    """A helper body as a list of assignments ending in a return.

    Empty when the body holds anything else (loops, branches, calls for effect),
    since then a list of formulas would misrepresent it.
    """
    steps = []
    for statement in _body_without_docstring(function):
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target = module.segment(statement.targets[0])
            steps.append(EquationStep(target, _written_value(module, statement)))
        elif isinstance(statement, ast.Return) and statement.value is not None:
            steps.append(EquationStep("", _written_value(module, statement)))
        else:
            return ()
    return tuple(steps)

"""Equations from the AST: what a derived attribute's body computes.

A body that is a single ``return EXPR`` (after the docstring) yields EXPR as
written. Any other body yields the functions it calls, so the page can point
at the helper that carries the accounting. Nothing here executes code.
"""

from __future__ import annotations

import ast
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
    body = function.body
    return body[1:] if docstring_node(body) is not None else body


def _returned_expression(module: ModuleSource, statement: ast.Return) -> str:
    """The text after ``return``, brackets included, continuation lines de-indented.

    The expression node's own span would drop brackets that wrap the whole
    expression, so the text is cut from the statement instead.
    """
    text = module.segment(statement).removeprefix("return").strip()
    first, *rest = text.split("\n")
    margin = " " * statement.col_offset
    return "\n".join([first, *(line.removeprefix(margin) for line in rest)])


def extract_equation(module: ModuleSource, function: ast.FunctionDef) -> ExtractedEquation:
    """Read the equation of ``function`` from its body."""
    body = _body_without_docstring(function)
    tree = ast.Module(body=body, type_ignores=[])
    calls, reads = _calls_and_reads(tree)
    if len(body) == 1 and isinstance(body[0], ast.Return) and body[0].value is not None:
        return ExtractedEquation(_returned_expression(module, body[0]), calls, reads=reads)
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
            steps.append(EquationStep(target, module.segment(statement.value)))
        elif isinstance(statement, ast.Return) and statement.value is not None:
            steps.append(EquationStep("", module.segment(statement.value)))
        else:
            return ()
    return tuple(steps)

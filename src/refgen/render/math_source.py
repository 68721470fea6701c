"""Reading an equation's source for layout: parsing within limits, and grouping brackets.

The AST forgets which parentheses the author wrote; they are recovered from
the tokens here, so the layout shows brackets exactly where the source has
them (call parentheses are not grouping brackets).
"""

from __future__ import annotations

import ast
import io
import tokenize
import warnings
from dataclasses import dataclass

MAX_SOURCE_LENGTH = 10_000
"""Longer sources are refused rather than laid out."""

MAX_NESTING_DEPTH = 100
"""Deeper syntax trees are refused, which keeps the recursive layout safe."""


class Refusal(Exception):
    """Raised inside this module when an expression cannot be laid out."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def unsupported(construct: str) -> Refusal:
    return Refusal(f"unsupported syntax: {construct}")


# --- Parsing ---------------------------------------------------------------


def parse_expression(source: object) -> tuple[str, ast.Expression]:
    """The normalised source text and its syntax tree, or a refusal."""
    if not isinstance(source, str):
        raise Refusal(f"not a string but {type(source).__name__}")
    if len(source) > MAX_SOURCE_LENGTH:
        raise Refusal(f"expression too long ({len(source)} characters)")
    text = source.replace("\r\n", "\n").replace("\r", "\n").strip()
    if not text:
        raise Refusal("empty expression")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return text, ast.parse(text, mode="eval")
        except (SyntaxError, ValueError) as error:
            raise Refusal(_why_not_an_expression(text, error)) from None
        except (RecursionError, MemoryError):  # deeper than Python's parser can hold
            raise Refusal(
                f"expression nested too deeply (over {MAX_NESTING_DEPTH} levels)"
            ) from None


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


def refuse_deep_nesting(tree: ast.AST, text: str) -> None:
    # Every level of the tree below the Expression holds at least one character
    # of the source, plus one for an expression context: short text cannot nest
    # deeper than the limit, and needs no walk.
    if len(text) + 2 <= MAX_NESTING_DEPTH:
        return
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_NESTING_DEPTH:
            raise Refusal(f"expression nested too deeply (over {MAX_NESTING_DEPTH} levels)")
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
        raise Refusal(f"could not read the tokens: {error}") from None


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


class Brackets:
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

    def _start(self, node: ast.expr) -> tuple[int, int]:
        return node.lineno, self._character_column(node.lineno, node.col_offset)

    def _end(self, node: ast.expr) -> tuple[int, int]:
        line, offset = node.end_lineno or 0, node.end_col_offset or 0
        return line, self._character_column(line, offset)

    def _character_column(self, line: int, byte_offset: int) -> int:
        """The AST counts columns in UTF-8 bytes, tokenize in characters."""
        if not 1 <= line <= len(self._lines):
            return -1
        prefix = self._lines[line - 1].encode("utf-8")[:byte_offset]
        return len(prefix.decode("utf-8", errors="ignore"))

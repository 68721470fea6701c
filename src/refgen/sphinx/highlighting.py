"""Highlighted module source, lexed a definition at a time and kept between builds.

viewcode highlights a module's whole text again whenever the module changes:
for a module of 19,000 lines, over a second of Pygments for an edit of one
line (bench/RESULTS.md). Pygments' Python lexer is back in its first state at
the start of every top-level ``class``, ``def`` or decorator line, so the
text can be cut there and each piece lexed on its own, giving the same tokens
(``tests/sphinx/test_highlighting.py`` checks this on every module of the standard
library). The tokens of each piece are kept in the doctree folder under a
digest of its text and Pygments' version, and the next build lexes only the
pieces that changed; all the tokens are then formatted at once, as viewcode's
own call would.

Only the module texts viewcode shows are handled this way, and only when the
lexer is Sphinx's own Python lexer: any other block, lexer or failure
(an error token, text Python cannot parse) goes through Sphinx's highlighter
unchanged, warnings and all.

A build with nothing kept (a clean one) that computes figures in a second
process (:mod:`refgen.sphinx.ahead`) gives it the project's
module texts to lex too, after the figures, while this process reads pages:
the pieces it sends back are stored as if a previous build had kept them, and
the HTML it formatted from them, with the options viewcode asks for, is what
viewcode gets for that text (formatting was 1.5 % of a clean build of the deep
bench library, bench/RESULTS.md).
"""

from __future__ import annotations

import functools
import hashlib
import pickle
import re
import weakref
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

import pygments
from pygments.filters import ErrorToken
from pygments.lexers import PythonLexer
from pygments.token import _TokenType, string_to_tokentype
from sphinx.application import Sphinx
from sphinx.highlighting import PygmentsBridge, lexer_classes, lexers

from refgen.files import replace_atomically
from refgen.project import Project
from refgen.sphinx.private import viewcode_modules

CACHE_FILE = "refgen-highlighted-source.pickle"
_FORMAT = 3
_DEFINITION = re.compile(r"^(?:class\W|def\W|async\W|@)", re.MULTILINE)
"""A top-level line where a piece may start."""
_FOLLOWING = '@_\nclass _:\n    pass\n\n\nasync def _():\n    """_"""\n'
"""What follows a piece when its end is checked: each way a piece may begin."""
_MOST_JOINED = 8
"""Pieces lexed again with the next before the rest is lexed whole: each try lexes all of
them again, so a string holding many definition lines must not be tried line by line."""

Tokens = list[tuple[str, str]]
"""A piece's tokens: the token type's name and its text."""

LexedPieces = dict[str, bytes]
"""Pieces lexed, pickled, by a digest of their text (what :func:`_load` gives)."""

Formatted = dict[tuple[str, str], tuple[bytes, tuple[str, ...]]]
"""HTML formatted ahead, by the module text and viewcode's ``linenos``: compressed (it is
held while every page is written), with the keys of the pieces it was formatted from."""


@dataclass(frozen=True)
class LexedSource:
    """What the worker gives of one module's text (``source``): its pieces lexed, and the
    HTML formatted from them as viewcode will ask for it (``linenos``), or None when it
    is Sphinx's to highlight."""

    source: str
    pieces: LexedPieces
    html: bytes | None
    """Compressed: it is held while every page is written."""
    linenos: str


def has_own_python_lexer() -> bool:
    """Whether the project gave Sphinx a Python lexer of its own: ``app.add_lexer`` puts it
    in ``lexer_classes`` (Sphinx's own entry there is ``PythonLexer`` with options), and
    older Sphinx put lexer instances in ``lexers``."""
    entry = lexer_classes.get("python")
    is_sphinx_own = isinstance(entry, functools.partial) and entry.func is PythonLexer
    return "python" in lexers or not is_sphinx_own


class ChunkedHighlighter:
    """Sphinx's HTML highlighter, lexing the given module texts a piece at a time."""

    def __init__(
        self,
        bridge: PygmentsBridge,
        texts: set[str],
        stored: dict[str, bytes],
        formatted: Formatted | None = None,
    ) -> None:
        self.bridge = bridge
        self.texts = texts
        self.stored = stored
        self.formatted = formatted if formatted is not None else {}
        """HTML formatted ahead, given once each."""
        self.used: dict[str, bytes] = {}
        """Pieces lexed or reused in this build: what the next build may reuse."""

    def __getattr__(self, name: str) -> Any:
        return getattr(self.bridge, name)

    def highlight_block(
        self, source: str, lang: str, opts: dict[str, Any] | None = None, *args: Any, **kwargs: Any
    ) -> str:
        highlighted = None
        if source in self.texts and lang in {"python", "default"} and not opts and not args:
            highlighted = self.in_pieces(source, kwargs)
        if highlighted is None:
            return self.bridge.highlight_block(source, lang, opts, *args, **kwargs)
        return highlighted

    def in_pieces(self, source: str, kwargs: dict[str, Any]) -> str | None:
        """``source`` highlighted with the formatter options ``kwargs``: as the worker
        formatted it, or lexed a piece at a time here; None when it is Sphinx's to
        highlight (options of the project's own, text not to be cut, an error token)."""
        if kwargs.keys() - {"linenos"}:
            return None  # an option of the project's own: Sphinx knows best
        ahead = self.formatted.pop((source, kwargs.get("linenos", "")), None)
        if ahead is not None:
            html, keys = ahead
            self.used.update((key, self.stored[key]) for key in keys if key in self.stored)
            return zlib.decompress(html).decode()
        tokens = self._piece_tokens(source)
        if tokens is None:
            return None
        formatter = self.bridge.get_formatter(**kwargs)
        try:
            return pygments.format(tokens, formatter)  # type: ignore[no-any-return]
        except ErrorToken:
            return None

    def _piece_tokens(self, source: str) -> Iterator[tuple[_TokenType, str]] | None:
        """The tokens of ``source`` lexed a piece at a time, as they are consumed; None
        when it is not to be cut, or the project has a Python lexer of its own."""
        pieces = split_at_definitions(source)
        if pieces is None or has_own_python_lexer():
            return None
        return self._all_tokens(self.bridge.get_lexer(source, "python"), pieces)

    def _all_tokens(
        self, lexer: PythonLexer, pieces: list[str]
    ) -> Iterator[tuple[_TokenType, str]]:
        """The tokens of the pieces in order; a piece after which the lexer is not back
        where it starts (it took a string as still open) is lexed with the next one."""
        pending = ""
        following = _lexed(lexer, _FOLLOWING)
        joined = 0
        for number, piece in enumerate(pieces, 1):
            text = pending + piece
            if joined == _MOST_JOINED:  # a long string of definitions: the rest as one piece
                text += "".join(pieces[number:])
            last = number == len(pieces) or joined == _MOST_JOINED
            found = self._tokens(lexer, text, None if last else following)
            if found is None:
                pending, joined = text, joined + 1
                continue
            pending, joined = "", 0
            yield from ((_token_type(kind), value) for kind, value in found)
            if last:
                return

    def _tokens(self, lexer: PythonLexer, text: str, following: Tokens | None) -> Tokens | None:
        """The tokens of ``text``, or None when a piece may not end after it
        (``following``: the tokens of :data:`_FOLLOWING`; None for the last piece).

        Kept pickled: a module's tokens unpickled at once would be tens of
        megabytes for a module of 19,000 lines.
        """
        last = following is None
        key = hashlib.sha256(f"{last}\0{text}".encode("utf-8", "surrogatepass")).hexdigest()
        kept = self.stored.get(key)
        found: Tokens | None
        if kept is None:
            if following is None:
                found = _lexed(lexer, text)
            else:
                found = _lexed_before_more(lexer, text, following)
            kept = pickle.dumps(found, protocol=pickle.HIGHEST_PROTOCOL)
        else:
            found = pickle.loads(kept)
        self.used[key] = kept
        return found


def _lexed(lexer: PythonLexer, text: str) -> Tokens:
    return [(str(kind), value) for kind, value in lexer.get_tokens(text)]


def _lexed_before_more(lexer: PythonLexer, text: str, expected: Tokens) -> Tokens | None:
    """``text``'s tokens, if what follows it lexes as it would at its start.

    Pygments reads some valid strings otherwise than Python does (an escaped
    triple quote ends its docstring), and then takes the rest of the piece for
    an open string. Lexing ``text`` with a few definitions after it shows
    whether the lexer is back where a piece starts.
    """
    found = _lexed(lexer, text + _FOLLOWING)
    head, tail = found[: -len(expected)], found[-len(expected) :]
    if tail != expected or "".join(value for _, value in head) != text:
        return None
    return head


@functools.cache
def _token_type(name: str) -> _TokenType:
    return string_to_tokentype(name)


def split_at_definitions(source: str) -> list[str] | None:
    """``source`` cut before each line that starts a definition at the left margin
    (``class``, ``def``, ``async``, the first of its decorators); None when it
    should not be cut.

    Such a line may sit inside a string: a piece ends only where the lexer is
    back where a piece starts, which :func:`_lexed_before_more` checks; the two
    pieces are lexed as one otherwise. Text Pygments would change before
    lexing (carriage returns, a byte order mark, no final newline) is left whole.
    """
    if "\r" in source or source.startswith("\ufeff") or not source.endswith("\n"):
        return None
    cuts = [0]
    for found in _DEFINITION.finditer(source):
        start = found.start()
        if start and not source.startswith("@", source.rfind("\n", 0, start - 1) + 1):
            cuts.append(start)  # not the second decorator of a definition
    cuts.append(len(source))
    return [source[a:b] for a, b in pairwise(cuts) if b > a]


# ---------------------------------------------------------------------- Sphinx events


def install(app: Sphinx) -> list[Any]:
    """``html-collect-pages``, before viewcode's: highlight its modules in pieces."""
    shown = viewcode_modules(app.env)
    texts = {entry[0] for entry in shown.values() if entry}
    bridge = getattr(app.builder, "highlighter", None)
    if texts and isinstance(bridge, PygmentsBridge) and bridge.dest == "html":
        stored = _load(Path(app.doctreedir) / CACHE_FILE)
        formatted = _FORMATTED_AHEAD.pop(app, None)
        highlighter = ChunkedHighlighter(bridge, texts, stored, formatted)
        app.builder.highlighter = highlighter  # type: ignore[attr-defined]
    return []


def lexing_jobs(
    app: Sphinx, project: Project, module_names: Iterable[str]
) -> dict[str, Callable[[], LexedSource]]:
    """Jobs for the worker of a build that keeps no pieces yet (:mod:`refgen.sphinx.ahead`):
    each of the project's ``module_names`` lexed in pieces and formatted, for viewcode to
    show (its results are given to :func:`store_lexed`). A module viewcode does not show
    costs the worker its time, nothing more."""
    bridge = getattr(app.builder, "highlighter", None)
    if (
        "sphinx.ext.viewcode" not in app.extensions
        or not isinstance(bridge, PygmentsBridge)
        or bridge.dest != "html"
        or (Path(app.doctreedir) / CACHE_FILE).exists()
    ):
        return {}
    linenos = "inline" * bool(app.config.viewcode_line_numbers)  # as viewcode asks
    jobs: dict[str, Callable[[], LexedSource]] = {}
    for name in dict.fromkeys(module_names):
        found = project.module_text_and_tags(name)
        if found is not None:
            jobs[name] = functools.partial(_lexed_source, bridge, found[0], linenos)
    return jobs


def _lexed_source(bridge: PygmentsBridge, source: str, linenos: str) -> LexedSource:
    """``source`` lexed in pieces and formatted; never by Sphinx's highlighter, which warns
    in the build's own process of what it cannot highlight."""
    highlighter = ChunkedHighlighter(bridge, {source}, {})
    html = highlighter.in_pieces(source, {"linenos": linenos})
    compressed = zlib.compress(html.encode(), 1) if html is not None else None
    return LexedSource(source, highlighter.used, compressed, linenos)


_FORMATTED_AHEAD: weakref.WeakKeyDictionary[Sphinx, Formatted] = weakref.WeakKeyDictionary()
"""What the worker formatted, held from when it is taken until viewcode writes."""


def store_lexed(app: Sphinx, lexed: Iterable[LexedSource]) -> None:
    """The module texts the worker lexed: their pieces stored where :func:`install` finds
    the pieces an earlier build kept, so that they are not held while pages are written;
    the HTML held for :func:`install`."""
    pieces: LexedPieces = {}
    formatted: Formatted = {}
    for given in lexed:
        pieces.update(given.pieces)
        if given.html is not None:
            formatted[(given.source, given.linenos)] = (given.html, tuple(given.pieces))
    if pieces:
        _store(Path(app.doctreedir) / CACHE_FILE, pieces)
    if formatted:
        _FORMATTED_AHEAD[app] = formatted


def keep(app: Sphinx, exception: BaseException | None) -> None:
    """``build-finished``: store this build's pieces and give Sphinx its highlighter back."""
    highlighter = getattr(app.builder, "highlighter", None)
    if not isinstance(highlighter, ChunkedHighlighter):
        return
    app.builder.highlighter = highlighter.bridge  # type: ignore[attr-defined]
    if exception is None and highlighter.used:
        _store(Path(app.doctreedir) / CACHE_FILE, highlighter.used)


def _version_key() -> tuple[int, str]:
    return _FORMAT, pygments.__version__


def _load(path: Path) -> dict[str, bytes]:
    try:
        with path.open("rb") as file:
            version, found = pickle.load(file)
    except Exception:  # missing, unreadable, from another version: lex again
        return {}
    return found if version == _version_key() and isinstance(found, dict) else {}


def _store(path: Path, pieces: dict[str, bytes]) -> None:
    """Written whole or not at all: a half-written cache would be read as empty anyway."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        data = pickle.dumps((_version_key(), pieces), protocol=pickle.HIGHEST_PROTOCOL)
        replace_atomically(path, data)
    except OSError:
        pass

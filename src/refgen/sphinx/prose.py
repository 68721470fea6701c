"""Prose: the author's reST text of docstrings, turned into docutils nodes.

Most descriptions are a sentence or two. Text that docutils would show
exactly as written (:func:`is_verbatim`) becomes a paragraph without parsing;
plain paragraphs go through the inline parser; anything else gets a full
nested parse with its lines mapped to the Python file. Afterwards, mentions of
the class's attributes and helpers become links (:func:`link_mentions`): the
author's text is never rewritten as markup.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping

from docutils import nodes
from docutils.statemachine import StringList
from docutils.utils import urischemes
from sphinx import addnodes

_NOT_VERBATIM = re.compile(
    r"""[`*|\\'"@]|(?<!\w)_|_(?!\w)|://|--|\.\.\.|^\s|\s$"""
    # What docutils changes or reads as structure: tabs, control and line-breaking
    # characters, white space before a line break (no-break spaces too), bullets,
    # ``#)`` enumerators, and URI schemes written without ``//`` (``mailto:``, ``tel:``).
    r"|[\t\x00-\x08\x0b-\x1f\x7f\x85\u2028\u2029\u2023\u2043]|[^\S\n]\n|\#\)"
    r"|(?i:(?<![\w.+-])(?:" + "|".join(map(re.escape, sorted(urischemes.schemes))) + r"):)"
)
_LINE_BREAK = re.compile("[\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")
_BLOCK_START = re.compile(
    r"\s|[-*+\u2022\u2023\u2043](\s|$)|[-+/]\S|\.\.|>>>|\||#[.)]|\w+[.)](\s|$)|\(|:"
    r"|__(\s|$)"  # an anonymous target
)


def may_start_block(line: str) -> bool:
    """Whether ``line`` could belong to a reST block construct rather than a paragraph.

    Conservative: a list item, option, directive, comment, anonymous target,
    doctest, line block, field, enumerator, indented line, literal-block marker, or a line of
    punctuation only (a section rule or table border).
    """
    stripped = line.strip()
    return bool(
        _BLOCK_START.match(line)
        or _LINE_BREAK.search(line)  # docutils splits lines there too: anything may follow
        or stripped.endswith("::")
        or (stripped != "" and not any(c.isalnum() for c in stripped))
    )


def is_verbatim(text: str) -> bool:
    """Whether docutils would show ``text`` exactly as written, as one paragraph.

    True for prose that holds no block construct (:func:`may_start_block`), no
    inline markup (literals, emphasis, roles, references, substitutions,
    escapes), nothing docutils turns into a link (URIs, e-mail addresses) and
    nothing smart quotes would change (quotes, dashes, ellipses). Such text can
    be written as HTML directly.
    """
    lines = text.split("\n")
    return (
        bool(text)
        and not _NOT_VERBATIM.search(text)
        and not any(may_start_block(line) or not line.strip() for line in lines)
    )


def plain_paragraphs(lines: StringList) -> list[tuple[str, int]] | None:
    """The paragraphs of ``lines`` with their line numbers, if they hold nothing but text.

    Most descriptions are a sentence or two: those are parsed as inline markup,
    which costs a fraction of a nested reST parse (a state machine each). Lines
    that could start any block construct (a list, a directive, a literal block,
    a field, a table, a quote) return None, and get the full parse.
    """
    paragraphs: list[tuple[str, int]] = []
    current: list[str] = []
    start = 0
    for index, line in enumerate(lines.data):
        if not line.strip():
            if current:
                paragraphs.append(("\n".join(current), start))
                current = []
            continue
        if may_start_block(line):
            return None
        if not current:
            start = lines.info(index)[1] or 0
        current.append(line)
    if current:
        paragraphs.append(("\n".join(current), start))
    return paragraphs


_NOT_LINKED = (
    nodes.FixedTextElement,
    nodes.literal,
    nodes.reference,
    nodes.title,
    addnodes.pending_xref,
    addnodes.desc_signature,
)


_WORD = re.compile(r"(?<![\w.])\w+(?!\w)")
"""A whole word, not after a dot (``self.weights_total`` is an attribute of something else)."""

Finder = Callable[[str], list[re.Match[str]]]


def mention_finder(names: Iterable[str]) -> Finder | None:
    """What finds the bare mentions of the names holding an underscore
    (``optimizer_moments`` is code; "weights" may be English), as whole words not after
    a dot; None when no name holds one.

    Names made of word characters only (every Python name) are looked up word by word:
    one pattern of alternatives per page cost a compilation each (a tenth of node
    building on the deep bench shape).
    """
    bare = {name for name in names if "_" in name}
    if not bare:
        return None
    if all(_WORD.fullmatch(name) for name in bare):
        return lambda text: [match for match in _WORD.finditer(text) if match.group() in bare]
    longest_first = sorted(bare, key=len, reverse=True)
    pattern = re.compile("|".join(rf"(?<![\w.]){re.escape(name)}(?!\w)" for name in longest_first))
    return lambda text: list(pattern.finditer(text))


def _linked(node: nodes.Node) -> bool:
    parent = node.parent
    while parent is not None:
        if isinstance(parent, _NOT_LINKED):
            return True
        parent = parent.parent
    return False


def link_mentions(
    roots: Iterable[nodes.Node], names: Mapping[str, object], link: Callable[[str], nodes.Node]
) -> None:
    """Replace mentions of ``names`` under ``roots`` with ``link(name)``.

    An inline literal that is exactly a name is always linked; a bare word only
    when it holds an underscore. Text already inside code, a link or a title is
    left alone.
    """
    find = mention_finder(names)
    for root in roots:
        if not isinstance(root, nodes.Element):
            continue
        for literal in list(root.findall(nodes.literal)):
            if literal.astext() in names and not _linked(literal):
                literal.replace_self(link(literal.astext()))
        if find is None:
            continue
        for text in list(root.findall(nodes.Text)):
            found = find(text)
            if not found or _linked(text):
                continue
            pieces: list[nodes.Node] = []
            position = 0
            for match in found:
                if match.start() > position:
                    pieces.append(nodes.Text(text[position : match.start()]))
                pieces.append(link(match.group(0)))
                position = match.end()
            if position < len(text):
                pieces.append(nodes.Text(text[position:]))
            text.parent.replace(text, pieces)

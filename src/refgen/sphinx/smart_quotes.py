"""Smart quotes on refgen's pages, educated only in the blocks of text they can change.

Sphinx's ``SphinxSmartQuotes`` turns straight quotes, ``--`` and ``...`` into
typographic ones in every block of text a page holds: for each block it lists
the text nodes, looks up the block's language up the tree, educates the text
and replaces every text node, changed or not. A class page is mostly names,
figures and links: on the deep bench library, 620 of its 32,282 blocks hold a
character any ``smartquotes_action`` educates, and the pass was 3 % of a clean
build (bench/RESULTS.md).

On a page a refgen directive built, :class:`PageSmartQuotes` takes the place
of Sphinx's pass in the page's queue of transforms and runs that same pass,
Sphinx's and docutils' code, on the blocks that hold such a character. The
others come out of the pass unchanged, so they are left alone, unless an
element of the page names a language (a ``language-*`` class): then every
block goes through the pass, which warns of a language it has no quotes for.
``tests/sphinx/test_smart_quotes.py`` holds the two to the same pages.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from docutils import nodes
from docutils.transforms.universal import SmartQuotes
from sphinx.transforms import SphinxSmartQuotes

from refgen.sphinx.nodes import every_node

EDUCABLE = re.compile(r"""['"`\\\x00]|--|\.\.\.|\. \. \.|&quot;|&#\d+;""")
"""What a ``smartquotes_action`` that educates can change in a text: quotes, backticks,
escapes, dashes, ellipses (spaced too) and character references. The action ``-1``
turns typographic characters back to ASCII: with it, every block is educated."""

PAGE_MARK = "refgen_page"
"""The setting :func:`mark_page` gives a document that a refgen directive builds nodes for."""


def mark_page(document: nodes.document) -> None:
    """Note that ``document`` holds nodes of a refgen directive (called while it is read)."""
    setattr(document.settings, PAGE_MARK, True)


class PageSmartQuotes(SphinxSmartQuotes):
    """Sphinx's smart quotes, on a refgen page, for the blocks of text they can change."""

    default_priority = SphinxSmartQuotes.default_priority - 1

    def apply(self, **kwargs: Any) -> None:
        settings = self.document.settings
        if not getattr(settings, PAGE_MARK, False):
            return
        delattr(settings, PAGE_MARK)
        if not self._take_sphinx_pass():
            return
        blocks = list(text_blocks(self.document))
        if not names_a_language(self.document) and self.config.smartquotes_action != "-1":
            blocks = [block for block in blocks if EDUCABLE.search(block_text(block))]
        if blocks:
            self._educate(blocks)

    def _take_sphinx_pass(self) -> bool:
        """Take Sphinx's own pass out of the page's queue; False if it is not queued."""
        queue = self.document.transformer.transforms
        ours = [entry for entry in queue if entry[1] is SphinxSmartQuotes]
        for entry in ours:
            queue.remove(entry)
        return bool(ours)

    def _educate(self, blocks: list[nodes.TextElement]) -> None:
        """Sphinx's pass (``SphinxSmartQuotes.apply``) over ``blocks`` only."""
        document = self.document
        self.document = _Blocks(document, blocks)  # type: ignore[assignment]
        try:
            SphinxSmartQuotes.apply(self)
        finally:
            self.document = document


def text_blocks(document: nodes.document) -> Iterator[nodes.TextElement]:
    """The blocks of text docutils' smart quotes educate one at a time, in document order."""
    for node in document.findall(nodes.TextElement):
        if isinstance(node, SmartQuotes.nodes_to_skip):
            continue
        if isinstance(node.parent, nodes.TextElement):
            continue
        yield node


def block_text(block: nodes.TextElement) -> str:
    """The text of ``block``'s text nodes, in no particular order: a pattern within one
    node is found all the same (one across two nodes is no text the pass educates)."""
    return "".join(str(node) for node in every_node([block]) if isinstance(node, nodes.Text))


def names_a_language(document: nodes.document) -> bool:
    """Whether an element of ``document`` has a ``language-*`` class (docutils' way to
    give a block a language of its own)."""
    return any(
        isinstance(node, nodes.Element)
        and any(name.startswith("language-") for name in node["classes"])
        for node in every_node([document])
    )


class _Blocks:
    """A document whose ``findall`` yields only the given blocks, for the smart quotes
    pass; everything else is the document's own."""

    def __init__(self, document: nodes.document, blocks: list[nodes.TextElement]) -> None:
        self._document = document
        self._blocks = blocks

    def findall(self, *args: object, **kwargs: object) -> Iterator[nodes.TextElement]:
        return iter(self._blocks)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._document, name)

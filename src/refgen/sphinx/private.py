"""Sphinx's and docutils' private names: the one module of refgen that reads them.

Each accessor below reaches one name that Sphinx or docutils does not
promise to keep, and says which refgen feature needs it and what refgen
does when it is gone (each degrades to what Sphinx does alone, never to a
crash). :data:`PRIVATE_NAMES` lists them all: ``tests/sphinx/test_sphinx_private.py``
checks each against the installed Sphinx and docutils, and fails naming the
name and the feature, so an upgrade that changes one is seen at once rather
than as a build that quietly got slower or less exact.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from docutils.parsers.rst import directives
from sphinx.search import SearchLanguage

if TYPE_CHECKING:
    from docutils.parsers.rst import Directive
    from sphinx.config import Config
    from sphinx.environment import BuildEnvironment
    from sphinx.events import EventListener
    from sphinx.search import IndexBuilder


@dataclass(frozen=True)
class PrivateName:
    """A name refgen reads that its owner does not publish."""

    owner: str
    """Where the name lives: a class (its instances hold it) or a module."""
    name: str
    feature: str
    """The refgen feature that depends on it."""


VIEWCODE_MODULES = PrivateName(
    "sphinx.environment.BuildEnvironment",
    "_viewcode_modules",
    "highlighted source (sphinx.ext.viewcode's modules: source links, lexing in pieces, "
    "fresh module text in incremental builds)",
)
DOCTREE_CACHE = PrivateName(
    "sphinx.environment.BuildEnvironment",
    "_write_doc_doctree_cache",
    "memory: letting go of the doctrees read (refgen.sphinx.memory)",
)
INDEX_ENTRIES = PrivateName(
    "sphinx.environment.BuildEnvironment",
    "_search_index_index_entries",
    "the search index of an incremental build (refgen.sphinx.search_index)",
)
RAW_CONFIG = PrivateName(
    "sphinx.config.Config",
    "_raw_config",
    "settings: refusing unknown refgen_ names, and locating conf.py in warnings",
)
LISTENERS = PrivateName(
    "sphinx.events.EventManager",
    "listeners",
    "compact tables: whether a later doctree-resolved handler may read table cells",
)
INDEX_TITLES = PrivateName(
    "sphinx.search.IndexBuilder",
    "_titles",
    "the search index of an incremental build (refgen.sphinx.search_index)",
)
INDEX_WORDS = PrivateName(
    "sphinx.search.IndexBuilder",
    "_mapping",
    "the search index of an incremental build: words no page has any more",
)
INDEX_TITLE_WORDS = PrivateName(
    "sphinx.search.IndexBuilder",
    "_title_mapping",
    "the search index of an incremental build: title words no page has any more",
)
TABLE_ROW_INDICES = PrivateName(
    "sphinx.writers.html5.HTML5Translator",
    "_table_row_indices",
    "compact tables written straight to HTML (row-even and row-odd, as Sphinx numbers rows)",
)
HTML_BASE = PrivateName(
    "docutils.writers",
    "_html_base",
    "compact tables: recognising the stock HTML translator's methods",
)
DIRECTIVES = PrivateName(
    "docutils.parsers.rst.directives",
    "_directives",
    "docstring sandbox: directives refused inside docstrings (refgen.sphinx.sandbox)",
)
DIRECTIVE_REGISTRY = PrivateName(
    "docutils.parsers.rst.directives",
    "_directive_registry",
    "docstring sandbox: docutils' own directives, found before they are first loaded",
)

WORD_PATTERN = PrivateName(
    "sphinx.search.SearchLanguage",
    "_word_re",
    "search words: a compact table's data texts given to the index as one text, where the "
    "language splits words by Sphinx's own pattern (refgen.sphinx.compact_tables)",
)

PRIVATE_NAMES = (
    VIEWCODE_MODULES,
    DOCTREE_CACHE,
    INDEX_ENTRIES,
    RAW_CONFIG,
    LISTENERS,
    INDEX_TITLES,
    INDEX_WORDS,
    INDEX_TITLE_WORDS,
    TABLE_ROW_INDICES,
    HTML_BASE,
    DIRECTIVES,
    DIRECTIVE_REGISTRY,
    WORD_PATTERN,
)
"""Every private name refgen reads."""

HTML_BASE_MODULE = f"{HTML_BASE.owner}.{HTML_BASE.name}"
"""Where docutils defines the HTML translator methods Sphinx's translator inherits."""


def viewcode_modules(env: BuildEnvironment) -> dict[str, Any]:
    """sphinx.ext.viewcode's modules: name -> ``(code, tags, used, refname)``, or False
    for a module it could not read. Empty before viewcode read a page, and when the
    name is gone: refgen then neither links to nor lexes any module page."""
    found = getattr(env, VIEWCODE_MODULES.name, None)
    return found if isinstance(found, dict) else {}


def forget_doctrees_read(env: BuildEnvironment) -> list[Any]:
    """The doctrees Sphinx keeps from reading until it writes their pages, now dropped
    from its cache (Sphinx reads a dropped one back from disk); none when the name is
    gone, and the build then holds every doctree as Sphinx does."""
    cache = getattr(env, DOCTREE_CACHE.name, None)
    if not isinstance(cache, dict):
        return []
    doctrees = list(cache.values())
    cache.clear()
    return doctrees


def search_index_entries(env: BuildEnvironment) -> dict[str, list[tuple[str, str, str]]] | None:
    """Each written page's general-index entries for the search index; None when the name
    is gone (the incremental search index then stays as Sphinx leaves it)."""
    found = getattr(env, INDEX_ENTRIES.name, None)
    return found if isinstance(found, dict) else None


def indexed_titles(indexer: IndexBuilder) -> dict[str, str | None]:
    """The pages the search index lists, with their titles."""
    titles: dict[str, str | None] = getattr(indexer, INDEX_TITLES.name)
    return titles


def indexed_words(indexer: IndexBuilder) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """The search index's words and title words, each with the pages that hold it."""
    words: dict[str, set[str]] = getattr(indexer, INDEX_WORDS.name)
    title_words: dict[str, set[str]] = getattr(indexer, INDEX_TITLE_WORDS.name)
    return words, title_words


def raw_config(config: Config) -> dict[str, Any]:
    """``conf.py``'s names as the file set them (``__file__`` among them); empty when the
    name is gone (no unknown ``refgen_`` name is refused then)."""
    found = getattr(config, RAW_CONFIG.name, None)
    return found if isinstance(found, dict) else {}


def event_listeners(app: object, event: str) -> list[EventListener]:
    """The handlers connected to ``event``, with their priorities; empty when unknown."""
    listeners = getattr(getattr(app, "events", None), LISTENERS.name, None)
    return list(listeners.get(event, [])) if isinstance(listeners, dict) else []


def table_row_indices(translator: Any) -> list[int]:
    """The HTML translator's count of rows written in each open table."""
    indices: list[int] = getattr(translator, TABLE_ROW_INDICES.name)
    return indices


def directive_registries() -> tuple[dict[str, type[Directive]], dict[str, tuple[str, str]]]:
    """docutils' directives loaded so far (name -> class), and its own directives by name
    (name -> module and class name), loaded or not."""
    loaded: dict[str, type[Directive]] = getattr(directives, DIRECTIVES.name)
    known: dict[str, tuple[str, str]] = getattr(directives, DIRECTIVE_REGISTRY.name)
    return loaded, known


WORDS = re.compile(r"\w+")
"""Sphinx's word pattern, runs of word characters: a space is never inside a word."""


def splits_as_sphinx_does(language: object) -> bool:
    """Whether a search language splits text into words by :data:`WORDS`, as Sphinx's
    default does: Sphinx's own ``SearchLanguage.split``, replaced neither on the language,
    nor on its class, nor on ``SearchLanguage`` itself, and a word pattern of the same
    text and flags, wherever it is set. False when the pattern's name is gone: each text
    is then given to the index apart, as its node would be."""
    split = getattr(type(language), "split", None)
    pattern = getattr(language, WORD_PATTERN.name, None)
    return (
        split is SearchLanguage.split
        and (split.__module__, split.__qualname__) == ("sphinx.search", "SearchLanguage.split")
        and "split" not in getattr(language, "__dict__", {})
        and isinstance(pattern, re.Pattern)
        and (pattern.pattern, pattern.flags) == (WORDS.pattern, WORDS.flags)
    )

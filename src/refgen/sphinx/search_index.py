"""Make an incremental build's search index the one a clean build writes.

Sphinx's HTML search index lists, beside words and titles, every entry of the
general index (``.. index::``, and the entries of every object description:
each scenario class, field and property). An incremental build loads the
previous ``searchindex.js`` back, but the loader restores words and titles
only; the index entries are kept in the environment, which Sphinx stores
before any page is written, so the stored copy never holds them. The index
such a build writes then lists the entries of the pages it wrote and none of
the others (sphinx-doc/sphinx#12599), and the search page stops finding most
classes after the first edit.

:func:`complete_search_index` reads them back from the previous index once
the pages are written, before the new index is dumped. It also drops the words
no page has any more (a removed page's, or one an edit took out of a page):
Sphinx keeps them, each listing no page. The search index an incremental build
writes is then the one a clean build writes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from sphinx.application import Sphinx
from sphinx.builders.html import StandaloneHTMLBuilder
from sphinx.util import logging

from refgen.sphinx import private

if TYPE_CHECKING:
    from sphinx.search import IndexBuilder  # imported by the HTML builder when it writes

logger = logging.getLogger(__name__)

#: One index entry of a page, as Sphinx's indexer holds it: the entry's text,
#: its target's id, and ``"main"`` for a main entry (``""`` otherwise).
IndexEntry = tuple[str, str, str]


def complete_search_index(app: Sphinx) -> list[tuple[str, dict[str, Any], str]]:
    """``html-collect-pages``: runs once every page is written and before the search
    index is dumped; adds no page."""
    builder = app.builder
    indexer = getattr(builder, "indexer", None)
    if indexer is None or not isinstance(builder, StandaloneHTMLBuilder):
        return []
    restore_index_entries(builder, indexer)
    drop_words_no_page_has(builder, indexer)
    return []


def restore_index_entries(builder: StandaloneHTMLBuilder, indexer: IndexBuilder) -> None:
    """Give each page not written in this build the index entries the previous
    search index lists for it."""
    entries = private.search_index_entries(builder.env)
    if entries is None:
        return
    # The index lists the pages Sphinx still has a title for; every page written in
    # this build is in ``entries`` already. A clean build writes every page in name
    # order, and the written index keeps each entry's pages in that order.
    listed = sorted(set(private.indexed_titles(indexer)) & set(builder.env.all_docs))
    if all(page in entries for page in listed):
        return
    previous = _previous_search_index(builder)
    restored = index_entries_by_page(previous) if previous is not None else {}
    complete = {
        page: entries[page] if page in entries else restored.get(page, []) for page in listed
    }
    entries.clear()
    entries.update(complete)


def drop_words_no_page_has(builder: StandaloneHTMLBuilder, indexer: IndexBuilder) -> None:
    """Forget the words (and title words) that no page left in the site has: those of
    removed pages, and those an edit took out of a page written again."""
    indexer.prune(builder.env.all_docs)  # Sphinx prunes again before dumping; it costs little
    for words in private.indexed_words(indexer):
        for word in [word for word, pages in words.items() if not pages]:
            del words[word]


def index_entries_by_page(frozen: Mapping[str, Any]) -> dict[str, list[IndexEntry]]:
    """Each page's index entries, from a search index as Sphinx writes it.

    The written index groups entries by their lower-cased text; each page's
    entries under one text keep their order, which is all the written index
    shows of it. An entry of another shape than this Sphinx writes is left out,
    and only that entry.
    """
    docnames = frozen.get("docnames", ())
    entries = frozen.get("indexentries", {})
    by_page: dict[str, list[IndexEntry]] = {}
    if not isinstance(docnames, list | tuple) or not isinstance(entries, Mapping):
        return by_page
    for text, places in entries.items():
        for place in places if isinstance(places, list | tuple) else ():
            found = _index_entry(docnames, text, place)
            if found is not None:
                by_page.setdefault(found[0], []).append(found[1])
    return by_page


def _index_entry(docnames: Sequence[Any], text: Any, place: Any) -> tuple[str, IndexEntry] | None:
    """``(page, entry)`` of one place an entry is listed at, or None if it is malformed."""
    if not isinstance(place, list | tuple) or len(place) != 3:
        return None
    index, target_id, main = place
    if not isinstance(index, int) or not 0 <= index < len(docnames):
        return None
    if not isinstance(text, str) or not isinstance(target_id, str):
        return None
    page = docnames[index]
    return (page, (text, target_id, "main" if main else "")) if isinstance(page, str) else None


def _previous_search_index(builder: StandaloneHTMLBuilder) -> Mapping[str, Any] | None:
    """The search index the last build wrote to the output folder, or None if it has none."""
    path = builder.outdir / builder.searchindex_filename
    mode = "r" if builder.indexer_dumps_unicode else "rb"
    try:
        with open(path, mode, encoding="utf-8" if mode == "r" else None) as stream:
            frozen = builder.indexer_format.load(stream)
    except FileNotFoundError:
        return None
    except Exception as error:
        # Sphinx has said already that the index will be incomplete.
        logger.debug("[refgen] previous search index %s unreadable: %s", path, error)
        return None
    if not isinstance(frozen, Mapping) or frozen.get("envversion") != builder.env.version:
        return None  # Sphinx treats an index of another version as absent
    return frozen

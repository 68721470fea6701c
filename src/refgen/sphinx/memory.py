"""What a build keeps in memory, and how much of it the garbage collector looks at.

A doctree is a web of cycles (every node points at its parent and at its
document), so each page read or written leaves garbage only the collector can
free; the collector finds it by walking every object the build holds, and
Sphinx holds more with every page. On the 600-class bench library that walk
was 15 s of a 68 s build (bench/RESULTS.md). Three things keep it short:

- what lives for the whole build is frozen (``gc.freeze``), so collections
  skip it: Sphinx and its extensions before the pickled environment is
  loaded, the environment before the library is loaded, the
  library once it is loaded, the analysis once the pages are planned, what
  the pages read so far left in the environment (every
  :data:`PAGES_BETWEEN_FREEZES` pages, before the next one is read, when
  no page is half read), everything read when writing starts, and what
  writing keeps (every :data:`PAGES_BETWEEN_FREEZES` pages written one at a
  time). Each freeze follows a collection, so little garbage is frozen with it;
- Sphinx's copy of each doctree read is let go once the page is stored on disk
  (Sphinx reads it back to write the page), and taken apart before the next
  page is read;
- a page written one at a time has its doctree's cycles cut once the next
  page is resolved.

A doctree taken apart has no cycles left, so reference counting frees it at
once, and the collector never walks it.

All of it is undone at the end of the build (``gc.unfreeze``), or when
planning fails; what a build that never got to its end froze (Sphinx
stopped between reading ``conf.py`` and starting the builder) is undone when
refgen is next set up in the same process. After a build that did not fail,
everything is frozen once more as the process exits: Python's exit otherwise
walks every object the process holds, more than a second after a build of
the bench library.
"""

from __future__ import annotations

import atexit
import gc
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.builders.html import StandaloneHTMLBuilder

from refgen.sphinx import private
from refgen.sphinx.nodes import every_node

PAGES_BETWEEN_FREEZES = 25
"""On the 600-class bench library, freezing every 100 pages read took the collector's time
while pages are read from 5.6 to 1.4 s, with the same peak memory; every 25 pages, read
or written, took it from 1.7 to 1.3 s, with 2 MB more at the peak (bench/RESULTS.md)."""


@dataclass
class _BuildMemory:
    written: tuple[str, nodes.document] | None = None
    """The page written last and its doctree, to be taken apart once it is done with."""
    read: int = 0
    """Pages read (or about to be) since the build started."""
    resolved: int = 0
    """Pages resolved to be written one at a time since the build started."""


_builds: weakref.WeakKeyDictionary[Sphinx, _BuildMemory] = weakref.WeakKeyDictionary()


def _memory(app: Sphinx) -> _BuildMemory:
    return _builds.setdefault(app, _BuildMemory())


_frozen_for_a_build = False
"""Whether refgen froze objects for a build that has not ended yet."""


def freeze_before_the_environment_loads(app: Sphinx, config: object) -> None:
    """``config-inited``, last: Sphinx, ``conf.py`` and the extensions are loaded, and the
    pickled environment is next. Unpickling it sets off full collections, which would
    otherwise walk all of Sphinx each time: on the 600-class bench library, loading the
    environment took 0.25 s, and 0.10 s frozen first (bench/RESULTS.md)."""
    freeze_what_sphinx_loaded()


def freeze_what_sphinx_loaded() -> None:
    """At ``config-inited``, then again at ``builder-inited`` before the library is
    loaded: Sphinx, its environment and the extensions live for the whole build. Only
    the young generations are collected first: little of it is garbage, and a full
    collection would walk all of it."""
    global _frozen_for_a_build
    gc.collect(1)
    gc.freeze()
    _frozen_for_a_build = True


def thaw_what_an_unfinished_build_froze() -> None:
    """When refgen is set up: a build that stopped before its end (an extension or the
    theme failing as Sphinx starts) emitted no ``build-finished``, so what it froze is
    let go here, before this build freezes anything."""
    if _frozen_for_a_build:
        _thaw()


@contextmanager
def thawed_on_failure() -> Iterator[None]:
    """Undo the freezes of a step that fails: Sphinx emits no ``build-finished`` for a
    build that fails before it starts (in ``builder-inited``)."""
    try:
        yield
    except BaseException:
        _thaw()
        raise


def freeze_what_lives_on() -> None:
    """Collect what is garbage now, then leave everything else out of later collections.

    After the first freeze of a build, a full collection walks only what was
    made since the last one: the library and its registry once they are
    loaded, the analysis once the pages are planned, the pages once they are
    read. On the 600-class bench library, freezing at each of these steps took
    the collector's time before reading from 1.2 to 0.6 s of an edit build
    (bench/RESULTS.md).
    """
    gc.collect()
    gc.freeze()


def release_read_doctrees(app: Sphinx, doctree: nodes.document) -> None:
    """``doctree-read``: let go of the doctrees read before this page.

    Sphinx keeps every doctree it reads in memory until it writes the page
    (``BuildEnvironment._write_doc_doctree_cache``), so a site of many pages
    would hold all of them at once. Each was pickled to the doctree folder
    before the next page is read; when it is missing from the cache, Sphinx
    unpickles it. Read one at a time, the cache is already empty here
    (:func:`let_go_of_pages_read`). A process reading pages in parallel gets
    no ``env-purge-doc``: Sphinx 9 caches nothing there, and for a version
    that does, this keeps the cache to one page.
    """
    _forget_cached_doctrees(app)


def _forget_cached_doctrees(app: Sphinx, *, take_them_apart: bool = False) -> None:
    for doctree in private.forget_doctrees_read(app.env):
        if take_them_apart:
            take_apart(doctree)


def let_go_of_pages_read(app: Sphinx, env: object, docname: str) -> None:
    """``env-purge-doc``, emitted before each page is read: take apart the doctrees of the
    pages read before it (each is on disk by now), and now and then freeze what they
    left in the environment.

    No page is half read at this point, so no doctree is frozen with it. The
    doctree of the page read last is handed to ``doctree-read`` handlers of
    other extensions too: one that keeps a node (``sphinx.ext.todo`` keeps its
    ``todo`` nodes) keeps the node and everything below it, but no longer its
    parent.
    """
    _forget_cached_doctrees(app, take_them_apart=True)
    memory = _memory(app)
    memory.read += 1
    if memory.read % PAGES_BETWEEN_FREEZES == 0:
        freeze_what_lives_on()


def freeze_what_was_read(app: Sphinx, builder: object) -> None:
    """``write-started``: the environment the pages were read into lives until the end."""
    _forget_cached_doctrees(app)
    freeze_what_lives_on()


def take_apart_written_doctree(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """``doctree-resolved``, after every other handler: cut the cycles of the page
    written before this one, and now and then freeze what writing keeps (the search
    index's words, the pages' titles).

    Only for Sphinx's HTML builders writing one page at a time, which write
    each page as soon as it is resolved: writing in parallel, Sphinx resolves a
    batch of pages before it writes any of them, and another builder may do
    the same. The page just resolved is frozen with the rest; it is taken apart
    when the next is resolved, and reference counting frees a frozen node as
    any other.
    """
    memory = _memory(app)
    if memory.written is not None:
        if not _done_with(app, *memory.written, doctree):
            return  # resolved inside its page's resolving (by another extension's handler)
        take_apart(memory.written[1])
    writes_each_at_once = isinstance(app.builder, StandaloneHTMLBuilder) and not getattr(
        app.builder, "parallel_ok", False
    )
    memory.written = (docname, doctree) if writes_each_at_once else None
    if not writes_each_at_once:
        return
    memory.resolved += 1
    if memory.resolved % PAGES_BETWEEN_FREEZES == 0:
        freeze_what_lives_on()


def _done_with(app: Sphinx, docname: str, kept: nodes.document, resolved: nodes.document) -> bool:
    """Whether the page ``docname`` (whose doctree is ``kept``) is written, now that
    ``resolved`` is: the builder wrote it last. Not so when another extension's
    ``doctree-resolved`` handler resolves a page while ``docname``'s is resolved."""
    return kept is not resolved and getattr(app.builder, "current_docname", None) == docname


def take_apart(doctree: nodes.document) -> None:
    """Cut every reference that points back up the tree (to a parent, to the document),
    and empty the document itself.

    Each node below the document keeps its children and attributes, so a node
    someone still holds (a catalogue of messages keeps the nodes it found) keeps
    its content; whatever still holds the document (the translator that wrote
    it, itself garbage in a cycle) holds an empty object.
    """
    messages = [*doctree.parse_messages, *doctree.transform_messages]
    for node in every_node([doctree, *messages]):
        node.parent = None
        node.document = None  # type: ignore[assignment]
    vars(doctree).clear()


def forget_build(app: Sphinx, exception: BaseException | None) -> None:
    """``build-finished``: collect as usual again; after a build that did not fail, until
    the process exits."""
    _builds.pop(app, None)
    _thaw()
    atexit.unregister(_freeze_at_exit)  # registered once per process, however many builds
    if exception is None:
        atexit.register(_freeze_at_exit)


def _thaw() -> None:
    global _frozen_for_a_build
    gc.unfreeze()
    _frozen_for_a_build = False


def _freeze_at_exit() -> None:
    """Leave what the process still holds out of the collections Python runs as it exits.

    Those collections walk every object the process holds (the environment,
    the library, Sphinx) to finalize cyclic garbage: 1.4-1.6 s at the end of
    an edit build of the 600-class bench library, 0.05 s frozen
    (bench/RESULTS.md). Python does not promise to finalize objects still
    alive at exit (``object.__del__``), and a build that finished has closed
    what it wrote. One that failed may not have: Sphinx's doctest builder
    closes its report only in ``finish`` or when the collector frees it, so
    after a failed build the process exits as Python makes it.
    """
    gc.freeze()

"""What each builder last finished writing, so that no output outlives the page it shows.

Sphinx writes a page again when its source file is newer than its output. The
source of a generated page, its stub, stays as it is when the Python it shows
changes: refgen reads the page again instead (:mod:`refgen.sphinx.incremental`),
and Sphinx writes what it read. Sphinx's file times then miss two cases:

- a build that stops while pages are written (Ctrl-C, an extension's
  exception): Sphinx saved the environment, with the pages it read, before it
  wrote any of them;
- builders sharing a doctree folder (``sphinx -M``): a page is read once, by
  whichever builds first, and written by that builder only.

So, once a build ends without failing, each builder and output folder keeps in
the doctree folder when each page it wrote had last been read and what it wrote
around the pages (HTML: the contents tree and each page's neighbours). The next
build writes again every page read since, and every page whose surroundings
changed since (:func:`refgen.sphinx.incremental.pages_whose_surroundings_changed`).
"""

from __future__ import annotations

import contextlib
import pickle
from dataclasses import dataclass
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.environment import CONFIG_CHANGED, CONFIG_EXTENSIONS_CHANGED, BuildEnvironment

from refgen.files import replace_atomically
from refgen.sphinx.navigation import navigation_is_shared
from refgen.sphinx.state import Surroundings, build_state
from refgen.sphinx.write_warnings import pages_written

FILE = "refgen-written.pickle"
"""In the doctree folder: what each builder and output folder last finished writing."""

Key = tuple[str, str]
"""A builder's name and its output folder."""


@dataclass(frozen=True)
class Written:
    """What one builder's last build that did not fail wrote."""

    read: dict[str, int]
    """When each page had last been read (Sphinx's ``env.all_docs``)."""
    surroundings: Surroundings | None = None
    """What it wrote around the pages (HTML builders)."""
    layout: str = ""
    """What shaped every page it wrote, whatever the page shows (:func:`page_layout`)."""


def page_layout(app: Sphinx) -> str:
    """What shapes every HTML page beside what it shows: Sphinx's digests of the HTML
    settings and of the tags, the time of the newest template, how many times the
    environment's settings changed (a change to any of them makes Sphinx write every
    page again), and whether the navigation is shared."""
    info = getattr(app.builder, "build_info", None)
    templates = getattr(app.builder, "templates", None)
    newest = templates.newest_template_mtime() if templates is not None else 0.0
    parts = (
        str(getattr(info, "config_hash", "")),
        str(getattr(info, "tags_hash", "")),
        repr(newest),
        repr(build_state(app.env).settings_changes),
        repr(navigation_is_shared(app)),
    )
    return "\0".join(parts)


def count_settings_changes(app: Sphinx) -> None:
    """``builder-inited``: Sphinx found the environment's settings (``release``, the
    extensions, ...) changed since it was saved, and reads every page again. Counted in
    the environment, so a build stopped before it wrote every page leaves the next one
    a layout that differs from the last one written."""
    if app.env.config_status in (CONFIG_CHANGED, CONFIG_EXTENSIONS_CHANGED):
        build_state(app.env).settings_changes += 1


def key_of(app: Sphinx) -> Key:
    return (app.builder.name, str(app.outdir))


def last_written(app: Sphinx) -> Written | None:
    """What this builder and output folder last finished writing (None: not known)."""
    found = _kept(app).get(key_of(app))
    return found if isinstance(found, Written) and isinstance(found.read, dict) else None


def pages_read_since_written(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """``env-updated``: the pages read since this builder last finished writing them
    (every page, when that is not known). Those read in this build are written
    anyway; the others are what a build that stopped, or another builder, read."""
    last = last_written(app)
    read = env.all_docs
    if last is None:
        return sorted(read)
    return sorted(d for d, when in read.items() if last.read.get(d) != when)


def keep_what_was_written(app: Sphinx, exception: BaseException | None) -> None:
    """``build-finished``, before refgen's other handlers: what this build wrote, for
    the next. A build that failed keeps nothing, and one that wrote only some pages
    (files named on the command line) keeps the others as they were: the next build
    writes again what they may show that was not written."""
    if exception is not None:
        return
    last = last_written(app)
    before = last.read if last is not None else {}
    written = pages_written()
    every_page = isinstance(app.builder.get_outdated_docs(), str)  # "all documents"
    read: dict[str, int] = {}
    for docname, when in app.env.all_docs.items():
        if every_page or docname in written or before.get(docname) == when:
            read[docname] = when
        elif docname in before:  # read since it was written, and not written yet
            read[docname] = before[docname]
    all_written = read == app.env.all_docs
    surroundings = build_state(app.env).surroundings_now
    layout = page_layout(app) if app.builder.format == "html" else ""
    if not all_written and last is not None:
        # The pages around which they changed, or whose layout did, may be unwritten.
        surroundings, layout = last.surroundings, last.layout
    kept = {k: v for k, v in _kept(app).items() if isinstance(v, Written)}
    kept[key_of(app)] = Written(read, surroundings, layout)
    path = Path(app.doctreedir) / FILE
    if path.parent.is_dir():
        with contextlib.suppress(OSError):  # only the next build's time is lost
            replace_atomically(path, pickle.dumps(kept, pickle.HIGHEST_PROTOCOL))


def _kept(app: Sphinx) -> dict[Key, object]:
    try:
        found = pickle.loads((Path(app.doctreedir) / FILE).read_bytes())
    except Exception:  # missing, damaged, or written by another refgen: not known
        return {}
    return found if isinstance(found, dict) else {}

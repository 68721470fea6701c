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
from sphinx.environment import BuildEnvironment

from refgen.files import replace_atomically
from refgen.sphinx.state import Surroundings, build_state

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
    """``build-finished``: what this build wrote, for the next (a build that failed
    keeps nothing: its next build writes again what it may not have written)."""
    if exception is not None:
        return
    state = build_state(app.env)
    kept = {k: v for k, v in _kept(app).items() if isinstance(v, Written)}
    kept[key_of(app)] = Written(dict(app.env.all_docs), state.surroundings_now)
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

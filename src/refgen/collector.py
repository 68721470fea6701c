"""Pausing the garbage collector while a burst of objects without cycles is made.

Parsing the 19,000-line module of the bench library makes about a million
syntax-tree nodes. Made with the collector running, they set off full
collections, each walking every object the process holds (about a quarter of
a second each, bench/RESULTS.md), and none of them can free anything: no node
of a syntax tree, and nothing in a pickle of tokens, refers back to another.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """No automatic collection inside the block; the collector's state is restored after it."""
    was_enabled = gc.isenabled()
    try:
        gc.disable()  # inside: a time limit's signal may interrupt any line
        yield
    finally:
        if was_enabled:
            gc.enable()

"""Results computed ahead, in a forked process, while the build reads pages.

A clean build of a large library spends more than a tenth of its time computing
registry values and elasticities (:mod:`refgen.evaluate.sensitivity`: every
numeric input of every registry entry scaled by 1 %, every figure computed
again; bench/RESULTS.md). That work needs nothing the build does meanwhile,
and Sphinx reads pages on one core. :class:`AheadWorker` forks one process that computes the
results for a list of keys, in the order the pages will need them, and sends
each back through a pipe; the build takes each one when it composes the page.

Forking keeps everything already loaded (the library, its registry, the
analysis), so nothing is imported or analysed twice, and the child runs user
code exactly as the build would: through the same guarded calls, with the
same time limits. The pipe's buffer bounds how far ahead the child runs.

Whatever the child cannot give (it died, a result did not pickle, or the key
is asked for from another process, such as a parallel Sphinx reader) is
simply absent: the caller computes it itself, as it would without a worker.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from collections.abc import Callable, Hashable, Iterable
from multiprocessing.connection import Connection
from typing import Any

FORK_AVAILABLE = sys.platform == "linux" and "fork" in multiprocessing.get_all_start_methods()
"""Only Linux: forking a process that has imported arbitrary libraries is unsafe on macOS."""

_ABSENT = object()


class AheadWorker:
    """A forked process computing ``compute(key)`` for each key, in order."""

    def __init__(self, compute: Callable[[Any], Any], keys: Iterable[Hashable]) -> None:
        self.keys = list(dict.fromkeys(keys))
        self._expected = set(self.keys)
        self._results: dict[Hashable, Any] = {}
        self._owner = os.getpid()
        context = multiprocessing.get_context("fork")
        self._receiver, sender = context.Pipe(duplex=False)
        self._process = context.Process(
            target=_compute_all, args=(compute, self.keys, sender), daemon=True
        )
        self._process.start()
        sender.close()  # the child holds the only sending end: its exit ends the stream
        self._done = False

    @property
    def pid(self) -> int | None:
        return self._process.pid

    def take(self, key: Hashable) -> Any:
        """The child's result for ``key``, once; :data:`NOT_GIVEN` if it has none to give."""
        if os.getpid() != self._owner or key not in self._expected:
            return NOT_GIVEN
        self._expected.discard(key)
        while key not in self._results and not self._done:
            self._receive_one()
        found = self._results.pop(key, _ABSENT)
        return NOT_GIVEN if found is _ABSENT else found

    def _receive_one(self) -> None:
        try:
            key, given, result = self._receiver.recv()
        except (EOFError, OSError):  # the child finished, or died
            self._done = True
            return
        except Exception:  # a result that does not unpickle here: that one is lost
            return
        if given:
            self._results[key] = result

    def close(self) -> None:
        """Stop the child if it is still running, and let go of what it sent."""
        if os.getpid() != self._owner:
            return
        self._done = True
        self._results.clear()
        self._expected.clear()
        if self._process.is_alive():
            self._process.terminate()
        self._process.join(timeout=5)
        self._receiver.close()


class _NotGiven:
    def __repr__(self) -> str:
        return "NOT_GIVEN"


NOT_GIVEN: Any = _NotGiven()
"""What :meth:`AheadWorker.take` returns for a key whose result the child did not give."""


def _compute_all(compute: Callable[[Any], Any], keys: list[Hashable], sender: Connection) -> None:
    """The child: each key's result, sent as soon as it is computed."""
    for key in keys:
        try:
            sender.send((key, True, compute(key)))
        except (BrokenPipeError, EOFError, KeyboardInterrupt):
            return  # the build no longer listens, or is being stopped
        except BaseException:  # a bug, or a result that cannot be pickled: the build computes it
            try:
                sender.send((key, False, None))
            except (BrokenPipeError, EOFError):
                return
    sender.close()

"""Results computed ahead, in a forked process, while the build reads pages.

A clean build of a large library spends more than a tenth of its time computing
registry values and elasticities (:mod:`refgen.evaluate.sensitivity`: every
numeric input of every registry entry scaled by 1 %, every figure computed
again; bench/RESULTS.md). That work needs nothing the build does meanwhile,
and Sphinx reads pages on one core. :class:`AheadWorker` forks one process
that computes the results for a list of keys, in the order the pages will need
them, and sends each back through a pipe; the build takes each one when it
composes the page, and with it whatever else the child has sent by then.

Forking keeps everything already loaded (the library, its registry, the
analysis), so nothing is imported or analysed twice, and the child runs user
code as the build would: through the same guarded calls, with the same time
limits. The child runs ahead of the build as far as the pipe's buffer and
the results the build has taken in allow: every result already sent is taken
in whenever the build asks for one. The pipe holds :data:`PIPE_BYTES` where the
system lets it (Linux's default, 64 KiB, is four or five class pages), so the child
goes on while the build reads pages that ask it for nothing.

A fork copies only the thread that forks. A lock another thread held at that
moment stays locked in the child for ever, so :func:`can_fork` refuses while
any other Python thread runs (a library may start one when it is imported).

Whatever the child cannot give is simply absent, and the caller computes it
itself, as it would without a worker: a result the child could not send or the
build cannot unpickle, every result once the child has died or has sent
nothing for ``patience`` seconds (it is then stopped), and a key asked for from
another process, such as a parallel Sphinx reader.
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import multiprocessing
import os
import pickle
import sys
import threading
from collections.abc import Callable, Hashable, Iterable
from multiprocessing.connection import Connection
from typing import Final, Generic, TypeVar, cast

from refgen.analysis.guard import call_user_code

FORK_AVAILABLE = sys.platform == "linux" and "fork" in multiprocessing.get_all_start_methods()
"""Only Linux: forking a process that has imported arbitrary libraries is unsafe on macOS."""


class NotGiven:
    """The type of :data:`NOT_GIVEN`, its one instance."""

    def __repr__(self) -> str:
        return "NOT_GIVEN"


NOT_GIVEN: Final = NotGiven()
"""What :meth:`AheadWorker.take` returns for a key whose result the child did not give."""

K = TypeVar("K", bound=Hashable)
R = TypeVar("R")


PIPE_BYTES = 2**20
"""The pipe's buffer the build asks for: as much as Linux lets any process have by default
(``/proc/sys/fs/pipe-max-size``). Sixty-odd class pages of the deep bench library."""

MOST_HELD = 32 * 2**20
"""Bytes of results the build takes in ahead of asking for them; beyond it, the child waits
on the pipe until the build has taken some."""


KEYS_BETWEEN_FREEZES = 25
"""How often the child leaves what it keeps (pages it will end later) out of the
collector's walks, after a full collection, as the build does
(:mod:`refgen.sphinx.memory`). On the deep bench shape the child's collections took
0.72 of its 11.3 s, 0.24 s with this (``gc.callbacks``, one clean build). As in the
build, something alive at a freeze that later becomes garbage in a cycle is freed only
when the child ends: a review's library whose figures kept 1 MB self-referencing values
in a small ``lru_cache`` left 96 MB so held at 600 classes (the child's peak 257 MB,
against 205 MB before and 281 MB for the build computing them alone)."""


def can_fork() -> bool:
    """Whether a worker may be forked now: on Linux, with no other Python thread running."""
    return FORK_AVAILABLE and threading.active_count() == 1


class AheadWorker(Generic[K, R]):
    """A forked process computing ``compute(key)`` for each key, in order.

    ``patience`` is how many seconds :meth:`take` waits for the child's next
    result before it gives the child up.
    """

    def __init__(self, compute: Callable[[K], R], keys: Iterable[K], patience: float) -> None:
        self.keys = list(dict.fromkeys(keys))
        self.patience = patience
        self._expected = set(self.keys)
        self._results: dict[K, bytes | None] = {}
        """Results received and not yet taken, still pickled: smaller than what they hold.
        None for a key the child could not give."""
        self._held = 0
        """Bytes in :attr:`_results`."""
        self._owner = os.getpid()
        context = multiprocessing.get_context("fork")
        self._receiver, sender = context.Pipe(duplex=False)
        _enlarge(self._receiver)
        self._process = context.Process(
            target=_compute_all, args=(compute, self.keys, sender), daemon=True
        )
        self._process.start()
        sender.close()  # the child holds the only sending end: its exit ends the stream
        self._done = False
        # Before multiprocessing's own exit handler, which would wait for the child.
        atexit.register(self.close)

    @property
    def pid(self) -> int | None:
        return self._process.pid

    def take(self, key: K) -> R | NotGiven:
        """The child's result for ``key``, once; :data:`NOT_GIVEN` if it has none to give."""
        if not self._expects(key):
            return NOT_GIVEN
        self._expected.discard(key)
        self._receive_ready()
        while key not in self._results and not self._done:
            self._receive_one()
        payload = self._results.pop(key, None)
        if payload is None:
            return NOT_GIVEN
        self._held -= len(payload)
        result, error = call_user_code(pickle.loads, payload)
        if error is not None:
            return NOT_GIVEN
        return cast(R, result)  # what compute(key) returned, pickled and back

    def has_given(self, key: K) -> bool:
        """Whether :meth:`take` of ``key`` would return without waiting, after receiving
        without waiting what the child has sent so far."""
        if not self._expects(key):
            return True
        self._receive_ready()
        return self._done or key in self._results

    def _expects(self, key: K) -> bool:
        """Whether ``key`` is this process's worker's to give and not taken yet."""
        return os.getpid() == self._owner and key in self._expected

    def has_given_all(self) -> bool:
        """Whether every result not yet taken has been received (or never will be),
        after receiving without waiting what the child has sent so far: a child whose
        results nobody asks for for a while (the build writing pages) is not held back
        by a full pipe."""
        if os.getpid() != self._owner:
            return True
        self._receive_ready()
        return self._done or all(key in self._results for key in self._expected)

    def receive_ready(self) -> None:
        """Take in what the child has sent so far, without waiting (in the process that
        started it only): a child done with its work then ends, and one with more to do
        is not held back by a full pipe while nobody asks it for anything."""
        if os.getpid() == self._owner:
            self._receive_ready()

    def _receive_ready(self) -> None:
        """Every result the child has sent so far, up to :data:`MOST_HELD` bytes: a full
        pipe would hold the child back until the build next asks for a result it has not
        received."""
        while not self._done and self._held < MOST_HELD and self._receiver.poll(0):
            self._receive_one()

    def _receive_one(self) -> None:
        if not self._receiver.poll(self.patience):
            self.close()  # stuck, or slower than the build would be: the build goes on alone
            return
        try:
            key, payload = self._receiver.recv()  # a key and bytes: nothing of the user's
        except (EOFError, OSError):  # the child finished, or died
            self._done = True
            return
        self._results[key] = payload  # None: the child could not give it; take() need not wait
        self._held += len(payload or b"")

    def close(self) -> None:
        """Stop the child if it is still running, and let go of what it sent."""
        atexit.unregister(self.close)
        if os.getpid() != self._owner or self._receiver.closed:
            return
        self._done = True
        self._results.clear()
        self._held = 0
        self._expected.clear()
        if self._process.is_alive():
            # The child only computes: nothing of it needs a chance to clean up, and user
            # code may ignore SIGTERM or turn it into an exception the guards catch.
            self._process.kill()
        self._process.join(timeout=5)
        self._receiver.close()


def _enlarge(pipe: Connection) -> None:
    """Ask for a pipe buffer of :data:`PIPE_BYTES` (the system's default stays when refused)."""
    with contextlib.suppress(ImportError, AttributeError, OSError):  # not Linux, or refused
        import fcntl  # not on Windows, where refgen never forks

        fcntl.fcntl(pipe.fileno(), fcntl.F_SETPIPE_SZ, PIPE_BYTES)


def _compute_all(compute: Callable[[K], R], keys: list[K], sender: Connection) -> None:
    """The child: each key's result, pickled and sent as soon as it is computed.

    What the build made before the fork (the library, its analysis, syntax trees the
    build lets go of later) lives as long as the child: frozen, the collector never
    walks it, nor copies the pages it sits on by touching them. What the child keeps
    is frozen too, every :data:`KEYS_BETWEEN_FREEZES` keys."""
    gc.freeze()
    for position, key in enumerate(keys):
        try:
            if position and position % KEYS_BETWEEN_FREEZES == 0:
                gc.collect()  # what the last keys left behind is garbage, or kept for later
                gc.freeze()
            payload: bytes | None = pickle.dumps(compute(key), pickle.HIGHEST_PROTOCOL)
        except KeyboardInterrupt:
            return  # Ctrl-C reaches the whole process group: the build is being stopped
        except BaseException:  # a bug, or a result that cannot be pickled: the build computes it
            payload = None
        try:
            sender.send((key, payload))
        except (BrokenPipeError, EOFError, OSError):
            return  # the build no longer listens
    sender.close()

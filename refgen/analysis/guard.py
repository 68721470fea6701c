"""Running the user's code: anything it raises is data, except the user's own Ctrl-C.

Scenario code may raise ``SystemExit``, ``GeneratorExit``, ``KeyboardInterrupt``
or any other ``BaseException``; none of them may stop a build or a command.
:class:`UserCode` runs a call and returns what it raised instead. Only a
``KeyboardInterrupt`` caused by a real SIGINT while the call ran (the person
at the terminal pressing Ctrl-C) is raised again, so an interrupt still
stops the build.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType
from typing import Any, TypeVar

T = TypeVar("T")


@dataclass
class _Interrupts:
    """Whether SIGINT arrived while user code ran."""

    received: bool = False

    def handle(self, signum: int, frame: FrameType | None) -> None:
        self.received = True
        raise KeyboardInterrupt


@contextmanager
def _watching_interrupts() -> Iterator[_Interrupts]:
    """Note a real SIGINT (then interrupt as usual) while the block runs."""
    interrupts = _Interrupts()
    if threading.current_thread() is not threading.main_thread():
        yield interrupts  # signals reach only the main thread; nothing to watch here
        return
    previous = signal.getsignal(signal.SIGINT)
    if previous is not signal.default_int_handler:
        yield interrupts  # someone else handles Ctrl-C; leave it to them
        return
    signal.signal(signal.SIGINT, interrupts.handle)
    try:
        yield interrupts
    finally:
        signal.signal(signal.SIGINT, previous)


def call_user_code(function: Callable[..., T], *args: Any) -> tuple[T | None, BaseException | None]:
    """``(function(*args), None)``, or ``(None, what it raised)``.

    A ``KeyboardInterrupt`` from a real Ctrl-C is raised again; every other
    exception, ``SystemExit`` and user-raised ``KeyboardInterrupt`` included,
    is returned.
    """
    with _watching_interrupts() as interrupts:
        try:
            return function(*args), None
        except BaseException as error:
            if isinstance(error, KeyboardInterrupt) and interrupts.received:
                raise
            return None, error

"""Running the user's code: anything it raises is data, except the user's own Ctrl-C.

Scenario code may raise ``SystemExit``, ``GeneratorExit``, ``KeyboardInterrupt``
or any other ``BaseException``, or never return; none of that may stop or
hang a build or a command. :func:`call_user_code` runs a call and returns
what it raised instead, and with a ``timeout`` stops it (:class:`TimedOut`)
when it runs too long. Only a ``KeyboardInterrupt`` caused by a real SIGINT
while the call ran (the person at the terminal pressing Ctrl-C) is raised
again, so an interrupt still stops the build.

Code may also call ``os._exit``, which ends the process at once, skipping every
clean-up: a build would stop with status 0 and half its output, a command would
print nothing and succeed. While a guarded call runs, ``os._exit`` raises
:class:`ProcessEnded` instead, which is returned like any other failure. (A
reference to the function taken before the call, ``from os import _exit``, or a
signal the code sends its own process, still ends it: with a failing status.)

Signals reach only a process's main thread; elsewhere calls run unguarded by
the timer and may end the process (Sphinx reads pages in processes, not threads).
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable
from dataclasses import dataclass
from types import FrameType
from typing import Any, NoReturn, TypeVar

T = TypeVar("T")

_signals: Any = getattr(signal, "_signal", signal)
"""The C functions ``signal`` wraps: installing a handler through ``signal.signal``
converts handlers to and from enums, which made it most of a guarded call's cost
(tens of thousands of calls per build; see bench/RESULTS.md)."""


class TimedOut(BaseException):
    """The user's code ran past its time limit."""

    raised = 0
    """How often one was raised in this process: a result computed while this count
    grew depends on the machine's speed, and is not worth keeping (``refgen show``'s
    disk cache)."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"did not finish within {seconds:g} s")
        self.seconds = seconds
        TimedOut.raised += 1


class ProcessEnded(BaseException):
    """The user's code called ``os._exit``, which would have ended the process."""

    def __init__(self, status: int) -> None:
        super().__init__(f"os._exit({status}) would have ended the process")
        self.status = status


_real_exit = os._exit


@dataclass(frozen=True)
class _RefusedExit:
    """What ``os._exit`` is while a guarded call runs in process ``owner``."""

    owner: int

    def __call__(self, status: int) -> NoReturn:
        if os.getpid() != self.owner:  # a process forked meanwhile: multiprocessing ends it so
            _real_exit(status)
        raise ProcessEnded(status)


_REFUSED: dict[int, _RefusedExit] = {}


def _refused_exit() -> _RefusedExit:
    """The ``os._exit`` of guarded calls in this process (one per process, made once)."""
    pid = os.getpid()
    found = _REFUSED.get(pid)
    if found is None:
        found = _REFUSED[pid] = _RefusedExit(pid)
    return found


@dataclass
class _Interrupts:
    """Whether SIGINT arrived while user code ran."""

    received: bool = False
    running: bool = True
    """False once its guarded call is done: a handler still installed then was left by a
    Ctrl-C that landed as the call ended, and the next call puts ``previous`` back."""
    previous: Any = None

    def handle(self, signum: int, frame: FrameType | None) -> None:
        self.received = True
        raise KeyboardInterrupt


def _in_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def call_user_code(
    function: Callable[..., T], *args: Any, timeout: float | None = None
) -> tuple[T | None, BaseException | None]:
    """``(function(*args), None)``, or ``(None, what it raised)``.

    A ``KeyboardInterrupt`` from a real Ctrl-C is raised again; every other
    exception, ``SystemExit`` and user-raised ``KeyboardInterrupt`` included,
    is returned, and so is :class:`TimedOut` when ``timeout`` seconds pass and
    :class:`ProcessEnded` when it calls ``os._exit``. The
    :class:`TimedOut` of an enclosing call's limit goes on to that call.

    One function with ``try`` blocks, not three context managers: a build makes
    about a hundred thousand guarded calls (bench/RESULTS.md).
    """
    if not _in_main_thread():  # no signals here: neither a time limit nor Ctrl-C to tell
        try:
            return function(*args), None
        except BaseException as error:
            if isinstance(error, TimedOut) and timeout is None:
                raise
            return None, error
    previous = _signals.getsignal(signal.SIGINT)
    outer = getattr(previous, "__self__", None)
    if isinstance(outer, _Interrupts) and not outer.running:  # left by a Ctrl-C: undo
        _signals.signal(signal.SIGINT, outer.previous)
        previous, outer = outer.previous, None
    # A guarded call inside another: the outer one watches for Ctrl-C. Someone else's
    # handler: Ctrl-C is theirs to handle. Else this call watches.
    watching = not isinstance(outer, _Interrupts) and previous is signal.default_int_handler
    interrupts = outer if isinstance(outer, _Interrupts) else _Interrupts(previous=previous)
    refusing = False
    try:
        # Inside the try: a Ctrl-C just after a handler is swapped in still puts it back.
        if watching:
            _signals.signal(signal.SIGINT, interrupts.handle)
        if not isinstance(os._exit, _RefusedExit):  # else an enclosing call refuses
            refusing = True
            os._exit = _refused_exit()
        try:
            if not timeout:
                return function(*args), None
            return _within(timeout, function, args), None
        except BaseException as error:
            if isinstance(error, KeyboardInterrupt) and interrupts.received:
                raise
            if isinstance(error, TimedOut) and timeout is None:
                raise  # an enclosing call's time is up: it answers for the whole
            return None, error
    finally:
        try:  # Ctrl-C's handler first: a Ctrl-C now would skip what follows it
            if watching:
                _signals.signal(signal.SIGINT, previous)
        finally:
            if watching:
                interrupts.running = False
            if refusing:
                os._exit = _real_exit


def _within(seconds: float, function: Callable[..., T], args: tuple[Any, ...]) -> T:
    """``function(*args)``, raising :class:`TimedOut` once ``seconds`` have passed."""

    def expire(signum: int, frame: FrameType | None) -> None:
        raise TimedOut(seconds)

    previous = _signals.signal(signal.SIGALRM, expire)
    outer_left, _ = signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return function(*args)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        _signals.signal(signal.SIGALRM, previous)
        if outer_left:  # an enclosing limit keeps running
            signal.setitimer(signal.ITIMER_REAL, outer_left)

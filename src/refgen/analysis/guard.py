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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
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


@contextmanager
def _exit_refused() -> Iterator[None]:
    """``os._exit`` raises :class:`ProcessEnded` in this process while the block runs."""
    if not _in_main_thread() or isinstance(os._exit, _RefusedExit):
        yield  # another thread's business, or an enclosing guarded call already refuses
        return
    os._exit = _RefusedExit(os.getpid())
    try:
        yield
    finally:
        os._exit = _real_exit


@dataclass
class _Interrupts:
    """Whether SIGINT arrived while user code ran."""

    received: bool = False

    def handle(self, signum: int, frame: FrameType | None) -> None:
        self.received = True
        raise KeyboardInterrupt


def _in_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextmanager
def _watching_interrupts() -> Iterator[_Interrupts]:
    """Note a real SIGINT (then interrupt as usual) while the block runs."""
    if not _in_main_thread():
        yield _Interrupts()
        return
    previous = _signals.getsignal(signal.SIGINT)
    outer = getattr(previous, "__self__", None)
    if isinstance(outer, _Interrupts):
        yield outer  # a guarded call inside another: the outer one watches
        return
    if previous is not signal.default_int_handler:
        yield _Interrupts()  # someone else handles Ctrl-C; leave it to them
        return
    interrupts = _Interrupts()
    _signals.signal(signal.SIGINT, interrupts.handle)
    try:
        yield interrupts
    finally:
        _signals.signal(signal.SIGINT, previous)


@contextmanager
def _time_limit(seconds: float | None) -> Iterator[None]:
    """Raise :class:`TimedOut` in the block once ``seconds`` have passed."""
    if not seconds or not _in_main_thread():
        yield
        return

    def expire(signum: int, frame: FrameType | None) -> None:
        raise TimedOut(seconds)

    previous = _signals.signal(signal.SIGALRM, expire)
    outer_left, _ = signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        _signals.signal(signal.SIGALRM, previous)
        if outer_left:  # an enclosing limit keeps running
            signal.setitimer(signal.ITIMER_REAL, outer_left)


def call_user_code(
    function: Callable[..., T], *args: Any, timeout: float | None = None
) -> tuple[T | None, BaseException | None]:
    """``(function(*args), None)``, or ``(None, what it raised)``.

    A ``KeyboardInterrupt`` from a real Ctrl-C is raised again; every other
    exception, ``SystemExit`` and user-raised ``KeyboardInterrupt`` included,
    is returned, and so is :class:`TimedOut` when ``timeout`` seconds pass and
    :class:`ProcessEnded` when it calls ``os._exit``. The
    :class:`TimedOut` of an enclosing call's limit goes on to that call.
    """
    with _watching_interrupts() as interrupts, _exit_refused():
        try:
            with _time_limit(timeout):
                return function(*args), None
        except BaseException as error:
            if isinstance(error, KeyboardInterrupt) and interrupts.received:
                raise
            if isinstance(error, TimedOut) and timeout is None:
                raise  # an enclosing call's time is up: it answers for the whole
            return None, error

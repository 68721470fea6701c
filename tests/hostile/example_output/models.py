"""Scenarios whose examples print floods and terminal escapes"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Flood:
    """A scenario whose example prints ten megabytes.

    Examples
    --------
    >>> print("x" * 10_000_000)  # <- refgen
    x
    """

    size: float = 2.0
    """The size."""


@dataclass(frozen=True)
class Escapes:
    """A scenario whose example prints terminal escapes and a bidirectional override.

    Examples
    --------
    >>> print("\\x1b[2J\\x1b]0;pwned\\x07\\x1b[31mred\\u202etxt.exe")  # <- refgen
    red
    """

    size: float = 2.0
    """The size."""

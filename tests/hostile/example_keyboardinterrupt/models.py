"""Scenarios whose example interrupts"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Gauge:
    """A scenario whose example raises KeyboardInterrupt.

    Examples
    --------
    >>> raise KeyboardInterrupt("from the example")  # <- refgen
    >>> 1 + 1
    2
    """

    size: float = 2.0
    """The size."""

"""Scenarios whose example never returns"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Gauge:
    """A scenario whose example loops for ever.

    Examples
    --------
    >>> while True:  # <- refgen
    ...     pass
    """

    size: float = 2.0
    """The size."""

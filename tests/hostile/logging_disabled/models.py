"""Scenarios whose module silences logging, as one does for a noisy library"""

import logging
from dataclasses import dataclass

logging.disable(logging.WARNING)


@dataclass(frozen=True)
class Gauge:
    """A scenario whose example fails.

    Examples
    --------
    >>> Gauge().size  # <- refgen
    3.0
    """

    size: float = 2.0
    """The size."""

    @property
    def broken(self) -> float:  # <- refgen
        """Raises."""
        raise ValueError("a property that raises")

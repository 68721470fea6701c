"""Scenarios whose property never returns"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Gauge:
    """A scenario with one property that loops for ever."""

    size: float = 2.0
    """The size."""

    @property
    def doubled(self) -> float:
        """Twice the size."""
        return self.size * 2

    @property
    def endless(self) -> float:  # <- refgen
        """Never returns."""
        while True:
            pass

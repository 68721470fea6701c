"""Scenarios in a package holding a data file whose name is not UTF-8 (the test adds it)"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Gauge:
    """A scenario."""

    size: float = 2.0
    """The size."""

    @property
    def doubled(self) -> float:
        """Twice the size."""
        return self.size * 2

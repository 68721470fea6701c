"""Scenarios whose property raises SystemExit"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Gauge:
    """A scenario with one property that raises."""

    size: float = 2.0
    """The size."""

    @property
    def doubled(self) -> float:
        """Twice the size."""
        return self.size * 2

    @property
    def broken(self) -> float:  # <- refgen
        """Raises."""
        raise SystemExit(3)

"""Gauges whose registry setting names what cannot be found"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Gauge:
    """A gauge."""

    size: float = 2.0
    """The size."""

    @property
    def doubled(self) -> float:
        """Twice the size."""
        return self.size * 2

"""Scenarios documented beside pages their author wrote"""

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

"""Scenarios with a property whose name is not an identifier"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Gauge:  # <- refgen
    """A scenario."""

    size: float = 2.0
    """The size."""

    @property
    def doubled(self) -> float:
        """Twice the size."""
        return self.size * 2


setattr(Gauge, 'q"x', property(lambda self: 1.0, doc="Named with a quote."))

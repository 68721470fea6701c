"""Gauges for a registry of an unusual shape"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Gauge:
    """A scenario.

    Examples
    --------
    >>> from registry_empty.registry import Registry
    >>> Registry is not None
    True
    """

    size: float = 2.0
    """The size."""

    @property
    def doubled(self) -> float:
        """Twice the size."""
        return self.size * 2

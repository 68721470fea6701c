"""Gauges named by strings that are not identifiers"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Gauge:
    """A scenario.

    Examples
    --------
    >>> from registry_names.registry import Registry
    >>> Registry is not None
    True
    """

    size: float = 2.0
    """The size."""

    @property
    def doubled(self) -> float:
        """Twice the size."""
        return self.size * 2

"""Scenarios in a module nested too deeply for Python (the test appends the nesting)"""  # <- refgen

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

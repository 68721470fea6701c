"""Scenarios whose values are objects shown by their default repr"""

from collections.abc import Iterator
from dataclasses import dataclass


class Chip:
    """A part with no text of its own: its repr holds its memory address."""


@dataclass(frozen=True)
class Gauge:
    """A scenario whose values hold memory addresses."""

    size: float = 2.0
    """The size."""

    @property
    def chip(self) -> Chip:
        """The chip it is built on."""
        return Chip()

    @property
    def readings(self) -> Iterator[float]:
        """Its readings, one at a time."""
        return (self.size * step for step in range(3))

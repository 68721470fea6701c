"""Scenarios whose property raises an exception whose message never ends"""

from dataclasses import dataclass


class Endless(Exception):
    """An exception whose message never finishes."""

    def __str__(self) -> str:
        while True:
            pass


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
        raise Endless()

"""Scenarios whose property raises an exception whose message raises"""

from dataclasses import dataclass


class Weird(Exception):
    """An exception whose message cannot be made."""

    def __str__(self) -> str:
        raise KeyboardInterrupt("from the message")


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
        raise Weird()

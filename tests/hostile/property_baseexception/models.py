"""Scenarios whose property raises Odd"""

from dataclasses import dataclass


class Odd(BaseException):
    """A BaseException subclass of the user's own."""


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
        raise Odd('neither an Exception nor an exit')

"""Scenarios of which one cannot be analysed"""

from dataclasses import dataclass


class _weird(property):  # private: no scenario of its own
    """A property whose getter cannot even be looked at."""

    @property
    def fget(self):  # type: ignore[override]
        raise RuntimeError("no getter to read")


@dataclass(frozen=True)
class Fine:
    """A scenario that analyses."""

    size: float = 2.0
    """The size."""

    @property
    def doubled(self) -> float:
        """Twice the size."""
        return self.size * 2


@dataclass(frozen=True)
class Broken:  # <- refgen
    """A scenario whose property cannot be read."""

    size: float = 2.0
    """The size."""

    @_weird
    def odd(self) -> float:
        """Unreadable."""
        return self.size

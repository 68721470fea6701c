"""Scenarios written in every encoding Python reads"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Größe:
    """A scenario whose name is not ASCII: Maß für Größe.

    Examples
    --------
    >>> from source_encodings.registry import Registry
    >>> Registry.Eins.doppelt
    4.0
    """

    maß: float = 2.0
    """Das Maß (µm)."""

    @property
    def doppelt(self) -> float:
        """Zweimal das Maß."""
        return self.maß * 2

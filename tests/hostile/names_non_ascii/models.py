"""Scenarios whose names are not ASCII"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Größe:
    """A rectangle, named in German."""

    länge: float = 2.0
    """Die Länge."""

    breite: float = 3.0
    """Die Breite."""

    @property
    def fläche(self) -> float:
        """Die Fläche."""
        return self.länge * self.breite

"""Scenarios whose property ends the process"""

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class Gauge:
    """A scenario with one property that calls os._exit."""

    size: float = 2.0
    """The size."""

    @property
    def doubled(self) -> float:
        """Twice the size."""
        return self.size * 2

    @property
    def broken(self) -> float:  # <- refgen
        """Ends the process, skipping every clean-up."""
        os._exit(0)

"""Scenarios whose module never finishes importing."""

from dataclasses import dataclass

while True:  # <- refgen
    pass


@dataclass(frozen=True)
class Gauge:
    """Never reached."""

    size: float = 1.0

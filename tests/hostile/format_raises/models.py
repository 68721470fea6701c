"""Scenarios whose value cannot be shown"""

from dataclasses import dataclass


class Unshowable:
    """A value whose every text form raises."""

    def __format__(self, spec: str) -> str:
        raise SystemExit("no format")

    def __str__(self) -> str:
        raise SystemExit("no str")

    def __repr__(self) -> str:
        raise SystemExit("no repr")


@dataclass(frozen=True)
class Gauge:
    """A scenario with a value that cannot be shown."""

    size: float = 2.0
    """The size."""

    @property
    def shown(self) -> Unshowable:  # <- refgen
        """A value whose text raises."""
        return Unshowable()

"""Scenarios whose value's text is a str whose own text raises"""

from dataclasses import dataclass


class Text(str):
    """A str subclass whose str() raises."""

    def __str__(self) -> str:
        raise SystemExit("str of a str subclass")


class Odd:
    """A value whose text is a Text."""

    def __str__(self) -> str:
        return Text("hello")

    def __format__(self, spec: str) -> str:
        return Text("hello")


@dataclass(frozen=True)
class Gauge:
    """A scenario with an odd value."""

    size: float = 2.0
    """The size."""

    @property
    def doubled(self) -> float:
        """Twice the size."""
        return self.size * 2

    @property
    def odd(self) -> object:
        """An odd value."""
        return Odd()

"""Scenarios whose docstring is assigned to ``__doc__`` rather than written first"""

from dataclasses import dataclass

_DOC = """A gauge whose docstring is kept in a constant.

Examples
--------
>>> 1 + 1  # <- refgen
3
"""


@dataclass(frozen=True)
class Gauge:
    __doc__ = _DOC

    size: float = 2.0
    """The size."""

    @property
    def doubled(self) -> float:
        """Twice the size."""
        return self.size * 2

"""Scenarios whose module turns every warning into an error"""

import warnings
from dataclasses import dataclass

warnings.simplefilter("error")


@dataclass(frozen=True)
class Gauge:
    """A scenario.

    Examples
    --------
    >>> from warnings_as_errors.models import Gauge
    >>> Gauge().doubled
    4.0
    """

    size: float = 2.0
    """The size."""

    @property
    def doubled(self) -> float:
        """Twice the size."""
        return self.size * 2

"""Scenarios whose class names make awkward file names"""

from dataclasses import dataclass


@dataclass(frozen=True)
class index:
    """A class called index, like its category's page."""

    size: float = 1.0
    """The size."""


@dataclass(frozen=True)
class Gaugexxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx:  # noqa: E501 (the point of the case)
    """A class whose name is longer than a file name may be."""

    size: float = 1.0
    """The size."""

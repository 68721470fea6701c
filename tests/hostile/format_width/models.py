"""Scenarios quoted with a format spec that asks for a billion characters"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Gauge:
    """A scenario quoted too wide.

    The small gauge's number is :scenario:`Small.num:>1000000000`.
    """

    num: float = 2.0
    """A number."""

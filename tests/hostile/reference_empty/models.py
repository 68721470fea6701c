"""A module with helpers and constants, but no scenario class"""

GRAVITY = 9.81
"""Standard gravity, in m/s²."""


def weight(mass: float) -> float:
    """The weight of ``mass`` kilograms, in newtons."""
    return mass * GRAVITY

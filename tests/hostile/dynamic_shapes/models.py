"""Scenarios made in ways nobody planned for

See https://example.org/docs/step_time/index.html for the step_time model; the
link must stay a link.
"""

import functools
from dataclasses import dataclass


def _twice(value: float, self: object) -> float:
    return value * 2


class Meta(type):
    """A metaclass, as some libraries use."""


@dataclass(frozen=True)
class Shapes(metaclass=Meta):
    """A scenario whose properties are not plain methods.

    The step_time is documented at https://example.org/step_time.html.

    Examples
    --------
    >>> from dynamic_shapes.registry import Registry
    >>> Registry.Made.step_time
    3.0
    """

    size: float = 1.5
    """The size."""

    step_time = property(lambda self: self.size * 2, doc="Twice the size, from a lambda.")
    constant = property(functools.partial(_twice, 21.0), doc="From functools.partial.")


Dynamic = type(
    "Dynamic", (), {"__doc__": "A class made at run time.", "area": property(lambda self: 4.0)}
)
Dynamic.__module__ = __name__


def __getattr__(name: str) -> object:
    """A module-level __getattr__: every missing name is a surprise."""
    raise AttributeError(name)

"""refgen_scenarios: back-of-the-envelope models of ML systems, as Python classes.

Scenario classes live in one module per category (:mod:`refgen_scenarios.training`,
...), the accounting rules they share in :mod:`refgen_scenarios.physics`, and the
named instances in :class:`refgen_scenarios.Scenarios`.

The registry is imported on first use of ``refgen_scenarios.Scenarios``, so importing
a category module does not construct every registry entry: a bad entry then
breaks the registry alone, not the classes it instantiates.
"""

from typing import Any

from refgen_scenarios.units import Quantity, ureg

__all__ = ["Quantity", "Scenarios", "ureg"]


def __getattr__(name: str) -> Any:
    if name == "Scenarios":
        from refgen_scenarios.registry import Scenarios

        return Scenarios
    raise AttributeError(f"module 'refgen_scenarios' has no attribute {name!r}")

"""scenarios: back-of-the-envelope models of ML systems, as Python classes.

Scenario classes live in one module per category (:mod:`scenarios.training`,
...), the accounting rules they share in :mod:`scenarios.physics`, and the
named instances in :class:`scenarios.Scenarios`.
"""

from scenarios.registry import Scenarios
from scenarios.units import Quantity, ureg

__all__ = ["Quantity", "Scenarios", "ureg"]

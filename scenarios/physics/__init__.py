"""Physics helpers: the accounting rules that scenario classes delegate to.

One module per topic. Each helper states its equation, assumptions and
sources in its docstring, so a scenario that calls it points readers there
instead of repeating the rule. Every helper is importable from this package.
"""

from scenarios.physics.memory import calc_update_step_traffic

__all__ = ["calc_update_step_traffic"]

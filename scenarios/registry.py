"""The registry: named, concrete scenarios with their stated inputs.

Each attribute of :class:`Scenarios` is one instance of a scenario class.
Examples in scenario docstrings reach their inputs through this registry, so
the numbers quoted in the reference are computed from exactly these values.
"""

from __future__ import annotations

from scenarios.training import UpdateWorkingSetScenario
from scenarios.units import ureg


class Scenarios:
    """Named scenarios, one attribute each."""

    PhoneFullUpdateWorkingSet = UpdateWorkingSetScenario(
        parameters=10e6,
        bytes_per_param=4 * ureg.byte,
        optimizer_moments=2,
        activation_factor=5.0,
        activation_factor_high=8.0,
        bandwidth=51.2 * ureg.GB / ureg.s,
    )
    """A 10 M-parameter FP32 model fine-tuned with Adam on a phone with the
    A17 Pro's 51.2 GB/s of DRAM bandwidth."""

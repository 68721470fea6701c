"""Training scenarios

Memory and traffic budgets of training steps: what has to be resident while a
model learns, and how many bytes one update moves through DRAM.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from scenarios.physics import calc_update_step_traffic
from scenarios.units import Quantity


@dataclass(frozen=True, kw_only=True)
class UpdateWorkingSetScenario:
    """A full on-device update with Adam: its working set and the DRAM bytes of one step.

    Every weight gets a gradient of the same width, the optimizer holds
    optimizer_moments arrays the size of the weights, and the forward pass saves
    activation_factor times the weight bytes for the backward pass;
    activation_factor_high gives the top of the range quoted for that factor.

    Notes
    -----
    Equation: working set = weights + gradients + optimizer_state + activations;
        step traffic comes from calc_update_step_traffic.
    Assumptions: Gradients are stored at the weight width; every optimizer
        moment is an array the size of the weights; activation factors are
        stated inputs, not measured.
    Excludes: Higher-precision master weights, allocator reserve and
        fragmentation, and framework workspace.

    References
    ----------
    - scenarios.physics.calc_update_step_traffic
    - Kingma and Ba, "Adam: A Method for Stochastic Optimization", ICLR 2015,
      Algorithm 1 (two moment estimates per parameter).
    - Apple, "iPhone 15 Pro technical specifications" (A17 Pro, LPDDR5 at
      51.2 GB/s).

    Examples
    --------
    >>> from scenarios import Scenarios
    >>> scenario = Scenarios.PhoneFullUpdateWorkingSet
    >>> round(scenario.amplification, 6)
    9.0
    >>> print(scenario.step_floor)
    15.625 ms
    """

    parameters: float
    """Number of trainable parameters."""
    bytes_per_param: Quantity
    """Storage width of one parameter, e.g. 4 bytes for FP32."""
    optimizer_moments: int
    """Weight-sized arrays the optimizer keeps per parameter (2 for Adam)."""
    activation_factor: float
    """Saved activation bytes as a multiple of the weight bytes."""
    activation_factor_high: float
    """Upper end of the quoted range for activation_factor."""
    bandwidth: Optional[Quantity] = None
    """DRAM bandwidth of the device; needed only for step_floor."""

    @property
    def weights(self) -> Quantity:
        """Parameter storage in MB: the parameter count times the bytes per parameter."""
        return (self.parameters * self.bytes_per_param).to('MB')

    @property
    def gradients(self) -> Quantity:
        """Gradient storage in MB, the same size as the weights."""
        return self.weights

    @property
    def optimizer_state(self) -> Quantity:
        """Optimizer state in MB: optimizer_moments arrays the size of the weights."""
        return (self.optimizer_moments * self.weights).to('MB')

    @property
    def activations(self) -> Quantity:
        """Saved activations in MB at the nominal activation_factor."""
        return (self.activation_factor * self.weights).to('MB')

    @property
    def persistent(self) -> Quantity:
        """State in MB that lives across steps: weights, gradients and optimizer state."""
        return (self.weights + self.gradients + self.optimizer_state).to('MB')

    @property
    def total(self) -> Quantity:
        """Working set in MB: the persistent state plus the saved activations."""
        return (self.persistent + self.activations).to('MB')

    @property
    def amplification(self) -> float:
        """Working set as a multiple of the weight bytes (dimensionless)."""
        return (self.total / self.weights).to('').magnitude

    @property
    def floor(self) -> float:
        """Persistent state as a multiple of the weight bytes, before any activations."""
        return (self.persistent / self.weights).to('').magnitude

    @property
    def ceiling(self) -> float:
        """Working-set multiple with activation_factor_high in place of the nominal factor."""
        return self.floor + self.activation_factor_high

    @property
    def step_traffic(self) -> Quantity:
        """DRAM bytes in MB moved by one update step, as calc_update_step_traffic counts them."""
        traffic, _ = calc_update_step_traffic(
            self.weights, self.gradients, self.optimizer_state, self.activations
        )
        return traffic.to('MB')

    @property
    def weight_reads(self) -> Quantity:
        """The part of step_traffic in MB spent reading weights, from calc_update_step_traffic."""
        _, reads = calc_update_step_traffic(
            self.weights, self.gradients, self.optimizer_state, self.activations
        )
        return reads.to('MB')

    @property
    def traffic_ratio(self) -> float:
        """Step traffic as a multiple of the weight bytes (dimensionless)."""
        return (self.step_traffic / self.weights).to('').magnitude

    @property
    def weight_read_share(self) -> float:
        """Fraction of the step traffic that is weight reads."""
        return (self.weight_reads / self.step_traffic).to('').magnitude

    @property
    def step_floor(self) -> Quantity:
        """Traffic-only lower bound on step time in ms: step_traffic / bandwidth."""
        return (self.step_traffic / self.bandwidth).to('millisecond')

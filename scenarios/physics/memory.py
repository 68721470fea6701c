"""Memory and traffic helpers

Byte accounting for training and inference: how much has to be resident,
and how many bytes cross the DRAM interface per step.
"""

from __future__ import annotations

from scenarios.units import Quantity


def calc_update_step_traffic(
    weights: Quantity,
    gradients: Quantity,
    optimizer_state: Quantity,
    activations: Quantity,
) -> tuple[Quantity, Quantity]:
    """DRAM bytes moved by one full-update training step, and the share spent reading weights.

    The step is split into four phases, and every tensor a phase touches is
    counted as crossing the DRAM interface exactly once in that phase: the
    forward pass reads the weights and writes the activations; the backward
    pass reads the activations and the weights and writes the gradients; the
    optimizer reads the weights, the gradients and its state; the write-back
    stores the updated weights and state.

    Parameters
    ----------
    weights : Quantity
        Bytes of parameter storage, W.
    gradients : Quantity
        Bytes of gradient storage, G.
    optimizer_state : Quantity
        Bytes of optimizer state (all moments together), S.
    activations : Quantity
        Bytes of activations saved by the forward pass for the backward pass, A.

    Returns
    -------
    step_traffic : Quantity
        Total bytes moved in the step, V.
    weight_reads : Quantity
        The part of V spent reading the weights, 3W.

    Notes
    -----
    Equation: V = (W + A) + (A + W + G) + (W + G + S) + (W + S); weight reads = 3W.
    Assumptions: No tensor stays resident in on-chip memory between phases;
        each use of a tensor is one full pass over it.
    Excludes: Re-reads caused by tiling or cache misses, activation
        recomputation, and traffic for inputs and labels.
    """
    forward = weights + activations
    backward = activations + weights + gradients
    optimizer_read = weights + gradients + optimizer_state
    write_back = weights + optimizer_state
    step_traffic = forward + backward + optimizer_read + write_back
    weight_reads = 3 * weights
    return step_traffic, weight_reads

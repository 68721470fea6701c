"""Reliability helpers

How often a fleet of machines fails as a whole, and how often a long job
should checkpoint to lose the least time to failures and to checkpointing.
"""

from __future__ import annotations

from refgen_scenarios.units import Quantity


def calc_fleet_failure_rate(units: float, unit_failure_rate: Quantity) -> Quantity:
    """Failure rate of a job that stops whenever any one of its units fails.

    With independent units that fail at a constant rate, the first failure
    among n of them arrives at n times the rate of one unit, so the job's mean
    time between failures shrinks in proportion to its size.

    Parameters
    ----------
    units : float
        Machines (or nodes, or accelerators) the job depends on, n.
    unit_failure_rate : Quantity
        Failures per unit time of one unit, λ.

    Returns
    -------
    failure_rate : Quantity
        Failures per unit time of the job, nλ.

    Notes
    -----
    Equation: failure rate = n × λ; MTBF = 1 / (n × λ).
    Assumptions: Independent, exponentially distributed failures; any single
        failure interrupts the job.
    Excludes: Correlated failures (a switch or power domain taking out many
        units), and failures the job survives.
    """
    return units * unit_failure_rate


def calc_young_interval(checkpoint_time: Quantity, mtbf: Quantity) -> Quantity:
    """Young's first-order optimum for the compute time between checkpoints.

    Checkpointing often wastes time writing checkpoints; checkpointing rarely
    wastes the work done since the last one when a failure strikes. To first
    order the waste per unit time is δ/τ + τ/(2M), which is smallest at
    τ = √(2δM).

    Parameters
    ----------
    checkpoint_time : Quantity
        Time to write one checkpoint, δ.
    mtbf : Quantity
        Mean time between failures of the whole job, M.

    Returns
    -------
    interval : Quantity
        Compute time between checkpoints, τ.

    Notes
    -----
    Equation: τ = √(2 × δ × M).
    Assumptions: Failures arrive at a constant rate; δ is much smaller than M.
    Excludes: Restart time, and failures during checkpointing or restart.

    References
    ----------
    - Young, "A First Order Approximation to the Optimum Checkpoint Interval",
      CACM 17(9), 1974.
    """
    return (2 * checkpoint_time * mtbf) ** 0.5


def calc_daly_interval(checkpoint_time: Quantity, mtbf: Quantity) -> Quantity:
    """Daly's higher-order optimum for the compute time between checkpoints.

    Daly refines Young's estimate with the next terms of a perturbation
    solution of the run-time cost and subtracts the checkpoint time itself.
    When writing a checkpoint takes at least twice the MTBF, checkpointing no
    longer pays and the interval is the MTBF.

    Parameters
    ----------
    checkpoint_time : Quantity
        Time to write one checkpoint, δ.
    mtbf : Quantity
        Mean time between failures of the whole job, M.

    Returns
    -------
    interval : Quantity
        Compute time between checkpoints, τ.

    Notes
    -----
    Equation: τ = √(2δM) × (1 + √(δ/2M)/3 + (δ/2M)/9) - δ for δ < 2M, else M.
    Assumptions: Failures arrive at a constant rate (Poisson).
    Excludes: Restart time, which does not change the optimum in this model.

    References
    ----------
    - Daly, "A higher order estimate of the optimum checkpoint interval for
      restart dumps", Future Generation Computer Systems 22(3), 2006, Figures
      3 to 5 (117, 57 and 9.1 minutes for δ = 5 min).
    """
    if checkpoint_time >= 2 * mtbf:
        return mtbf
    ratio = (checkpoint_time / (2 * mtbf)).to("").magnitude
    young = calc_young_interval(checkpoint_time, mtbf)
    return young * (1 + ratio**0.5 / 3 + ratio / 9) - checkpoint_time


def calc_checkpoint_overhead(
    checkpoint_time: Quantity, interval: Quantity, mtbf: Quantity
) -> float:
    """First-order fraction of run time lost to checkpoints and to rework.

    Each interval τ of work pays δ for its checkpoint, and a failure, which
    arrives once per M on average, throws away half an interval of work on
    average.

    Parameters
    ----------
    checkpoint_time : Quantity
        Time to write one checkpoint, δ.
    interval : Quantity
        Compute time between checkpoints, τ.
    mtbf : Quantity
        Mean time between failures of the whole job, M.

    Returns
    -------
    overhead : float
        Lost time as a fraction of useful time.

    Notes
    -----
    Equation: overhead = δ/τ + τ/(2M).
    Assumptions: The first-order model behind Young's interval; at
        τ = √(2δM) the two terms are equal.
    Excludes: Restart time and failures during checkpoints.

    References
    ----------
    - Young, "A First Order Approximation to the Optimum Checkpoint Interval",
      CACM 17(9), 1974.
    """
    return (checkpoint_time / interval + interval / (2 * mtbf)).to("").magnitude

"""Energy helpers

Electricity a training run draws from the grid, counted at the accelerators
and scaled up by the overhead of the datacenter that houses them.
"""

from __future__ import annotations

from refgen_scenarios.units import Quantity


def calc_training_energy(
    accelerators: int, power_per_accelerator: Quantity, duration: Quantity, pue: float
) -> Quantity:
    """Facility energy of a training run.

    The accelerators draw their average system power (chip, memory, network
    interface, fans and host share) for the length of the run; the
    datacenter's power usage effectiveness (PUE) scales that up for cooling
    and power distribution.

    Parameters
    ----------
    accelerators : int
        Accelerators in the run.
    power_per_accelerator : Quantity
        Measured average system power per accelerator.
    duration : Quantity
        Wall-clock length of the run.
    pue : float
        Power usage effectiveness of the datacenter (1 is no overhead).

    Returns
    -------
    energy : Quantity
        Energy drawn by the facility for the run.

    Notes
    -----
    Equation: energy = hours × accelerators × average power × PUE.
    Assumptions: Average power is steady over the run; every accelerator is
        busy for the whole duration.
    Excludes: Idle and development runs, storage and networking outside the
        accelerator systems, and the energy embodied in the hardware.

    References
    ----------
    - Patterson et al., "Carbon Emissions and Large Neural Network Training",
      arXiv:2104.10350, 2021, section 2.5 (energy = hours × processors ×
      average power × PUE).
    """
    return accelerators * power_per_accelerator * duration * pue


def calc_amortized_embodied_emissions(
    embodied_per_unit: Quantity, unit_hours: Quantity, lifetime: Quantity, utilization: float
) -> Quantity:
    """Share of hardware manufacturing emissions that a job is charged for.

    The emissions of making a device are spread over the hours it is in use
    during its life, lifetime × utilization; a job that occupies devices for
    unit_hours device-hours is charged that many hours' worth.

    Parameters
    ----------
    embodied_per_unit : Quantity
        Manufacturing emissions of one device (with its share of the server).
    unit_hours : Quantity
        Device-hours the job uses, e.g. GPU-hours.
    lifetime : Quantity
        Service life of the device.
    utilization : float
        Fraction of its life the device is in use.

    Returns
    -------
    emissions : Quantity
        Embodied emissions attributed to the job.

    Notes
    -----
    Equation: embodied = embodied_per_unit × unit_hours / (lifetime × utilization).
    Assumptions: Linear amortisation over the hours of use; every hour of use
        carries the same share.
    Excludes: Buildings, networking and cooling equipment, and end-of-life
        treatment.

    References
    ----------
    - Luccioni, Viguier and Ligozat, "Estimating the Carbon Footprint of BLOOM,
      a 176B Parameter Language Model", JMLR 24(253), 2023 (embodied emissions
      of servers and GPUs amortised over their use).
    """
    return embodied_per_unit * unit_hours / (lifetime * utilization)

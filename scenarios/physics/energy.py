"""Energy helpers

Electricity a training run draws from the grid, counted at the accelerators
and scaled up by the overhead of the datacenter that houses them.
"""

from __future__ import annotations

from scenarios.units import Quantity


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

"""Collective communication helpers

Bytes each device sends in the collectives of data-parallel training, and the
time they take over a link of given bandwidth.
"""

from __future__ import annotations

from refgen_scenarios.units import Quantity


def calc_ring_allreduce_traffic(message_bytes: Quantity, devices: int) -> Quantity:
    """Bytes each device sends in a ring all-reduce of one message.

    A ring all-reduce is a reduce-scatter followed by an all-gather. In each
    phase the message travels round the ring in n chunks, and every device
    forwards n - 1 of them, so each device sends (n - 1)/n of the message per
    phase, and 2(n - 1)/n of it in all: close to twice the message for large n.

    Parameters
    ----------
    message_bytes : Quantity
        Size of the buffer being reduced, e.g. the gradients.
    devices : int
        Devices in the ring, n.

    Returns
    -------
    traffic : Quantity
        Bytes sent (and received) by each device.

    Notes
    -----
    Equation: traffic = 2(n - 1)/n × message_bytes.
    Assumptions: A bandwidth-optimal ring with equal chunks.
    Excludes: Protocol headers, and the tree or hierarchical algorithms a
        library may pick instead.

    References
    ----------
    - Patarasuk and Yuan, "Bandwidth Optimal All-reduce Algorithms for Clusters
      of Workstations", JPDC 69(2), 2009 (the ring algorithm and its
      2(n - 1)/n bound).
    - Rajbhandari et al., "ZeRO: Memory Optimizations Toward Training Trillion
      Parameter Models", SC 2020, section 7.1 (reduce-scatter plus all-gather:
      2Ψ of data movement per step).
    """
    return 2 * (devices - 1) / devices * message_bytes


def calc_ring_allreduce_time(
    message_bytes: Quantity, devices: int, link_bandwidth: Quantity
) -> Quantity:
    """Bandwidth-bound time of a ring all-reduce.

    Each device pushes its share of the ring traffic through its own link;
    with every link busy at once, the collective takes that traffic divided by
    the link bandwidth.

    Parameters
    ----------
    message_bytes : Quantity
        Size of the buffer being reduced.
    devices : int
        Devices in the ring, n.
    link_bandwidth : Quantity
        Bandwidth each device can send at, in one direction.

    Returns
    -------
    time : Quantity
        Time of the all-reduce.

    Notes
    -----
    Equation: time = 2(n - 1)/n × message_bytes / link_bandwidth.
    Assumptions: All links run at full bandwidth concurrently.
    Excludes: Per-step latency (2(n - 1) hops of start-up cost), contention
        with other traffic, and overlap with computation.

    References
    ----------
    - Patarasuk and Yuan, "Bandwidth Optimal All-reduce Algorithms for Clusters
      of Workstations", JPDC 69(2), 2009.
    """
    return calc_ring_allreduce_traffic(message_bytes, devices) / link_bandwidth


def calc_ring_allreduce_alpha_beta_time(
    message_bytes: Quantity, devices: int, latency: Quantity, link_bandwidth: Quantity
) -> Quantity:
    """Time of a ring all-reduce with a start-up latency per step and a bandwidth term.

    The ring all-reduce runs in 2(n - 1) steps, n - 1 of reduce-scatter and
    n - 1 of all-gather. Each step pays the start-up latency α once and moves
    one chunk of message_bytes / n, each byte costing β = 1 / link_bandwidth.

    Parameters
    ----------
    message_bytes : Quantity
        Size of the buffer being reduced, n_bytes.
    devices : int
        Devices in the ring, n.
    latency : Quantity
        Start-up cost of one step, α.
    link_bandwidth : Quantity
        Bandwidth each device sends at, 1/β.

    Returns
    -------
    time : Quantity
        Time of the all-reduce.

    Notes
    -----
    Equation: time = 2(n - 1)α + 2(n - 1)/n × message_bytes / link_bandwidth.
    Assumptions: All links run at full bandwidth at once; α is the same for
        every step.
    Excludes: The time of the reduction arithmetic (the γ term), contention,
        and overlap with computation.

    References
    ----------
    - Thakur, Rabenseifner and Gropp, "Optimization of Collective
      Communication Operations in MPICH", International Journal of High
      Performance Computing Applications 19(1), 2005 (the α + nβ cost model
      of a message and the ring algorithm's step count).
    - Patarasuk and Yuan, "Bandwidth Optimal All-reduce Algorithms for Clusters
      of Workstations", JPDC 69(2), 2009.
    """
    steps = 2 * (devices - 1)
    return steps * latency + calc_ring_allreduce_traffic(message_bytes, devices) / link_bandwidth

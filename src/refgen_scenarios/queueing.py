"""Queueing scenarios

How busy a resource is kept by the requests that arrive at it, how long a
request spends waiting and being served, and how many requests are inside at
once. Little's law, L = λW, links the last two: it holds for any stable
system, and what it counts depends on which time W is, the time in service
alone or the time in the whole system, queue included.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

from refgen_scenarios.units import Quantity
from refgen_scenarios.validation import (
    DURATION,
    RATE,
    RATIO_AT_LEAST_ONE,
    Rules,
    check_inputs,
    input_rules,
)


@dataclass(frozen=True, kw_only=True)
class DiskQueueScenario:
    """A disk as a single-server queue: how busy it is, and how long a transfer spends at it.

    Each transfer holds the disk for its service_time: the manufacturer's
    access_time with a margin for the variation of real access times. At
    transfer_rate transfers a second the disk is busy utilization of the
    time, which is also, by Little's law with the service time as W, the
    mean number of transfers in service. A transfer that finds the disk busy
    waits, so its residence_time, waiting included, is service_time / (1 -
    utilization), and Little's law with that time gives the mean number of
    transfers in the system, the one in service and those queued: more than
    the utilization. A transaction of transfers_per_transaction transfers
    spends that many service times at the disk, stretched the same way.

    Notes
    -----
    Equation: service_time = access_time × access_margin; utilization =
        transfer_rate × service_time; residence_time = service_time / (1 -
        utilization); mean_in_system = transfer_rate × residence_time;
        transaction_processing_time = transfers_per_transaction ×
        service_time; transaction_time = transaction_processing_time / (1 -
        utilization).
    Assumptions: One disk serving one request at a time; arrivals at a steady
        rate below the disk's capacity; the guide's rule S = P/(1 - U) for
        the time at a busy resource, which is the mean response time of a
        single server with Poisson arrivals and exponential service (M/M/1),
        whose mean number in the system is U/(1 - U).
    Excludes: Caches in front of the disk, reordering of requests by the
        disk or the operating system, and several disks sharing the load.

    References
    ----------
    - Little, "A Proof for the Queuing Formula: L = λW", Operations Research
      9(3), 1961.
    - HCL OneDB Performance Guide (formerly IBM Informix), section "Disk
      utilization", read in HCL's online copies of releases 1.0.1 and 2.0.1
      (IBM's Informix Dynamic Server Performance Guide prints the same): a
      disk of 30-millisecond access time, 20 percent added for access-time
      variability, at an average of 10 transfer requests a second: "U = (A *
      1.2) * X = (.03 * 1.2) * 10 = .36"; the processing time of a
      transaction of 20 transfers, "P = 20 (.03 * 1.2) = 20 * .036 = .72";
      and its expected service time at the disk, "S = P/(1-U) = .72 / (1 -
      .36) = .72 / .64 = 1.13". The guide calls S, the time at the resource
      waiting included, the service time; this class calls it
      transaction_time, and its one-transfer value residence_time. The
      guide prints neither the residence time of one transfer (56.25 ms) nor
      the mean number in the system (0.56): both are computed, not printed.
    - IBM Informix 12.10 Performance Guide, section "Resource utilization"
      (S = P/(1 - U): the expected service time includes the time spent
      waiting for the resource and the time using it), read in IBM's
      Chinese-language copy; the "Disk utilization" section refers to it.
    - Janapa Reddi et al., "Machine Learning Systems" (open textbook of
      harvard-edge, mlsysbook.ai), Volume II, appendix "Inference
      Foundations", Figure "The Queuing Hockey Stick" (M/M/1 queue length
      ρ/(1 - ρ)), which is this class's mean_in_system; read in the book's
      stored source (book/quarto/contents/vol2/backmatter/appendix_inference.qmd
      of harvard-edge/cs249r_book at commit 005e122).

    Examples
    --------
    >>> from refgen_scenarios import Scenarios
    >>> disk = Scenarios.InformixDiskUtilization
    >>> print(round(disk.utilization, 2))
    0.36
    >>> print(round(disk.transaction_processing_time, 2))
    0.72 s

    The guide rounds .72/.64 up to 1.13:

    >>> print(disk.transaction_time)
    1.125 s

    The 0.36 counts the transfer in service only; with the time spent
    waiting, Little's law counts more in the system:

    >>> print(round(disk.residence_time, 2))
    56.25 ms
    >>> print(round(disk.mean_in_system, 2))
    0.56
    """

    rules: ClassVar[Rules] = input_rules(
        transfer_rate=RATE, access_time=DURATION, access_margin=RATIO_AT_LEAST_ONE
    )

    transfer_rate: Quantity
    """Transfers per unit time the disk is asked for, λ (X in the guide)."""
    access_time: Quantity
    """Access time of one transfer as the manufacturer lists it, A."""
    access_margin: float
    """Factor on the access time for the variation of real accesses (1.2 in the guide)."""
    transfers_per_transaction: int
    """Disk transfers one transaction needs, D."""

    def __post_init__(self) -> None:
        check_inputs(self)

    @property
    def service_time(self) -> Quantity:
        """Time in ms one transfer holds the disk, margin included."""
        return (self.access_time * self.access_margin).to('ms')

    @property
    def utilization(self) -> float:
        """Share of the time the disk is busy: the mean number of transfers in service (λS)."""
        return (self.transfer_rate * self.service_time).to('').magnitude

    @property
    def residence_time(self) -> Quantity:
        """Time in ms one transfer spends at the disk, waiting included, S/(1 - U)."""
        return (self.service_time / (1 - self.utilization)).to('ms')

    @property
    def mean_in_system(self) -> float:
        """Mean number of transfers at the disk, in service or waiting (λW, Little's law)."""
        return (self.transfer_rate * self.residence_time).to('').magnitude

    @property
    def transaction_processing_time(self) -> Quantity:
        """Time in s a transaction's transfers hold the disk, P = D × service_time."""
        return (self.transfers_per_transaction * self.service_time).to('s')

    @property
    def transaction_time(self) -> Quantity:
        """Time in s a transaction spends at the disk, waiting included, P/(1 - U)."""
        return (self.transaction_processing_time / (1 - self.utilization)).to('s')


@dataclass(frozen=True, kw_only=True)
class BatchedServingScenario:
    """A server that runs requests in batches: its utilization, waiting, and time in the system.

    Requests arrive at arrival_rate and are served batch_size at a time. A
    batch takes a fixed time, the cost of a forward pass whatever its size,
    plus per_request_time for each request in it. A request first waits for
    the server to finish earlier batches, then for its own batch to fill,
    half a batch of arrivals on average, then for the batch to be served.
    Little's law turns the total time into the mean number of requests in
    the system, and the batch service time alone into the mean number in
    service; the rest are queued or filling a batch. Below the batch size at
    which the server keeps up with arrivals the queue grows without bound.

    Notes
    -----
    Equation: batch_service_time = fixed_time + per_request_time ×
        batch_size; service_rate = batch_size / batch_service_time;
        utilization = arrival_rate × batch_service_time / batch_size;
        mean_wait = arrival_rate × batch_service_time² / (2 × batch_size ×
        (1 - utilization)); batch_fill_time = batch_size / (2 ×
        arrival_rate); time_in_system = mean_wait + batch_fill_time +
        batch_service_time; mean_in_system = arrival_rate × time_in_system;
        mean_in_service = arrival_rate × batch_service_time; mean_in_queue =
        mean_in_system - mean_in_service.
    Assumptions: Poisson arrivals; batches always full and served one at a
        time with a deterministic service time; the textbook's
        Pollaczek-Khinchine form for the wait before a batch starts. An
        unstable server (utilization of 1 or more) has an infinite wait.
    Excludes: Time-outs that send a batch before it is full, several servers,
        queue limits and load shedding, and the spread of latencies (tail
        latency needs more than the means).

    References
    ----------
    - Little, "A Proof for the Queuing Formula: L = λW", Operations Research
      9(3), 1961.
    - Janapa Reddi et al., "Machine Learning Systems" (open textbook of
      harvard-edge, mlsysbook.ai), Volume II, appendix "Inference
      Foundations": equation "service-time-batch" (T_svc(B) = T_fixed +
      t_req × B), the response-time decomposition E[T] = E[W] + E[T_batch] +
      E[T_svc] with E[W] = λ T_svc(B)² / (2B(1 - λ T_svc(B)/B)) and
      E[T_batch] = B/(2λ), the worked example "GPT-3 serving at 100 QPS"
      (λ = 100 requests a second, T_fixed = 50 ms, t_req = 0.5 ms), its
      Table "Batch Size Impact on GPT-3 Serving Performance" (for B = 1, 4,
      8, 16 and 32: T_svc 50.5, 52.0, 54.0, 58.0 and 66.0 ms; 19.8, 76.9,
      148.1, 275.9 and 484.8 requests a second; utilization 505, 130, 67.5,
      36.3 and 20.6 percent; E[W] infinite, infinite, 56.1, 16.5 and 8.6 ms;
      E[T] infinite, infinite, 150.1, 154.5 and 234.6 ms) and the callout
      "Applying Little's Law to verify" (at B = 16, 100 × 0.1545 s = 15.45
      requests in the system; 16 × 0.363 = 5.8 in service; 9.64 in the
      queue). The callout multiplies the table's rounded 36.3%, so its 9.64
      is 0.01 below the 9.65 this class computes from the unrounded
      utilization. Read in the book's stored source
      (book/quarto/contents/vol2/backmatter/appendix_inference.qmd of
      harvard-edge/cs249r_book at commit 005e122), where the table's figures
      are typed in and the callout's computed by its cell; the rendered
      page was not read.

    Examples
    --------
    >>> from refgen_scenarios import Scenarios
    >>> serving = Scenarios.Gpt3ServingAt100Qps
    >>> print(serving.batch_service_time)
    58.0 ms
    >>> print(f"{serving.utilization:.1%}")
    36.2%
    >>> print(round(serving.mean_wait, 1))
    16.5 ms
    >>> print(round(serving.time_in_system, 1))
    154.5 ms
    >>> print(round(serving.mean_in_system, 2))
    15.45
    >>> print(round(serving.mean_in_service, 1))
    5.8
    """

    rules: ClassVar[Rules] = input_rules(
        arrival_rate=RATE, fixed_time=DURATION, per_request_time=DURATION
    )

    arrival_rate: Quantity
    """Requests arriving per unit time, λ."""
    fixed_time: Quantity
    """Time of one batch whatever its size, T_fixed."""
    per_request_time: Quantity
    """Time each request adds to its batch, t_req."""
    batch_size: int
    """Requests served together in one batch, B."""

    def __post_init__(self) -> None:
        check_inputs(self)

    @property
    def batch_service_time(self) -> Quantity:
        """Time in ms to serve one batch, T_fixed + t_req × B."""
        return (self.fixed_time + self.per_request_time * self.batch_size).to('ms')

    @property
    def service_rate(self) -> Quantity:
        """Requests per second the server completes while busy, B / batch_service_time."""
        return (self.batch_size / self.batch_service_time).to('1/s')

    @property
    def utilization(self) -> float:
        """Share of the time the server is busy, λ × batch_service_time / B (dimensionless)."""
        return (self.arrival_rate * self.batch_service_time / self.batch_size).to('').magnitude

    @property
    def stable(self) -> bool:
        """Whether the server keeps up with the arrivals (utilization below 1)."""
        return self.utilization < 1

    @property
    def mean_wait(self) -> Quantity:
        """Mean time in ms a batch waits for the server; infinite when the server is not stable."""
        if not self.stable:
            return math.inf * self.batch_service_time
        waiting = self.arrival_rate * self.batch_service_time**2
        return (waiting / (2 * self.batch_size * (1 - self.utilization))).to('ms')

    @property
    def batch_fill_time(self) -> Quantity:
        """Mean time in ms a request waits for its batch to fill, B/(2λ)."""
        return (self.batch_size / (2 * self.arrival_rate)).to('ms')

    @property
    def time_in_system(self) -> Quantity:
        """Mean time in ms from a request's arrival to its batch's completion, E[T]."""
        return (self.mean_wait + self.batch_fill_time + self.batch_service_time).to('ms')

    @property
    def mean_in_system(self) -> float:
        """Mean number of requests in the system, λ × time_in_system (Little's law)."""
        return (self.arrival_rate * self.time_in_system).to('').magnitude

    @property
    def mean_in_service(self) -> float:
        """Mean number of requests being served, λ × batch_service_time (Little's law)."""
        return (self.arrival_rate * self.batch_service_time).to('').magnitude

    @property
    def mean_in_queue(self) -> float:
        """Mean number of requests waiting or filling a batch, mean_in_system - mean_in_service."""
        return self.mean_in_system - self.mean_in_service

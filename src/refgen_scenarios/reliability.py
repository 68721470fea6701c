"""Reliability scenarios

How often large training jobs are interrupted, and how often they should
checkpoint so that failures and checkpointing together waste the least time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Optional

from refgen_scenarios.physics import (
    calc_checkpoint_overhead,
    calc_daly_interval,
    calc_fleet_failure_rate,
    calc_young_interval,
)
from refgen_scenarios.units import Quantity
from refgen_scenarios.validation import (
    BYTES,
    DATA_RATE,
    DURATION,
    RATE,
    Rules,
    check_inputs,
    input_rules,
)


@dataclass(frozen=True, kw_only=True)
class FleetFailureScenario:
    """Mean time between failures of a job spread over many nodes.

    A synchronous training job stops when any of its nodes fails. With nodes
    that fail independently at node_failure_rate, the job fails at that rate
    times the number of nodes, so its mean time between failures shrinks in
    proportion to its size. Over an observation period it expects
    failure_rate × period failures.

    Notes
    -----
    Equation: nodes = gpus / gpus_per_node; failure_rate = nodes ×
        node_failure_rate; mtbf = 1 / failure_rate; expected_failures =
        failure_rate × period.
    Assumptions: Independent, exponentially distributed node failures at one
        constant rate; every failure interrupts the job. For the Llama 3
        entry, all 419 unexpected interruptions count as node failures,
        whatever their cause, and the job ran on 16,384 GPUs for the whole
        54 days; its rate is calibrated on that count, so its
        expected_failures over the same 54 days returns the count.
    Excludes: Correlated failures (a switch or power domain), failures the
        job rides through, planned interruptions (maintenance, configuration
        changes), and the time to detect and restart.

    References
    ----------
    - refgen_scenarios.physics.calc_fleet_failure_rate
    - Llama Team, AI @ Meta (Dubey et al.), "The Llama 3 Herd of Models",
      arXiv:2407.21783, 2024: section 3.3.4, "Reliability and Operational
      Challenges" (a 54-day snapshot of pre-training with 466 job
      interruptions, 47 planned and 419 unexpected; Table 5 classifies the
      419), section 3.3.1 (up to 16K H100 GPUs, eight GPUs per server) and
      Table 4 (the 16,384-GPU configurations). The paper prints counts, not
      rates. The entry's node failure rate is the 419 unexpected
      interruptions spread over 2,048 nodes and 54 days, so its
      expected_failures over those 54 days is the 419 it was made from: an
      identity of its inputs, not a reproduction. Its node rate and MTBF are
      computed, not printed, and no figure the paper prints is reproduced by
      this entry. (No source read prints a per-node rate together with a
      job-level figure that the model could be checked against.)

    Examples
    --------
    >>> from refgen_scenarios import Scenarios
    >>> llama3 = Scenarios.FleetJob16kGpus
    >>> print(round(llama3.node_failure_rate * 1000, 2))
    3.79 1/d
    >>> print(round(llama3.mtbf, 2))
    3.09 h
    """

    rules: ClassVar[Rules] = input_rules(node_failure_rate=RATE, period=DURATION)

    gpus: int
    """Accelerators the job runs on."""
    gpus_per_node: int
    """Accelerators per node, the unit that fails."""
    node_failure_rate: Quantity
    """Failures per unit time of one node."""
    period: Optional[Quantity] = None
    """Time the job is observed; needed only for expected_failures."""

    def __post_init__(self) -> None:
        check_inputs(self)

    @property
    def nodes(self) -> float:
        """Nodes the job spans."""
        return self.gpus / self.gpus_per_node

    @property
    def failure_rate(self) -> Quantity:
        """Failures per day of the whole job, from calc_fleet_failure_rate."""
        return calc_fleet_failure_rate(self.nodes, self.node_failure_rate).to('1/day')

    @property
    def mtbf(self) -> Quantity:
        """Mean time between job failures in hours."""
        return (1 / self.failure_rate).to('hour')

    @property
    def expected_failures(self) -> float:
        """Job failures expected over the period (dimensionless)."""
        return (self.failure_rate * self.period).to('').magnitude


@dataclass(frozen=True, kw_only=True)
class CheckpointIntervalScenario:
    """How much compute to do between checkpoints: Young's and Daly's optima.

    Writing checkpoints often wastes the checkpoint_time again and again;
    writing them rarely loses more work when a failure strikes. Young's
    first-order balance puts the interval at √(2δM); Daly's higher-order
    estimate refines it. A job on several machines fails as often as all of
    them together, so its MTBF is one machine's divided by machines.

    Notes
    -----
    Equation: system_mtbf = machine_mtbf / machines; young_interval =
        √(2 × checkpoint_time × system_mtbf); daly_interval from
        calc_daly_interval; overhead = δ/τ + τ/(2M) at Young's interval.
    Assumptions: Failures arrive at a constant rate; machines fail
        independently.
    Excludes: Restart time, failures during checkpointing, and the cost of
        storing checkpoints.

    References
    ----------
    - refgen_scenarios.physics.calc_young_interval
    - refgen_scenarios.physics.calc_daly_interval
    - refgen_scenarios.physics.calc_checkpoint_overhead
    - Young, "A First Order Approximation to the Optimum Checkpoint Interval",
      CACM 17(9), 1974.
    - Daly, "A higher order estimate of the optimum checkpoint interval for
      restart dumps", Future Generation Computer Systems 22(3), 2006, Figure 3
      (M = 24 h, δ = 5 min: τ_opt = 117 min).
    - Low et al., "Distributed GraphLab: A Framework for Machine Learning and
      Data Mining in the Cloud", PVLDB 5(8), 2012, section 4.3 (64 machines,
      one-year MTBF per machine, 2-minute checkpoints: an optimal interval of
      3 hours).

    Examples
    --------
    >>> from refgen_scenarios import Scenarios
    >>> daly = Scenarios.DalyFigure3Checkpoint
    >>> print(round(daly.daly_interval))
    117 min
    >>> print(round(daly.young_interval))
    120 min
    >>> print(round(Scenarios.GraphLab64MachineCheckpoint.young_interval.to('hour'), 1))
    3.0 h
    """

    rules: ClassVar[Rules] = input_rules(checkpoint_time=DURATION, machine_mtbf=DURATION)

    checkpoint_time: Quantity
    """Time to write one checkpoint, δ."""
    machine_mtbf: Quantity
    """Mean time between failures of one machine."""
    machines: int = 1
    """Machines the job depends on; any one failing interrupts it."""

    def __post_init__(self) -> None:
        check_inputs(self)

    @property
    def system_mtbf(self) -> Quantity:
        """Mean time between failures of the whole job in hours, M."""
        return (self.machine_mtbf / self.machines).to('hour')

    @property
    def young_interval(self) -> Quantity:
        """Young's optimum compute time between checkpoints, in minutes."""
        return calc_young_interval(self.checkpoint_time, self.system_mtbf).to('minute')

    @property
    def daly_interval(self) -> Quantity:
        """Daly's higher-order optimum compute time between checkpoints, in minutes."""
        return calc_daly_interval(self.checkpoint_time, self.system_mtbf).to('minute')

    @property
    def overhead(self) -> float:
        """First-order fraction of time lost to checkpoints and rework at Young's interval."""
        return calc_checkpoint_overhead(self.checkpoint_time, self.young_interval, self.system_mtbf)


@dataclass(frozen=True, kw_only=True)
class CheckpointWriteScenario:
    """Time to write one training checkpoint, and its share of the time between checkpoints.

    A checkpoint holds bytes_per_param of model state for every parameter:
    the weights and everything the optimizer keeps. Writing it at
    write_bandwidth takes write_time, the checkpoint time that
    CheckpointIntervalScenario takes as an input. On a job whose failures
    arrive once per system_mtbf, Young's rule puts the checkpoints
    checkpoint_interval apart, and training then waits write_time out of
    every checkpoint_interval: write_share is the part of the training time
    that checkpointing takes.

    Notes
    -----
    Equation: checkpoint_bytes = parameters × bytes_per_param; write_time =
        checkpoint_bytes / write_bandwidth; checkpoint_interval =
        √(2 × write_time × system_mtbf) (Young's τ_opt); write_share =
        write_time / checkpoint_interval.
    Assumptions: The whole state is written once, at a sustained
        write_bandwidth, while training waits; checkpoints are taken at
        Young's first-order optimum, which assumes failures at a constant
        rate and write_time much shorter than system_mtbf.
    Excludes: Asynchronous or incremental checkpointing, compression, the
        time to read a checkpoint back after a failure, and the work lost to
        failures (the other half of the Young-Daly overhead; see
        CheckpointIntervalScenario.overhead).

    References
    ----------
    - refgen_scenarios.physics.calc_young_interval
    - Janapa Reddi et al., "Machine Learning Systems" (open textbook of
      harvard-edge, mlsysbook.ai), Volume II, appendix "Reliability
      Foundations": section "Checkpoint sizing" (about 14 bytes of
      persistent state per parameter: 2 for BF16 weights, 4 for FP32 master
      weights, 4 for each FP32 Adam moment; gradients are not saved) with
      Table "Checkpoint Sizes for Mixed-Precision Adam Training" (write times
      at 100 GB/s of aggregate storage bandwidth), section "The Young-Daly
      model" (τ_opt = √(2 × T_write × MTBF_system)), and the callout
      "Young-Daly: 175B model on a 10,000-GPU cluster" of section "Worked
      example: Optimal checkpoint interval": its setup (a cluster MTBF of
      4.14 hours), step 1 (2,450 GB / 100 GB/s = 24.5 s), step 2 (τ_opt =
      √(2 × 24.5 s × 4.14 h × 3,600 s/h) = 14.2 min) and its
      interpretation (checkpointing alone takes T_write / τ_opt ≈ 2.9% of
      training time). Read in the book's stored source
      (book/quarto/contents/vol2/backmatter/appendix_reliability.qmd of
      harvard-edge/cs249r_book at commit 02fb0d6) and the constants of its
      mlsysim package (GPT-3 at 175e9 parameters, CHECKPOINT_WRITE_BW_GBS =
      100; GPU, NIC and PSU MTTFs of 50,000, 150,000 and 100,000 hours in
      nodes of 8 GPUs, 2 NICs and 2 PSUs, 1,250 nodes), which its cells
      compute and format to these figures (MTBF to two decimals, τ_opt to
      one, the share to one decimal of a percent); the rendered page was not
      read.
    - Young, "A First Order Approximation to the Optimum Checkpoint Interval",
      CACM 17(9), 1974.
    - Rajbhandari et al., "ZeRO: Memory Optimizations Toward Training Trillion
      Parameter Models", SC 2020, section 3.1 (mixed-precision Adam keeps
      16 bytes of model state per parameter during training; the 2 bytes of
      FP16 gradients are the part a checkpoint leaves out).

    Examples
    --------
    >>> from refgen_scenarios import Scenarios
    >>> gpt3 = Scenarios.Gpt3CheckpointWrite
    >>> print(round(gpt3.checkpoint_bytes))
    2450 GB
    >>> print(round(gpt3.write_time, 1))
    24.5 s
    >>> print(round(gpt3.checkpoint_interval, 1))
    14.2 min
    >>> print(f"{gpt3.write_share:.1%}")
    2.9%
    """

    rules: ClassVar[Rules] = input_rules(
        bytes_per_param=BYTES, write_bandwidth=DATA_RATE, system_mtbf=DURATION
    )

    parameters: float
    """Number of parameters."""
    bytes_per_param: Quantity
    """Bytes of model state per parameter: weights and optimizer state."""
    write_bandwidth: Quantity
    """Sustained bandwidth of the checkpoint storage."""
    system_mtbf: Optional[Quantity] = None
    """Mean time between failures of the whole job, for checkpoint_interval and write_share."""

    def __post_init__(self) -> None:
        check_inputs(self)

    @property
    def checkpoint_bytes(self) -> Quantity:
        """Size of one checkpoint in GB."""
        return (self.parameters * self.bytes_per_param).to('GB')

    @property
    def write_time(self) -> Quantity:
        """Time in seconds to write one checkpoint at write_bandwidth."""
        return (self.checkpoint_bytes / self.write_bandwidth).to('s')

    @property
    def checkpoint_interval(self) -> Quantity:
        """Young's optimum time between checkpoints in minutes, τ_opt."""
        return calc_young_interval(self.write_time, self.system_mtbf).to('minute')

    @property
    def write_share(self) -> float:
        """Fraction of training time spent writing checkpoints, write_time / checkpoint_interval."""
        return (self.write_time / self.checkpoint_interval).to('').magnitude

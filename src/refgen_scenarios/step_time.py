"""Step-time scenarios

Lower bounds on how long one training step takes: its arithmetic at the
processor's peak against the bytes it moves through DRAM, and the
all-reduce of its gradients across a cluster whose links inside a node are
much faster than those between nodes. Each bound says which resource binds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from refgen_scenarios.units import Quantity
from refgen_scenarios.validation import (
    BYTES,
    COMPUTE,
    COMPUTE_RATE,
    DATA_RATE,
    Rules,
    check_inputs,
    input_rules,
)


@dataclass(frozen=True, kw_only=True)
class UpdateStepBoundScenario:
    """The two floors of one training step, its arithmetic and its DRAM traffic, and which binds.

    A training step does flops_per_param_token operations for every
    parameter and every token of its batch, and moves step_traffic bytes
    through DRAM. Neither can go faster than the processor's peak_compute
    or the memory's memory_bandwidth, so the step takes at least the longer
    of compute_floor and traffic_floor. Which one binds is the roofline's
    question: a step whose arithmetic intensity, operations per byte moved,
    is above the ridge point of its processor is bound by arithmetic, one
    below it by memory traffic.

    Notes
    -----
    Equation: step_flops = flops_per_param_token × parameters ×
        tokens_per_step; compute_floor = step_flops / peak_compute;
        traffic_floor = step_traffic / memory_bandwidth; step_floor =
        max(compute_floor, traffic_floor); arithmetic_intensity = step_flops
        / step_traffic; ridge_point = peak_compute / memory_bandwidth.
    Assumptions: Arithmetic and traffic overlap perfectly and each runs at
        its peak; the operation count is Kaplan et al.'s 6 per parameter per
        token. For the phone entries: the step is the working-set entry's
        illustrative model (10 M parameters) on its nominal batch of 10
        sequences of 128 tokens, and its traffic is that entry's
        step_traffic through that entry's LPDDR5 bus.
    Excludes: Attention-score arithmetic (about 5% more for the phone
        model's shape), the optimizer's arithmetic, kernel launch and
        synchronisation overheads, and thermal throttling.

    References
    ----------
    - Kaplan et al., "Scaling Laws for Neural Language Models",
      arXiv:2001.08361, 2020, section 1.3, "Notation" (C ≈ 6NBS, the
      non-embedding training compute: 6 operations per parameter per token).
      Read in stored copies of the paper's text.
    - Williams, Waterman and Patterson, "Roofline: An Insightful Visual
      Performance Model for Multicore Architectures", CACM 52(4), 2009 (the
      ridge point, peak operations over peak bandwidth).
    - Janapa Reddi et al., "Machine Learning Systems" (open textbook of
      harvard-edge, mlsysbook.ai), its mlsysim hardware registry, entry
      "iPhone 15 Pro (A17 Pro)" (mlsysim/mlsysim/hardware/data/mobile/
      iPhone15Pro.yaml of harvard-edge/cs249r_book at commit 2dcd2ff): a
      peak of 35 TOPS and 51.2 GB/s of memory bandwidth, marked there as an
      estimate from the vendor's marketing peak of the phone's neural
      engine. Apple announced the A17 Pro's Neural Engine at 35 trillion
      operations a second in September 2023; Apple's own page was not read,
      only reports of the announcement. Neither states the precision of
      those operations; they are not FP32 operations, and an FP32 step
      cannot run at that rate, so the NPU entry's compute floor is a floor
      under a phone NPU's printed peak, not an FP32 rate. (The same
      registry gives a Snapdragon 8 Gen 3 45 TOPS beside 77 GB/s: a ridge of
      584 FLOP/B, where the traffic would bind too.)
    - Das, Kwon, Chauhan and Mascolo, "Enabling On-Device Smartphone GPU
      based Training: Lessons Learned", PerCom Workshops 2022
      (arXiv:2202.10100), abstract: optimized OpenCL kernels reach 40-70
      GFLOPs on the GPUs of Snapdragon 8 series phones (CPUs 15-30), and
      data movement takes almost 91% of their GPU training time. The entry
      uses the top of that range as the rate; it is a measured rate, not a
      peak, and the abstract does not state the precision. The paper's text
      was not read.
    - No source prints either phone entry's floors or says which binds:
      all are computed, not printed. No vendor FP32 peak of a phone GPU was
      found.

    Examples
    --------
    >>> from refgen_scenarios import Scenarios
    >>> npu = Scenarios.PhoneFullUpdateStepAtNpuPeak
    >>> print(round(npu.step_flops, 1))
    76.8 GFLOP
    >>> print(round(npu.arithmetic_intensity))
    96 FLOP/B
    >>> print(round(npu.compute_floor, 2))
    2.19 ms
    >>> print(npu.traffic_floor)
    15.625 ms
    >>> npu.limited_by
    'memory'

    At the FP32 rate phone GPUs reached in training, the arithmetic binds,
    some 70 times over:

    >>> gpu = Scenarios.PhoneFullUpdateStepAtMeasuredGpuRate
    >>> gpu.limited_by
    'arithmetic'
    >>> print(round(gpu.step_floor.to('s'), 2))
    1.1 s
    """

    rules: ClassVar[Rules] = input_rules(
        flops_per_param_token=COMPUTE,
        step_traffic=BYTES,
        memory_bandwidth=DATA_RATE,
        peak_compute=COMPUTE_RATE,
    )

    parameters: float
    """Number of trainable parameters, N."""
    tokens_per_step: int
    """Tokens in one step's batch: sequences times tokens per sequence."""
    flops_per_param_token: Quantity
    """Operations per parameter per token of a training step (6 FLOP)."""
    step_traffic: Quantity
    """Bytes one step moves through DRAM."""
    memory_bandwidth: Quantity
    """Peak DRAM bandwidth of the device."""
    peak_compute: Quantity
    """Operation rate the processor running the step can reach."""

    def __post_init__(self) -> None:
        check_inputs(self)

    @property
    def step_flops(self) -> Quantity:
        """Operations of one step in GFLOP."""
        return (self.flops_per_param_token * self.parameters * self.tokens_per_step).to('GFLOP')

    @property
    def arithmetic_intensity(self) -> Quantity:
        """Operations of the step per byte it moves, in FLOP/B."""
        return (self.step_flops / self.step_traffic).to('FLOP/B')

    @property
    def ridge_point(self) -> Quantity:
        """Intensity in FLOP/B at which the processor's peak and the bandwidth take equal time."""
        return (self.peak_compute / self.memory_bandwidth).to('FLOP/B')

    @property
    def compute_floor(self) -> Quantity:
        """Time in ms of the step's arithmetic at peak_compute."""
        return (self.step_flops / self.peak_compute).to('ms')

    @property
    def traffic_floor(self) -> Quantity:
        """Time in ms of the step's DRAM traffic at memory_bandwidth."""
        return (self.step_traffic / self.memory_bandwidth).to('ms')

    @property
    def step_floor(self) -> Quantity:
        """Lower bound on the step time in ms: the longer of the two floors."""
        return max(self.compute_floor, self.traffic_floor).to('ms')

    @property
    def limited_by(self) -> str:
        """'arithmetic' if the compute floor is the longer, else 'memory' (its traffic)."""
        return 'arithmetic' if self.compute_floor > self.traffic_floor else 'memory'


@dataclass(frozen=True, kw_only=True)
class HierarchicalAllReduceScenario:
    """Gradient all-reduce over nodes of several GPUs: fast phases inside nodes, a slow one between.

    Inside a node the GPUs reduce-scatter the gradient buffer over their
    fast links, so that each holds the node's sum of one gpus_per_node-th
    of it. Each GPU then all-reduces its shard with the GPUs of the same
    rank in the other nodes, in a ring; all of a node's shards cross at
    once, sharing the node's inter_node_bandwidth, so the node sends as
    much as a flat ring of nodes would. Last, the GPUs of each node
    all-gather the reduced shards. The two fast phases move almost twice
    the buffer over the links inside the node; the slow phase moves almost
    twice the buffer over each node's links to the others.

    Notes
    -----
    Equation: gradient_bytes = parameters × bytes_per_element;
        intra_node_traffic = 2(g - 1)/g × gradient_bytes, per GPU;
        inter_node_traffic = 2(k - 1)/k × gradient_bytes, per node;
        intra_node_time = intra_node_traffic / intra_node_bandwidth;
        inter_node_time = inter_node_traffic / inter_node_bandwidth;
        sync_time = intra_node_time + inter_node_time, with g =
        gpus_per_node and k = nodes.
    Assumptions: Bandwidth-optimal rings in each phase, every link at full
        speed at once; the phases run one after the other; a node's shards
        share its inter-node bandwidth evenly. For the ZeRO entry: its 64
        devices are 4 of the cluster's DGX-2 nodes of 16 GPUs (ZeRO's
        Figure 1 names no hardware), and ZeRO's "300GB/sec per link
        (NVSwitch)" is the rate each GPU sends at inside its node; if that
        figure counts both directions, the intra-node time doubles and the
        all-reduce takes 0.41 s.
    Excludes: Per-message latency, overlap with the backward pass, the
        reduction arithmetic, and contention from other jobs.

    References
    ----------
    - Rajbhandari et al., "ZeRO: Memory Optimizations Toward Training
      Trillion Parameter Models", SC 2020; section numbers are those of the
      extended version, arXiv:1910.02054v3: section 10.1, "Implementation
      and Methodology", paragraph "Hardware" (400 V100 GPUs, 25 DGX-2 nodes,
      with 800 Gbps internode communication bandwidth: 16 GPUs a node);
      section 10.2 (going beyond a single node drops the bandwidth "from
      300GB/sec per link (NVSwitch) to 12.5 GB/sec per link (Infiniband
      EDR)"); section 3.1 (FP16 gradients, 2 bytes a parameter) and Figure 1
      (the 7.5B-parameter model on N_d = 64 devices). Read in a stored copy
      of the paper's text. ZeRO prints no all-reduce time: the entry's
      times are computed, not printed.
    - Janapa Reddi et al., "Machine Learning Systems" (open textbook of
      harvard-edge, mlsysbook.ai), Volume II, appendix "Communication
      Foundations", subsection "Hierarchical AllReduce" (three phases: a
      reduction inside each node over its fast links, an all-reduce between
      nodes, a broadcast inside each node), read in the book's stored source
      (book/quarto/contents/vol2/backmatter/appendix_communication.qmd of
      harvard-edge/cs249r_book at commit 02fb0d6). This class splits the
      reduction and the broadcast into a reduce-scatter and an all-gather,
      so that every GPU's shard crosses between nodes at once: a choice of
      this class, not a formula of the book.

    Examples
    --------
    >>> from refgen_scenarios import Scenarios
    >>> zero = Scenarios.Zero7p5BHierarchicalAllReduce
    >>> print(round(zero.intra_node_time.to('ms'), 2))
    93.75 ms
    >>> print(round(zero.inter_node_time.to('ms')))
    225 ms
    >>> print(round(zero.sync_time, 3))
    0.319 s
    """

    rules: ClassVar[Rules] = input_rules(
        bytes_per_element=BYTES,
        intra_node_bandwidth=DATA_RATE,
        inter_node_bandwidth=DATA_RATE,
    )

    parameters: float
    """Gradient elements to average: one per parameter, Ψ."""
    bytes_per_element: Quantity
    """Bytes of one gradient element."""
    nodes: int
    """Nodes taking part, k."""
    gpus_per_node: int
    """GPUs in each node, g."""
    intra_node_bandwidth: Quantity
    """Bandwidth each GPU sends at to the others of its node."""
    inter_node_bandwidth: Quantity
    """Bandwidth each node sends at to the other nodes, all its links together."""

    def __post_init__(self) -> None:
        check_inputs(self)

    @property
    def devices(self) -> int:
        """GPUs in the all-reduce, k × g."""
        return self.nodes * self.gpus_per_node

    @property
    def gradient_bytes(self) -> Quantity:
        """Size of the gradient buffer in GB."""
        return (self.parameters * self.bytes_per_element).to('GB')

    @property
    def intra_node_traffic(self) -> Quantity:
        """GB each GPU sends inside its node: the reduce-scatter and the all-gather."""
        share = 2 * (self.gpus_per_node - 1) / self.gpus_per_node
        return (share * self.gradient_bytes).to('GB')

    @property
    def inter_node_traffic(self) -> Quantity:
        """GB each node sends to the others: its GPUs' shards, each in a ring of nodes."""
        share = 2 * (self.nodes - 1) / self.nodes
        return (share * self.gradient_bytes).to('GB')

    @property
    def intra_node_time(self) -> Quantity:
        """Time in s of the two phases inside the nodes."""
        return (self.intra_node_traffic / self.intra_node_bandwidth).to('s')

    @property
    def inter_node_time(self) -> Quantity:
        """Time in s of the phase between the nodes."""
        return (self.inter_node_traffic / self.inter_node_bandwidth).to('s')

    @property
    def sync_time(self) -> Quantity:
        """Bandwidth-bound time of the whole all-reduce in s."""
        return (self.intra_node_time + self.inter_node_time).to('s')

"""Inference and serving scenarios

Budgets of serving a trained model: the bytes each generated token streams
from memory, the key-value cache each sequence keeps, where prefill and decode
sit on a processor's roofline, and what batching buys in throughput.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar, Optional

from refgen_scenarios.physics import (
    calc_decode_step_time,
    calc_kv_cache_bytes_per_token,
    calc_matmul_intensity,
    calc_roofline_attainable,
    calc_weight_matmul_intensity,
)
from refgen_scenarios.units import Quantity, ureg
from refgen_scenarios.validation import (
    BYTES,
    COMPUTE_RATE,
    DATA_RATE,
    DURATION,
    FRACTION,
    Rules,
    check_inputs,
    input_rules,
)


@dataclass(frozen=True, kw_only=True)
class DecodeBandwidthScenario:
    """Decoding one token at a time: the weight-streaming floor and the bandwidth a server achieves.

    At small batch sizes every decoding step reads all the weights from
    memory and does little arithmetic with each byte, so memory bandwidth
    sets the pace. Dividing the weight bytes by the measured
    time_per_output_token gives the bandwidth actually achieved; as a share of
    the peak memory_bandwidth that is the model bandwidth utilization (MBU).

    Notes
    -----
    Equation: step_floor = weight_bytes / memory_bandwidth; achieved_bandwidth
        = weight_bytes / time_per_output_token; bandwidth_utilization =
        achieved_bandwidth / memory_bandwidth.
    Assumptions: Every weight is read once per token; batch size one.
    Excludes: KV-cache reads (small for short sequences and small batches),
        activations and kernel launch overhead.

    References
    ----------
    - Databricks (MosaicML engineering team), "LLM Inference Performance
      Engineering: Best Practices", Databricks blog, 2023, section "Model
      Bandwidth Utilization (MBU)": MBU is achieved over peak memory
      bandwidth, the achieved bandwidth being model and KV-cache bytes over
      the time per output token; the worked example is a 7B model in 16-bit
      precision at 14 ms per output token, which moves 14 GB in 14 ms (1
      TB/s) and is an MBU of 50% on a machine with 2 TB/s of peak bandwidth.
      The example leaves the KV cache out, as this class does.

    Examples
    --------
    >>> from refgen_scenarios import Scenarios
    >>> decode = Scenarios.Databricks7BDecode
    >>> print(decode.weight_bytes)
    14.0 GB
    >>> print(decode.achieved_bandwidth)
    1.0 TB/s
    >>> print(f"{decode.bandwidth_utilization:.0%}")
    50%
    >>> print(decode.step_floor)
    7.0 ms
    """

    rules: ClassVar[Rules] = input_rules(
        bytes_per_param=BYTES, memory_bandwidth=DATA_RATE, time_per_output_token=DURATION
    )

    parameters: float
    """Number of model parameters."""
    bytes_per_param: Quantity
    """Bytes of one weight as served, e.g. 2 bytes for 16-bit weights."""
    memory_bandwidth: Quantity
    """Peak memory bandwidth of the device (or devices) holding the weights."""
    time_per_output_token: Optional[Quantity] = None
    """Measured time per output token; needed only for the achieved figures."""

    def __post_init__(self) -> None:
        check_inputs(self)

    @property
    def weight_bytes(self) -> Quantity:
        """Bytes of weights read per decoding step, in GB."""
        return (self.parameters * self.bytes_per_param).to('GB')

    @property
    def step_floor(self) -> Quantity:
        """Shortest possible time per token in ms, set by streaming the weights once."""
        return (self.weight_bytes / self.memory_bandwidth).to('ms')

    @property
    def achieved_bandwidth(self) -> Quantity:
        """Bandwidth the measured token time implies, in TB/s."""
        return (self.weight_bytes / self.time_per_output_token).to('TB/s')

    @property
    def bandwidth_utilization(self) -> float:
        """Model bandwidth utilization: achieved over peak bandwidth."""
        return (self.achieved_bandwidth / self.memory_bandwidth).to('').magnitude


@dataclass(frozen=True, kw_only=True)
class KvCacheScenario:
    """Key-value cache bytes per token and per sequence, for multi-head or grouped-query attention.

    Every layer caches a key and a value vector per key-value head for each
    token in the context. With multi-head attention kv_heads equals the
    number of query heads; grouped-query attention shares each key-value head
    among several query heads and shrinks the cache by that factor. Sizes
    are given in binary units (KiB, GiB), as the sources quoted here count
    them: the vLLM paper's 800 KB per OPT-13B token is 819,200 bytes,
    NVIDIA's 2 GB for Llama 2 7B is 2³¹ bytes, and Databricks states its
    Llama 2 70B cache in GiB.

    Notes
    -----
    Equation: bytes_per_token = 2 × layers × kv_heads × head_dim ×
        bytes_per_element (calc_kv_cache_bytes_per_token); bytes_per_sequence =
        bytes_per_token × sequence_length.
    Assumptions: Every layer caches keys and values at the same width.
    Excludes: Paging and block-table overhead, fragmentation, and the memory
        of the weights themselves.

    References
    ----------
    - refgen_scenarios.physics.calc_kv_cache_bytes_per_token
    - Kwon et al., "Efficient Memory Management for Large Language Model
      Serving with PagedAttention", SOSP 2023 (arXiv:2309.06180), section 3,
      paragraph "Large KV cache" (OPT-13B: 2 × 5120 × 40 × 2 bytes, 800 KB
      per token; up to 1.6 GB for a request of 2048 tokens).
    - NVIDIA, "Mastering LLM Techniques: Inference Optimization", NVIDIA
      Technical Blog, 2023, section on LLM memory requirement (Llama 2 7B,
      16-bit, batch 1, 4096 tokens: 1 × 4096 × 2 × 32 × 4096 × 2 bytes, about
      2 GB).
    - Touvron et al., "Llama 2: Open Foundation and Fine-Tuned Chat Models",
      arXiv:2307.09288, 2023, section 2.2 (grouped-query attention in the 70B
      model; 80 layers and 8 key-value heads of dimension 128 in the released
      configuration). The paper prints no cache size.
    - Databricks (MosaicML engineering team), "LLM Inference Performance
      Engineering: Best Practices", Databricks blog, 2023, section
      "Optimization Case Study: Quantization", Table 3, "KV cache size for
      Llama-2-70B at a sequence length of 1024" (batch_size × seqlen ×
      (d_model/n_heads) × n_layers × 2 × 2 bytes × n_kv_heads; FP16: .312
      GiB at batch size 1, 5 GiB at 16, 10 GiB at 32, 20 GiB at 64). The
      320 KiB per token behind those rows is 2 × 80 × 8 × 128 × 2 bytes.

    Examples
    --------
    >>> from refgen_scenarios import Scenarios
    >>> opt = Scenarios.Opt13BKvCache
    >>> print(opt.bytes_per_token)
    800.0 KiB
    >>> print(round(opt.bytes_per_sequence, 1))
    1.6 GiB
    >>> print(Scenarios.Llama2_7BKvCache.bytes_per_sequence)
    2.0 GiB

    Grouped-query attention with 8 key-value heads in Llama 2 70B, at
    Databricks' 1024 tokens and batch size 16:

    >>> llama = Scenarios.Llama2_70BKvCache
    >>> print(llama.bytes_per_token)
    320.0 KiB
    >>> print(llama.bytes_per_batch)
    5.0 GiB
    """

    rules: ClassVar[Rules] = input_rules(bytes_per_element=BYTES)

    layers: int
    """Transformer layers."""
    kv_heads: int
    """Key-value heads per layer (equal to the query heads without grouping)."""
    head_dim: int
    """Dimension of one attention head."""
    bytes_per_element: Quantity
    """Bytes of one cached element, e.g. 2 bytes in FP16."""
    sequence_length: int
    """Tokens of context cached for one sequence."""
    batch_size: int = 1
    """Sequences served together."""

    def __post_init__(self) -> None:
        check_inputs(self)

    @property
    def bytes_per_token(self) -> Quantity:
        """Cache KiB one token adds to its sequence, from calc_kv_cache_bytes_per_token."""
        return calc_kv_cache_bytes_per_token(
            self.layers, self.kv_heads, self.head_dim, self.bytes_per_element
        ).to('KiB')

    @property
    def bytes_per_sequence(self) -> Quantity:
        """Cache GiB of one sequence at its full length."""
        return (self.bytes_per_token * self.sequence_length).to('GiB')

    @property
    def bytes_per_batch(self) -> Quantity:
        """Cache GiB of the whole batch."""
        return (self.bytes_per_sequence * self.batch_size).to('GiB')


@dataclass(frozen=True, kw_only=True)
class RooflineScenario:
    """Prefill and decode on the roofline: arithmetic intensity against a processor's ridge point.

    A processor reaches its peak operation rate only for work that does at
    least ridge_point operations per byte it reads. Multiplying tokens by the
    weights does two operations per weight per token: decoding one new token
    per sequence stays far below the ridge unless the batch is large, while
    prefill reuses every weight for all the prompt tokens and lands above it.

    Notes
    -----
    Equation: ridge_point = peak_compute / memory_bandwidth; intensity =
        2 FLOP × tokens / bytes_per_param; attainable = min(peak_compute,
        intensity × memory_bandwidth).
    Assumptions: Weight reads dominate the traffic; compute and memory
        transfers overlap fully.
    Excludes: KV-cache and activation traffic, attention-score operations, and
        cache effects.

    References
    ----------
    - refgen_scenarios.physics.calc_weight_matmul_intensity
    - refgen_scenarios.physics.calc_roofline_attainable
    - Williams, Waterman and Patterson, "Roofline: An Insightful Visual
      Performance Model for Multicore Architectures", CACM 52(4), 2009.
    - NVIDIA, "GPU Performance Background User's Guide", Deep Learning
      Performance documentation, section "Understanding Performance": the
      V100 has "a peak math rate of 125 FP16 Tensor TFLOPS, an off-chip
      memory bandwidth of approx. 900 GB/s", an ops:byte ratio of 139 from
      off-chip memory (40 from its L2 cache); Table 1 of that section, whose
      limiters assume FP16 data on a V100, puts a linear layer of 4096
      outputs and 1024 inputs at 1 FLOPS/B, memory-limited, at batch size 1,
      and at 315 FLOPS/B, arithmetic-limited, at batch size 512. The table
      counts input and output bytes as well as the weights, so at batch
      size 512 its intensity is below this class's weight-only 512 FLOP/B.
    - NVIDIA, "Matrix Multiplication Background User's Guide", Deep Learning
      Performance documentation, section "Math and Memory Bounds" (the
      V100's FLOPS:B ratio is 138.9 for FP16 Tensor Core operations on data
      loaded from GPU memory).

    Examples
    --------
    >>> from refgen_scenarios import Scenarios
    >>> v100 = Scenarios.V100Roofline
    >>> print(round(v100.ridge_point, 1))
    138.9 FLOP/B
    >>> print(v100.decode_intensity)
    1.0 FLOP/B
    >>> print(f"{v100.decode_utilization:.1%}")
    0.7%
    >>> print(f"{v100.prefill_utilization:.0%}")
    100%
    """

    rules: ClassVar[Rules] = input_rules(
        peak_compute=COMPUTE_RATE, memory_bandwidth=DATA_RATE, bytes_per_param=BYTES
    )

    peak_compute: Quantity
    """Peak operation rate of the processor at the serving precision."""
    memory_bandwidth: Quantity
    """Peak memory bandwidth of the processor."""
    bytes_per_param: Quantity
    """Bytes of one weight as served."""
    decode_batch: int
    """Sequences decoded together, each contributing one token per step."""
    prompt_tokens: int
    """Tokens of one prompt processed together in prefill."""

    def __post_init__(self) -> None:
        check_inputs(self)

    @property
    def ridge_point(self) -> Quantity:
        """Operations per byte at which the processor turns from memory-bound to compute-bound."""
        return (self.peak_compute / self.memory_bandwidth).to('FLOP/B')

    @property
    def decode_intensity(self) -> Quantity:
        """Operations per weight byte of one decoding step, in FLOP/B."""
        return calc_weight_matmul_intensity(self.decode_batch, self.bytes_per_param).to('FLOP/B')

    @property
    def prefill_intensity(self) -> Quantity:
        """Operations per weight byte of prefilling one prompt, in FLOP/B."""
        return calc_weight_matmul_intensity(self.prompt_tokens, self.bytes_per_param).to('FLOP/B')

    @property
    def decode_attainable(self) -> Quantity:
        """Highest operation rate decoding can reach, in TFLOP/s."""
        return calc_roofline_attainable(
            self.decode_intensity, self.peak_compute, self.memory_bandwidth
        ).to('TFLOP/s')

    @property
    def prefill_attainable(self) -> Quantity:
        """Highest operation rate prefill can reach, in TFLOP/s."""
        return calc_roofline_attainable(
            self.prefill_intensity, self.peak_compute, self.memory_bandwidth
        ).to('TFLOP/s')

    @property
    def decode_utilization(self) -> float:
        """Share of the peak operation rate decoding can use."""
        return (self.decode_attainable / self.peak_compute).to('').magnitude

    @property
    def prefill_utilization(self) -> float:
        """Share of the peak operation rate prefill can use."""
        return (self.prefill_attainable / self.peak_compute).to('').magnitude


@dataclass(frozen=True, kw_only=True)
class BatchDecodeScenario:
    """Step time, throughput and memory of decoding a batch of sequences, KV cache included.

    Each decoding step reads all the weights once, whatever the batch size,
    reads the key-value cache of every sequence in the batch, and does 2 FLOP
    per parameter for every sequence. The cache grows with batch_size ×
    context_tokens, so at long contexts it outweighs the weights both in
    memory and in the bytes each step reads. Without the cache, reading the
    weights and the arithmetic would take equal time at balanced_batch.

    A batch whose caches do not fit beside the weights cannot run.
    fits_in_memory says whether batch_size does; max_batch is the most
    sequences that fit, and the step time and throughput are those of
    resident_batch, the sequences the server can hold, never of a batch
    that does not fit. memory_needed is what the whole batch would need.

    Notes
    -----
    Equation: kv_cache_bytes = 2 × layers × kv_heads × head_dim ×
        kv_bytes_per_element × context_tokens × batch_size; max_batch =
        (memory_capacity - weight_bytes) / cache per sequence, rounded down;
        resident_batch = min(batch_size, max_batch); step_time =
        max((weight_bytes + resident caches) / memory_bandwidth, 2 FLOP ×
        parameters × resident_batch / peak_compute); throughput =
        resident_batch / step_time; balanced_batch = peak_compute ×
        bytes_per_param / (2 FLOP × memory_bandwidth).
    Assumptions: Every sequence has context_tokens cached (the last step of a
        full-length generation, the slowest one); reads and arithmetic overlap
        perfectly and both run at peak; memory_capacity is taken in the unit
        of its datasheet; sequences that do not fit wait, and take no part
        in the step.
    Excludes: Attention arithmetic, activations and framework workspace in
        memory, communication between devices, and scheduling overhead.

    References
    ----------
    - refgen_scenarios.physics.calc_decode_step_time
    - refgen_scenarios.physics.calc_kv_cache_bytes_per_token
    - Kwon et al., "Efficient Memory Management for Large Language Model
      Serving with PagedAttention", SOSP 2023 (arXiv:2309.06180), section 3,
      paragraph "Large KV cache" (OPT-13B: 2 × 5120 (hidden) × 40 (layers) ×
      2 bytes = 800 KB of KV cache per token).
    - NVIDIA, "NVIDIA A100 Tensor Core GPU" datasheet, 2021, specifications
      table (A100 80GB SXM: 312 TFLOPS FP16/BF16 Tensor Core without
      sparsity, 80GB HBM2e, 2,039 GB/s).

    Examples
    --------
    >>> from refgen_scenarios import Scenarios
    >>> serving = Scenarios.Opt13BBatchDecodeOnA100
    >>> print(serving.kv_bytes_per_token)
    800.0 KiB
    >>> print(round(serving.kv_cache_bytes, 1))
    107.4 GB
    >>> print(round(serving.memory_needed, 1))
    133.4 GB
    >>> serving.fits_in_memory
    False

    Only 32 of the 64 sequences fit beside the weights; the figures of a
    step are theirs:

    >>> serving.resident_batch
    32
    >>> print(round(serving.step_time, 1))
    39.1 ms
    >>> print(round(serving.throughput))
    819 token/s
    """

    rules: ClassVar[Rules] = input_rules(
        bytes_per_param=BYTES,
        kv_bytes_per_element=BYTES,
        peak_compute=COMPUTE_RATE,
        memory_bandwidth=DATA_RATE,
        memory_capacity=BYTES,
    )

    parameters: float
    """Number of model parameters."""
    bytes_per_param: Quantity
    """Bytes of one weight as served."""
    layers: int
    """Transformer layers, each caching keys and values."""
    kv_heads: int
    """Key-value heads per layer; kv_heads × head_dim is the hidden size without grouping."""
    head_dim: int
    """Dimension of one attention head."""
    kv_bytes_per_element: Quantity
    """Bytes of one cached key or value element, e.g. 2 bytes in FP16."""
    context_tokens: int
    """Tokens cached per sequence: prompt plus generated tokens so far."""
    batch_size: int
    """Sequences decoded together, one new token each per step."""
    peak_compute: Quantity
    """Peak operation rate of the serving processor."""
    memory_bandwidth: Quantity
    """Peak memory bandwidth of the serving processor."""
    memory_capacity: Quantity
    """Memory of the serving processor, as its datasheet states it."""

    def __post_init__(self) -> None:
        check_inputs(self)

    @property
    def weight_bytes(self) -> Quantity:
        """Bytes of weights read per step, in GB."""
        return (self.parameters * self.bytes_per_param).to('GB')

    @property
    def kv_bytes_per_token(self) -> Quantity:
        """KV-cache bytes one token adds to its sequence, in KiB (binary, as vLLM counts)."""
        return calc_kv_cache_bytes_per_token(
            self.layers, self.kv_heads, self.head_dim, self.kv_bytes_per_element
        ).to('KiB')

    @property
    def kv_cache_bytes(self) -> Quantity:
        """KV cache of the whole batch at context_tokens, in GB."""
        return (self.kv_bytes_per_token * self.context_tokens * self.batch_size).to('GB')

    @property
    def memory_needed(self) -> Quantity:
        """Weights plus the whole batch's KV cache in GB, what batch_size would need."""
        return (self.weight_bytes + self.kv_cache_bytes).to('GB')

    @property
    def fits_in_memory(self) -> bool:
        """Whether the weights and the whole batch's KV cache fit in memory_capacity together."""
        return bool(self.memory_needed <= self.memory_capacity)

    @property
    def max_batch(self) -> int:
        """Most sequences of context_tokens whose caches fit beside the weights."""
        sequence_cache = self.kv_bytes_per_token * self.context_tokens
        free = self.memory_capacity - self.weight_bytes
        return max(0, math.floor((free / sequence_cache).to('').magnitude))

    @property
    def resident_batch(self) -> int:
        """Sequences the server holds and decodes: batch_size, or max_batch if fewer fit."""
        return min(self.batch_size, self.max_batch)

    @property
    def resident_memory(self) -> Quantity:
        """Weights plus the resident sequences' KV cache in GB, what a step reads."""
        resident_cache = self.kv_bytes_per_token * self.context_tokens * self.resident_batch
        return (self.weight_bytes + resident_cache).to('GB')

    @property
    def step_flops(self) -> Quantity:
        """Operations of one step's weight multiplications for the resident batch, in TFLOP."""
        return (2 * ureg.FLOP * self.parameters * self.resident_batch).to('TFLOP')

    @property
    def step_time(self) -> Quantity:
        """Time of one decoding step of the resident batch in ms, cache reads included."""
        return calc_decode_step_time(
            self.resident_memory, self.memory_bandwidth, self.step_flops, self.peak_compute
        ).to('ms')

    @property
    def weights_only_step_time(self) -> Quantity:
        """Step time in ms if the KV cache were not read, for comparison."""
        return calc_decode_step_time(
            self.weight_bytes, self.memory_bandwidth, self.step_flops, self.peak_compute
        ).to('ms')

    @property
    def throughput(self) -> Quantity:
        """Tokens generated per second across the resident batch."""
        return (self.resident_batch * ureg.token / self.step_time).to('token/s')

    @property
    def balanced_batch(self) -> float:
        """Batch size at which reading the weights alone and the arithmetic take equal time."""
        return (
            (self.peak_compute * self.bytes_per_param / (2 * ureg.FLOP * self.memory_bandwidth))
            .to('')
            .magnitude
        )


@dataclass(frozen=True, kw_only=True)
class MatmulRooflineScenario:
    """The roofline of a matrix product: its arithmetic intensity against an accelerator's ridge.

    An accelerator reaches its peak_compute only on work that does at least
    ridge_point operations per byte it moves; below that, memory_bandwidth
    caps the rate at intensity × bandwidth. A linear layer multiplies a batch
    of rows inputs by a matrix of inner × columns weights: its intensity grows
    with the batch, since every weight read is reused once per row. The
    slower of moving the bytes and doing the arithmetic bounds its time.

    Notes
    -----
    Equation: intensity = 2 × rows × columns × inner FLOP / ((rows × inner +
        inner × columns + rows × columns) × bytes_per_element); ridge_point =
        peak_compute / memory_bandwidth; attainable = min(peak_compute,
        intensity × memory_bandwidth).
    Assumptions: Each operand is read once and the result written once;
        arithmetic and memory transfers overlap fully; the datasheet peaks
        are reachable.
    Excludes: Tiling re-reads, cache reuse, kernel launch latency, and
        epilogues such as bias and activation.

    References
    ----------
    - refgen_scenarios.physics.calc_matmul_intensity
    - refgen_scenarios.physics.calc_roofline_attainable
    - Williams, Waterman and Patterson, "Roofline: An Insightful Visual
      Performance Model for Multicore Architectures", CACM 52(4), 2009
      (attainable rate = min(peak, operational intensity × bandwidth)).
    - NVIDIA, "GPU Performance Background User's Guide", Deep Learning
      Performance documentation, section "Understanding Performance", the
      table of example operations, whose limiters assume FP16 data on a V100
      (a linear layer with 4096 outputs and 1024 inputs: 315 FLOPS/B at
      batch size 512, usually arithmetic-limited; 1 FLOPS/B at batch size 1,
      usually memory-limited).
    - NVIDIA, "Matrix Multiplication Background User's Guide", Deep Learning
      Performance documentation, section "Math and Memory Bounds" (the
      V100's ops:byte ratio of 138.9 FLOPS:B, against which an 8192 × 128 ×
      8192 product at 124.1 FLOPS/B is memory-limited).
    - NVIDIA, "NVIDIA Tesla V100 GPU Accelerator" datasheet, 2017-2018 (V100
      SXM2: 125 TFLOPS of Tensor Core performance, 900 GB/s of memory
      bandwidth).

    Examples
    --------
    >>> from refgen_scenarios import Scenarios
    >>> big = Scenarios.NvidiaLinearBatch512OnV100
    >>> print(round(big.ridge_point, 1))
    138.9 FLOP/B
    >>> print(round(big.intensity))
    315 FLOP/B
    >>> big.limited_by
    'arithmetic'
    >>> one = Scenarios.NvidiaLinearBatch1OnV100
    >>> print(round(one.intensity))
    1 FLOP/B
    >>> one.limited_by
    'memory'
    """

    rules: ClassVar[Rules] = input_rules(
        bytes_per_element=BYTES, peak_compute=COMPUTE_RATE, memory_bandwidth=DATA_RATE
    )

    rows: int
    """Rows of the input and the output, M: the batch of a linear layer."""
    columns: int
    """Columns of the weights and the output, N: the layer's outputs."""
    inner: int
    """The shared dimension, K: the layer's inputs."""
    bytes_per_element: Quantity
    """Bytes of one element, e.g. 2 bytes in FP16."""
    peak_compute: Quantity
    """Peak operation rate of the accelerator at this precision."""
    memory_bandwidth: Quantity
    """Peak memory bandwidth of the accelerator."""

    def __post_init__(self) -> None:
        check_inputs(self)

    @property
    def flops(self) -> Quantity:
        """Operations of the product in GFLOP: two per multiply-add."""
        return (2 * self.rows * self.columns * self.inner * ureg.FLOP).to('GFLOP')

    @property
    def intensity(self) -> Quantity:
        """Operations per byte moved in FLOP/B, from calc_matmul_intensity."""
        return calc_matmul_intensity(
            self.rows, self.columns, self.inner, self.bytes_per_element
        ).to('FLOP/B')

    @property
    def bytes_moved(self) -> Quantity:
        """Bytes read and written in MB: the flops over the intensity."""
        return (self.flops / self.intensity).to('MB')

    @property
    def ridge_point(self) -> Quantity:
        """Intensity in FLOP/B at which the accelerator turns from memory-bound to compute-bound."""
        return (self.peak_compute / self.memory_bandwidth).to('FLOP/B')

    @property
    def attainable(self) -> Quantity:
        """Highest rate the product can reach in TFLOP/s, from calc_roofline_attainable."""
        return calc_roofline_attainable(
            self.intensity, self.peak_compute, self.memory_bandwidth
        ).to('TFLOP/s')

    @property
    def limited_by(self) -> str:
        """'arithmetic' if the intensity is above the ridge point, else 'memory'."""
        return 'arithmetic' if self.intensity > self.ridge_point else 'memory'

    @property
    def time_floor(self) -> Quantity:
        """Shortest time of the product in µs at the attainable rate."""
        return (self.flops / self.attainable).to('us')


@dataclass(frozen=True, kw_only=True)
class KvCacheCapacityScenario:
    """How many tokens of KV cache fit in the memory a server sets aside for it beside the weights.

    The weights take a fixed share of memory_capacity and leave free_memory.
    A server does not give all of that to the key-value cache: activations
    and workspace need some, so the cache gets kv_memory, as much as its
    source sets aside. At kv_bytes_per_token for every token of every
    sequence being served, that budget, not the arithmetic, often caps how
    many sequences a server can batch: max_tokens in all, or max_sequences
    at context_tokens each. Without a stated kv_memory there are no token
    counts: free_memory is an upper bound on the cache, not its size.

    Notes
    -----
    Equation: free_memory = memory_capacity - parameters × bytes_per_param;
        kv_budget = kv_memory; kv_bytes_per_token = 2 × layers × kv_heads ×
        head_dim × kv_bytes_per_element; max_tokens = kv_budget /
        kv_bytes_per_token and max_sequences = max_tokens / context_tokens,
        each rounded down.
    Assumptions: memory_capacity and kv_memory are read in the unit that
        makes their source's own figures come out: decimal for the vLLM
        paper's Figure 1 (its 26 GB of weights are 65% of 40 GB), binary
        for its Table 1 (12 GB of cache at 800 KB a token are its 15.7K
        slots only in binary units), so that a share never divides one unit
        by the other. The weights are parameters × bytes_per_param bytes.
    Excludes: The split of free_memory between activations, workspace and
        cache where no source states it, and fragmentation (which paged
        allocation removes).

    References
    ----------
    - refgen_scenarios.physics.calc_kv_cache_bytes_per_token
    - Kwon et al., "Efficient Memory Management for Large Language Model
      Serving with PagedAttention", SOSP 2023 (arXiv:2309.06180), Figure 1,
      left (memory layout of a 13B-parameter LLM served on an NVIDIA A100
      40GB: parameters "26GB, 65%", KV cache ">30%", with section 1 giving
      the same split as about 65% and close to 30%), and section 3,
      paragraph "Large KV cache" (OPT-13B: 800 KB of cache per token). The
      35% left beside the weights is this class's arithmetic, not a figure
      of the paper; Figure 1 gives the cache more than 30% of it and the
      rest to other data, so Opt13BOnA100_40GB states no cache size and
      counts no tokens.
    - Kwon et al., SOSP 2023, section 6.1, "Experimental Setup", paragraph
      "Model and server configurations", and Table 1, "Model sizes and
      server configurations" (page 9 of the SOSP text): for the 13B model
      (OPT-13B) on one A100, "Total GPU memory 40 GB", "Parameter size 26
      GB", "Memory for KV cache 12 GB" and "Max. # KV cache slots 15.7K".
      The slots are tokens of cache: 12 GB over section 3's 800 KB a token.
      Both are binary units (800 KB is 2 × 5120 × 40 × 2 = 819,200 bytes),
      so the 12 GB is read as 12 × 2³⁰ bytes: 15,728 tokens, 15.7K as
      printed; read as 12 × 10⁹ bytes the count would be 14.6K. The entry
      reads the table's 40 GB in the same binary unit, so that the cache is
      the 30% of it that 12 of 40 is. Table 1 prints no sequence count;
      VllmOpt13BCacheSlots's max_sequences is this class's arithmetic.

    Examples
    --------
    >>> from refgen_scenarios import Scenarios
    >>> opt = Scenarios.Opt13BOnA100_40GB
    >>> print(opt.weight_bytes)
    26.0 GB
    >>> print(f"{opt.weight_share:.0%}")
    65%
    >>> print(f"{opt.free_share:.0%}")
    35%

    vLLM's server gives 12 GB of its A100 to the cache (Table 1):

    >>> vllm = Scenarios.VllmOpt13BCacheSlots
    >>> print(f"{vllm.kv_share:.0%}")
    30%
    >>> vllm.max_tokens
    15728
    """

    rules: ClassVar[Rules] = input_rules(
        bytes_per_param=BYTES,
        kv_bytes_per_element=BYTES,
        memory_capacity=BYTES,
        kv_memory=BYTES,
    )

    parameters: float
    """Number of model parameters."""
    bytes_per_param: Quantity
    """Bytes of one weight as served."""
    layers: int
    """Transformer layers, each caching keys and values."""
    kv_heads: int
    """Key-value heads per layer."""
    head_dim: int
    """Dimension of one attention head."""
    kv_bytes_per_element: Quantity
    """Bytes of one cached element, e.g. 2 bytes in FP16."""
    memory_capacity: Quantity
    """Memory of the accelerator, in the unit its source states."""
    context_tokens: int
    """Tokens cached per sequence at full length."""
    kv_memory: Optional[Quantity] = None
    """Memory the source sets aside for the cache; needed only for the cache's share and counts."""

    def __post_init__(self) -> None:
        check_inputs(self)

    @property
    def weight_bytes(self) -> Quantity:
        """Memory in GB the weights take."""
        return (self.parameters * self.bytes_per_param).to('GB')

    @property
    def weight_share(self) -> float:
        """Share of memory_capacity the weights take (dimensionless)."""
        return (self.weight_bytes / self.memory_capacity).to('').magnitude

    @property
    def free_memory(self) -> Quantity:
        """Memory in GB the weights leave for cache, activations and workspace."""
        return (self.memory_capacity - self.weight_bytes).to('GB')

    @property
    def free_share(self) -> float:
        """Share of memory_capacity the weights leave free (dimensionless)."""
        return (self.free_memory / self.memory_capacity).to('').magnitude

    @property
    def kv_budget(self) -> Quantity:
        """Memory in GiB the server sets aside for the KV cache, kv_memory."""
        return self.kv_memory.to('GiB')

    @property
    def kv_share(self) -> float:
        """Share of memory_capacity set aside for the KV cache (dimensionless)."""
        return (self.kv_budget / self.memory_capacity).to('').magnitude

    @property
    def kv_bytes_per_token(self) -> Quantity:
        """KV-cache KiB per token per sequence, from calc_kv_cache_bytes_per_token."""
        return calc_kv_cache_bytes_per_token(
            self.layers, self.kv_heads, self.head_dim, self.kv_bytes_per_element
        ).to('KiB')

    @property
    def max_tokens(self) -> int:
        """Tokens of cache, over all sequences, that fit in kv_budget."""
        return int((self.kv_budget / self.kv_bytes_per_token).to('').magnitude)

    @property
    def max_sequences(self) -> int:
        """Sequences of context_tokens each whose cache fits in kv_budget."""
        return self.max_tokens // self.context_tokens


@dataclass(frozen=True, kw_only=True)
class ServingLatencyScenario:
    """Time to first token and time per output token: prefill bound by compute, decode by bandwidth.

    Prefill processes the whole prompt in one pass, doing 2 FLOP per parameter
    per prompt token with every weight reused across the prompt, so the
    processor's arithmetic sets the time to first token (TTFT). Each later
    token needs one pass that reads every weight for little arithmetic, so
    memory bandwidth sets the time per output token (TPOT). The request's
    latency is TTFT plus TPOT for every generated token. The utilization
    inputs scale each peak to what the server achieves.

    Notes
    -----
    Equation: time_to_first_token = 2 FLOP × parameters × prompt_tokens /
        (peak_compute × compute_utilization); time_per_output_token =
        parameters × bytes_per_param / (memory_bandwidth ×
        bandwidth_utilization); request_latency = time_to_first_token +
        time_per_output_token × output_tokens.
    Assumptions: Batch size one; prefill is compute-bound and decode is
        bandwidth-bound, with no overlap between the two phases. Without
        peak_compute and prompt_tokens there is no time to first token, and
        without output_tokens as well no request latency.
    Excludes: KV-cache reads and attention arithmetic (small for short
        contexts), queueing, network and tokenisation time.

    References
    ----------
    - Databricks (MosaicML engineering team), "LLM Inference Performance
      Engineering: Best Practices", Databricks blog, 2023, section
      "Important Metrics for LLM Serving" (latency = TTFT + TPOT × the
      number of tokens to be generated) and section "Model Bandwidth
      Utilization (MBU)" (a 7B model in 16-bit precision at 14 ms per output
      token uses 1 TB/s, an MBU of 50% on a machine with 2 TB/s).
    - Austin et al., "How to Scale Your Model" (Google DeepMind, 2025,
      jax-ml.github.io/scaling-book), section 8, "Serving LLaMA 3-70B on
      TPUs", subsection "What about prefill?" (the prefill formula: at 8k
      tokens prefill is compute-bound, 2 × parameters FLOPs per token over
      the chips' FLOPs/s times the FLOPs utilization; 2 × 70e9 × 8192 /
      (16 × 1.97e14 × 0.4) = 0.91 s), with section 2, "How to Think About
      TPUs", for TPU v5e's 1.97e14 bf16 FLOPs/s and 8.1e11 bytes/s of HBM
      bandwidth a chip. Read in the book's source (applied-inference.md and
      tpus.md of jax-ml/scaling-book at commit 0819a7d).

    Examples
    --------
    >>> from refgen_scenarios import Scenarios
    >>> databricks = Scenarios.Databricks7BServingLatency
    >>> print(round(databricks.time_per_output_token, 1))
    14.0 ms
    >>> prefill = Scenarios.ScalingBookLlama70BPrefill
    >>> print(round(prefill.time_to_first_token.to('s'), 2))
    0.91 s
    """

    rules: ClassVar[Rules] = input_rules(
        bytes_per_param=BYTES,
        memory_bandwidth=DATA_RATE,
        bandwidth_utilization=FRACTION,
        peak_compute=COMPUTE_RATE,
        compute_utilization=FRACTION,
    )

    parameters: float
    """Number of model parameters."""
    bytes_per_param: Quantity
    """Bytes of one weight as served."""
    memory_bandwidth: Quantity
    """Peak memory bandwidth of the serving hardware."""
    prompt_tokens: Optional[int] = None
    """Tokens in the prompt, processed together in prefill; needed only for the TTFT."""
    output_tokens: Optional[int] = None
    """Tokens generated after the prompt; needed only for the request latency."""
    bandwidth_utilization: float = 1.0
    """Share of memory_bandwidth decoding achieves (model bandwidth utilization)."""
    peak_compute: Optional[Quantity] = None
    """Peak operation rate of the serving hardware; needed only for the time to first token."""
    compute_utilization: float = 1.0
    """Share of peak_compute prefill achieves."""

    def __post_init__(self) -> None:
        check_inputs(self)

    @property
    def weight_bytes(self) -> Quantity:
        """Bytes of weights in GB, read once per output token."""
        return (self.parameters * self.bytes_per_param).to('GB')

    @property
    def prefill_flops(self) -> Quantity:
        """Operations of prefilling the prompt, in TFLOP."""
        return (2 * ureg.FLOP * self.parameters * self.prompt_tokens).to('TFLOP')

    @property
    def time_to_first_token(self) -> Quantity:
        """Compute-bound time to first token (TTFT) in ms."""
        return (self.prefill_flops / (self.peak_compute * self.compute_utilization)).to('ms')

    @property
    def time_per_output_token(self) -> Quantity:
        """Bandwidth-bound time per output token (TPOT) in ms."""
        return (self.weight_bytes / (self.memory_bandwidth * self.bandwidth_utilization)).to('ms')

    @property
    def tokens_per_second(self) -> Quantity:
        """Decoding speed one user sees, in token/s."""
        return (1 * ureg.token / self.time_per_output_token).to('token/s')

    @property
    def request_latency(self) -> Quantity:
        """End-to-end latency of one request in s: TTFT plus TPOT for every output token."""
        return (self.time_to_first_token + self.time_per_output_token * self.output_tokens).to('s')

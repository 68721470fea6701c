"""Training scenarios

Budgets of training a model: what has to be resident while it learns, how
partitioning and recomputation shrink that, how many operations and how much
time a run takes, and how many bytes one update moves through DRAM and
across the network.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Optional

from refgen_scenarios.physics import (
    calc_amdahl_speedup,
    calc_bytes_per_parameter,
    calc_compute_optimal_parameters,
    calc_compute_time,
    calc_pipeline_bubble_fraction,
    calc_ring_allreduce_alpha_beta_time,
    calc_ring_allreduce_time,
    calc_ring_allreduce_traffic,
    calc_selective_recomputation_saving,
    calc_training_flops,
    calc_transformer_activation_bytes,
    calc_update_step_traffic,
    calc_zero_bytes_per_device,
)
from refgen_scenarios.units import Quantity, ureg
from refgen_scenarios.validation import (
    BYTES,
    COMPUTE,
    COMPUTE_RATE,
    COUNT_OR_ZERO,
    DATA_RATE,
    DURATION,
    FRACTION,
    NUMBER_OR_ZERO,
    RATIO_AT_LEAST_ONE,
    Rules,
    check_inputs,
    input_rules,
)


@dataclass(frozen=True, kw_only=True)
class UpdateWorkingSetScenario:
    """A full on-device update with Adam: its working set and the DRAM bytes of one step.

    Every weight gets a gradient of the same width; the optimizer keeps
    optimizer_moments moments and master_copies copies of the weights, of
    optimizer_width bytes each, and the forward pass saves activation_factor
    times the weight bytes (activation_factor_high: the top of its range).

    Notes
    -----
    Equation: working set = weights + gradients + optimizer_state + activations;
        optimizer_bytes = (optimizer_moments + master_copies) ×
        optimizer_width; step traffic from calc_update_step_traffic.
    Assumptions: Gradients at the weight width; one width for every
        optimizer value (mixed-precision Adam: 3 × 4 = 12 bytes, ZeRO's K);
        activation factors are stated inputs. The phone model (10 M FP32
        parameters; 4 layers of hidden size 448 in 7 heads, 128 tokens,
        batches of 10 and 16) is illustrative, not published; so is its
        64-bit LPDDR5 bus.
    Excludes: Allocator reserve and fragmentation, framework workspace,
        activation recomputation, and the step's arithmetic
        (UpdateStepBoundScenario).

    References
    ----------
    - refgen_scenarios.physics.calc_update_step_traffic
    - Kingma and Ba, "Adam: A Method for Stochastic Optimization", ICLR 2015,
      Algorithm 1 (two moment estimates per parameter).
    - JEDEC, JESD209-5, "Low Power Double Data Rate 5 (LPDDR5)", 2019, as
      JEDEC's press release describes it (reproduced by CDRInfo): "a data
      rate of 6400 MT/s", "I/O throughput up to 6400 Mbps"; the standard
      itself (paywalled) was not read. On a 64-bit bus, 6,400 MT/s × 8
      bytes = 51.2 GB/s, the phone entry's bandwidth.
    - Samsung Electronics, press release announcing its 8Gb LPDDR5 DRAM,
      Samsung Newsroom, July 2018 (up to 6,400 Mb/s, 51.2 GB of data a
      second): the phone entry's 51.2 GB/s as printed.
    - Korthikanti et al., "Reducing Activation Recomputation in Large
      Transformer Models", MLSys 2023 (arXiv:2205.05198; numbering of the
      arXiv text): section 4 takes activations as 2 bytes an element and
      dropout masks as 1; section 4.1 counts 11sbh + 5as²b bytes for the
      attention block, 19sbh for the MLP and 4sbh for the two layer norms,
      which sum to Equation 1, sbh(34 + 5as/h) bytes per layer. The phone
      entry's factors 5 and 8 redo that count in FP32 for its illustrative
      shape; no source prints them.
    - Rajbhandari et al., "ZeRO: Memory Optimizations Toward Training Trillion
      Parameter Models", SC 2020; section numbers are those of the extended
      version, arXiv:1910.02054v3: section 3.1, "Mixed-Precision Training" (2Ψ + 2Ψ + 12Ψ =
      16Ψ bytes; at least 24 GB of model states for the 1.5B-parameter GPT-2,
      against 3 GB for its FP16 parameters alone) and section 3.2, "Residual
      Memory Consumption" (about 60 GB of activations for that model at
      sequence length 1K and batch size 32).

    Examples
    --------
    >>> from refgen_scenarios import Scenarios
    >>> scenario = Scenarios.PhoneFullUpdateWorkingSet
    >>> round(scenario.amplification, 6)
    9.0
    >>> print(scenario.step_floor)
    15.625 ms

    The phone's bandwidth is LPDDR5-6400 on a 64-bit bus:

    >>> from refgen_scenarios import ureg
    >>> print((6400e6 / ureg.s * 8 * ureg.byte).to('GB/s'))
    51.2 GB/s

    The activation factors 5 and 8 are what a 4-layer transformer of hidden
    size 448 in 7 heads of 64 (12 × 4 × 448² = 9.6M parameters, nearly all of
    the 10M) saves in FP32 for 128-token sequences in batches of 10 and 16:
    Korthikanti's per-layer count with every 2-byte tensor at 4 bytes and the
    one-byte masks kept is sbh(66 + 9as/h), and over 4 bytes × 12Lh² of
    weights the layer count cancels:

    >>> s, h, a = 128, 448, 7
    >>> [s * b * (66 + 9 * a * s / h) / (48 * h) for b in (10, 16)]
    [5.0, 8.0]

    The 1.5B-parameter GPT-2's model states take ZeRO's 24 GB:

    >>> print(Scenarios.Gpt2XlFp16UpdateWorkingSet.persistent.to('GB'))
    24.0 GB
    """

    rules: ClassVar[Rules] = input_rules(
        bytes_per_param=BYTES,
        optimizer_moments=COUNT_OR_ZERO,
        activation_factor=NUMBER_OR_ZERO,
        activation_factor_high=NUMBER_OR_ZERO,
        bandwidth=DATA_RATE,
        master_copies=COUNT_OR_ZERO,
        optimizer_width=BYTES,
    )

    parameters: float
    """Number of trainable parameters."""
    bytes_per_param: Quantity
    """Storage width of one parameter, e.g. 4 bytes for FP32."""
    optimizer_moments: int
    """Moment estimates the optimizer keeps per parameter (2 for Adam)."""
    activation_factor: float
    """Saved activation bytes as a multiple of the weight bytes."""
    activation_factor_high: float
    """Upper end of the quoted range for activation_factor."""
    bandwidth: Optional[Quantity] = None
    """DRAM bandwidth of the device; needed only for step_floor."""
    master_copies: int = 0
    """Weight copies the optimizer keeps (1: mixed precision's FP32 master weights)."""
    optimizer_width: Quantity = 4 * ureg.byte
    """Bytes of one optimizer value (4 B: FP32)."""

    def __post_init__(self) -> None:
        check_inputs(self)

    @property
    def weights(self) -> Quantity:
        """Parameter storage in MB: the parameter count times the bytes per parameter."""
        return (self.parameters * self.bytes_per_param).to('MB')

    @property
    def gradients(self) -> Quantity:
        """Gradient storage in MB, the same size as the weights."""
        return self.weights

    @property
    def optimizer_bytes(self) -> Quantity:
        """Optimizer bytes per parameter in B (ZeRO's K)."""
        return ((self.optimizer_moments + self.master_copies) * self.optimizer_width).to('B')

    @property
    def optimizer_state(self) -> Quantity:
        """Optimizer state in MB: optimizer_bytes per parameter."""
        return (self.parameters * self.optimizer_bytes).to('MB')

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


@dataclass(frozen=True, kw_only=True)
class MixedPrecisionAdamScenario:
    """Model-state memory of mixed-precision training with Adam: bytes per parameter and in total.

    Mixed precision runs the forward and backward passes on 16-bit weights and
    gradients, while the optimizer keeps its own FP32 copy of every weight
    next to Adam's two FP32 moments; optimizer_bytes counts those three
    together. Every trainable parameter carries all of it on a device that
    holds the whole model.

    Notes
    -----
    Equation: bytes_per_parameter = weight_bytes + gradient_bytes +
        optimizer_bytes; model_states = parameters × bytes_per_parameter.
    Assumptions: Every parameter is trained with the same widths; the whole
        model state sits on one device (no partitioning).
    Excludes: Activations, temporary buffers, communication buffers and
        allocator fragmentation.

    References
    ----------
    - refgen_scenarios.physics.calc_bytes_per_parameter
    - Rajbhandari et al., "ZeRO: Memory Optimizations Toward Training Trillion
      Parameter Models", SC 2020; section numbers are those of the extended
      version, arXiv:1910.02054v3: section 3.1, "Mixed-Precision Training" (K = 12 for
      mixed-precision Adam; 2Ψ + 2Ψ + KΨ = 16Ψ bytes; at least 24 GB for the
      1.5B-parameter GPT-2, against 3 GB for its FP16 parameters alone).
    - Micikevicius et al., "Mixed Precision Training", ICLR 2018, section 3.1
      (FP32 master copy of the weights).

    Examples
    --------
    >>> from refgen_scenarios import Scenarios
    >>> gpt2 = Scenarios.Gpt2XlMixedPrecisionAdam
    >>> print(gpt2.bytes_per_parameter)
    16 B
    >>> print(gpt2.model_states)
    24.0 GB
    >>> print(gpt2.weights_alone)
    3.0 GB
    """

    rules: ClassVar[Rules] = input_rules(
        weight_bytes=BYTES, gradient_bytes=BYTES, optimizer_bytes=BYTES
    )

    parameters: float
    """Number of trainable parameters, Ψ."""
    weight_bytes: Quantity
    """Bytes of the 16-bit working copy of one weight."""
    gradient_bytes: Quantity
    """Bytes of one 16-bit gradient."""
    optimizer_bytes: Quantity
    """Optimizer bytes per parameter, K: FP32 master weight, momentum and variance."""

    def __post_init__(self) -> None:
        check_inputs(self)

    @property
    def bytes_per_parameter(self) -> Quantity:
        """Model-state bytes per parameter, from calc_bytes_per_parameter."""
        return calc_bytes_per_parameter(
            self.weight_bytes, self.gradient_bytes, self.optimizer_bytes
        ).to('B')

    @property
    def model_states(self) -> Quantity:
        """Weights, gradients and optimizer state of the whole model in GB."""
        return (self.parameters * self.bytes_per_parameter).to('GB')

    @property
    def weights_alone(self) -> Quantity:
        """The 16-bit weights alone in GB, what inference would need."""
        return (self.parameters * self.weight_bytes).to('GB')

    @property
    def state_multiple(self) -> float:
        """Model states as a multiple of the 16-bit weights (dimensionless)."""
        return (self.bytes_per_parameter / self.weight_bytes).to('').magnitude


@dataclass(frozen=True, kw_only=True)
class ZeroShardingScenario:
    """Model-state memory per device under ZeRO's three partitioning stages.

    Plain data parallelism keeps a full copy of weights, gradients and
    optimizer state on each of the devices. ZeRO partitions them across the
    data-parallel group, one kind of state per stage: optimizer state (P_os,
    stage 1), then gradients too (P_os+g, stage 2), then the weights as well
    (P_os+g+p, stage 3), where each device holds only its share of everything.

    Notes
    -----
    Equation: per-device bytes from calc_zero_bytes_per_device for stages 0
        to 3; the fully partitioned state is the replicated one divided by
        devices.
    Assumptions: Equal partitions; optimizer_bytes counts the FP32 master
        weights and both Adam moments (K = 12).
    Excludes: Activations, communication buffers, the gathered weights of the
        layer being computed under stage 3, and fragmentation.

    References
    ----------
    - refgen_scenarios.physics.calc_zero_bytes_per_device
    - Rajbhandari et al., "ZeRO: Memory Optimizations Toward Training Trillion
      Parameter Models", SC 2020; section numbers are those of the extended
      version, arXiv:1910.02054v3: Figure 1 (Ψ = 7.5B, K = 12, Nd = 64), with its figures
      stated in the text of sections 5.1 (31.4 GB with the optimizer state
      partitioned, against 120 GB with standard data parallelism), 5.2
      (16.6 GB with the gradients partitioned too) and 5.3 (1.9 GB with the
      parameters partitioned as well).

    Examples
    --------
    >>> from refgen_scenarios import Scenarios
    >>> zero = Scenarios.Zero7p5BOn64Devices
    >>> print(round(zero.replicated))
    120 GB
    >>> print(round(zero.optimizer_partitioned, 1))
    31.4 GB
    >>> print(round(zero.gradients_partitioned, 1))
    16.6 GB
    >>> print(round(zero.fully_partitioned, 1))
    1.9 GB
    """

    rules: ClassVar[Rules] = input_rules(
        weight_bytes=BYTES, gradient_bytes=BYTES, optimizer_bytes=BYTES
    )

    parameters: float
    """Number of trainable parameters, Ψ."""
    weight_bytes: Quantity
    """Bytes of one weight in the working precision."""
    gradient_bytes: Quantity
    """Bytes of one gradient."""
    optimizer_bytes: Quantity
    """Optimizer bytes per parameter, K."""
    devices: int
    """Data-parallel degree, Nd: devices that share the model state."""

    def __post_init__(self) -> None:
        check_inputs(self)

    @property
    def replicated(self) -> Quantity:
        """Per-device model state in GB with plain data parallelism (the baseline)."""
        return calc_zero_bytes_per_device(
            self.parameters,
            self.weight_bytes,
            self.gradient_bytes,
            self.optimizer_bytes,
            self.devices,
            0,
        ).to('GB')

    @property
    def optimizer_partitioned(self) -> Quantity:
        """Per-device model state in GB with the optimizer state partitioned (stage 1)."""
        return calc_zero_bytes_per_device(
            self.parameters,
            self.weight_bytes,
            self.gradient_bytes,
            self.optimizer_bytes,
            self.devices,
            1,
        ).to('GB')

    @property
    def gradients_partitioned(self) -> Quantity:
        """Per-device model state in GB with optimizer state and gradients partitioned (stage 2)."""
        return calc_zero_bytes_per_device(
            self.parameters,
            self.weight_bytes,
            self.gradient_bytes,
            self.optimizer_bytes,
            self.devices,
            2,
        ).to('GB')

    @property
    def fully_partitioned(self) -> Quantity:
        """Per-device model state in GB with weights partitioned too (stage 3)."""
        return calc_zero_bytes_per_device(
            self.parameters,
            self.weight_bytes,
            self.gradient_bytes,
            self.optimizer_bytes,
            self.devices,
            3,
        ).to('GB')

    @property
    def stage1_reduction(self) -> float:
        """How many times smaller stage 1 makes the per-device state (dimensionless)."""
        return (self.replicated / self.optimizer_partitioned).to('').magnitude


@dataclass(frozen=True, kw_only=True)
class ActivationMemoryScenario:
    """Activation memory of one transformer layer, stored in full or with recomputation.

    A layer keeps its intermediate results for the backward pass. Most of them
    scale with sequence_length × micro_batch × hidden_size; the attention
    scores and softmax scale with the sequence length once more and with the
    number of attention_heads. Selective recomputation keeps everything but
    that attention core and recomputes it in the backward pass; full
    recomputation keeps only each layer's input and recomputes the rest.

    Notes
    -----
    Equation: stored = sbh(34 + 5as/h)/t; selective = 34sbh/t; full = 2sbh,
        from calc_transformer_activation_bytes.
    Assumptions: 16-bit activations, one-byte dropout masks, and sequence
        parallelism alongside tensor parallelism.
    Excludes: Embeddings, the output layer and loss, micro-batches held in
        flight by pipeline parallelism, and framework workspace.

    References
    ----------
    - refgen_scenarios.physics.calc_transformer_activation_bytes
    - refgen_scenarios.physics.calc_selective_recomputation_saving
    - Korthikanti et al., "Reducing Activation Recomputation in Large
      Transformer Models", MLSys 2023 (arXiv:2205.05198; numbering of the
      arXiv text): Equation 1 in section 4.1 (sbh(34 + 5as/h) bytes per layer
      without parallelism), Equation 4 in section 4.2.2 (the same divided by
      t with tensor and sequence parallelism), and Table 2 (bytes per layer
      for each technique: sbh(34/t) with tensor and sequence parallelism and
      selective recomputation, sbh(2) with full recomputation). Section 5
      gives 5as/h = 80 for GPT-3 (a = 96, s = 2048, h = 12288) and says
      selective recomputation saves "70%" of its activation memory (65% for
      MT-NLG, where 5as/h = 64).

    Examples
    --------
    >>> from refgen_scenarios import Scenarios
    >>> gpt3 = Scenarios.Gpt3LayerActivations
    >>> gpt3.attention_term
    80.0
    >>> print(f"{gpt3.selective_saving:.0%}")
    70%
    >>> print(f"{gpt3.stored:.2f~P}")
    2.87 GB
    """

    sequence_length: int
    """Tokens per sequence, s."""
    micro_batch: int
    """Sequences per micro-batch, b."""
    hidden_size: int
    """Hidden dimension, h."""
    attention_heads: int
    """Attention heads per layer, a."""
    tensor_parallel: int = 1
    """Tensor-parallel degree, t, over which each layer's activations are split."""

    def __post_init__(self) -> None:
        check_inputs(self)

    @property
    def attention_term(self) -> float:
        """The attention core's share of the per-element count, 5as/h (dimensionless)."""
        return 5 * self.attention_heads * self.sequence_length / self.hidden_size

    @property
    def stored(self) -> Quantity:
        """Activation GB per layer per device when everything is stored."""
        return calc_transformer_activation_bytes(
            self.sequence_length,
            self.micro_batch,
            self.hidden_size,
            self.attention_heads,
            self.tensor_parallel,
            'none',
        ).to('GB')

    @property
    def selective(self) -> Quantity:
        """Activation GB per layer per device with selective recomputation."""
        return calc_transformer_activation_bytes(
            self.sequence_length,
            self.micro_batch,
            self.hidden_size,
            self.attention_heads,
            self.tensor_parallel,
            'selective',
        ).to('GB')

    @property
    def full_recomputation(self) -> Quantity:
        """Activation GB per layer with full recomputation: only the layer input is kept."""
        return calc_transformer_activation_bytes(
            self.sequence_length,
            self.micro_batch,
            self.hidden_size,
            self.attention_heads,
            self.tensor_parallel,
            'full',
        ).to('GB')

    @property
    def selective_saving(self) -> float:
        """Fraction of the stored activations that selective recomputation frees."""
        return calc_selective_recomputation_saving(
            self.sequence_length, self.hidden_size, self.attention_heads
        )


@dataclass(frozen=True, kw_only=True)
class TrainingComputeScenario:
    """Operations to train a dense model, and the time a fleet takes at a given utilization.

    Training costs a fixed number of operations per parameter per token,
    flops_per_param_token: six without activation recomputation, eight with
    full recomputation. The fleet delivers devices × peak_throughput ×
    utilization operations per second, which sets the training_time.

    Notes
    -----
    Equation: training_flops = flops_per_param_token × parameters × tokens;
        training_time = training_flops / (devices × peak_throughput ×
        utilization).
    Assumptions: A dense model; utilization holds for the whole run.
    Excludes: Attention-score operations, restarts after failures,
        checkpoint stalls, evaluation and queueing.

    References
    ----------
    - refgen_scenarios.physics.calc_training_flops
    - refgen_scenarios.physics.calc_compute_time
    - Brown et al., "Language Models are Few-Shot Learners", NeurIPS 2020,
      Table D.1 (GPT-3 175B: 174,600M parameters, 300B tokens, 3.14E+23 FLOPs,
      3.64E+03 PF-days).
    - Patterson et al., "Carbon Emissions and Large Neural Network Training",
      arXiv:2104.10350, 2021, Table 4 (GPT-3 on 10,000 V100s at a measured
      24.6 TFLOP/s each: 14.8 days; V100 peak 125 TFLOP/s).
    - Narayanan et al., "Efficient Large-Scale Language Model Training on GPU
      Clusters Using Megatron-LM", SC 2021, section 5.1 (8TP/nX: GPT-3 on
      1024 A100s at 140 TFLOP/s each trains in 34 days).

    Examples
    --------
    >>> from refgen_scenarios import Scenarios
    >>> gpt3 = Scenarios.Gpt3TrainingCompute
    >>> print(f"{gpt3.training_flops:.3g~D}")
    3.14e+23 FLOP
    >>> print(f"{gpt3.petaflop_s_days:.3g~D}")
    3.64e+03 petaflop/s-day
    >>> print(round(gpt3.training_time, 1))
    14.8 d

    Megatron-LM's estimate for GPT-3 on 1024 A100 GPUs, with recomputation:

    >>> print(round(Scenarios.MegatronGpt3TrainingTime.training_time))
    34 d
    """

    rules: ClassVar[Rules] = input_rules(
        flops_per_param_token=COMPUTE, peak_throughput=COMPUTE_RATE, utilization=FRACTION
    )

    parameters: float
    """Number of parameters, N."""
    tokens: float
    """Number of training tokens, D."""
    flops_per_param_token: Quantity
    """Operations per parameter per token: 6 FLOP, or 8 FLOP with full recomputation."""
    devices: int
    """Accelerators training together, n."""
    peak_throughput: Quantity
    """Peak operation rate of one accelerator."""
    utilization: float
    """Fraction of the peak rate the run sustains."""

    def __post_init__(self) -> None:
        check_inputs(self)

    @property
    def training_flops(self) -> Quantity:
        """Total training operations in FLOP, from calc_training_flops."""
        return calc_training_flops(
            self.parameters,
            self.tokens,
            self.flops_per_param_token,
        ).to('FLOP')

    @property
    def petaflop_s_days(self) -> Quantity:
        """Training operations in petaflop/s-days: days at a sustained 10¹⁵ FLOP/s."""
        return self.training_flops.to('pfs_day')

    @property
    def sustained_throughput(self) -> Quantity:
        """Operation rate the whole fleet sustains, in PFLOP/s."""
        return (self.devices * self.peak_throughput * self.utilization).to('PFLOP/s')

    @property
    def training_time(self) -> Quantity:
        """Wall-clock training time in days, from calc_compute_time."""
        return calc_compute_time(
            self.training_flops, self.devices, self.peak_throughput, self.utilization
        ).to('day')


@dataclass(frozen=True, kw_only=True)
class ComputeOptimalScenario:
    """Model size and token count that spend a training budget at a fixed tokens per parameter.

    Hoffmann et al. found that for a fixed compute budget the loss is lowest
    when parameters and training tokens grow together. This class uses the
    rule of thumb drawn from that result, a flat tokens_per_parameter (about
    20): the budget C = k × N × D then fixes both the parameter count and the
    token count. The paper does not state the 20 as a rule: it is the ratio
    of the model it trained, 1.4 trillion tokens for 70 billion parameters.
    The paper's own compute-optimal table comes from fitted power laws, and
    its ratio drifts from row to row; ComputeOptimalTableScenario reproduces
    that table, not this class.

    Notes
    -----
    Equation: optimal_parameters = √(compute_budget / (flops_per_param_token ×
        tokens_per_parameter)); optimal_tokens = tokens_per_parameter ×
        optimal_parameters.
    Assumptions: A fixed ratio of tokens to parameters; the 6ND cost model.
    Excludes: The drift of the optimal ratio with scale, data limits, and
        inference cost, which favours smaller models trained longer.

    References
    ----------
    - refgen_scenarios.physics.calc_compute_optimal_parameters
    - Hoffmann et al., "Training Compute-Optimal Large Language Models",
      NeurIPS 2022 (arXiv:2203.15556), Table 3 (used only for the size of
      one Gopher budget, 5.76e+23 FLOPs, the row whose "FLOPs (in Gopher
      unit)" is 1) and the opening of section 4 (the optimal model for
      Gopher's budget is between 40 and 70 billion parameters; Chinchilla
      takes the larger end, 70B parameters for 1.4T tokens, for the same
      number of FLOPs as Gopher). The 20 tokens per parameter is that
      model's ratio, 1.4T / 70B, not a figure the paper states as a rule.
      The rule approximates Chinchilla rather than reproducing it: 6 × 70B
      × 1.4T is 5.88e23 FLOPs, 2% more than the 5.76e23 the paper calls the
      same budget, so on 5.76e23 FLOPs the rule gives 69.3B parameters and
      1.39T tokens, 1% under the printed 70B and 1.4T.

    Examples
    --------
    The rule of thumb on Gopher's budget lands close to Chinchilla's size
    (70B parameters, 1.4T tokens), 1% under it:

    >>> from refgen_scenarios import Scenarios
    >>> chinchilla = Scenarios.ChinchillaOnGopherBudget
    >>> print(f"{chinchilla.optimal_parameters:.3g}")
    6.93e+10
    >>> print(f"{chinchilla.optimal_tokens:.3g}")
    1.39e+12
    """

    rules: ClassVar[Rules] = input_rules(compute_budget=COMPUTE, flops_per_param_token=COMPUTE)

    compute_budget: Quantity
    """Training operations available, C."""
    flops_per_param_token: Quantity
    """Operations per parameter per token, k (6 FLOP)."""
    tokens_per_parameter: float
    """Training tokens per parameter, r (about 20 on the compute-optimal frontier)."""

    def __post_init__(self) -> None:
        check_inputs(self)

    @property
    def optimal_parameters(self) -> float:
        """Parameter count that spends the budget at the given ratio."""
        return calc_compute_optimal_parameters(
            self.compute_budget, self.flops_per_param_token, self.tokens_per_parameter
        )

    @property
    def optimal_tokens(self) -> float:
        """Training tokens that go with optimal_parameters."""
        return self.tokens_per_parameter * self.optimal_parameters


@dataclass(frozen=True, kw_only=True)
class ComputeOptimalTableScenario:
    """A row of Chinchilla's compute-optimal table: its training cost, and its tokens per parameter.

    Hoffmann et al. tabulate, for model sizes from 400 million to 10 trillion
    parameters, the training tokens their first approach projects as
    compute-optimal and the operations that training costs. Given a row's
    parameters and tokens, the 6ND cost model gives its operations, and the
    ratio of the two gives its tokens per parameter, which is not a constant:
    it drifts from about 20 for the smallest models to about 22 for the
    largest.

    Notes
    -----
    Equation: training_flops = flops_per_param_token × parameters × tokens
        (calc_training_flops); tokens_per_parameter = tokens / parameters.
    Assumptions: The table's operations follow C = 6ND, which holds for
        every row but one at the table's printed precision (see References).
    Excludes: The fitted power laws that produce the table, the table's
        "Gopher unit" column, and approaches 2 and 3 of the paper.

    References
    ----------
    - refgen_scenarios.physics.calc_training_flops
    - Hoffmann et al., "Training Compute-Optimal Large Language Models",
      NeurIPS 2022 (arXiv:2203.15556), Table 3, "Estimated optimal training
      FLOPs and training tokens for various model sizes" (approach 1): 400
      Million, 1.92e+19 FLOPs, 8.0 Billion tokens; 1 Billion, 1.21e+20, 20.2
      Billion; 10 Billion, 1.23e+22, 205.1 Billion; 67 Billion, 5.76e+23,
      1.5 Trillion; 175 Billion, 3.85e+24, 3.7 Trillion; 280 Billion,
      9.90e+24, 5.9 Trillion; 520 Billion, 3.43e+25, 11.0 Trillion; 1
      Trillion, 1.27e+26, 21.2 Trillion; 10 Trillion, 1.30e+28, 216.2
      Trillion. Allowing for the rounding of every printed digit, 6ND meets
      the printed FLOPs in every row except the 67-billion one: its 5.76e+23
      (exactly one Gopher budget) is 1% to 8% below 6ND over the range its
      printed 1.5 Trillion tokens allows (at 1.5e12 exactly, 6 × 67e9 ×
      1.5e12 = 6.03e+23).

    Examples
    --------
    >>> from refgen_scenarios import Scenarios
    >>> small = Scenarios.ChinchillaTable3Row1B
    >>> print(f"{small.training_flops:.2e~D}")
    1.21e+20 FLOP
    >>> print(round(small.tokens_per_parameter, 1))
    20.2
    >>> large = Scenarios.ChinchillaTable3Row10T
    >>> print(f"{large.training_flops:.2e~D}")
    1.30e+28 FLOP
    >>> print(round(large.tokens_per_parameter, 2))
    21.62
    """

    rules: ClassVar[Rules] = input_rules(flops_per_param_token=COMPUTE)

    parameters: float
    """Model size of the row, N."""
    tokens: float
    """Compute-optimal training tokens of the row, D."""
    flops_per_param_token: Quantity
    """Operations per parameter per token, k (6 FLOP)."""

    def __post_init__(self) -> None:
        check_inputs(self)

    @property
    def training_flops(self) -> Quantity:
        """Operations of training the row's model on its tokens in FLOP (calc_training_flops)."""
        return calc_training_flops(self.parameters, self.tokens, self.flops_per_param_token).to(
            'FLOP'
        )

    @property
    def tokens_per_parameter(self) -> float:
        """Training tokens per parameter of the row (dimensionless)."""
        return self.tokens / self.parameters


@dataclass(frozen=True, kw_only=True)
class RingAllReduceScenario:
    """Traffic and time of the ring all-reduce that averages gradients across data-parallel devices.

    After each backward pass, the devices sum their gradients with a ring
    all-reduce: a reduce-scatter followed by an all-gather, each of which has
    every device send (devices - 1)/devices of the gradient buffer. The
    link_bandwidth of each device then sets the time.

    Notes
    -----
    Equation: traffic_per_device = 2(n - 1)/n × gradient_bytes; sync_time =
        traffic_per_device / link_bandwidth.
    Assumptions: A bandwidth-optimal ring in which every link runs at full
        speed at once; each device sends over one link of link_bandwidth (for
        the ZeRO entry, one InfiniBand EDR link per device: ZeRO gives the
        per-link rate, not how many links a device has, so its time is a
        one-link bound, computed, not printed; HierarchicalAllReduceScenario
        models ZeRO's two-level cluster).
    Excludes: Per-hop latency, overlap with the backward pass, and the
        tree or hierarchical algorithms a library may pick instead.

    References
    ----------
    - refgen_scenarios.physics.calc_ring_allreduce_traffic
    - refgen_scenarios.physics.calc_ring_allreduce_time
    - Rajbhandari et al., "ZeRO: Memory Optimizations Toward Training Trillion
      Parameter Models", SC 2020; section numbers are those of the extended
      version, arXiv:1910.02054v3: section 7.1, "Data Parallel Communication Volume" (a
      reduce-scatter and an all-gather of Ψ elements each: standard data
      parallelism moves 2Ψ per step), and section 10.2 (InfiniBand EDR
      between nodes at "12.5 GB/sec per link (Infiniband EDR)", 100 Gbit/s,
      the link of the registry entry; one link per device is the entry's
      assumption, not ZeRO's).
    - Patarasuk and Yuan, "Bandwidth Optimal All-reduce Algorithms for Clusters
      of Workstations", JPDC 69(2), 2009.

    Examples
    --------
    >>> from refgen_scenarios import Scenarios
    >>> sync = Scenarios.Zero7p5BGradientAllReduce
    >>> print(sync.traffic_multiple)
    1.96875
    >>> print(round(sync.traffic_per_device, 2))
    29.53 GB
    """

    rules: ClassVar[Rules] = input_rules(bytes_per_element=BYTES, link_bandwidth=DATA_RATE)

    parameters: float
    """Gradient elements to average: one per parameter, Ψ."""
    bytes_per_element: Quantity
    """Bytes of one gradient element."""
    devices: int
    """Data-parallel devices in the ring, n."""
    link_bandwidth: Quantity
    """Bandwidth each device sends at, in one direction."""

    def __post_init__(self) -> None:
        check_inputs(self)

    @property
    def gradient_bytes(self) -> Quantity:
        """Size of the gradient buffer in GB."""
        return (self.parameters * self.bytes_per_element).to('GB')

    @property
    def traffic_per_device(self) -> Quantity:
        """GB each device sends in one all-reduce, from calc_ring_allreduce_traffic."""
        return calc_ring_allreduce_traffic(self.gradient_bytes, self.devices).to('GB')

    @property
    def traffic_multiple(self) -> float:
        """Traffic per device as a multiple of the gradient buffer, 2(n - 1)/n."""
        return (self.traffic_per_device / self.gradient_bytes).to('').magnitude

    @property
    def sync_time(self) -> Quantity:
        """Bandwidth-bound time of one all-reduce in seconds."""
        return calc_ring_allreduce_time(
            self.gradient_bytes,
            self.devices,
            self.link_bandwidth,
        ).to('s')


@dataclass(frozen=True, kw_only=True)
class AlphaBetaAllReduceScenario:
    """Ring all-reduce time with a latency term and a bandwidth term (the α–β model).

    A ring all-reduce of message_bytes over devices takes 2(n - 1) steps. Each
    step pays a start-up latency α, and moves one n-th of the message at
    link_bandwidth. For large messages the bandwidth term dominates and the
    time approaches that of RingAllReduceScenario; for small ones the
    2(n - 1)α of latency does. A single message of point_to_point_crossover
    bytes (α × β, the textbook's n*) takes as long to start as to send; the
    ring's two terms meet at ring_crossover_bytes, n times more, as each
    step sends an n-th of the message. The bus bandwidth rescales the rate
    so that it tends to link_bandwidth, as collective benchmarks report it.

    Notes
    -----
    Equation: time = 2(n - 1) × latency + 2(n - 1)/n × message_bytes /
        link_bandwidth; point_to_point_crossover = latency × link_bandwidth;
        ring_crossover_bytes = n × latency × link_bandwidth; bus_bandwidth =
        message_bytes / time × 2(n - 1)/n.
    Assumptions: Every link runs at full bandwidth at once; the same latency
        for every step.
    Excludes: Reduction arithmetic, contention, tree and hierarchical
        algorithms, and overlap with computation.

    References
    ----------
    - refgen_scenarios.physics.calc_ring_allreduce_alpha_beta_time
    - Thakur, Rabenseifner and Gropp, "Optimization of Collective
      Communication Operations in MPICH", International Journal of High
      Performance Computing Applications 19(1), 2005 (the α + nβ cost of a
      message and the ring algorithms).
    - NVIDIA, nccl-tests, doc/PERFORMANCE.md, section on bus bandwidth
      (all-reduce: busBw = algBw × 2(n - 1)/n).
    - Rajbhandari et al., "ZeRO", SC 2020 (arXiv:1910.02054v3), section
      3.1 (FP16 gradients, 2 bytes a parameter: 15 GB for the 7.5B-parameter
      model) and Figure 1 (that model with N_d = 64 data-parallel devices).
    - Janapa Reddi et al., "Machine Learning Systems" (open textbook of
      harvard-edge, mlsysbook.ai), Volume II, appendix "Communication
      Foundations": Table "α-β Parameters by Interconnect" (InfiniBand NDR:
      α = 5 µs, β = 50 GB/s; RoCE v2 (100 GbE): α = 10 µs, β = 12.5 GB/s,
      the ZeRO entry's link), equation "crossover" (n* = α × β, this
      class's point_to_point_crossover) with the worked example "Crossover
      on InfiniBand NDR" (250 KB), equation "Ring AllReduce time" (T = 2(N -
      1)/N × M/β + 2(N - 1)α, this class's time), the worked example "Ring
      vs. tree AllReduce" (1 GB on 256 GPUs: about 42.4 ms) and, in section
      "Compression Economics", the worked example "Is top-k compression
      worth it?" (the same gradient compressed 64 times: 3.2 ms of
      communication). Read in the book's stored source
      (book/quarto/contents/vol2/backmatter/appendix_communication.qmd of
      harvard-edge/cs249r_book at commit 02fb0d6) and the constants of its
      mlsysim package (IB_NDR_LATENCY_US = 5, 50 GB/s per NDR port), which
      its cells format to these figures; the RoCE row's α is
      Systems.Fabrics.RoCE_100G.latency_us (ROCE_LATENCY_US = 10) and its β
      Systems.Fabrics.Ethernet_100G.bandwidth (100 Gbit/s, formatted to one
      decimal of GB/s); the rendered page was not read. No source prints
      the ZeRO entry's time, nor any ring_crossover_bytes: the ring's
      crossover is computed, not printed.

    Examples
    --------
    >>> from refgen_scenarios import Scenarios
    >>> big = Scenarios.Zero7p5BGradientAllReduceAlphaBeta
    >>> print(round(big.latency_term, 2))
    1.26 ms
    >>> print(round(big.time.to('s'), 3))
    2.364 s
    >>> print(round(big.ring_crossover_bytes, 1))
    8.0 MB

    The textbook's two worked examples on 256 GPUs; compressed, the
    gradient is small enough that latency takes most of the time:

    >>> print(round(Scenarios.RingAllReduceOneGigabyteOn256Gpus.time, 1))
    42.4 ms
    >>> compressed = Scenarios.RingAllReduceTopKCompressedOn256Gpus
    >>> print(round(compressed.time, 1))
    3.2 ms
    >>> print(f"{compressed.latency_share:.0%}")
    80%
    """

    rules: ClassVar[Rules] = input_rules(
        message_bytes=BYTES, latency=DURATION, link_bandwidth=DATA_RATE
    )

    message_bytes: Quantity
    """Size of the buffer being reduced."""
    devices: int
    """Devices in the ring, n."""
    latency: Quantity
    """Start-up cost of one step of the ring, α."""
    link_bandwidth: Quantity
    """Bandwidth each device sends at, in one direction, 1/β."""

    def __post_init__(self) -> None:
        check_inputs(self)

    @property
    def latency_term(self) -> Quantity:
        """Time in ms spent on start-up latency: 2(n - 1) × latency."""
        return (2 * (self.devices - 1) * self.latency).to('ms')

    @property
    def bandwidth_term(self) -> Quantity:
        """Time in ms spent moving bytes, from calc_ring_allreduce_time."""
        return calc_ring_allreduce_time(self.message_bytes, self.devices, self.link_bandwidth).to(
            'ms'
        )

    @property
    def time(self) -> Quantity:
        """Time of the all-reduce in ms, from calc_ring_allreduce_alpha_beta_time."""
        return calc_ring_allreduce_alpha_beta_time(
            self.message_bytes, self.devices, self.latency, self.link_bandwidth
        ).to('ms')

    @property
    def latency_share(self) -> float:
        """Fraction of the time that is latency (dimensionless)."""
        return (self.latency_term / self.time).to('').magnitude

    @property
    def point_to_point_crossover(self) -> Quantity:
        """One message's size in kB whose start-up takes as long as its transfer, α × β (n*)."""
        return (self.latency * self.link_bandwidth).to('kB')

    @property
    def ring_crossover_bytes(self) -> Quantity:
        """All-reduce size in MB at which the ring's two terms are equal, n × α × β."""
        return (self.devices * self.point_to_point_crossover).to('MB')

    @property
    def algorithm_bandwidth(self) -> Quantity:
        """Message size over time, in GB/s."""
        return (self.message_bytes / self.time).to('GB/s')

    @property
    def bus_bandwidth(self) -> Quantity:
        """Algorithm bandwidth × 2(n - 1)/n in GB/s, comparable with link_bandwidth."""
        return (self.algorithm_bandwidth * 2 * (self.devices - 1) / self.devices).to('GB/s')


@dataclass(frozen=True, kw_only=True)
class ZeroCommunicationScenario:
    """Data each device moves per training step under ZeRO's stages, against plain data parallelism.

    Plain data parallelism all-reduces the gradients, a reduce-scatter and an
    all-gather, moving 2Ψ elements per device. Partitioning the optimizer
    state, and then the gradients too, costs nothing more: the gradients are
    reduce-scattered and the updated parameters all-gathered, again 2Ψ.
    Partitioning the parameters as well means gathering them once for the
    forward pass and once more for the backward pass, next to the gradients'
    reduce-scatter: 3Ψ, 1.5 times plain data parallelism.

    Notes
    -----
    Equation: data_parallel_volume = optimizer_partitioned_volume =
        gradients_partitioned_volume = 2 × parameters × bytes_per_element;
        fully_partitioned_volume = 3 × parameters × bytes_per_element.
    Assumptions: The large-device limit of ring collectives, in which each
        reduce-scatter or all-gather moves Ψ elements per device; gradients
        and gathered parameters have the same width.
    Excludes: The (n - 1)/n factor of a finite ring, activation and pipeline
        traffic, and overlap with computation.

    References
    ----------
    - Rajbhandari et al., "ZeRO: Memory Optimizations Toward Training Trillion
      Parameter Models", SC 2020; section numbers are those of the extended
      version, arXiv:1910.02054v3: section 7.1 (data parallelism: 2Ψ per device per step),
      section 7.2.1 (with P_os+g, a reduce-scatter and an all-gather: Ψ + Ψ
      = 2Ψ, the same as data parallelism) and section 7.2.2 (with P_os+g+p,
      two parameter all-gathers and a gradient reduce-scatter: 3Ψ, 1.5
      times data parallelism); the opening of section 7 states that P_os
      adds no communication either.

    Examples
    --------
    >>> from refgen_scenarios import Scenarios
    >>> zero = Scenarios.Zero7p5BCommunication
    >>> print(round(zero.data_parallel_volume, 1))
    30.0 GB
    >>> print(round(zero.gradients_partitioned_volume, 1))
    30.0 GB
    >>> print(round(zero.fully_partitioned_volume, 1))
    45.0 GB
    >>> round(zero.stage3_ratio, 6)
    1.5
    """

    rules: ClassVar[Rules] = input_rules(bytes_per_element=BYTES)

    parameters: float
    """Number of parameters, Ψ."""
    bytes_per_element: Quantity
    """Bytes of one communicated gradient or parameter, e.g. 2 bytes in FP16."""

    def __post_init__(self) -> None:
        check_inputs(self)

    @property
    def data_parallel_volume(self) -> Quantity:
        """Data in GB each device moves per step with plain data parallelism, 2Ψ."""
        return (2 * self.parameters * self.bytes_per_element).to('GB')

    @property
    def optimizer_partitioned_volume(self) -> Quantity:
        """Data in GB each device moves per step with optimizer state partitioned (stage 1)."""
        return (2 * self.parameters * self.bytes_per_element).to('GB')

    @property
    def gradients_partitioned_volume(self) -> Quantity:
        """Data in GB per device per step with gradients partitioned as well (stage 2)."""
        return (2 * self.parameters * self.bytes_per_element).to('GB')

    @property
    def fully_partitioned_volume(self) -> Quantity:
        """Data in GB per device per step with parameters partitioned as well (stage 3), 3Ψ."""
        return (3 * self.parameters * self.bytes_per_element).to('GB')

    @property
    def stage3_ratio(self) -> float:
        """Stage-3 volume as a multiple of plain data parallelism's (dimensionless)."""
        return (self.fully_partitioned_volume / self.data_parallel_volume).to('').magnitude


@dataclass(frozen=True, kw_only=True)
class PipelineBubbleScenario:
    """Idle time of pipeline parallelism: the bubble of filling and draining the pipeline.

    A batch split into micro_batches flows through stages devices in turn.
    Until the pipeline fills, later stages wait; once the last micro-batch has
    entered, earlier stages wait for it to drain. Each device is idle for
    stages - 1 of the micro_batches + stages - 1 slots of a step. Narayanan et
    al. state the same bubble relative to the ideal compute time, (p - 1)/m,
    and show that giving each device model_chunks interleaved chunks of
    layers divides it by that number.

    Notes
    -----
    Equation: bubble_fraction = (p - 1)/(m + p - 1); bubble_overhead =
        (p - 1)/m; interleaved_bubble_overhead = (p - 1)/(v × m);
        interleaved_bubble_fraction = (p - 1)/(v × m + p - 1).
    Assumptions: All stages take equal time per micro-batch; the pipeline is
        flushed at every batch.
    Excludes: Point-to-point communication between stages (which
        interleaving multiplies), recomputation and the optimizer step.

    References
    ----------
    - refgen_scenarios.physics.calc_pipeline_bubble_fraction
    - Huang et al., "GPipe: Efficient Training of Giant Neural Networks using
      Pipeline Parallelism", NeurIPS 2019 (arXiv:1811.06965), section 2.3
      (bubble time O((K - 1)/(M + K - 1)) amortized over M micro-steps with
      K partitions, found negligible in their experiments when M ≥ 4 × K).
    - Narayanan et al., "Efficient Large-Scale Language Model Training on GPU
      Clusters Using Megatron-LM", SC 2021 (arXiv:2104.04473), section 2.2.1
      (bubble time fraction t_pb/t_id = (p - 1)/m, for GPipe's schedule and
      1F1B alike) and section 2.2.2 (interleaved schedule with v chunks per
      device: (1/v)(p - 1)/m).
    - Janapa Reddi et al., "Machine Learning Systems" (open textbook of
      harvard-edge, mlsysbook.ai), Volume II, appendix "Communication
      Foundations", section "Pipeline Arithmetic": the bubble fraction b =
      (p - 1)/(p - 1 + m) and Table "Pipeline Bubble Fraction" (p = 4 and 8 against m = 8,
      16, 32 and 64, in percent to one decimal; p = 4, m = 16 is the entry
      GpipeFourStagesSixteenMicroBatches), and subsection "Interleaved
      scheduling": b = (p - 1)/(p - 1 + m × V), with p = 8, m = 16, V = 4
      taking the bubble from 30.4% to 9.9%, a 3.1x reduction (the entry
      MegatronInterleavedEightStages). Read in the book's stored source
      (book/quarto/contents/vol2/backmatter/appendix_communication.qmd of
      harvard-edge/cs249r_book at commit 02fb0d6), whose cells compute these
      percentages with the formulas above; the rendered page was not read.
    - Google Research blog, "Introducing GPipe, an Open Source Library for
      Efficiently Training Large-scale Neural Network Models", the figure
      whose bottom half draws GPipe on 4 devices with 4
      micro-batches: counted on the drawing, every device idles in 3 of 7
      forward slots and 3 of 7 backward slots (the entry
      GpipeFigureFourDevicesFourMicroBatches). Seen in the copy of that
      figure kept in stas00/ml-engineering
      (training/model-parallelism/images/parallelism-gpipe-bubble.png);
      that it is also Figure 2(c) of the GPipe paper was not checked.

    Examples
    --------
    >>> from refgen_scenarios import Scenarios
    >>> pipe = Scenarios.GpipeFourStagesSixteenMicroBatches
    >>> print(f"{pipe.bubble_fraction:.1%}")
    15.8%
    >>> print(f"{pipe.bubble_overhead:.2%}")
    18.75%

    The textbook's interleaved example, eight stages of four chunks each:

    >>> megatron = Scenarios.MegatronInterleavedEightStages
    >>> print(f"{megatron.bubble_fraction:.1%} -> {megatron.interleaved_bubble_fraction:.1%}")
    30.4% -> 9.9%
    >>> print(f"{Scenarios.GpipeFigureFourDevicesFourMicroBatches.bubble_fraction:.1%}")
    42.9%
    """

    rules: ClassVar[Rules] = input_rules()

    stages: int
    """Pipeline stages, p (K in GPipe)."""
    micro_batches: int
    """Micro-batches per batch, m (M in GPipe)."""
    model_chunks: int = 1
    """Interleaved chunks of layers per device, v (1 without interleaving)."""

    def __post_init__(self) -> None:
        check_inputs(self)

    @property
    def bubble_fraction(self) -> float:
        """Share of the step each device is idle, from calc_pipeline_bubble_fraction."""
        return calc_pipeline_bubble_fraction(self.stages, self.micro_batches)

    @property
    def bubble_overhead(self) -> float:
        """Bubble time over the ideal compute time, (p - 1)/m (dimensionless)."""
        return (self.stages - 1) / self.micro_batches

    @property
    def interleaved_bubble_overhead(self) -> float:
        """Bubble overhead with model_chunks interleaved chunks per device (dimensionless)."""
        return self.bubble_overhead / self.model_chunks

    @property
    def interleaved_bubble_fraction(self) -> float:
        """Share of the step each device is idle with model_chunks interleaved chunks per device."""
        overhead = self.interleaved_bubble_overhead
        return overhead / (1 + overhead)

    @property
    def pipeline_efficiency(self) -> float:
        """Share of the step each device computes, 1 - bubble_fraction (dimensionless)."""
        return 1 - self.bubble_fraction


@dataclass(frozen=True, kw_only=True)
class AmdahlScenario:
    """Amdahl's law: overall speedup when part of a job is accelerated; strong-scaling efficiency.

    Only accelerated_fraction of the original time benefits from the
    acceleration; the rest takes as long as before and soon dominates. Run on
    acceleration workers with a perfectly parallel part, this is strong
    scaling: a fixed problem on more workers, whose efficiency is the
    speedup per worker. No number of workers beats speedup_limit.

    Notes
    -----
    Equation: speedup = 1 / ((1 - f) + f/s); efficiency = speedup / s;
        speedup_limit = 1 / (1 - f).
    Assumptions: The unaccelerated part is unchanged; the accelerated part
        speeds up by exactly s.
    Excludes: Communication and synchronisation that grow with the number of
        workers, and problems that grow with the machine (Gustafson's law).

    References
    ----------
    - refgen_scenarios.physics.calc_amdahl_speedup
    - Amdahl, "Validity of the single processor approach to achieving large
      scale computing capabilities", AFIPS Spring Joint Computer Conference,
      1967.
    - Hennessy and Patterson, "Computer Architecture: A Quantitative
      Approach", 5th edition, Morgan Kaufmann, 2011, section 1.9,
      "Quantitative Principles of Computer Design", subsection "Amdahl's
      Law" (worked example: a processor for web serving made 10 times faster
      on computation, which takes 40% of the time while the rest waits for
      I/O; overall speedup 1/(0.6 + 0.4/10) ≈ 1.56) and section 5.1, the
      introduction to thread-level parallelism, "Challenges of Parallel
      Processing" (worked example: a speedup of 80 with 100 processors
      leaves at most 0.25% of the original computation sequential). The
      example texts were found in copies of the book's chapter 1 and in
      course notes on chapter 5; the section numbers of the 5th edition
      were not seen on a page of the book itself.

    Examples
    --------
    >>> from refgen_scenarios import Scenarios
    >>> web = Scenarios.HennessyPattersonWebServer
    >>> print(round(web.speedup, 2))
    1.56
    >>> strong = Scenarios.HennessyPatterson80On100Processors
    >>> print(round(strong.speedup))
    80
    >>> print(f"{strong.efficiency:.0%}")
    80%
    >>> print(round(strong.speedup_limit))
    400
    """

    rules: ClassVar[Rules] = input_rules(
        accelerated_fraction=FRACTION, acceleration=RATIO_AT_LEAST_ONE
    )

    accelerated_fraction: float
    """Fraction of the original time spent in the part that is accelerated, f."""
    acceleration: float
    """How many times faster that part runs, s: the worker count, for strong scaling."""

    def __post_init__(self) -> None:
        check_inputs(self)

    @property
    def speedup(self) -> float:
        """Original time over new time, from calc_amdahl_speedup (dimensionless)."""
        return calc_amdahl_speedup(self.accelerated_fraction, self.acceleration)

    @property
    def efficiency(self) -> float:
        """Speedup per unit of acceleration, the strong-scaling efficiency (dimensionless)."""
        return self.speedup / self.acceleration

    @property
    def speedup_limit(self) -> float:
        """Speedup with an infinite acceleration, 1 / (1 - f) (dimensionless)."""
        return 1 / (1 - self.accelerated_fraction)

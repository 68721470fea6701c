"""Scaling scenarios

How big a model is, what each of its tokens costs, how large a model fits
in a cluster's memory, and how long and how fast a run at the largest scale
trains it, from start to the last checkpoint.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Optional

from refgen_scenarios.physics import (
    calc_gpt_iteration_flops,
    calc_gpt_parameters,
    calc_zero_largest_model,
)
from refgen_scenarios.units import Quantity, ureg
from refgen_scenarios.validation import (
    BYTES,
    COMPUTE_RATE,
    DATA_RATE,
    Rules,
    check_inputs,
    input_rules,
)


@dataclass(frozen=True, kw_only=True)
class MegatronTrainingRunScenario:
    """A GPT training run end to end as Megatron-LM estimates it: throughput, time, checkpoints.

    The shape fixes the parameters and each iteration's operations; the
    GPUs sustain achieved_throughput each. With activation recomputation a
    token costs about eight operations per parameter: Megatron-LM's estimate
    8TP/(nX). Counting every iteration's matrix products gives a slightly
    longer time. The checkpoint moves at the file system's bandwidths.

    Notes
    -----
    Equation: parameters = 12lh²(1 + 13/(12h) + (V + s)/(12lh));
        training_time_estimate = 8 × tokens × parameters / (gpus ×
        achieved_throughput); training_time = iterations × iteration_flops /
        (gpus × achieved_throughput); checkpoint_write_time =
        checkpoint_size / checkpoint_write_bandwidth.
    Assumptions: The measured per-GPU throughput holds for the whole run,
        with full activation recomputation; checkpoints move at the quoted
        bandwidths.
    Excludes: Failures and restarts, evaluation, warm-up, checkpoint stalls
        and batch-size ramps.

    References
    ----------
    - refgen_scenarios.physics.calc_gpt_parameters
    - refgen_scenarios.physics.calc_gpt_iteration_flops
    - Narayanan et al., "Efficient Large-Scale Language Model Training on GPU
      Clusters Using Megatron-LM", SC 2021 (arXiv:2104.04473): sections 5, 5.1
      (Equations 2 to 4, "34 days", "84 days") and 5.10 (the checkpoint);
      Tables 1 and 2. Table 1's 502.0 petaFLOP/s is 3072 × 163.4 (500.7 from
      the rounded 163); 13.8 TB is 13.7 bytes per parameter, which no state
      layout found explains.

    Examples
    --------
    >>> from refgen_scenarios import Scenarios
    >>> run = Scenarios.Megatron1TTrainingRun
    >>> print(f"{run.parameters / 1e9:.1f} billion")
    1008.0 billion
    >>> print(f"{run.peak_fraction:.0%}")
    52%
    >>> print(round(run.aggregate_throughput, 1))
    500.7 PFLOP/s
    >>> print(round(run.training_time_estimate))
    84 d
    >>> print(round(run.training_time), round(run.checkpoint_write_time, 1))
    85 d 50.5 s
    """

    rules: ClassVar[Rules] = input_rules(
        achieved_throughput=COMPUTE_RATE,
        peak_throughput=COMPUTE_RATE,
        checkpoint_size=BYTES,
        checkpoint_write_bandwidth=DATA_RATE,
        checkpoint_read_bandwidth=DATA_RATE,
    )

    layers: int
    """Transformer layers, l."""
    hidden_size: int
    """Hidden dimension, h."""
    vocab_size: int
    """Vocabulary size, V."""
    sequence_length: int
    """Tokens per sequence, s."""
    batch_size: int
    """Sequences per iteration, B."""
    gpus: int
    """GPUs training together, n."""
    tokens: float
    """Training tokens, T."""
    achieved_throughput: Quantity
    """Operation rate each GPU sustains end to end, X."""
    peak_throughput: Quantity
    """Peak operation rate of one GPU at 16-bit precision."""
    checkpoint_size: Optional[Quantity] = None
    """Size of one checkpoint of the model."""
    checkpoint_write_bandwidth: Optional[Quantity] = None
    """Rate at which the whole job writes a checkpoint."""
    checkpoint_read_bandwidth: Optional[Quantity] = None
    """Rate at which the whole job reads a checkpoint back."""

    def __post_init__(self) -> None:
        check_inputs(self)

    @property
    def parameters(self) -> float:
        """Parameters of the model, P, from calc_gpt_parameters."""
        return calc_gpt_parameters(
            self.layers, self.hidden_size, self.vocab_size, self.sequence_length
        )

    @property
    def iterations(self) -> float:
        """Iterations to train on all tokens, T/(Bs) (dimensionless)."""
        return self.tokens / (self.batch_size * self.sequence_length)

    @property
    def iteration_flops(self) -> Quantity:
        """Operations of one iteration in PFLOP, from calc_gpt_iteration_flops."""
        return calc_gpt_iteration_flops(
            self.batch_size, self.sequence_length, self.layers, self.hidden_size, self.vocab_size
        ).to('PFLOP')

    @property
    def aggregate_throughput(self) -> Quantity:
        """Operation rate of all GPUs together in PFLOP/s, n × X."""
        return (self.gpus * self.achieved_throughput).to('PFLOP/s')

    @property
    def peak_fraction(self) -> float:
        """Achieved rate as a share of the peak (dimensionless)."""
        return (self.achieved_throughput / self.peak_throughput).to('').magnitude

    @property
    def iteration_time(self) -> Quantity:
        """Time of one iteration in seconds at the aggregate throughput."""
        return (self.iteration_flops / self.aggregate_throughput).to('s')

    @property
    def training_time_estimate(self) -> Quantity:
        """Megatron-LM's estimate of the training time in days, 8TP/(nX)."""
        return (8 * ureg.FLOP * self.tokens * self.parameters / self.aggregate_throughput).to('day')

    @property
    def training_time(self) -> Quantity:
        """Training time in days from the operations of every iteration."""
        return (self.iterations * self.iteration_time).to('day')

    @property
    def checkpoint_bytes_per_parameter(self) -> Quantity:
        """Checkpoint bytes per parameter in B."""
        return (self.checkpoint_size / self.parameters).to('B')

    @property
    def checkpoint_write_time(self) -> Quantity:
        """Time in seconds to write one checkpoint."""
        return (self.checkpoint_size / self.checkpoint_write_bandwidth).to('s')

    @property
    def checkpoint_read_time(self) -> Quantity:
        """Time in seconds to read one checkpoint back."""
        return (self.checkpoint_size / self.checkpoint_read_bandwidth).to('s')


@dataclass(frozen=True, kw_only=True)
class KaplanComputeScenario:
    """Parameters and operations per token of a transformer, with the context term of Kaplan et al.

    Kaplan et al. count the weights of each layer: 3 d_model d_attn for the
    queries, keys and values, d_attn d_model for the projection after
    attention, and 2 d_model d_ff for the feed-forward block. A forward pass
    costs two operations per weight, plus the attention scores, which grow
    with the context: 2 layers context d_attn per token. The backward pass
    costs twice the forward, so a training token costs about three forward
    passes, the familiar 6N when the context term is left out. It is small
    next to 2N while d_model is above context/12.

    Notes
    -----
    Equation: N = 2 d_model n_layer (2 d_attn + d_ff); C_forward = 2N +
        2 n_layer n_ctx d_attn; C_train = 3 C_forward; context_share =
        2 n_layer n_ctx d_attn / 2N.
    Assumptions: Dense attention over the whole context; the backward pass
        costs twice the forward.
    Excludes: Embeddings in N and in the operations (the de-embedding's
        2 d_model n_vocab), biases, layer norms and nonlinearities, and
        recomputation. GPT-3's alternating locally banded sparse attention
        would make its context term smaller.

    References
    ----------
    - Kaplan et al., "Scaling Laws for Neural Language Models",
      arXiv:2001.08361, section 2.1: Table 1 (N = 2 d_model n_layer (2
      d_attn + d_ff); C_forward = 2N + 2 n_layer n_ctx d_attn), Equation
      2.1 (N ≈ 12 n_layer d_model² with d_attn = d_ff/4 = d_model), the
      condition d_model > n_ctx/12, and C ≈ 6N per training token; the
      embedding matrix has n_vocab d_model parameters and the position
      embeddings n_ctx d_model.
    - Brown et al., "Language Models are Few-Shot Learners", NeurIPS 2020,
      Table 2.1 (GPT-3 Small: 125M parameters, 12 layers, d_model 768;
      GPT-3 175B: 96 layers, d_model 12,288, 96 heads of 128; n_ctx = 2048
      tokens for all), section 2.1 (d_ff = 4 × d_model; alternating dense
      and locally banded sparse attention) and Table D.1 (174,600 million
      parameters for GPT-3 175B).
    - Radford et al., "Language Models are Unsupervised Multitask Learners",
      2019, section 2.3 (a vocabulary of 50,257), the tokenizer GPT-3 reuses.

    Examples
    --------
    Kaplan's count plus the embeddings gives GPT-3's published sizes:

    >>> from refgen_scenarios import Scenarios
    >>> gpt3 = Scenarios.KaplanGpt3Compute
    >>> print(f"{round(gpt3.total_parameters / 1e6, -2):,.0f} million")
    174,600 million
    >>> print(f"{Scenarios.KaplanGpt3SmallCompute.total_parameters / 1e6:.0f}M")
    125M

    The context term is 1.4% of 2N for GPT-3, 22% for GPT-3 Small:

    >>> print(f"{gpt3.context_share:.1%}")
    1.4%
    >>> print(f"{Scenarios.KaplanGpt3SmallCompute.context_share:.0%}")
    22%
    """

    rules: ClassVar[Rules] = input_rules()

    layers: int
    """Transformer layers, n_layer."""
    d_model: int
    """Width of the residual stream, d_model."""
    d_attn: int
    """Width of the attention output, d_attn (heads × head size)."""
    d_ff: int
    """Width of the feed-forward layer, d_ff."""
    context: int
    """Tokens in the input context, n_ctx."""
    vocab_size: int
    """Vocabulary size, n_vocab."""

    def __post_init__(self) -> None:
        check_inputs(self)

    @property
    def non_embedding_parameters(self) -> float:
        """Non-embedding parameters, N = 2 d_model n_layer (2 d_attn + d_ff)."""
        return 2 * self.d_model * self.layers * (2 * self.d_attn + self.d_ff)

    @property
    def embedding_parameters(self) -> float:
        """Token and position embedding parameters, (n_vocab + n_ctx) d_model."""
        return (self.vocab_size + self.context) * self.d_model

    @property
    def total_parameters(self) -> float:
        """All parameters: the non-embedding ones and the embeddings."""
        return self.non_embedding_parameters + self.embedding_parameters

    @property
    def context_flops(self) -> Quantity:
        """Forward operations per token in GFLOP that scale with n_ctx, 2 n_layer n_ctx d_attn."""
        return (2 * self.layers * self.context * self.d_attn * ureg.FLOP).to('GFLOP')

    @property
    def forward_flops(self) -> Quantity:
        """Forward operations per token in GFLOP, C_forward = 2N + the context term."""
        return (2 * self.non_embedding_parameters * ureg.FLOP + self.context_flops).to('GFLOP')

    @property
    def training_flops(self) -> Quantity:
        """Training operations per token in GFLOP: forward and backward, 3 C_forward."""
        return (3 * self.forward_flops).to('GFLOP')

    @property
    def six_n(self) -> Quantity:
        """Kaplan's C ≈ 6N per training token in GFLOP, the context term left out."""
        return (6 * self.non_embedding_parameters * ureg.FLOP).to('GFLOP')

    @property
    def context_share(self) -> float:
        """Context term as a share of 2N, n_ctx d_attn / (2 d_model (2 d_attn + d_ff))."""
        return (
            (self.context_flops / (2 * self.non_embedding_parameters * ureg.FLOP)).to('').magnitude
        )

    @property
    def context_threshold(self) -> float:
        """The d_model above which the context term is below 2N, n_ctx/12 (standard shape)."""
        return self.context / 12


@dataclass(frozen=True, kw_only=True)
class ZeroLargestModelScenario:
    """The largest model whose model states fit on a cluster under each ZeRO stage.

    A cluster of gpus devices runs model_parallel-way model parallelism and
    gpus / model_parallel-way data parallelism. Plain data parallelism keeps
    all 16 bytes of mixed-precision Adam state per parameter on each model
    replica; ZeRO's stages partition the optimizer state, the gradients and
    the weights over the replicas, each stage fitting a larger model.

    Notes
    -----
    Equation: largest model = MP × M / bytes per parameter per device, from
        calc_zero_largest_model for stages 0 to 3.
    Assumptions: Model states alone fill the device memory; gpus is a
        multiple of model_parallel.
    Excludes: Activations, buffers and fragmentation (Table 2 measures
        6.2B where 7.6B is the bound).

    References
    ----------
    - refgen_scenarios.physics.calc_zero_largest_model
    - Rajbhandari et al., "ZeRO: Memory Optimizations Toward Training
      Trillion Parameter Models", SC 2020 (arXiv:1910.02054v3; read in text
      transcriptions), section 3.1 (2 + 2 + 12 bytes per parameter) and
      Table 2, "Maximum model size through memory analysis", on 32GB V100
      GPUs (Table 1's caption). Its rows: MP 1 on 64 GPUs: 2B, 7.6B, 14.4B
      and 128B for the baseline, P_os, P_os+g and P_os+g+p; MP 16 on 1024
      GPUs: 32B, 121.6B, 230.4B and 2T. The table's rows with MP above 1
      are its first row's rounded figures times MP (7.6B × 16 = 121.6B),
      not the bound computed anew (122.3B).

    Examples
    --------
    >>> from refgen_scenarios import Scenarios
    >>> mp1 = Scenarios.ZeroTable2Mp1On64Gpus
    >>> print([f"{x / 1e9:.1f}B" for x in (mp1.largest_baseline, mp1.largest_stage1,
    ...                                    mp1.largest_stage2, mp1.largest_stage3)])
    ['2.0B', '7.6B', '14.4B', '128.0B']
    >>> mp16 = Scenarios.ZeroTable2Mp16On1024Gpus
    >>> print(f"{mp16.largest_stage3 / 1e12:.0f}T")
    2T
    >>> print(f"{mp16.largest_stage1 / 1e9:.1f}B")
    122.3B
    """

    rules: ClassVar[Rules] = input_rules(
        device_memory=BYTES, weight_bytes=BYTES, gradient_bytes=BYTES, optimizer_bytes=BYTES
    )

    device_memory: Quantity
    """Memory of one device, M."""
    gpus: int
    """Devices in the cluster."""
    model_parallel: int
    """Model-parallel degree, MP."""
    weight_bytes: Quantity
    """Bytes of one weight in the working precision."""
    gradient_bytes: Quantity
    """Bytes of one gradient."""
    optimizer_bytes: Quantity
    """Optimizer-state bytes per parameter, K."""

    def __post_init__(self) -> None:
        check_inputs(self)

    @property
    def data_parallel(self) -> int:
        """Data-parallel degree, Nd = gpus / MP."""
        return self.gpus // self.model_parallel

    @property
    def largest_baseline(self) -> float:
        """Largest model with plain data parallelism, from calc_zero_largest_model."""
        return calc_zero_largest_model(
            self.device_memory,
            self.weight_bytes,
            self.gradient_bytes,
            self.optimizer_bytes,
            self.data_parallel,
            self.model_parallel,
            0,
        )

    @property
    def largest_stage1(self) -> float:
        """Largest model with the optimizer state partitioned (P_os)."""
        return calc_zero_largest_model(
            self.device_memory,
            self.weight_bytes,
            self.gradient_bytes,
            self.optimizer_bytes,
            self.data_parallel,
            self.model_parallel,
            1,
        )

    @property
    def largest_stage2(self) -> float:
        """Largest model with the gradients partitioned too (P_os+g)."""
        return calc_zero_largest_model(
            self.device_memory,
            self.weight_bytes,
            self.gradient_bytes,
            self.optimizer_bytes,
            self.data_parallel,
            self.model_parallel,
            2,
        )

    @property
    def largest_stage3(self) -> float:
        """Largest model with the weights partitioned as well (P_os+g+p)."""
        return calc_zero_largest_model(
            self.device_memory,
            self.weight_bytes,
            self.gradient_bytes,
            self.optimizer_bytes,
            self.data_parallel,
            self.model_parallel,
            3,
        )

"""Parallelism scenarios

What splitting a model over devices costs: the bytes tensor parallelism
and pipeline parallelism move for every micro-batch, the activation memory
each combination of tensor parallelism, sequence parallelism and
recomputation leaves on a device, and the tokens an expert-parallel layer
sends across the cluster.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from refgen_scenarios.physics import (
    calc_expert_dispatch_tokens,
    calc_layer_activation_bytes,
    calc_tensor_parallel_traffic,
)
from refgen_scenarios.units import Quantity
from refgen_scenarios.validation import BYTES, Rules, check_inputs, input_rules


@dataclass(frozen=True, kw_only=True)
class ModelParallelCommunicationScenario:
    """Bytes tensor parallelism and pipeline parallelism move for one micro-batch.

    Tensor parallelism all-reduces a b × s × h tensor twice in the forward
    pass and twice in the backward pass of every layer, among the
    tensor_parallel devices of a group; a device holding layers_per_stage
    layers does that for each. Pipeline parallelism sends only the b × s × h
    output of a stage to the next device, once forward and once backward.
    Because that output is the same on every tensor-parallel rank, the
    scatter/gather optimization sends a 1/t slice from each rank over its
    own network card and gathers the slices on the other side over NVLink.
    Interleaving model_chunks chunks of layers per device multiplies the
    pipeline's sends by model_chunks.

    Notes
    -----
    Equation: tensor_parallel_per_layer = 8bsh(t - 1)/t × bytes;
        tensor_parallel_per_stage = layers_per_stage × that; pipeline_send =
        bsh × bytes; scatter_gather_send = bsh/t × bytes;
        interleaved_pipeline_sends = model_chunks × pipeline_send.
    Assumptions: Ring all-reduces; 16-bit activations; every layer of the
        stage on the device is tensor-parallel.
    Excludes: Data-parallel gradient all-reduces, the embedding and logit
        layers, latency, and overlap with computation.

    References
    ----------
    - refgen_scenarios.physics.calc_tensor_parallel_traffic
    - Narayanan et al., "Efficient Large-Scale Language Model Training on GPU
      Clusters Using Megatron-LM", SC 2021 (arXiv:2104.04473): section 2.2.2
      (the interleaved schedule's communication "also increases by v"),
      section 3.2 (bsh between consecutive devices per micro-batch in each
      direction; 8bsh(t - 1)/t of tensor-parallel communication per layer
      per device per micro-batch, l_stage times that per stage) and section
      4.1 (the scatter/gather optimization: with 8 tensor-parallel ranks
      each chunk is "one-eighth" of the tensor, bsh/t per pair of
      consecutive stages; t = 8 in its experiments).
    - Korthikanti et al., "Reducing Activation Recomputation in Large
      Transformer Models", MLSys 2023 (arXiv:2205.05198), Table 3: the 1T
      model (hidden size 25600, 128 layers, tensor- and pipeline-parallel
      sizes 8 and 64, micro-batch 1) with s = 2048 (section 6), the shape
      of the registry entry, whose bytes are computed, not printed.

    Examples
    --------
    >>> from refgen_scenarios import Scenarios
    >>> comm = Scenarios.Megatron1TModelParallelTraffic
    >>> comm.scatter_gather_fraction
    0.125
    >>> print(round(comm.tensor_parallel_per_layer))
    734 MB
    >>> print(round(comm.pipeline_send, 1))
    104.9 MB
    >>> print(round(comm.scatter_gather_send, 1))
    13.1 MB
    >>> comm.tensor_to_pipeline_ratio
    14.0
    """

    rules: ClassVar[Rules] = input_rules(bytes_per_element=BYTES)

    micro_batch: int
    """Sequences per micro-batch, b."""
    sequence_length: int
    """Tokens per sequence, s."""
    hidden_size: int
    """Hidden dimension, h."""
    tensor_parallel: int
    """Tensor-parallel degree, t."""
    layers_per_stage: int
    """Transformer layers on one pipeline stage, l_stage."""
    bytes_per_element: Quantity
    """Bytes of one activation element, e.g. 2 bytes in 16 bits."""
    model_chunks: int = 1
    """Interleaved chunks of layers per device, v (1 without interleaving)."""

    def __post_init__(self) -> None:
        check_inputs(self)

    @property
    def tensor_parallel_per_layer(self) -> Quantity:
        """MB each device sends per layer per micro-batch, from calc_tensor_parallel_traffic."""
        return calc_tensor_parallel_traffic(
            self.micro_batch,
            self.sequence_length,
            self.hidden_size,
            self.tensor_parallel,
            self.bytes_per_element,
        ).to('MB')

    @property
    def tensor_parallel_per_stage(self) -> Quantity:
        """GB each device sends for all its layers per micro-batch."""
        return (self.layers_per_stage * self.tensor_parallel_per_layer).to('GB')

    @property
    def pipeline_send(self) -> Quantity:
        """MB one stage sends the next per micro-batch in one direction, bsh × bytes."""
        return (
            self.micro_batch * self.sequence_length * self.hidden_size * self.bytes_per_element
        ).to('MB')

    @property
    def scatter_gather_send(self) -> Quantity:
        """MB each tensor-parallel rank sends the next stage with scatter/gather, bsh/t × bytes."""
        return (self.pipeline_send / self.tensor_parallel).to('MB')

    @property
    def scatter_gather_fraction(self) -> float:
        """Share of the stage output each rank sends with scatter/gather, 1/t (dimensionless)."""
        return 1 / self.tensor_parallel

    @property
    def interleaved_pipeline_sends(self) -> Quantity:
        """MB a device sends per micro-batch in one direction with model_chunks chunks."""
        return (self.model_chunks * self.pipeline_send).to('MB')

    @property
    def tensor_to_pipeline_ratio(self) -> float:
        """Tensor-parallel bytes of a stage over its pipeline send (dimensionless)."""
        return (self.tensor_parallel_per_stage / self.pipeline_send).to('').magnitude


@dataclass(frozen=True, kw_only=True)
class SequenceParallelActivationScenario:
    """Activation memory per layer for each row of Korthikanti's Table 2, and the first stage's.

    Tensor parallelism splits the activations inside the attention and MLP
    blocks over tensor_parallel devices but keeps the layer norms, the
    dropouts and the blocks' inputs whole on each: 10sbh bytes that no
    degree of tensor parallelism reduces. Sequence parallelism splits those
    along the sequence, so that everything is divided by t. Selective
    recomputation drops the attention scores and softmax (the 5as/h term)
    and recomputes them; full recomputation keeps only each layer's input.
    Under a 1F1B pipeline the first stage holds layers' worth of
    activations whatever the pipeline depth.

    Notes
    -----
    Equation: per layer, from calc_layer_activation_bytes:
        tensor_only = sbh(10 + 24/t + 5as/(ht)) (the baseline);
        tensor_sequence_parallel = sbh(34/t + 5as/(ht)); tensor_selective =
        sbh(10 + 24/t); tensor_sequence_selective = sbh(34/t); full = 2sbh;
        first_stage_total = layers × tensor_sequence_selective (Equation 6).
    Assumptions: 16-bit activations, one-byte dropout masks; the first
        pipeline stage stores activations for as many micro-batches as there
        are stages (1F1B).
    Excludes: Embeddings, the output layer and loss (under 0.01% for the
        paper's 22B model), the interleaved schedule's extra (1 + (p - 1)/(pm)),
        and the memory optimization of the paper's Appendix B that its
        Figure 7 includes.

    References
    ----------
    - refgen_scenarios.physics.calc_layer_activation_bytes
    - Korthikanti et al., "Reducing Activation Recomputation in Large
      Transformer Models", MLSys 2023 (arXiv:2205.05198; numbering of the
      arXiv text): section 4.2 (Equations 2, 4 and 5), section 5 (Equation
      6), Table 2, Table 3 (GPT-3 175B: 96 heads, hidden size 12288, 96
      layers, tensor-parallel size 8, micro-batch 1; 1T: 160, 25600, 128, 8,
      1; s = 2048, section 6) and section 6.1: against the tensor-parallel
      baseline, "combined provide a 5x reduction bringing the memory
      requirements to under 20%", "∼2× of the full activation
      recomputation which is at 10% of the baseline". Figure 7's bars (an
      image) were not read. For GPT-3 the equations give 18.5% and 5.4×;
      for the 1T model 20.2% and 4.9×, just over the text's 20%.

    Examples
    --------
    >>> from refgen_scenarios import Scenarios
    >>> gpt3 = Scenarios.KorthikantiGpt3Activations
    >>> print(f"{gpt3.combined_share:.1%}")
    18.5%
    >>> round(gpt3.combined_reduction)
    5
    >>> print(f"{gpt3.full_recomputation_share:.0%}")
    9%
    >>> print(round(gpt3.tensor_only, 1))
    578.8 MB
    >>> print(round(gpt3.first_stage_total, 2))
    10.27 GB
    >>> one_t = Scenarios.KorthikantiOneTrillionActivations
    >>> print(f"{one_t.combined_share:.1%} {one_t.combined_reduction:.2f}")
    20.2% 4.94
    """

    rules: ClassVar[Rules] = input_rules()

    sequence_length: int
    """Tokens per sequence, s."""
    micro_batch: int
    """Sequences per micro-batch, b."""
    hidden_size: int
    """Hidden dimension, h."""
    attention_heads: int
    """Attention heads per layer, a."""
    tensor_parallel: int
    """Tensor-parallel degree, t."""
    layers: int
    """Transformer layers of the whole model, L."""

    def __post_init__(self) -> None:
        check_inputs(self)

    @property
    def no_parallelism(self) -> Quantity:
        """MB per layer on one device without model parallelism, sbh(34 + 5as/h)."""
        return calc_layer_activation_bytes(
            self.sequence_length,
            self.micro_batch,
            self.hidden_size,
            self.attention_heads,
            self.tensor_parallel,
            'none',
        ).to('MB')

    @property
    def tensor_only(self) -> Quantity:
        """MB per layer per device with tensor parallelism alone: the baseline."""
        return calc_layer_activation_bytes(
            self.sequence_length,
            self.micro_batch,
            self.hidden_size,
            self.attention_heads,
            self.tensor_parallel,
            'tensor',
        ).to('MB')

    @property
    def tensor_sequence_parallel(self) -> Quantity:
        """MB per layer per device with tensor and sequence parallelism."""
        return calc_layer_activation_bytes(
            self.sequence_length,
            self.micro_batch,
            self.hidden_size,
            self.attention_heads,
            self.tensor_parallel,
            'tensor_sequence',
        ).to('MB')

    @property
    def tensor_selective(self) -> Quantity:
        """MB per layer per device with tensor parallelism and selective recomputation."""
        return calc_layer_activation_bytes(
            self.sequence_length,
            self.micro_batch,
            self.hidden_size,
            self.attention_heads,
            self.tensor_parallel,
            'tensor_selective',
        ).to('MB')

    @property
    def tensor_sequence_selective(self) -> Quantity:
        """MB per layer per device with tensor, sequence parallelism and selective recomputation."""
        return calc_layer_activation_bytes(
            self.sequence_length,
            self.micro_batch,
            self.hidden_size,
            self.attention_heads,
            self.tensor_parallel,
            'tensor_sequence_selective',
        ).to('MB')

    @property
    def full_recomputation(self) -> Quantity:
        """MB per layer with full recomputation: only the layer input, 2sbh."""
        return calc_layer_activation_bytes(
            self.sequence_length,
            self.micro_batch,
            self.hidden_size,
            self.attention_heads,
            self.tensor_parallel,
            'full',
        ).to('MB')

    @property
    def sequence_parallel_share(self) -> float:
        """Tensor and sequence parallelism over the baseline (dimensionless)."""
        return (self.tensor_sequence_parallel / self.tensor_only).to('').magnitude

    @property
    def selective_share(self) -> float:
        """Tensor parallelism with selective recomputation over the baseline (dimensionless)."""
        return (self.tensor_selective / self.tensor_only).to('').magnitude

    @property
    def combined_share(self) -> float:
        """Both techniques together over the baseline (dimensionless)."""
        return (self.tensor_sequence_selective / self.tensor_only).to('').magnitude

    @property
    def combined_reduction(self) -> float:
        """How many times smaller both techniques make the baseline (dimensionless)."""
        return 1 / self.combined_share

    @property
    def full_recomputation_share(self) -> float:
        """Full recomputation over the baseline (dimensionless)."""
        return (self.full_recomputation / self.tensor_only).to('').magnitude

    @property
    def first_stage_total(self) -> Quantity:
        """GB on the first pipeline stage with both techniques, 34sbhL/t (Equation 6)."""
        return (self.layers * self.tensor_sequence_selective).to('GB')


@dataclass(frozen=True, kw_only=True)
class MoeAllToAllScenario:
    """Bytes an expert-parallel mixture-of-experts model sends in its all-to-alls.

    Each token of a mixture-of-experts layer goes to experts_per_token
    experts. With the experts spread over expert_parallel devices, a
    dispatch all-to-all sends each token's hidden state to the devices of
    its experts, and a combine all-to-all brings the results back: two
    all-to-alls of the same size per layer in the forward pass, and two
    more in the backward pass.

    Notes
    -----
    Equation: tokens_sent = tokens_per_device × k × (E_p - 1)/E_p
        (calc_expert_dispatch_tokens); dispatch_bytes = tokens_sent ×
        hidden_size × bytes_per_element; forward_traffic = 2 × moe_layers ×
        dispatch_bytes; training_traffic = 2 × forward_traffic.
    Assumptions: Uniform routing over all expert devices; the combine sends
        back what the dispatch sent; the backward pass mirrors the forward.
    Excludes: Node-limited routing (DeepSeek-V3 sends each token to at most
        4 nodes), shared experts, capacity limits, FP8 dispatch, routing
        metadata, and the topology of the network.

    References
    ----------
    - refgen_scenarios.physics.calc_expert_dispatch_tokens
    - DeepSeek-AI, "DeepSeek-V3 Technical Report", arXiv:2412.19437, section
      4.2, "Hyper-Parameters": 61 layers, hidden dimension 7168, every FFN
      but those of the first three layers an MoE layer (58), 256 routed
      experts of which 8 are active per token.
    - Glenn K. Lockwood, "Expert parallelism" (glennklockwood.com, garden),
      the DeepSeek-R1 (DeepSeek-V3) example: hidden dimension 7,168, 256
      routed experts with 8 active (the shared expert replicated on each
      GPU), 4,096 tokens per sequence; 32,640 tokens' hidden states sent
      out by each GPU, 14,336 bytes each in bf16, 468 MB out and another
      468 MB back, 54 GB of all-to-all traffic per forward pass over the 58
      MoE layers and another 54 GB in backpropagation. The page's formula
      was not in the stored copy; its figures fit one sequence per GPU and
      one routed expert per GPU: 4,096 × 8 × 255/256 is 32,640 exactly.

    Examples
    --------
    >>> from refgen_scenarios import Scenarios
    >>> moe = Scenarios.DeepSeekV3ExpertAllToAll
    >>> moe.tokens_sent
    32640.0
    >>> print(round(moe.dispatch_bytes))
    468 MB
    >>> print(round(moe.forward_traffic))
    54 GB
    >>> print(round(moe.training_traffic))
    109 GB
    """

    rules: ClassVar[Rules] = input_rules(bytes_per_element=BYTES)

    tokens_per_device: float
    """Tokens each device holds before an MoE layer."""
    hidden_size: int
    """Elements of one token's hidden state."""
    experts_per_token: int
    """Routed experts each token goes to, k."""
    expert_parallel: int
    """Devices the routed experts are spread over, E_p."""
    bytes_per_element: Quantity
    """Bytes of one element of a dispatched hidden state."""
    moe_layers: int
    """Layers whose feed-forward block is a mixture of experts."""

    def __post_init__(self) -> None:
        check_inputs(self)

    @property
    def tokens_sent(self) -> float:
        """Token copies each device sends per dispatch, from calc_expert_dispatch_tokens."""
        return calc_expert_dispatch_tokens(
            self.tokens_per_device, self.experts_per_token, self.expert_parallel
        )

    @property
    def dispatch_bytes(self) -> Quantity:
        """MB each device sends in one layer's dispatch all-to-all."""
        return (self.tokens_sent * self.hidden_size * self.bytes_per_element).to('MB')

    @property
    def layer_round_trip(self) -> Quantity:
        """MB each device sends per layer in the forward pass: dispatch and combine."""
        return (2 * self.dispatch_bytes).to('MB')

    @property
    def forward_traffic(self) -> Quantity:
        """GB each device sends in the all-to-alls of one forward pass."""
        return (self.moe_layers * self.layer_round_trip).to('GB')

    @property
    def training_traffic(self) -> Quantity:
        """GB each device sends per training step: forward and backward passes."""
        return (2 * self.forward_traffic).to('GB')

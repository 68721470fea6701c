"""Memory and traffic helpers

Byte accounting for training and inference: how much has to be resident,
and how many bytes cross the DRAM interface per step.
"""

from __future__ import annotations

from refgen_scenarios.units import Quantity, ureg


def calc_update_step_traffic(
    weights: Quantity,
    gradients: Quantity,
    optimizer_state: Quantity,
    activations: Quantity,
) -> tuple[Quantity, Quantity]:
    """DRAM bytes moved by one full-update training step, and the share spent reading weights.

    The step is split into four phases, and every tensor a phase touches is
    counted as crossing the DRAM interface exactly once in that phase: the
    forward pass reads the weights and writes the activations; the backward
    pass reads the activations and the weights and writes the gradients; the
    optimizer reads the weights, the gradients and its state; the write-back
    stores the updated weights and state.

    Parameters
    ----------
    weights : Quantity
        Bytes of parameter storage, W.
    gradients : Quantity
        Bytes of gradient storage, G.
    optimizer_state : Quantity
        Bytes of optimizer state (all moments together), S.
    activations : Quantity
        Bytes of activations saved by the forward pass for the backward pass, A.

    Returns
    -------
    step_traffic : Quantity
        Total bytes moved in the step, V.
    weight_reads : Quantity
        The part of V spent reading the weights, 3W.

    Notes
    -----
    Equation: V = (W + A) + (A + W + G) + (W + G + S) + (W + S); weight reads = 3W.
    Assumptions: No tensor stays resident in on-chip memory between phases;
        each use of a tensor is one full pass over it.
    Excludes: Re-reads caused by tiling or cache misses, activation
        recomputation, and traffic for inputs and labels.

    References
    ----------
    - Williams, Waterman and Patterson, "Roofline: An Insightful Visual
      Performance Model for Multicore Architectures", CACM 52(4), 2009
      (memory traffic divided by bandwidth bounds the time of a kernel).
    """
    forward = weights + activations
    backward = activations + weights + gradients
    optimizer_read = weights + gradients + optimizer_state
    write_back = weights + optimizer_state
    step_traffic = forward + backward + optimizer_read + write_back
    weight_reads = 3 * weights
    return step_traffic, weight_reads


def calc_bytes_per_parameter(
    weight_bytes: Quantity, gradient_bytes: Quantity, optimizer_bytes: Quantity
) -> Quantity:
    """Resident bytes of model state for one trainable parameter.

    Data-parallel training keeps, for every parameter, a weight in the width
    the arithmetic uses, a gradient of its own width, and whatever the
    optimizer holds per parameter (for mixed-precision Adam: an FP32 master
    copy, the first moment and the second moment).

    Parameters
    ----------
    weight_bytes : Quantity
        Bytes of the working copy of one weight.
    gradient_bytes : Quantity
        Bytes of one gradient.
    optimizer_bytes : Quantity
        Optimizer-state bytes per parameter, K in the ZeRO paper's notation.

    Returns
    -------
    bytes_per_parameter : Quantity
        Model-state bytes per parameter.

    Notes
    -----
    Equation: bytes per parameter = weight + gradient + K.
    Assumptions: Every parameter is trained and has the same widths.
    Excludes: Activations, temporary buffers and allocator fragmentation.

    References
    ----------
    - Rajbhandari et al., "ZeRO: Memory Optimizations Toward Training Trillion
      Parameter Models", SC 2020, section 3.1 (2Ψ + 2Ψ + KΨ with K = 12 for
      mixed-precision Adam).
    """
    return weight_bytes + gradient_bytes + optimizer_bytes


def calc_zero_bytes_per_device(
    parameters: float,
    weight_bytes: Quantity,
    gradient_bytes: Quantity,
    optimizer_bytes: Quantity,
    devices: int,
    stage: int,
) -> Quantity:
    """Model-state bytes on each data-parallel device under a ZeRO stage.

    Plain data parallelism replicates weights, gradients and optimizer state
    on every device. ZeRO partitions them across the data-parallel group
    instead, one more kind of state per stage: stage 1 splits the optimizer
    state, stage 2 also the gradients, stage 3 also the weights. A partitioned
    state costs each device its full size divided by the number of devices.

    Parameters
    ----------
    parameters : float
        Number of trainable parameters, Ψ.
    weight_bytes : Quantity
        Bytes of one weight in the working precision.
    gradient_bytes : Quantity
        Bytes of one gradient.
    optimizer_bytes : Quantity
        Optimizer-state bytes per parameter, K.
    devices : int
        Data-parallel degree, Nd.
    stage : int
        0 for plain data parallelism, or the ZeRO stage 1, 2 or 3.

    Returns
    -------
    bytes_per_device : Quantity
        Weights, gradients and optimizer state resident on one device.

    Notes
    -----
    Equation: stage 0: (w + g + K)Ψ; stage 1: (w + g)Ψ + KΨ/Nd;
        stage 2: wΨ + (g + K)Ψ/Nd; stage 3: (w + g + K)Ψ/Nd.
    Assumptions: Partitions are equal; every device holds exactly its share.
    Excludes: Activations, communication buffers, the gathered copy of a
        layer's weights that stage 3 materialises while computing it, and
        fragmentation.

    References
    ----------
    - Rajbhandari et al., "ZeRO: Memory Optimizations Toward Training Trillion
      Parameter Models", SC 2020, Figure 1 and section 5 (memory per device
      for P_os, P_os+g and P_os+g+p).
    """
    if stage not in (0, 1, 2, 3):
        raise ValueError(f"stage must be 0, 1, 2 or 3, got {stage!r}")
    weights = parameters * weight_bytes
    gradients = parameters * gradient_bytes
    optimizer = parameters * optimizer_bytes
    if stage >= 1:
        optimizer = optimizer / devices
    if stage >= 2:
        gradients = gradients / devices
    if stage >= 3:
        weights = weights / devices
    return weights + gradients + optimizer


RECOMPUTATION_MODES = ("none", "selective", "full")
"""The activation-recomputation strategies that calc_transformer_activation_bytes knows."""


def calc_transformer_activation_bytes(
    sequence_length: int,
    micro_batch: int,
    hidden_size: int,
    attention_heads: int,
    tensor_parallel: int,
    recomputation: str,
) -> Quantity:
    """Activation bytes one transformer layer keeps for the backward pass, per device.

    With 16-bit activations and one-byte dropout masks, a standard transformer
    layer stores sbh(34 + 5as/h) bytes: the 34 covers the linear layers,
    layer norms, GeLU and dropouts, and 5as/h the attention scores, softmax
    and its dropout, which grow with the sequence length. Tensor parallelism
    combined with sequence parallelism splits all of it over t devices.
    Selective recomputation drops the attention part and recomputes it in the
    backward pass; full recomputation keeps only the layer's input.

    Parameters
    ----------
    sequence_length : int
        Tokens per sequence, s.
    micro_batch : int
        Sequences per micro-batch, b.
    hidden_size : int
        Hidden dimension, h.
    attention_heads : int
        Attention heads, a.
    tensor_parallel : int
        Tensor-parallel degree, t (1 without model parallelism).
    recomputation : str
        "none", "selective" or "full".

    Returns
    -------
    activation_bytes : Quantity
        Bytes of saved activations per layer on one device.

    Notes
    -----
    Equation: none: sbh(34 + 5as/h)/t; selective: 34sbh/t; full: 2sbh.
    Assumptions: 16-bit activations, one-byte dropout masks, and sequence
        parallelism alongside tensor parallelism whenever t > 1.
    Excludes: Embeddings, the output layer and loss, pipeline-parallel
        in-flight micro-batches, and framework workspace.

    References
    ----------
    - Korthikanti et al., "Reducing Activation Recomputation in Large
      Transformer Models", MLSys 2023 (arXiv:2205.05198; numbering of the
      arXiv text): "none" is Equation 1 (section 4.1) for t = 1 and
      Equation 4 (section 4.2.2, tensor with sequence parallelism) for
      t > 1; "selective" and "full" are the last two rows of Table 2,
      sbh(34/t) and sbh(2). Section 4 states the 2-byte activations and
      1-byte dropout masks assumed.
    """
    if recomputation not in RECOMPUTATION_MODES:
        raise ValueError(
            f"recomputation must be one of {RECOMPUTATION_MODES}, got {recomputation!r}"
        )
    sbh = sequence_length * micro_batch * hidden_size * ureg.byte
    if recomputation == "full":
        return 2 * sbh
    attention = 5 * attention_heads * sequence_length / hidden_size
    per_element = 34 if recomputation == "selective" else 34 + attention
    return sbh * per_element / tensor_parallel


def calc_selective_recomputation_saving(
    sequence_length: int, hidden_size: int, attention_heads: int
) -> float:
    """Fraction of a layer's activation memory that selective recomputation frees.

    Of the sbh(34 + 5as/h) bytes a layer saves, the 5as/h part belongs to the
    attention core (scores, softmax, its dropout and the product with the
    values), which is cheap to recompute. Recomputing only that part frees
    its share of the total, independent of batch size and tensor parallelism.

    Parameters
    ----------
    sequence_length : int
        Tokens per sequence, s.
    hidden_size : int
        Hidden dimension, h.
    attention_heads : int
        Attention heads, a.

    Returns
    -------
    saving : float
        Freed fraction of the layer's activation bytes, between 0 and 1.

    Notes
    -----
    Equation: saving = (5as/h) / (34 + 5as/h).
    Assumptions: The activation accounting of calc_transformer_activation_bytes.
    Excludes: The extra forward computation that recomputation costs.

    References
    ----------
    - Korthikanti et al., "Reducing Activation Recomputation in Large
      Transformer Models", MLSys 2023 (arXiv:2205.05198; numbering of the
      arXiv text), section 5, "Selective Activation Recomputation": the 5as/h
      term of Equation 5 comes from the attention core, and recomputing it
      saves "70% and 65%" of the activation memory of GPT-3 (5as/h = 80) and
      MT-NLG (5as/h = 64).
    """
    attention = 5 * attention_heads * sequence_length / hidden_size
    return attention / (34 + attention)


def calc_kv_cache_bytes_per_token(
    layers: int, kv_heads: int, head_dim: int, bytes_per_element: Quantity
) -> Quantity:
    """Bytes of key and value cache that one token adds to a sequence.

    Every layer caches one key and one value vector per key-value head for
    each token. Multi-head attention has as many key-value heads as query
    heads; grouped-query attention shares each key-value head among a group
    of query heads, and multi-query attention has a single one.

    Parameters
    ----------
    layers : int
        Transformer layers.
    kv_heads : int
        Key-value heads per layer.
    head_dim : int
        Dimension of one head.
    bytes_per_element : Quantity
        Bytes of one cached element, e.g. 2 bytes for FP16.

    Returns
    -------
    bytes_per_token : Quantity
        Cache bytes per token per sequence.

    Notes
    -----
    Equation: bytes per token = 2 × layers × kv_heads × head_dim × bytes_per_element.
    Assumptions: Keys and values are cached for every layer at the same width.
    Excludes: Paging and block-table overhead, fragmentation and quantisation
        scales.

    References
    ----------
    - Kwon et al., "Efficient Memory Management for Large Language Model
      Serving with PagedAttention", SOSP 2023, section 3 (2 × 5120 × 40 × 2
      bytes = 800 KB per token for OPT-13B).
    - Ainslie et al., "GQA: Training Generalized Multi-Query Transformer Models
      from Multi-Head Checkpoints", EMNLP 2023 (key-value heads shared by
      groups of query heads).
    """
    return 2 * layers * kv_heads * head_dim * bytes_per_element

"""Model-parallelism helpers

Parameter and operation counts of a GPT model as Megatron-LM states them,
the bytes tensor parallelism moves per layer, the activation memory each
combination of tensor parallelism, sequence parallelism and recomputation
keeps, the largest model ZeRO's stages fit in a given memory, and the tokens
an expert-parallel layer sends away.
"""

from __future__ import annotations

from refgen_scenarios.units import Quantity, ureg


def calc_gpt_parameters(
    layers: int, hidden_size: int, vocab_size: int, sequence_length: int
) -> float:
    """Parameters of a GPT model, counted as Megatron-LM counts them.

    Each transformer layer holds 12h² weights in its attention and MLP
    matrices and 13h more in biases and layer norms; the model adds a word
    embedding of V × h and a position embedding of s × h.

    Parameters
    ----------
    layers : int
        Transformer layers, l.
    hidden_size : int
        Hidden dimension, h.
    vocab_size : int
        Vocabulary size, V.
    sequence_length : int
        Tokens per sequence, s (one learned position embedding each).

    Returns
    -------
    parameters : float
        Number of parameters, P.

    Notes
    -----
    Equation: P = 12lh²(1 + 13/(12h) + (V + s)/(12lh)).
    Assumptions: A GPT layer with a 4h MLP and learned position embeddings;
        the output layer shares the word embedding.
    Excludes: Padding of the vocabulary beyond V.

    References
    ----------
    - Narayanan et al., "Efficient Large-Scale Language Model Training on GPU
      Clusters Using Megatron-LM", SC 2021 (arXiv:2104.04473), section 5.1,
      Equation 2.
    """
    layer_weights = 12 * layers * hidden_size**2
    small_terms = 13 / (12 * hidden_size)
    embeddings = (vocab_size + sequence_length) / (12 * layers * hidden_size)
    return layer_weights * (1 + small_terms + embeddings)


def calc_gpt_iteration_flops(
    batch_size: int, sequence_length: int, layers: int, hidden_size: int, vocab_size: int
) -> Quantity:
    """Operations of one training iteration of a GPT model with activation recomputation.

    Counting only the matrix multiplications of the transformer layers and
    the logit layer, a forward pass costs 24Bsh² + 4Bs²h per layer and 2BshV
    for the logits; the backward pass costs twice the forward, and
    recomputation repeats the layers' forward pass once more.

    Parameters
    ----------
    batch_size : int
        Sequences per iteration, B.
    sequence_length : int
        Tokens per sequence, s.
    layers : int
        Transformer layers, l.
    hidden_size : int
        Hidden dimension, h.
    vocab_size : int
        Vocabulary size, V.

    Returns
    -------
    flops : Quantity
        Operations per iteration, F.

    Notes
    -----
    Equation: F = 96Bslh²(1 + s/(6h) + V/(16lh)).
    Assumptions: Full activation recomputation (one extra forward pass of
        every layer); only matrix multiplications are counted.
    Excludes: Softmax, layer norms, elementwise operations and the optimizer
        step, which make the true count slightly higher.

    References
    ----------
    - Narayanan et al., "Efficient Large-Scale Language Model Training on GPU
      Clusters Using Megatron-LM", SC 2021 (arXiv:2104.04473), section 5.1,
      Equation 3 (a lower bound, "close to the actual value").
    """
    layer_flops = 96 * batch_size * sequence_length * layers * hidden_size**2 * ureg.FLOP
    attention = sequence_length / (6 * hidden_size)
    logits = vocab_size / (16 * layers * hidden_size)
    return layer_flops * (1 + attention + logits)


def calc_tensor_parallel_traffic(
    micro_batch: int,
    sequence_length: int,
    hidden_size: int,
    tensor_parallel: int,
    bytes_per_element: Quantity,
) -> Quantity:
    """Bytes each device sends per layer and micro-batch under tensor parallelism.

    Megatron's tensor parallelism all-reduces the b × s × h output of the
    attention block and of the MLP block in the forward pass, and the
    gradients of their inputs in the backward pass: four all-reduces per
    layer. A ring all-reduce of a tensor has each of the t devices send
    2(t - 1)/t of it.

    Parameters
    ----------
    micro_batch : int
        Sequences per micro-batch, b.
    sequence_length : int
        Tokens per sequence, s.
    hidden_size : int
        Hidden dimension, h.
    tensor_parallel : int
        Tensor-parallel degree, t.
    bytes_per_element : Quantity
        Bytes of one activation element, e.g. 2 bytes in 16 bits.

    Returns
    -------
    traffic : Quantity
        Bytes each device sends per layer per micro-batch.

    Notes
    -----
    Equation: traffic = 8bsh(t - 1)/t × bytes_per_element.
    Assumptions: Ring all-reduces; sequence parallelism, which replaces each
        all-reduce by a reduce-scatter and an all-gather, moves the same bytes.
    Excludes: Latency, overlap with computation and the embedding and
        logit layers.

    References
    ----------
    - Narayanan et al., "Efficient Large-Scale Language Model Training on GPU
      Clusters Using Megatron-LM", SC 2021 (arXiv:2104.04473), section 3.2
      (8bsh(t - 1)/t per layer per device for each micro-batch).
    - Korthikanti et al., "Reducing Activation Recomputation in Large
      Transformer Models", MLSys 2023 (arXiv:2205.05198), section 4.2.2
      (four all-reduces, or four all-gathers and four reduce-scatters, move
      the same bytes).
    """
    share = (tensor_parallel - 1) / tensor_parallel
    return 8 * micro_batch * sequence_length * hidden_size * share * bytes_per_element


ACTIVATION_TECHNIQUES = (
    "none",
    "tensor",
    "tensor_sequence",
    "tensor_selective",
    "tensor_sequence_selective",
    "full",
)
"""The rows of Korthikanti et al.'s Table 2, in its order."""


def calc_layer_activation_bytes(
    sequence_length: int,
    micro_batch: int,
    hidden_size: int,
    attention_heads: int,
    tensor_parallel: int,
    technique: str,
) -> Quantity:
    """Activation bytes a transformer layer keeps per device, per row of Korthikanti's Table 2.

    A layer keeps 34sbh bytes for its linear layers, layer norms, GeLU and
    dropouts, and 5as²b for the attention scores, softmax and its dropout.
    Tensor parallelism splits 24sbh of the first part and all of the second
    over t devices, but the layer norms, the dropouts and the inputs of the
    two blocks (10sbh) stay whole on every device. Sequence parallelism
    splits those 10sbh along the sequence. Selective recomputation drops the
    attention part; full recomputation keeps only the layer's 2sbh input.

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
        Tensor-parallel degree, t.
    technique : str
        One of "none", "tensor", "tensor_sequence", "tensor_selective",
        "tensor_sequence_selective" and "full".

    Returns
    -------
    activation_bytes : Quantity
        Bytes of saved activations per layer on one device.

    Raises
    ------
    ValueError
        For a technique that is not a row of the table.

    Notes
    -----
    Equation: none: sbh(34 + 5as/h); tensor: sbh(10 + 24/t + 5as/(ht));
        tensor_sequence: sbh(34/t + 5as/(ht)); tensor_selective:
        sbh(10 + 24/t); tensor_sequence_selective: sbh(34/t); full: 2sbh.
    Assumptions: 16-bit activations and one-byte dropout masks.
    Excludes: Embeddings, the output layer and loss, micro-batches in flight
        under pipeline parallelism, and framework workspace.

    References
    ----------
    - Korthikanti et al., "Reducing Activation Recomputation in Large
      Transformer Models", MLSys 2023 (arXiv:2205.05198; numbering of the
      arXiv text): Equation 1 (section 4.1), Equation 2 (section 4.2.1),
      Equation 4 (section 4.2.2) and Table 2, "Activations memory, in bytes,
      per transformer layer for different techniques".
    """
    if technique not in ACTIVATION_TECHNIQUES:
        raise ValueError(f"technique must be one of {ACTIVATION_TECHNIQUES}, got {technique!r}")
    sbh = sequence_length * micro_batch * hidden_size * ureg.byte
    attention = 5 * attention_heads * sequence_length / hidden_size
    if technique == "none":
        return sbh * (34 + attention)
    if technique == "tensor":
        return sbh * (10 + 24 / tensor_parallel + attention / tensor_parallel)
    if technique == "tensor_sequence":
        return sbh * (34 + attention) / tensor_parallel
    if technique == "tensor_selective":
        return sbh * (10 + 24 / tensor_parallel)
    if technique == "tensor_sequence_selective":
        return sbh * 34 / tensor_parallel
    return 2 * sbh


def calc_zero_largest_model(
    device_memory: Quantity,
    weight_bytes: Quantity,
    gradient_bytes: Quantity,
    optimizer_bytes: Quantity,
    data_parallel: int,
    model_parallel: int,
    stage: int,
) -> float:
    """Largest model whose model states fit in each device's memory under a ZeRO stage.

    With Ψ parameters split over model_parallel devices, each data-parallel
    replica holds Ψ/MP of them; ZeRO then partitions the optimizer state
    (stage 1), the gradients too (stage 2) and the weights as well (stage 3)
    over the data_parallel replicas. The largest Ψ is the device memory over
    the bytes each parameter costs one device.

    Parameters
    ----------
    device_memory : Quantity
        Memory of one device, M.
    weight_bytes : Quantity
        Bytes of one weight in the working precision.
    gradient_bytes : Quantity
        Bytes of one gradient.
    optimizer_bytes : Quantity
        Optimizer-state bytes per parameter, K.
    data_parallel : int
        Data-parallel degree, Nd.
    model_parallel : int
        Model-parallel degree, MP.
    stage : int
        0 for plain data parallelism, or the ZeRO stage 1, 2 or 3.

    Returns
    -------
    parameters : float
        Largest number of parameters, Ψ.

    Raises
    ------
    ValueError
        For a stage other than 0, 1, 2 or 3.

    Notes
    -----
    Equation: Ψ = MP × M / bytes, with bytes = w + g + K (stage 0),
        w + g + K/Nd (1), w + (g + K)/Nd (2), (w + g + K)/Nd (3).
    Assumptions: Model states alone fill the memory; model parallelism
        divides them evenly.
    Excludes: Activations, temporary buffers and fragmentation, which is
        why the measured largest models are smaller.

    References
    ----------
    - Rajbhandari et al., "ZeRO: Memory Optimizations Toward Training
      Trillion Parameter Models", SC 2020 (arXiv:1910.02054v3), section 5
      (per-device memory of each stage) and Table 2 ("Max Theoretical Model
      Size" on 32 GB V100 GPUs).
    """
    if stage not in (0, 1, 2, 3):
        raise ValueError(f"stage must be 0, 1, 2 or 3, got {stage!r}")
    weights = weight_bytes
    gradients = gradient_bytes
    optimizer = optimizer_bytes
    if stage >= 1:
        optimizer = optimizer / data_parallel
    if stage >= 2:
        gradients = gradients / data_parallel
    if stage >= 3:
        weights = weights / data_parallel
    per_parameter = weights + gradients + optimizer
    return model_parallel * (device_memory / per_parameter).to('').magnitude


def calc_expert_dispatch_tokens(
    tokens_per_device: float, experts_per_token: int, expert_parallel: int
) -> float:
    """Token copies one device sends away in the dispatch all-to-all of an expert-parallel layer.

    Each token goes to experts_per_token experts. With the experts spread
    over expert_parallel devices and the routing uniform, a copy stays on
    its own device one time in expert_parallel and leaves it otherwise.

    Parameters
    ----------
    tokens_per_device : float
        Tokens each device holds before the layer.
    experts_per_token : int
        Experts each token is routed to, k.
    expert_parallel : int
        Devices the experts are spread over, E_p.

    Returns
    -------
    tokens : float
        Token copies each device sends.

    Notes
    -----
    Equation: tokens = tokens_per_device × k × (E_p - 1)/E_p.
    Assumptions: Uniform routing; each of a token's k experts counts as one
        copy sent, even when two sit on the same device.
    Excludes: Capacity limits and dropped tokens, node-limited routing, and
        the routing metadata.

    References
    ----------
    - Austin et al., "How to Scale Your Model" (jax-ml/scaling-book),
      section "All the Transformer Math You Need to Know", subsection
      "Sparsity and Mixture-of-Experts": an MoE block adds two all-to-alls, one before it
      that routes tokens to their experts and one after it that brings them
      back.
    """
    return tokens_per_device * experts_per_token * (expert_parallel - 1) / expert_parallel

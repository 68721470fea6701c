"""Compute and throughput helpers

Floating-point operation counts of training and inference, how long a given
amount of compute takes on a fleet, and where a workload sits on the roofline
of a processor: bounded by its arithmetic rate or by its memory bandwidth.
"""

from __future__ import annotations

from refgen_scenarios.units import Quantity, ureg


def calc_training_flops(
    parameters: float, tokens: float, flops_per_param_token: Quantity
) -> Quantity:
    """Floating-point operations to train a dense model on a number of tokens.

    Each token costs about two operations per parameter in the forward pass
    (one multiply, one add) and twice that in the backward pass, six in all.
    Recomputing activations adds another forward pass, which makes it eight.
    Attention over the context and the embeddings are small next to this for
    large models and are left out.

    Parameters
    ----------
    parameters : float
        Number of trainable parameters, N.
    tokens : float
        Number of training tokens, D.
    flops_per_param_token : Quantity
        Operations per parameter per token, k: 6 FLOP without recomputation.

    Returns
    -------
    training_flops : Quantity
        Total operations of the run, C.

    Notes
    -----
    Equation: C = k × N × D.
    Assumptions: A dense model where every parameter takes part in every token.
    Excludes: Attention-score operations, embeddings, and work that is
        discarded (failed steps, evaluation).

    References
    ----------
    - Kaplan et al., "Scaling Laws for Neural Language Models", arXiv:2001.08361,
      section 2.1 (C ≈ 6N operations per training token).
    - Brown et al., "Language Models are Few-Shot Learners", NeurIPS 2020,
      Table D.1 (six operations per parameter per token; 3.14E+23 for GPT-3).
    """
    return flops_per_param_token * parameters * tokens


def calc_compute_time(
    flops: Quantity, devices: int, peak_per_device: Quantity, utilization: float
) -> Quantity:
    """Wall-clock time a fleet needs to perform a number of operations.

    The fleet sustains its peak rate times the fraction of it the workload
    achieves. Dividing the work by that sustained rate gives the time.

    Parameters
    ----------
    flops : Quantity
        Operations to perform, C.
    devices : int
        Accelerators working together, n.
    peak_per_device : Quantity
        Peak operation rate of one accelerator.
    utilization : float
        Fraction of the peak rate the workload sustains, u.

    Returns
    -------
    time : Quantity
        Time to perform the operations.

    Notes
    -----
    Equation: time = C / (n × peak × u).
    Assumptions: The utilization holds for the whole run.
    Excludes: Restarts after failures, checkpointing stalls, evaluation and
        queueing.

    References
    ----------
    - Narayanan et al., "Efficient Large-Scale Language Model Training on GPU
      Clusters Using Megatron-LM", SC 2021, section 5.1 (end-to-end training
      time ≈ 8TP/nX).
    """
    return flops / (devices * peak_per_device * utilization)


def calc_compute_optimal_parameters(
    compute_budget: Quantity, flops_per_param_token: Quantity, tokens_per_parameter: float
) -> float:
    """Model size that spends a compute budget at a fixed ratio of tokens to parameters.

    If training tokens are held at r times the parameter count, the budget
    C = kND becomes C = k r N², so the parameter count follows from the
    budget alone.

    Parameters
    ----------
    compute_budget : Quantity
        Training operations available, C.
    flops_per_param_token : Quantity
        Operations per parameter per token, k.
    tokens_per_parameter : float
        Training tokens per parameter, r.

    Returns
    -------
    parameters : float
        Parameter count N.

    Notes
    -----
    Equation: N = √(C / (k × r)).
    Assumptions: The ratio r is held fixed; about 20 is the rule of thumb
        drawn from Hoffmann et al.
    Excludes: How the best ratio drifts with scale (the paper's Table 3,
        computed from fitted power laws, has a different ratio in each row),
        and the data actually available.

    References
    ----------
    - Hoffmann et al., "Training Compute-Optimal Large Language Models",
      NeurIPS 2022, section 4.1 (Chinchilla: 70B parameters on 1.4 trillion
      tokens, 20 tokens per parameter, on Gopher's compute budget).
    """
    return (compute_budget / (flops_per_param_token * tokens_per_parameter)).to("").magnitude ** 0.5


def calc_model_flops_per_token(
    parameters: float, layers: int, attention_heads: int, head_dim: int, sequence_length: int
) -> Quantity:
    """Training operations per token for model-FLOPs utilization, attention included.

    The dense part costs six operations per parameter per token. Self-attention
    adds the score and value products, which no parameter accounts for: with
    L layers, H heads of dimension Q and a context of T tokens, that is
    12·L·H·Q·T more per token (forward and backward). Recomputation is not
    counted: model-FLOPs utilization credits only the operations the model
    needs.

    Parameters
    ----------
    parameters : float
        Number of parameters, N.
    layers : int
        Transformer layers, L.
    attention_heads : int
        Attention heads per layer, H.
    head_dim : int
        Dimension of one head, Q.
    sequence_length : int
        Tokens per training sequence, T.

    Returns
    -------
    flops_per_token : Quantity
        Operations per training token.

    Notes
    -----
    Equation: flops per token = 6N + 12 × L × H × Q × T.
    Assumptions: Full (non-causal) attention cost, as in the PaLM accounting.
    Excludes: Recomputation, optimizer arithmetic and non-matmul operations.

    References
    ----------
    - Chowdhery et al., "PaLM: Scaling Language Modeling with Pathways", JMLR
      2023 (arXiv:2204.02311), Appendix B (6N + 12LHQT per token).
    """
    dense = 6 * parameters
    attention = 12 * layers * attention_heads * head_dim * sequence_length
    return (dense + attention) * ureg.FLOP


def calc_weight_matmul_intensity(tokens: float, bytes_per_param: Quantity) -> Quantity:
    """Arithmetic intensity of multiplying a batch of tokens by a model's weights.

    Each weight read from memory takes part in one multiply and one add per
    token in the batch. Decoding processes one new token per sequence, so its
    intensity grows only with the batch; prefill processes the whole prompt
    at once and reuses each weight for every prompt token.

    Parameters
    ----------
    tokens : float
        Tokens multiplied by the weights in one pass.
    bytes_per_param : Quantity
        Bytes of one weight.

    Returns
    -------
    intensity : Quantity
        Operations per byte of weights read.

    Notes
    -----
    Equation: intensity = 2 FLOP × tokens / bytes_per_param.
    Assumptions: Weight reads dominate the traffic; each weight is read once
        per pass.
    Excludes: Activation and KV-cache traffic, and attention-score operations.

    References
    ----------
    - Williams, Waterman and Patterson, "Roofline: An Insightful Visual
      Performance Model for Multicore Architectures", CACM 52(4), 2009
      (operational intensity).
    - Chen (kipply), "Transformer Inference Arithmetic", kipp.ly blog, 2022
      (2 operations per parameter per token against the weights' bytes).
    """
    return 2 * ureg.FLOP * tokens / bytes_per_param


def calc_roofline_attainable(
    intensity: Quantity, peak_compute: Quantity, memory_bandwidth: Quantity
) -> Quantity:
    """Operation rate a kernel can reach on the roofline of a processor.

    A kernel that does few operations per byte is held back by how fast
    memory delivers bytes; one that does many is held back by the arithmetic
    units. The attainable rate is the lower of the two ceilings; they meet at
    the ridge point, peak_compute / memory_bandwidth.

    Parameters
    ----------
    intensity : Quantity
        Operations per byte moved to or from memory.
    peak_compute : Quantity
        Peak operation rate.
    memory_bandwidth : Quantity
        Peak memory bandwidth.

    Returns
    -------
    attainable : Quantity
        Highest operation rate the kernel can sustain.

    Notes
    -----
    Equation: attainable = min(peak_compute, intensity × memory_bandwidth).
    Assumptions: Peak rates are reachable; compute and transfer overlap fully.
    Excludes: Cache effects, launch overheads and latency-bound behaviour.

    References
    ----------
    - Williams, Waterman and Patterson, "Roofline: An Insightful Visual
      Performance Model for Multicore Architectures", CACM 52(4), 2009.
    """
    return min(peak_compute, (intensity * memory_bandwidth).to(peak_compute.units))


def calc_decode_step_time(
    bytes_read: Quantity, memory_bandwidth: Quantity, step_flops: Quantity, peak_compute: Quantity
) -> Quantity:
    """Lower bound on the time of one decoding step for a batch.

    A step must read every weight once, and the key-value cache of every
    sequence in the batch, and perform the batch's matrix products; with the
    reads and the arithmetic fully overlapped, the slower of the two sets the
    step time. Small batches with short contexts are bound by the weight
    reads, long contexts by the cache reads, and large batches with short
    contexts by the arithmetic.

    Parameters
    ----------
    bytes_read : Quantity
        Bytes read from memory per step: the weights plus the KV cache.
    memory_bandwidth : Quantity
        Memory bandwidth.
    step_flops : Quantity
        Operations of the step's matrix products.
    peak_compute : Quantity
        Peak operation rate.

    Returns
    -------
    step_time : Quantity
        Time of one step.

    Notes
    -----
    Equation: step time = max(bytes_read / memory_bandwidth, step_flops / peak_compute).
    Assumptions: Reads and arithmetic overlap perfectly; both run at peak.
    Excludes: Communication between devices, activations and kernel launch
        overhead.

    References
    ----------
    - Chen (kipply), "Transformer Inference Arithmetic", kipp.ly blog, 2022
      (latency as the larger of the memory and the compute time).
    - Kwon et al., "Efficient Memory Management for Large Language Model
      Serving with PagedAttention", SOSP 2023, section 3 (the KV cache read
      alongside the weights at every step).
    """
    read_time = bytes_read / memory_bandwidth
    compute_time = step_flops / peak_compute
    return max(read_time, compute_time.to(read_time.units))


def calc_matmul_intensity(
    rows: int, columns: int, inner: int, bytes_per_element: Quantity
) -> Quantity:
    """Arithmetic intensity of a matrix product that moves each operand and the result once.

    Multiplying an M × K matrix by a K × N one takes M·N·K multiply-adds, two
    operations each. If each operand is read from memory once and the result
    written once, the bytes moved are the three matrices' elements times the
    element width.

    Parameters
    ----------
    rows : int
        Rows of the left operand and of the result, M (the batch of a linear layer).
    columns : int
        Columns of the right operand and of the result, N (the layer's outputs).
    inner : int
        The shared dimension, K (the layer's inputs).
    bytes_per_element : Quantity
        Bytes of one element, e.g. 2 bytes for FP16.

    Returns
    -------
    intensity : Quantity
        Operations per byte moved.

    Notes
    -----
    Equation: intensity = 2MNK FLOP / ((MK + KN + MN) × bytes_per_element).
    Assumptions: Every operand crosses the memory interface exactly once; all
        three matrices have the same element width.
    Excludes: Re-reads caused by tiling, bias and activation epilogues, and
        cache effects.

    References
    ----------
    - NVIDIA, "GPU Performance Background User's Guide", Deep Learning
      Performance documentation, section "Understanding Performance", table of
      operations with their arithmetic intensities (FP16 linear layer with
      4096 outputs and 1024 inputs: 315 FLOPS/B at batch size 512, 1 FLOPS/B
      at batch size 1).
    """
    flops = 2 * rows * columns * inner * ureg.FLOP
    elements = rows * inner + inner * columns + rows * columns
    return flops / (elements * bytes_per_element)


def calc_amdahl_speedup(accelerated_fraction: float, acceleration: float) -> float:
    """Overall speedup when only part of a job is made faster (Amdahl's law).

    The part of the original time that is accelerated, f, shrinks by the
    acceleration factor s; the rest, 1 - f, takes as long as before. With s
    workers on a perfectly parallel part, this is strong scaling.

    Parameters
    ----------
    accelerated_fraction : float
        Fraction of the original time spent in the part that is accelerated, f.
    acceleration : float
        How many times faster that part runs, s (the worker count, for
        strong scaling).

    Returns
    -------
    speedup : float
        Original time over new time.

    Notes
    -----
    Equation: speedup = 1 / ((1 - f) + f / s).
    Assumptions: The unaccelerated part does not change; the accelerated part
        speeds up by exactly s.
    Excludes: Communication and synchronisation costs that grow with s, and
        any growth of the problem with the machine (Gustafson's scaled speedup).

    References
    ----------
    - Hennessy and Patterson, "Computer Architecture: A Quantitative
      Approach", 5th edition, Morgan Kaufmann, 2011, section 1.9 (Amdahl's
      law, speedup_overall = 1 / ((1 - fraction_enhanced) + fraction_enhanced
      / speedup_enhanced)).
    """
    return 1 / ((1 - accelerated_fraction) + accelerated_fraction / acceleration)


def calc_pipeline_bubble_fraction(stages: int, micro_batches: int) -> float:
    """Share of a pipeline-parallel step that the devices spend idle in the bubble.

    A batch split into m micro-batches flows through p pipeline stages. The
    first stage starts the last micro-batch after m steps and the last stage
    finishes it p - 1 steps later, so each device is busy for m of the
    m + p - 1 micro-batch slots of the step and idle for the other p - 1.

    Parameters
    ----------
    stages : int
        Pipeline stages (devices in the pipeline), p.
    micro_batches : int
        Micro-batches per batch, m.

    Returns
    -------
    fraction : float
        Idle time over the total time of the step.

    Notes
    -----
    Equation: bubble fraction = (p - 1) / (m + p - 1).
    Assumptions: Every stage takes the same time per micro-batch; forward and
        backward passes are flushed at the end of each batch (synchronous
        schedule such as GPipe's or 1F1B).
    Excludes: Point-to-point communication between stages, recomputation, and
        the optimizer step.

    References
    ----------
    - Huang et al., "GPipe: Efficient Training of Giant Neural Networks using
      Pipeline Parallelism", NeurIPS 2019, section 2.3 (bubble overhead
      O((K - 1)/(M + K - 1)) for K partitions and M micro-batches).
    """
    return (stages - 1) / (micro_batches + stages - 1)


def calc_transformer_flops_factor(
    sequence_length: int, hidden_size: int, layers: int, vocab_size: int, recomputation: str
) -> float:
    """Operations of one GPT training iteration, in units of 72·B·s·l·h².

    A GPT layer does 24·B·s·h² multiply-add operations in its linear layers
    and 4·B·s²·h in the attention core in the forward pass, the logit layer
    2·B·s·h·V, and the backward pass twice the forward. Counted forward and
    backward this is 72·B·s·l·h²(1 + s/6h + V/12hl): the model FLOPs. Selective
    recomputation repeats the attention core, which raises the attention term
    to s/3h; full recomputation repeats each layer's whole forward pass, which
    scales the layer terms by 4/3.

    Parameters
    ----------
    sequence_length : int
        Tokens per sequence, s.
    hidden_size : int
        Hidden dimension, h.
    layers : int
        Transformer layers, l.
    vocab_size : int
        Vocabulary size, V.
    recomputation : str
        "none" for the model FLOPs, or "selective" or "full" for the
        hardware FLOPs under that recomputation.

    Returns
    -------
    factor : float
        Operations per iteration divided by 72·B·s·l·h².

    Notes
    -----
    Equation: none: 1 + s/6h + V/12hl; selective: 1 + s/3h + V/12hl;
        full: 4/3 × (1 + s/6h) + V/12hl.
    Assumptions: Only matrix multiplications are counted; the logit layer is
        not recomputed.
    Excludes: Softmax, layer norms, elementwise operations and the optimizer.

    References
    ----------
    - Narayanan et al., "Efficient Large-Scale Language Model Training on GPU
      Clusters Using Megatron-LM", SC 2021, section 5.1 (96·B·s·l·h²(1 + s/6h
      + V/16lh) operations per iteration with full recomputation).
    - Korthikanti et al., "Reducing Activation Recomputation in Large
      Transformer Models", MLSys 2023 (arXiv:2205.05198; numbering of the
      arXiv text), Appendix A: Equation 7, model FLOPs per iteration
      72BLsh²(1 + s/6h + v/12hL), and Equation 8, hardware FLOPs with
      selective recomputation 72BLsh²(1 + s/3h + v/12hL).
    """
    attention = sequence_length / (6 * hidden_size)
    logits = vocab_size / (12 * hidden_size * layers)
    if recomputation == "none":
        return 1 + attention + logits
    if recomputation == "selective":
        return 1 + 2 * attention + logits
    if recomputation == "full":
        return 4 / 3 * (1 + attention) + logits
    raise ValueError(f"recomputation must be 'none', 'selective' or 'full', got {recomputation!r}")

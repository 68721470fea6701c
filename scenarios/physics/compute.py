"""Compute and throughput helpers

Floating-point operation counts of training and inference, how long a given
amount of compute takes on a fleet, and where a workload sits on the roofline
of a processor: bounded by its arithmetic rate or by its memory bandwidth.
"""

from __future__ import annotations

from scenarios.units import Quantity, ureg


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
    Assumptions: The ratio r is held fixed; about 20 matches the
        compute-optimal frontier of Hoffmann et al.
    Excludes: How the best ratio drifts with scale, and the data actually
        available.

    References
    ----------
    - Hoffmann et al., "Training Compute-Optimal Large Language Models",
      NeurIPS 2022, Table 3 (compute-optimal tokens ≈ 20 × parameters).
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
    weight_bytes: Quantity, memory_bandwidth: Quantity, step_flops: Quantity, peak_compute: Quantity
) -> Quantity:
    """Lower bound on the time of one decoding step for a batch.

    A step must read every weight once and perform the batch's matrix
    products; with the two fully overlapped, the slower of the two sets the
    step time. Small batches are bound by the weight reads, large ones by the
    arithmetic.

    Parameters
    ----------
    weight_bytes : Quantity
        Bytes of weights read per step.
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
    Equation: step time = max(weight_bytes / memory_bandwidth, step_flops / peak_compute).
    Assumptions: Reads and arithmetic overlap perfectly; both run at peak.
    Excludes: KV-cache reads, communication between devices and kernel
        launch overhead.

    References
    ----------
    - Chen (kipply), "Transformer Inference Arithmetic", kipp.ly blog, 2022
      (latency as the larger of the memory and the compute time).
    """
    read_time = weight_bytes / memory_bandwidth
    compute_time = step_flops / peak_compute
    return max(read_time, compute_time.to(read_time.units))

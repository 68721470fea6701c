"""The registry: named, concrete scenarios with their stated inputs.

Each attribute of :class:`Scenarios` is one instance of a scenario class.
Examples in scenario docstrings reach their inputs through this registry, so
the numbers quoted in the reference are computed from exactly these values.
"""

from __future__ import annotations

from refgen_scenarios.hardware import AcceleratorRidgeScenario, MemoryBandwidthScenario
from refgen_scenarios.inference import (
    BatchDecodeScenario,
    DecodeBandwidthScenario,
    KvCacheCapacityScenario,
    KvCacheScenario,
    MatmulRooflineScenario,
    RooflineScenario,
    ServingLatencyScenario,
)
from refgen_scenarios.parallelism import (
    ModelParallelCommunicationScenario,
    MoeAllToAllScenario,
    SequenceParallelActivationScenario,
)
from refgen_scenarios.queueing import BatchedServingScenario, DiskQueueScenario
from refgen_scenarios.reliability import (
    CheckpointIntervalScenario,
    CheckpointWriteScenario,
    FleetFailureScenario,
)
from refgen_scenarios.scaling import (
    KaplanComputeScenario,
    MegatronTrainingRunScenario,
    ZeroLargestModelScenario,
)
from refgen_scenarios.step_time import HierarchicalAllReduceScenario, UpdateStepBoundScenario
from refgen_scenarios.sustainability import (
    DeliveredComputeScenario,
    EmbodiedCarbonScenario,
    HardwareFlopsUtilizationScenario,
    ModelFlopsUtilizationScenario,
    OperationalCarbonScenario,
    TrainingEnergyScenario,
)
from refgen_scenarios.training import (
    ActivationMemoryScenario,
    AlphaBetaAllReduceScenario,
    AmdahlScenario,
    ComputeOptimalScenario,
    ComputeOptimalTableScenario,
    MixedPrecisionAdamScenario,
    PipelineBubbleScenario,
    RingAllReduceScenario,
    TrainingComputeScenario,
    UpdateWorkingSetScenario,
    ZeroCommunicationScenario,
    ZeroShardingScenario,
)
from refgen_scenarios.units import ureg


class Scenarios:
    """Named scenarios, one attribute each."""

    PhoneFullUpdateWorkingSet = UpdateWorkingSetScenario(
        parameters=10e6,
        bytes_per_param=4 * ureg.byte,
        optimizer_moments=2,
        activation_factor=5.0,
        activation_factor_high=8.0,
        bandwidth=51.2 * ureg.GB / ureg.s,
    )
    """A 10 M-parameter FP32 model fine-tuned with Adam on a phone. The model
    and its shape are this entry's illustration, not a published
    configuration: 10 M parameters in FP32, a 4-layer transformer of hidden
    size 448 (7 heads of 64) on 128-token sequences in batches of 10 and 16.
    Sourced are: the two weight-sized Adam moments (Kingma and Ba, Algorithm
    1); the 51.2 GB/s of DRAM bandwidth, LPDDR5 at 6,400 MT/s (JEDEC
    JESD209-5) on a 64-bit bus, 6,400 MT/s × 8 bytes, the figure Samsung's
    July 2018 LPDDR5 announcement prints; and the rule behind the activation
    factors 5 and 8, which are derived, not quoted: Korthikanti et al.'s
    per-layer count (section 4.1, Equation 1: sbh(34 + 5as/h) bytes at 2
    bytes an element) redone for FP32 activations of that illustrative
    shape. The working set and step time are computed; the step time counts
    the traffic only (see PhoneFullUpdateStepAtMeasuredGpuRate)."""

    PhoneFullUpdateStepAtNpuPeak = UpdateStepBoundScenario(
        parameters=PhoneFullUpdateWorkingSet.parameters,
        tokens_per_step=10 * 128,
        flops_per_param_token=6 * ureg.FLOP,
        step_traffic=PhoneFullUpdateWorkingSet.step_traffic,
        memory_bandwidth=PhoneFullUpdateWorkingSet.bandwidth,
        peak_compute=35e12 * ureg.FLOP / ureg.s,
    )
    """One update step of the phone entry's model (10 M parameters, its nominal
    batch of 10 sequences of 128 tokens) against a peak a phone's vendor
    prints for its neural engine: the 35 trillion operations a second of the A17
    Pro's Neural Engine, which the "Machine Learning Systems" textbook's
    hardware registry pairs with 51.2 GB/s in its iPhone 15 Pro entry. At
    that peak the 76.8 GFLOP take 2.2 ms, under the 15.6 ms the 800 MB of
    traffic take: the step's 96 FLOP/B are below the 684 FLOP/B ridge, and
    memory traffic binds. The Neural Engine's operations are not FP32 ones,
    so this is a floor, not a rate an FP32 step can reach. Computed, not
    printed."""

    PhoneFullUpdateStepAtMeasuredGpuRate = UpdateStepBoundScenario(
        parameters=PhoneFullUpdateWorkingSet.parameters,
        tokens_per_step=10 * 128,
        flops_per_param_token=6 * ureg.FLOP,
        step_traffic=PhoneFullUpdateWorkingSet.step_traffic,
        memory_bandwidth=PhoneFullUpdateWorkingSet.bandwidth,
        peak_compute=70 * ureg.GFLOP / ureg.s,
    )
    """The same step on a phone GPU at 70 GFLOP/s, the top of the 40-70 GFLOPs
    Das et al. reached with optimized training kernels on Snapdragon 8
    series GPUs (arXiv:2202.10100, abstract): a measured rate, not a peak.
    The arithmetic then takes 1.1 s, some 70 times the traffic floor, and
    binds. No vendor FP32 peak of a phone GPU was found. Computed, not
    printed."""

    Gpt2XlFp16UpdateWorkingSet = UpdateWorkingSetScenario(
        parameters=1.5e9,
        bytes_per_param=2 * ureg.byte,
        optimizer_moments=2,
        activation_factor=20.0,
        activation_factor_high=20.0,
        bandwidth=None,
        master_copies=1,
        optimizer_width=4 * ureg.byte,
    )
    """The 1.5B-parameter GPT-2 trained with mixed-precision Adam as ZeRO section
    3.1 defines it: FP16 weights (3 GB) and gradients, and an FP32 master copy
    of the weights with Adam's two FP32 moments, three values of 4 bytes: the
    12 bytes a parameter of ZeRO's K, for 16 bytes per parameter and the
    paper's 24 GB of model states. The activation factor of 20 is ZeRO's
    60 GB of activations at sequence length 1K and batch size 32 (section 3.2)
    over those 3 GB."""

    Gpt2XlMixedPrecisionAdam = MixedPrecisionAdamScenario(
        parameters=1.5e9,
        weight_bytes=2 * ureg.byte,
        gradient_bytes=2 * ureg.byte,
        optimizer_bytes=12 * ureg.byte,
    )
    """The 1.5B-parameter GPT-2 trained with mixed-precision Adam, ZeRO's example
    in section 3.1 (16 bytes per parameter, at least 24 GB)."""

    Zero7p5BOn64Devices = ZeroShardingScenario(
        parameters=7.5e9,
        weight_bytes=2 * ureg.byte,
        gradient_bytes=2 * ureg.byte,
        optimizer_bytes=12 * ureg.byte,
        devices=64,
    )
    """The 7.5B-parameter model of ZeRO's Figure 1, with K = 12 and 64-way data
    parallelism."""

    Gpt3LayerActivations = ActivationMemoryScenario(
        sequence_length=2048,
        micro_batch=1,
        hidden_size=12288,
        attention_heads=96,
        tensor_parallel=1,
    )
    """One GPT-3 175B layer (96 heads, hidden size 12288, 2048-token sequences),
    one sequence per micro-batch on a single device, as analysed by
    Korthikanti et al."""

    Gpt3TrainingCompute = TrainingComputeScenario(
        parameters=174.6e9,
        tokens=300e9,
        flops_per_param_token=6 * ureg.FLOP,
        devices=10_000,
        peak_throughput=125 * ureg.TFLOP / ureg.s,
        utilization=24.6 / 125,
    )
    """GPT-3 175B as in Table D.1 of the GPT-3 paper, run on 10,000 V100 GPUs at
    the 24.6 TFLOP/s each that Patterson et al. (Table 4) report, out of a
    125 TFLOP/s peak. The utilization, 24.6/125 = 19.7%, counts 6 FLOP a
    parameter a token and no attention: it is not the 21.3% MFU PaLM
    (section 4.1) gives GPT-3 from the same 24.6 TFLOP/s. With PaLM's
    attention term it becomes 20.2% (Gpt3ModelFlopsUtilization); the rest of
    the difference is not explained by anything PaLM prints."""

    MegatronGpt3TrainingTime = TrainingComputeScenario(
        parameters=175e9,
        tokens=300e9,
        flops_per_param_token=8 * ureg.FLOP,
        devices=1024,
        peak_throughput=312 * ureg.TFLOP / ureg.s,
        utilization=140 / 312,
    )
    """Megatron-LM's estimate for GPT-3 (section 5.1): 8 operations per parameter
    per token with recomputation, 1024 A100 GPUs at 140 TFLOP/s each out of
    a 312 TFLOP/s peak."""

    ChinchillaOnGopherBudget = ComputeOptimalScenario(
        compute_budget=5.76e23 * ureg.FLOP,
        flops_per_param_token=6 * ureg.FLOP,
        tokens_per_parameter=20.0,
    )
    """Gopher's training budget (5.76e23 FLOPs, the "1 Gopher" unit of Table 3 of
    the Chinchilla paper) spent at the flat rule of thumb of 20 tokens per
    parameter, the ratio of Chinchilla itself (1.4T tokens for 70B
    parameters, opening of section 4). This is not a row of Table 3, whose
    ratios come from fitted power laws and differ by row (see
    ChinchillaTable3Row1B and ChinchillaTable3Row10T). The result, 69.3B
    parameters and 1.39T tokens, approximates the model actually trained on
    that budget, Chinchilla (70B, 1.4T), but does not reproduce it: the
    paper's "same compute budget" is itself 2% short of 6 × 70B × 1.4T."""

    ChinchillaTable3Row1B = ComputeOptimalTableScenario(
        parameters=1e9,
        tokens=20.2e9,
        flops_per_param_token=6 * ureg.FLOP,
    )
    """The 1-billion-parameter row of Table 3 of the Chinchilla paper: 20.2
    billion tokens, 1.21e+20 FLOPs, 20.2 tokens per parameter."""

    ChinchillaTable3Row10T = ComputeOptimalTableScenario(
        parameters=10e12,
        tokens=216.2e12,
        flops_per_param_token=6 * ureg.FLOP,
    )
    """The 10-trillion-parameter row of Table 3 of the Chinchilla paper: 216.2
    trillion tokens, 1.30e+28 FLOPs, 21.6 tokens per parameter."""

    Zero7p5BGradientAllReduce = RingAllReduceScenario(
        parameters=7.5e9,
        bytes_per_element=2 * ureg.byte,
        devices=64,
        link_bandwidth=100 * ureg.Gbit / ureg.s,
    )
    """FP16 gradients of ZeRO's 7.5B-parameter example (section 3.1; Figure 1's
    N_d = 64) all-reduced over 64 devices in one flat ring whose every hop
    is one InfiniBand EDR link at the 12.5 GB/s (100 Gbit/s) per link of
    ZeRO section 10.2. Its 2.36 s sync_time is a one-link bound that no
    source prints: ZeRO's cluster (section 10.1) is DGX-2 nodes of 16 GPUs
    with NVSwitch inside and 800 Gbps between nodes, on which the same
    all-reduce takes about 0.32 s (Zero7p5BHierarchicalAllReduce). The 2Ψ
    per device the ring approaches is section 7.1's."""

    Zero7p5BHierarchicalAllReduce = HierarchicalAllReduceScenario(
        parameters=7.5e9,
        bytes_per_element=2 * ureg.byte,
        nodes=4,
        gpus_per_node=400 // 25,
        intra_node_bandwidth=300 * ureg.GB / ureg.s,
        inter_node_bandwidth=800 * ureg.Gbit / ureg.s,
    )
    """The FP16 gradients of ZeRO's 7.5B-parameter example (section 3.1; Figure
    1's N_d = 64) all-reduced on the hardware of ZeRO's experiments: DGX-2
    nodes of 16 V100s (section 10.1: 400 GPUs in 25 nodes) joined by 800
    Gbps between nodes (section 10.1), NVSwitch inside at the 300 GB/s per
    link of section 10.2. The 64 devices are 4 such nodes, the entry's
    assumption. Inside the nodes the two phases take 94 ms; between them
    the 22.5 GB each node sends takes 225 ms; 0.32 s in all, computed, not
    printed, against the 2.36 s of the flat ring whose every hop is one
    12.5 GB/s link (Zero7p5BGradientAllReduce)."""

    Zero7p5BGradientAllReduceAlphaBeta = AlphaBetaAllReduceScenario(
        message_bytes=15 * ureg.GB,
        devices=64,
        latency=10 * ureg.microsecond,
        link_bandwidth=12.5 * ureg.GB / ureg.s,
    )
    """The 15 GB of FP16 gradients of ZeRO's 7.5B-parameter example (ZeRO
    section 3.1's 2 bytes per parameter; Figure 1's N_d = 64 devices)
    all-reduced over 64 devices on RoCE v2 over 100 GbE, with the α = 10 µs
    and β = 12.5 GB/s of that row of the "Machine Learning Systems"
    textbook's Table "α-β Parameters by Interconnect" (Volume II, appendix
    "Communication Foundations"). The link has the 12.5 GB/s of ZeRO's
    InfiniBand EDR links (section 10.2), but the latency is RoCE's: the
    entry models the same all-reduce on the textbook's RoCE link, not
    ZeRO's cluster. No source prints its 2.364 s."""

    RingAllReduceOneGigabyteOn256Gpus = AlphaBetaAllReduceScenario(
        message_bytes=1 * ureg.GB,
        devices=256,
        latency=5 * ureg.microsecond,
        link_bandwidth=50 * ureg.GB / ureg.s,
    )
    """The "Machine Learning Systems" textbook's worked example "Ring vs. tree
    AllReduce" (Volume II, appendix "Communication Foundations", section
    "AllReduce"): a 1 GB gradient on 256 H100 GPUs over InfiniBand NDR, α =
    5 µs and β = 50 GB/s, takes about 42.4 ms with a ring."""

    RingAllReduceTopKCompressedOn256Gpus = AlphaBetaAllReduceScenario(
        message_bytes=1 * ureg.GB / 64,
        devices=256,
        latency=5 * ureg.microsecond,
        link_bandwidth=50 * ureg.GB / ureg.s,
    )
    """The same ring carrying that gradient compressed 64 times, the
    textbook's worked example "Is top-k compression worth it?" (section
    "Compression Economics"): 3.2 ms of communication, most of it the 2.55
    ms of latency."""

    Zero7p5BCommunication = ZeroCommunicationScenario(
        parameters=7.5e9,
        bytes_per_element=2 * ureg.byte,
    )
    """ZeRO's 7.5B-parameter example with FP16 gradients and parameters: the
    2Ψ and 3Ψ volumes of section 7 in bytes."""

    GpipeFourStagesSixteenMicroBatches = PipelineBubbleScenario(
        stages=4,
        micro_batches=16,
    )
    """Four pipeline stages and sixteen micro-batches, GPipe's M = 4K (section
    2.3): the p = 4, m = 16 cell of Table "Pipeline Bubble Fraction" in the
    "Machine Learning Systems" textbook (Volume II, appendix "Communication
    Foundations", section "Pipeline Arithmetic"), 15.8%."""

    MegatronInterleavedEightStages = PipelineBubbleScenario(
        stages=8,
        micro_batches=16,
        model_chunks=4,
    )
    """The "Machine Learning Systems" textbook's example of Megatron-LM's
    interleaved schedule (Volume II, appendix "Communication Foundations",
    subsection "Interleaved scheduling"): eight stages, sixteen
    micro-batches and four virtual stages per device take the bubble from
    30.4% to 9.9%, a 3.1x reduction."""

    GpipeFigureFourDevicesFourMicroBatches = PipelineBubbleScenario(
        stages=4,
        micro_batches=4,
    )
    """GPipe as the figure of the Google Research blog post "Introducing
    GPipe" draws it: four devices and four micro-batches, each device idle in
    3 of the 7 forward slots and 3 of the 7 backward slots, counted on the
    drawing."""

    HennessyPattersonWebServer = AmdahlScenario(
        accelerated_fraction=0.4,
        acceleration=10.0,
    )
    """Hennessy and Patterson's Amdahl example (5th edition, section 1.9): a
    web server's processor made 10 times faster on computation, which was 40%
    of the time; overall speedup 1/0.64 ≈ 1.56."""

    HennessyPatterson80On100Processors = AmdahlScenario(
        accelerated_fraction=0.9975,
        acceleration=100.0,
    )
    """Hennessy and Patterson's strong-scaling example (5th edition, section
    5.1): a speedup of 80 on 100 processors needs a parallel fraction of
    0.9975."""

    Databricks7BDecode = DecodeBandwidthScenario(
        parameters=7e9,
        bytes_per_param=2 * ureg.byte,
        memory_bandwidth=2 * ureg.TB / ureg.s,
        time_per_output_token=14 * ureg.ms,
    )
    """Databricks' model-bandwidth-utilization example (section "Model Bandwidth
    Utilization (MBU)"): a 16-bit 7B model at 14 ms per output token on a
    machine with 2 TB/s of memory bandwidth."""

    Opt13BKvCache = KvCacheScenario(
        layers=40,
        kv_heads=40,
        head_dim=128,
        bytes_per_element=2 * ureg.byte,
        sequence_length=2048,
    )
    """OPT-13B (40 layers, hidden size 5120 in 40 heads) with an FP16 cache of
    its full 2048-token context, the vLLM paper's example (section 3)."""

    Llama2_7BKvCache = KvCacheScenario(
        layers=32,
        kv_heads=32,
        head_dim=128,
        bytes_per_element=2 * ureg.byte,
        sequence_length=4096,
        batch_size=1,
    )
    """Llama 2 7B (32 layers, multi-head attention with 32 heads of 128) with a
    16-bit cache of 4096 tokens, NVIDIA's example."""

    Llama2_70BKvCache = KvCacheScenario(
        layers=80,
        kv_heads=8,
        head_dim=128,
        bytes_per_element=2 * ureg.byte,
        sequence_length=1024,
        batch_size=16,
    )
    """Llama 2 70B (80 layers, grouped-query attention over 8 key-value heads of
    128, the released configuration of Touvron et al., section 2.2) with an
    FP16 cache of 1024-token sequences in a batch of 16: the batch-16 row of
    Table 3 of Databricks' "LLM Inference Performance Engineering: Best
    Practices" (section "Optimization Case Study: Quantization"), 5 GiB of
    cache, and .312 GiB a sequence, its batch-1 row."""

    V100Roofline = RooflineScenario(
        peak_compute=125 * ureg.TFLOP / ureg.s,
        memory_bandwidth=900 * ureg.GB / ureg.s,
        bytes_per_param=2 * ureg.byte,
        decode_batch=1,
        prompt_tokens=512,
    )
    """The V100 of NVIDIA's GPU Performance Background guide (section
    "Understanding Performance"): 125 FP16 Tensor TFLOPS and about 900 GB/s
    of off-chip bandwidth, an ops:byte ratio of 139 (138.9 in the Matrix
    Multiplication Background guide, section "Math and Memory Bounds"). The
    guide's Table 1 puts a linear layer at 1 FLOPS/B, memory-limited, at
    batch size 1, and arithmetic-limited at batch size 512: one sequence
    decoding and a 512-token prompt in prefill, with FP16 weights."""

    Opt13BBatchDecodeOnA100 = BatchDecodeScenario(
        parameters=13e9,
        bytes_per_param=2 * ureg.byte,
        layers=40,
        kv_heads=40,
        head_dim=128,
        kv_bytes_per_element=2 * ureg.byte,
        context_tokens=2048,
        batch_size=64,
        peak_compute=312 * ureg.TFLOP / ureg.s,
        memory_bandwidth=2039 * ureg.GB / ureg.s,
        memory_capacity=80 * ureg.GB,
    )
    """Does not fit: OPT-13B in 16 bits (40 layers, hidden size 5120 in 40
    heads of 128, as in the vLLM paper, section 3) asked to decode 64
    sequences at its full 2048-token context on one A100 80GB SXM
    (datasheet: 312 TFLOPS FP16, 2,039 GB/s, 80GB). Their cache alone is
    about four times the weights, and the 133.4 GB the batch needs is more
    than the card holds: only 32 sequences fit beside the weights, and the
    step time and throughput are those of the 32 (computed, not printed);
    no figure is given for the 64."""

    NvidiaLinearBatch512OnV100 = MatmulRooflineScenario(
        rows=512,
        columns=4096,
        inner=1024,
        bytes_per_element=2 * ureg.byte,
        peak_compute=125 * ureg.TFLOP / ureg.s,
        memory_bandwidth=900 * ureg.GB / ureg.s,
    )
    """The FP16 linear layer of NVIDIA's GPU Performance Background guide (4096
    outputs, 1024 inputs, batch size 512; section "Understanding
    Performance") on a V100 SXM2 at its datasheet's 125 TFLOPS of Tensor Core
    performance and 900 GB/s."""

    NvidiaLinearBatch1OnV100 = MatmulRooflineScenario(
        rows=1,
        columns=4096,
        inner=1024,
        bytes_per_element=2 * ureg.byte,
        peak_compute=125 * ureg.TFLOP / ureg.s,
        memory_bandwidth=900 * ureg.GB / ureg.s,
    )
    """The same layer at batch size 1, the guide's memory-limited case."""

    Opt13BOnA100_40GB = KvCacheCapacityScenario(
        parameters=13e9,
        bytes_per_param=2 * ureg.byte,
        layers=40,
        kv_heads=40,
        head_dim=128,
        kv_bytes_per_element=2 * ureg.byte,
        memory_capacity=40 * ureg.GB,
        context_tokens=2048,
    )
    """The vLLM paper's Figure 1 case: a 13B-parameter model (OPT-13B, 800 KB of
    cache per token, section 3) in FP16 on an A100 40GB, counted as the paper
    counts it (26GB of parameters are 65% of the 40GB). The weights leave 14
    GB, 35%; Figure 1 gives more than 30% to the KV cache and the rest to
    other data, but no cache size, so the entry counts no tokens (see
    VllmOpt13BCacheSlots for the 12 GB vLLM sets aside)."""

    VllmOpt13BCacheSlots = KvCacheCapacityScenario(
        parameters=13e9,
        bytes_per_param=2 * ureg.byte,
        layers=40,
        kv_heads=40,
        head_dim=128,
        kv_bytes_per_element=2 * ureg.byte,
        memory_capacity=40 * ureg.GiB,
        context_tokens=2048,
        kv_memory=12 * ureg.GiB,
    )
    """The vLLM paper's 13B server (section 6.1, Table 1): OPT-13B in FP16 on
    one A100 with 40 GB, 26 GB of parameters and 12 GB set aside for the KV
    cache, which holds "15.7K" tokens ("Max. # KV cache slots") at 800 KB a
    token. The 12 GB is read in binary units, as the paper's 800 KB is, and
    the 40 GB in the same unit, so the cache is 30% of the memory; the
    2048-token context is OPT's maximum sequence length (section 6.1,
    "Orca (Max)"). The 15.7K slots are reproduced; the 7 whole sequences
    of 2048 tokens are computed, not printed."""

    Databricks7BServingLatency = ServingLatencyScenario(
        parameters=7e9,
        bytes_per_param=2 * ureg.byte,
        memory_bandwidth=2 * ureg.TB / ureg.s,
        bandwidth_utilization=0.5,
    )
    """Databricks' example (section "Model Bandwidth Utilization (MBU)"): a
    16-bit 7B model at 50% model bandwidth utilization of 2 TB/s, which is 14
    ms per output token. The example gives no peak compute and no prompt or
    output lengths, so the entry has no time to first token and no request
    latency."""

    ScalingBookLlama70BPrefill = ServingLatencyScenario(
        parameters=70e9,
        bytes_per_param=2 * ureg.byte,
        memory_bandwidth=16 * 8.1e11 * ureg.byte / ureg.s,
        prompt_tokens=8192,
        peak_compute=16 * 1.97e14 * ureg.FLOP / ureg.s,
        compute_utilization=0.4,
    )
    """"How to Scale Your Model", section 8 ("Serving LLaMA 3-70B on TPUs",
    "What about prefill?"): an 8192-token prefill of LLaMA 3-70B (70e9
    parameters, bfloat16) on 16 TPU v5e chips at 40% FLOPs utilization takes
    2 × 70e9 × 8192 / (16 × 1.97e14 × 0.4) = 0.91 s. The chips' bf16
    FLOPs/s and HBM bandwidth (1.97e14 and 8.1e11 bytes/s a chip) are
    section 2's TPU v5e row. The book prints no time per output token for
    this batch-one case; the entry's is the same bandwidth arithmetic, not
    a published figure. It gives no output length, so there is no request
    latency."""

    InformixDiskUtilization = DiskQueueScenario(
        transfer_rate=10 / ureg.s,
        access_time=30 * ureg.ms,
        access_margin=1.2,
        transfers_per_transaction=20,
    )
    """The Informix performance guide's example (section "Disk utilization"):
    a disk with a 30 ms access time, padded by 20 percent, serving 10
    transfers a second is busy .36 of the time, and a 20-transfer
    transaction takes .72 s of processing and 1.13 s at the disk, waiting
    included; all three are reproduced from these inputs. The .36 is the
    mean number of transfers in service (Little's law with the 36 ms
    service time); with the 56.25 ms a transfer spends at the disk waiting
    included, Little's law gives 0.56 in the system. Both of those are
    computed, not printed."""

    Gpt3ServingAt100Qps = BatchedServingScenario(
        arrival_rate=100 / ureg.s,
        fixed_time=50 * ureg.ms,
        per_request_time=0.5 * ureg.ms,
        batch_size=16,
    )
    """The "Machine Learning Systems" textbook's GPT-3 serving example at 100
    requests a second (Volume II, appendix "Inference Foundations", worked
    example "GPT-3 serving at 100 QPS"): batches cost 50 ms plus 0.5 ms a
    request, served 16 at a time. From these inputs the class reproduces
    the batch-16 row of Table "Batch Size Impact on GPT-3 Serving
    Performance" (58.0 ms a batch, 36.3% busy, 16.5 ms of waiting, 154.5 ms
    in the system) and the callout "Applying Little's Law to verify" (15.45
    requests in the system, 5.8 in service); none of those figures is an
    input."""

    FleetJob16kGpus = FleetFailureScenario(
        gpus=16_384,
        gpus_per_node=8,
        node_failure_rate=419 / (16_384 / 8 * 54 * ureg.day),
        period=54 * ureg.day,
    )
    """Llama 3 405B pre-training (section 3.3.4): 419 unexpected interruptions
    in a 54-day snapshot, on 16,384 H100 GPUs (Table 4) in servers of eight
    (section 3.3.1). Spread over 2,048 nodes that is 3.79 failures per 1,000
    node-days, and the job fails every 3.1 hours: both computed, not
    printed. The rate is made from the 419, so expected_failures over the
    54 days gives the 419 back; that is an identity of the inputs, not a
    reproduction of the paper's count."""

    DalyFigure3Checkpoint = CheckpointIntervalScenario(
        checkpoint_time=5 * ureg.minute,
        machine_mtbf=24 * ureg.hour,
    )
    """Daly's Figure 3 case: 5-minute checkpoints on a system with a 24-hour MTBF."""

    GraphLab64MachineCheckpoint = CheckpointIntervalScenario(
        checkpoint_time=2 * ureg.minute,
        machine_mtbf=1 * ureg.year,
        machines=64,
    )
    """Distributed GraphLab's example: 64 machines, each failing once a year on
    average, with 2-minute checkpoints."""

    Gpt3CheckpointWrite = CheckpointWriteScenario(
        parameters=175e9,
        bytes_per_param=14 * ureg.byte,
        write_bandwidth=100 * ureg.GB / ureg.s,
        system_mtbf=4.14 * ureg.hour,
    )
    """The "Machine Learning Systems" textbook's Young-Daly worked example
    (Volume II, appendix "Reliability Foundations", callout "Young-Daly: 175B
    model on a 10,000-GPU cluster"): 14 bytes of persistent state per
    parameter (section "Checkpoint sizing": BF16 weights, FP32 master
    weights and two FP32 Adam moments; gradients are not saved) make 2,450
    GB, written at 100 GB/s of aggregate storage bandwidth in 24.5 s (step
    1). On the cluster's MTBF of 4.14 hours (the callout's setup) Young's
    rule checkpoints every 14.2 minutes (step 2), and writing takes 2.9% of
    training time (the callout's interpretation)."""

    Gpt3TrainingEnergy = TrainingEnergyScenario(
        accelerators=10_000,
        power_per_accelerator=330 * ureg.W,
        duration=14.8 * ureg.day,
        pue=1.10,
    )
    """GPT-3's training run with the inputs of Patterson et al.'s Table 4. Their
    product is 1,289 MWh, not the table's 1,287 MWh: the table's inputs are
    rounded (see TrainingEnergyScenario), so this entry approximates the
    printed energy to 0.18%."""

    LamdaTrainingEnergy = TrainingEnergyScenario(
        accelerators=1024,
        power_per_accelerator=289 * ureg.W,
        duration=57.7 * ureg.day,
        pue=1.10,
    )
    """Pre-training of the largest LaMDA model (LaMDA paper, section 10)."""

    Gpt3TrainingCarbon = OperationalCarbonScenario(
        energy=1287 * ureg.MWh,
        carbon_intensity=0.429 * ureg.kgCO2e / ureg.kWh,
    )
    """GPT-3's 1,287 MWh at the US-average 0.429 kg CO2e/kWh (Patterson et al.,
    Table 4)."""

    LamdaTrainingCarbon = OperationalCarbonScenario(
        energy=LamdaTrainingEnergy.facility_energy,
        carbon_intensity=0.056 * ureg.kgCO2e / ureg.kWh,
    )
    """LaMDA's pre-training energy, computed above, at the 0.056 kg CO2e/kWh of
    its datacenter's energy mix (LaMDA paper, section 10)."""

    Palm540BTraining = ModelFlopsUtilizationScenario(
        parameters=540e9,
        layers=118,
        attention_heads=48,
        head_dim=256,
        sequence_length=2048,
        tokens_per_second=238.3e3 * ureg.token / ureg.s,
        chips=6144,
        peak_throughput=275 * ureg.TFLOP / ureg.s,
    )
    """PaLM 540B training on 6144 TPU v4 chips (PaLM paper, Appendix B)."""

    Gpt3ModelFlopsUtilization = ModelFlopsUtilizationScenario(
        parameters=175e9,
        layers=96,
        attention_heads=96,
        head_dim=128,
        sequence_length=2048,
        tokens_per_second=10_000 * 24.6e12 / (6 * 175e9) * ureg.token / ureg.s,
        chips=10_000,
        peak_throughput=125 * ureg.TFLOP / ureg.s,
    )
    """GPT-3 175B (96 layers, 96 heads of 128, 2048-token context; GPT-3
    paper, Table 2.1) on 10,000 V100s of 125 TFLOP/s peak (Patterson et al.,
    Table 4), at the 24.6 TFLOP/s a GPU that PaLM section 4.1 calls
    "non-attention model TFLOP/s": the tokens per second are that rate over 6
    FLOP a parameter. Its MFU without attention is 24.6/125 = 19.7%, with
    PaLM's attention term 20.2%; both computed, not printed. PaLM prints
    21.3% from the same 24.6, which these inputs do not reproduce (see
    ModelFlopsUtilizationScenario's references)."""

    Megatron175BUtilization = HardwareFlopsUtilizationScenario(
        model_flops_utilization=0.514,
        sequence_length=2048,
        hidden_size=12288,
        layers=96,
        vocab_size=51200,
    )
    """GPT-3 175B in Megatron-LM's README table: 51.4% MFU on A100 80GB with
    selective recomputation, which the README reports as 52.8% HFU."""

    Megatron1TUtilization = HardwareFlopsUtilizationScenario(
        model_flops_utilization=0.563,
        sequence_length=2048,
        hidden_size=25600,
        layers=128,
        vocab_size=51200,
    )
    """The 1T-parameter model in Megatron-LM's README table: 56.3% MFU, reported
    as 57.0% HFU."""

    BloomTrainingCarbon = EmbodiedCarbonScenario(
        accelerator_hours=1_082_990 * ureg.hour,
        power_per_accelerator=400 * ureg.W,
        carbon_intensity=57 * ureg.gCO2e / ureg.kWh,
        embodied_per_accelerator=150 * ureg.kgCO2e + 2500 * ureg.kgCO2e / 8,
        lifetime=6 * ureg.year,
        utilization=0.85,
        idle_emissions=14.6 * ureg.tCO2e,
    )
    """BLOOM's final training run as Luccioni et al. estimate it: 1,082,990 A100
    GPU hours (Table 1) at 400 W on the French grid (57 gCO2eq/kWh, Table 1),
    with 150 kg CO2eq per GPU and an eighth of 2,500 kg per 8-GPU server
    embodied, amortised over six years at 85% use (section 4.1), and the 14.6
    tonnes of idle consumption of Table 3, as printed. The dynamic 24.7
    tonnes, embodied 11.2 tonnes, 50.5-tonne total and 22.2% embodied share
    are computed from these inputs and reproduce the paper's figures."""

    LamdaPretrainingCompute = DeliveredComputeScenario(
        chips=1024,
        peak_throughput=123 * ureg.TFLOP / ureg.s,
        utilization=0.565,
        duration=57.7 * ureg.day,
    )
    """Pre-training of the largest LaMDA model on 1024 TPU v3 chips (LaMDA
    paper, section 10)."""

    # Issue 39, round two: the classics an ML-systems course teaches. Each
    # entry's docstring names where every input is printed, the figure it
    # reproduces, or says "computed, not printed".

    Megatron1TTrainingRun = MegatronTrainingRunScenario(
        layers=128,
        hidden_size=25600,
        vocab_size=51200,
        sequence_length=2048,
        batch_size=3072,
        gpus=3072,
        tokens=450e9,
        achieved_throughput=163 * ureg.TFLOP / ureg.s,
        peak_throughput=312 * ureg.TFLOP / ureg.s,
        checkpoint_size=13.8 * ureg.TB,
        checkpoint_write_bandwidth=273 * ureg.GB / ureg.s,
        checkpoint_read_bandwidth=1 * ureg.TB / ureg.s,
    )
    """Megatron-LM's trillion-parameter GPT (Narayanan et al. 2021). Inputs:
    Table 1's last row (160 heads, hidden size 25600, 128 layers, 3072 GPUs,
    batch size 3072, 163 teraFLOP/s per GPU); section 5.1 (V = 51,200, s =
    2048, 450 billion tokens); section 5 (312 teraFLOP/s peak); section
    5.10 (a 13.8-terabyte checkpoint, read at 1TB/s, written at 273 GB/s,
    read as the rate reached). Reproduced: 1008.0 billion parameters and
    52% of peak (Table 1), 84 days (section 5.1). Table 1's 502.0
    petaFLOP/s aggregate is within the rounding of its 163 (500.7 from the
    printed figures). Computed, not printed: 85 days from Equation 3, 102.6
    s per iteration, 13.7 checkpoint bytes per parameter, a 50.5 s write
    and a 13.8 s read."""

    MegatronGpt3TrainingRun = MegatronTrainingRunScenario(
        layers=96,
        hidden_size=12288,
        vocab_size=51200,
        sequence_length=2048,
        batch_size=1536,
        gpus=1024,
        tokens=300e9,
        achieved_throughput=140 * ureg.TFLOP / ureg.s,
        peak_throughput=312 * ureg.TFLOP / ureg.s,
    )
    """Megatron-LM's GPT-3 example (Narayanan et al. 2021, section 5.1: 300
    billion tokens, 1024 GPUs, batch size 1536, 140 teraFLOP/s per GPU; the
    shape of section 5.3.2: 96 layers, hidden size 12288; V and s of
    section 5.1). Reproduced: 174.6 billion parameters (Table 2) and 34
    days (section 5.1). No checkpoint figures are given for it."""

    Megatron1TModelParallelTraffic = ModelParallelCommunicationScenario(
        micro_batch=1,
        sequence_length=2048,
        hidden_size=25600,
        tensor_parallel=8,
        layers_per_stage=128 // 64,
        bytes_per_element=2 * ureg.byte,
    )
    """The trillion-parameter model's communication per micro-batch, shaped
    as Korthikanti et al.'s Table 3 runs it (hidden size 25600, 128 layers
    over a pipeline of 64 stages, so 2 a stage, tensor-parallel size 8,
    micro-batch 1; s = 2048, section 6), with 16-bit activations
    (Narayanan et al., section 5: mixed precision). Reproduced: the
    scatter/gather chunk is "one-eighth" of the tensor (Narayanan et al.,
    section 4.1). Computed, not printed: 734 MB of tensor-parallel traffic
    per layer, 104.9 MB between stages, 13.1 MB with scatter/gather."""

    KorthikantiGpt3Activations = SequenceParallelActivationScenario(
        sequence_length=2048,
        micro_batch=1,
        hidden_size=12288,
        attention_heads=96,
        tensor_parallel=8,
        layers=96,
    )
    """GPT-3 175B as Korthikanti et al. evaluate it (Table 3: 96 heads,
    hidden size 12288, 96 layers, tensor-parallel size 8, micro-batch 1; s
    = 2048, section 6). Reproduced: both techniques bring the memory "to
    under 20%" of the tensor-parallel baseline (18.5%), "a 5x reduction"
    (5.4), full recomputation "at 10%" (8.7%, to the nearest ten percent;
    section 6.1). Computed, not printed: 578.8 MB per layer for the
    baseline, 10.27 GB on the first stage with both techniques."""

    KorthikantiOneTrillionActivations = SequenceParallelActivationScenario(
        sequence_length=2048,
        micro_batch=1,
        hidden_size=25600,
        attention_heads=160,
        tensor_parallel=8,
        layers=128,
    )
    """The 1T model of Korthikanti et al.'s Table 3 (160 heads, hidden size
    25600, 128 layers, tensor-parallel size 8, micro-batch 1; s = 2048).
    Reproduced: "a 5x reduction" (4.9). Not reproduced: "under 20%"; the
    equations give 20.2%, and Figure 7, which the text summarises and which
    includes the memory optimization of Appendix B, was not read."""

    DeepSeekV3ExpertAllToAll = MoeAllToAllScenario(
        tokens_per_device=4096,
        hidden_size=7168,
        experts_per_token=8,
        expert_parallel=256,
        bytes_per_element=2 * ureg.byte,
        moe_layers=61 - 3,
    )
    """DeepSeek-V3's all-to-alls as Glenn Lockwood's "Expert parallelism"
    page works them out: the model's hidden dimension 7168, 8 of 256 routed
    experts per token and 58 MoE layers (61 layers less the first three;
    DeepSeek-V3 Technical Report, section 4.2), one 4,096-token sequence
    and one routed expert per GPU, bf16 (the page). Reproduced: 32,640
    token copies and 468 MB sent per GPU per layer, 54 GB per forward pass
    (the page). The 109 GB of a training step is the page's "another 54 GB"
    of backpropagation added."""

    KaplanGpt3Compute = KaplanComputeScenario(
        layers=96,
        d_model=12288,
        d_attn=96 * 128,
        d_ff=4 * 12288,
        context=2048,
        vocab_size=50257,
    )
    """GPT-3 175B (Brown et al., Table 2.1: 96 layers, d_model 12,288, 96
    heads of 128, n_ctx 2048; section 2.1: d_ff = 4 d_model) with GPT-2's
    vocabulary of 50,257 (Radford et al. 2019, section 2.3), counted with
    Kaplan et al.'s Table 1. Reproduced: 174,600 million parameters
    (Brown et al., Table D.1). Computed, not printed: the context term is
    1.4% of 2N."""

    KaplanGpt3SmallCompute = KaplanComputeScenario(
        layers=12,
        d_model=768,
        d_attn=12 * 64,
        d_ff=4 * 768,
        context=2048,
        vocab_size=50257,
    )
    """GPT-3 Small (Brown et al., Table 2.1: 12 layers, d_model 768, 12 heads
    of 64, n_ctx 2048; d_ff = 4 d_model) with the same vocabulary.
    Reproduced: 125M parameters (Table 2.1). Computed, not printed: the
    context term is 22% of 2N, though d_model is well above n_ctx/12."""

    ZeroTable2Mp1On64Gpus = ZeroLargestModelScenario(
        device_memory=32 * ureg.GB,
        gpus=64,
        model_parallel=1,
        weight_bytes=2 * ureg.byte,
        gradient_bytes=2 * ureg.byte,
        optimizer_bytes=12 * ureg.byte,
    )
    """The first row of ZeRO's Table 2 (MP 1, 64 GPUs) on 32GB V100s (Table
    1's caption) with mixed-precision Adam (section 3.1: 2 + 2 + 12 bytes).
    Reproduced: 2B, 7.6B, 14.4B and 128B."""

    ZeroTable2Mp16On1024Gpus = ZeroLargestModelScenario(
        device_memory=32 * ureg.GB,
        gpus=1024,
        model_parallel=16,
        weight_bytes=2 * ureg.byte,
        gradient_bytes=2 * ureg.byte,
        optimizer_bytes=12 * ureg.byte,
    )
    """The last row of ZeRO's Table 2 (MP 16, 1024 GPUs), inputs as above.
    Reproduced: 32B and "2T" (2.05T). Not reproduced: 121.6B and 230.4B,
    which the table gets by multiplying its first row's rounded 7.6B and
    14.4B by 16; the bound computed anew is 122.3B and 230.8B."""

    Zero1TOn1024Devices = ZeroShardingScenario(
        parameters=1e12,
        weight_bytes=2 * ureg.byte,
        gradient_bytes=2 * ureg.byte,
        optimizer_bytes=12 * ureg.byte,
        devices=1024,
    )
    """The 1T model of ZeRO's Table 1 at a DP degree of 1024 (section 3.1's
    16 bytes per parameter). Reproduced: 16000 GB replicated, 15.6 GB with
    P_os+g+p (in bold: it fits a 32GB V100), and 4011 and 2013 GB with P_os
    and P_os+g, which the table prints with the fraction cut off (4011.7
    and 2013.7)."""

    Zero128BOn64Devices = ZeroShardingScenario(
        parameters=128e9,
        weight_bytes=2 * ureg.byte,
        gradient_bytes=2 * ureg.byte,
        optimizer_bytes=12 * ureg.byte,
        devices=64,
    )
    """The 128B model of ZeRO's Table 1 at a DP degree of 64. Reproduced:
    2048 GB replicated, 536 GB with P_os, 284 GB with P_os+g and 32 GB with
    P_os+g+p (in bold: it just fits a 32GB V100)."""

    TpuV5eRidge = AcceleratorRidgeScenario(
        peak_compute=197 * ureg.TFLOP / ureg.s,
        memory_bandwidth=819 * ureg.GB / ureg.s,
        bytes_per_param=2 * ureg.byte,
    )
    """TPU v5e from Google Cloud's "TPU v5e" page (197 TFLOPs bf16 per chip;
    16 GB of HBM2 at 819 GBps), bfloat16 weights. Reproduced, to the
    nearest ten: "about 240 FLOPs/byte" and a critical batch of 240 tokens
    ("How to Scale Your Model", "All About Rooflines", from 8.2e11 bytes/s;
    819 GBps gives 240.5)."""

    TpuV5eInt8WeightsRidge = AcceleratorRidgeScenario(
        peak_compute=197 * ureg.TFLOP / ureg.s,
        memory_bandwidth=819 * ureg.GB / ureg.s,
        bytes_per_param=1 * ureg.byte,
    )
    """The same chip reading int8 weights for bfloat16 operations.
    Reproduced, to the nearest ten: compute-bound above a batch of 120
    ("All About Rooflines", worked problem on int8 weights)."""

    H100SxmRidge = AcceleratorRidgeScenario(
        peak_compute=1979 / 2 * ureg.TFLOP / ureg.s,
        memory_bandwidth=3.35 * ureg.TB / ureg.s,
        bytes_per_param=2 * ureg.byte,
    )
    """H100 SXM at the datasheet's BF16 Tensor Core rate (1,979 teraFLOPS
    with sparsity, halved to 989.5 dense) and 3.35 TB/s, as "All About
    Rooflines" quotes the datasheet. Computed, not printed: 295 FLOP/B; the
    book prints 298 after rounding the dense rate to 1e15."""

    A100Sxm80GbRidge = AcceleratorRidgeScenario(
        peak_compute=312 * ureg.TFLOP / ureg.s,
        memory_bandwidth=2039 * ureg.GB / ureg.s,
        bytes_per_param=2 * ureg.byte,
    )
    """A100 80GB SXM from its datasheet (312 TFLOPS BF16 dense, 2,039 GB/s).
    Computed, not printed: 153 FLOP/B."""

    P100Hbm2Bandwidth = MemoryBandwidthScenario(
        data_rate=2 * 703 * ureg.MHz,
        bus_width=4096 * ureg.bit,
    )
    """P100: 4096-bit HBM2 at 703 MHz DDR, two transfers a clock (A100
    whitepaper, comparison table). Reproduced: 720 GB/sec."""

    V100Hbm2Bandwidth = MemoryBandwidthScenario(
        data_rate=2 * 877.5 * ureg.MHz,
        bus_width=4096 * ureg.bit,
    )
    """V100: 4096-bit HBM2 at 877.5 MHz DDR (A100 whitepaper, comparison
    table). Reproduced: 900 GB/sec (898.6, to the nearest ten)."""

    A100Hbm2Bandwidth = MemoryBandwidthScenario(
        data_rate=2 * 1215 * ureg.MHz,
        bus_width=5120 * ureg.bit,
    )
    """A100 40GB: 5120-bit HBM2 at 1215 MHz DDR (A100 whitepaper, comparison
    table). Reproduced: 1555 GB/sec."""

    PhoneLpddr5Bandwidth = MemoryBandwidthScenario(
        data_rate=6400e6 / ureg.s,
        bus_width=64 * ureg.bit,
    )
    """LPDDR5 at 6,400 MT/s (Samsung's July 2018 announcement; JEDEC's
    JESD209-5 release) on a 64-bit bus, the bus PhoneFullUpdateWorkingSet
    assumes. Reproduced: Samsung's 51.2 GB a second."""

    A100Sxm40GbRidge = AcceleratorRidgeScenario(
        peak_compute=312 * ureg.TFLOP / ureg.s,
        memory_bandwidth=A100Hbm2Bandwidth.bandwidth,
        bytes_per_param=2 * ureg.byte,
    )
    """A100 40GB at its datasheet's 312 TFLOPS BF16 dense, with the bandwidth
    derived from data rate and bus width above (1555.2 GB/s). Computed,
    not printed: 201 FLOP/B."""

    ChinchillaTable3Row400M = ComputeOptimalTableScenario(
        parameters=400e6,
        tokens=8.0e9,
        flops_per_param_token=6 * ureg.FLOP,
    )
    """Chinchilla's Table 3, 400 Million: 8.0 Billion tokens. Reproduced:
    1.92e+19 FLOPs."""

    ChinchillaTable3Row10B = ComputeOptimalTableScenario(
        parameters=10e9,
        tokens=205.1e9,
        flops_per_param_token=6 * ureg.FLOP,
    )
    """Chinchilla's Table 3, 10 Billion: 205.1 Billion tokens. Reproduced:
    1.23e+22 FLOPs."""

    ChinchillaTable3Row67B = ComputeOptimalTableScenario(
        parameters=67e9,
        tokens=1.5e12,
        flops_per_param_token=6 * ureg.FLOP,
    )
    """Chinchilla's Table 3, 67 Billion: 1.5 Trillion tokens. Not
    reproduced: 6ND is 6.03e+23 FLOPs against the printed 5.76e+23, exactly
    one Gopher budget; no token count the printed 1.5 Trillion rounds from
    closes the gap."""

    ChinchillaTable3Row175B = ComputeOptimalTableScenario(
        parameters=175e9,
        tokens=3.7e12,
        flops_per_param_token=6 * ureg.FLOP,
    )
    """Chinchilla's Table 3, 175 Billion: 3.7 Trillion tokens. The printed
    3.85e+24 FLOPs lies within the rounding of the tokens (6ND is 3.89e+24
    at 3.7T exactly; 3.85e+24 is 3.67T)."""

    ChinchillaTable3Row280B = ComputeOptimalTableScenario(
        parameters=280e9,
        tokens=5.9e12,
        flops_per_param_token=6 * ureg.FLOP,
    )
    """Chinchilla's Table 3, 280 Billion: 5.9 Trillion tokens. The printed
    9.90e+24 FLOPs lies within the rounding of the tokens (6ND is 9.91e+24
    at 5.9T exactly)."""

    ChinchillaTable3Row520B = ComputeOptimalTableScenario(
        parameters=520e9,
        tokens=11.0e12,
        flops_per_param_token=6 * ureg.FLOP,
    )
    """Chinchilla's Table 3, 520 Billion: 11.0 Trillion tokens. Reproduced:
    3.43e+25 FLOPs."""

    ChinchillaTable3Row1T = ComputeOptimalTableScenario(
        parameters=1e12,
        tokens=21.2e12,
        flops_per_param_token=6 * ureg.FLOP,
    )
    """Chinchilla's Table 3, 1 Trillion: 21.2 Trillion tokens. Reproduced:
    1.27e+26 FLOPs."""

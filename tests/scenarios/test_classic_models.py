"""The classic models of the field, checked against their sources.

One test per figure. A figure printed in the source is checked at the
source's own precision; a worked example, where the source prints only the
formula, is checked against that formula exactly, and the test says so.
"""

from __future__ import annotations

import dataclasses

import pytest

from refgen_scenarios import Scenarios, ureg
from refgen_scenarios.inference import ServingLatencyScenario
from refgen_scenarios.reliability import FleetFailureScenario


def magnitude(quantity, unit: str) -> float:
    """The magnitude of ``quantity`` in ``unit``."""
    return quantity.to(unit).magnitude


# Pipeline bubble: GPipe (Huang et al. 2019) and Narayanan et al. 2021


def test_pipeline_bubble_is_gpipes_fraction() -> None:
    # GPipe section 2.3's (K - 1)/(M + K - 1) at K = 4, M = 16: 3/19, exact
    # (the textbook's printed 15.8% is checked in test_published_figures).
    assert Scenarios.GpipeFourStagesSixteenMicroBatches.bubble_fraction == pytest.approx(
        3 / 19, rel=1e-12
    )


def test_pipeline_bubble_overhead_is_narayanans_fraction() -> None:
    # Narayanan et al.'s section 2.2.1 (p - 1)/m at p = 4, m = 16: 3/16,
    # exact; with one chunk per device (v = 1) section 2.2.2's (1/v)(p - 1)/m
    # is the same.
    pipe = Scenarios.GpipeFourStagesSixteenMicroBatches
    assert pipe.model_chunks == 1
    assert pipe.bubble_overhead == pytest.approx(3 / 16, rel=1e-12)
    assert pipe.interleaved_bubble_overhead == pytest.approx(3 / 16, rel=1e-12)
    # The two papers' forms describe one bubble: idle over total is
    # overhead / (1 + overhead).
    assert pipe.bubble_fraction == pytest.approx(
        pipe.bubble_overhead / (1 + pipe.bubble_overhead), rel=1e-12
    )


def test_interleaved_bubble_fraction_is_the_textbooks_form() -> None:
    # The textbook's (p - 1)/(p - 1 + m × V) is Narayanan et al.'s overhead
    # (1/v)(p - 1)/m as a share of the step: exact, for every entry.
    for pipe in (
        Scenarios.GpipeFourStagesSixteenMicroBatches,
        Scenarios.MegatronInterleavedEightStages,
        Scenarios.GpipeFigureFourDevicesFourMicroBatches,
    ):
        p, m, v = pipe.stages, pipe.micro_batches, pipe.model_chunks
        assert pipe.interleaved_bubble_fraction == pytest.approx((p - 1) / (p - 1 + m * v))


# Amdahl's law: Hennessy and Patterson, 5th edition


def test_amdahl_web_server_speedup_is_1_56() -> None:
    # Section 1.9: "1/0.64 ≈ 1.56", two decimals; 1/0.64 is exactly 1.5625.
    web = Scenarios.HennessyPattersonWebServer
    assert web.speedup == pytest.approx(1 / 0.64, rel=1e-12)
    assert round(web.speedup, 2) == 1.56


def test_amdahl_speedup_of_80_on_100_processors() -> None:
    # Section 5.1: a parallel fraction of 0.9975 for a speedup of 80 on 100
    # processors. The book rounds the fraction to four decimals; the speedup
    # it gives back is 80.16, 80 at the book's precision (whole number).
    strong = Scenarios.HennessyPatterson80On100Processors
    assert strong.speedup == pytest.approx(80, abs=0.5)
    assert strong.efficiency == pytest.approx(0.80, abs=0.005)


# α–β ring all-reduce: Thakur et al.'s cost model. The ZeRO entry's inputs are
# printed (ZeRO's gradients, the textbook's RoCE v2 row) but its time is not;
# the textbook's printed times are checked in test_published_figures.


def test_alpha_beta_allreduce_terms() -> None:
    # Exact arithmetic of 2(n - 1)α + 2(n - 1)/n × M/B for the stated inputs.
    big = Scenarios.Zero7p5BGradientAllReduceAlphaBeta
    assert magnitude(big.latency_term, "us") == pytest.approx(2 * 63 * 10, rel=1e-12)
    bandwidth_seconds = 2 * 63 / 64 * 15e9 / 12.5e9
    assert magnitude(big.bandwidth_term, "s") == pytest.approx(bandwidth_seconds, rel=1e-12)
    assert magnitude(big.time, "s") == pytest.approx(bandwidth_seconds + 1260e-6, rel=1e-12)
    # At the ring's crossover size its two terms are equal: n × α × B = 8 MB,
    # n times the point-to-point crossover α × B = 125 kB. Computed, not printed.
    assert magnitude(big.ring_crossover_bytes, "MB") == pytest.approx(8, rel=1e-12)
    assert magnitude(big.point_to_point_crossover, "kB") == pytest.approx(125, rel=1e-12)


def test_ring_crossover_is_where_its_two_terms_meet() -> None:
    # The ring's latency term 2(n - 1)α equals its bandwidth term
    # 2(n - 1)/n × M/B exactly when M = nαB; the textbook's n* = αB is the
    # point-to-point crossover, n times smaller. Exact, for every α-β entry.
    for ring in (
        Scenarios.Zero7p5BGradientAllReduceAlphaBeta,
        Scenarios.RingAllReduceOneGigabyteOn256Gpus,
        Scenarios.RingAllReduceTopKCompressedOn256Gpus,
    ):
        at_crossover = dataclasses.replace(ring, message_bytes=ring.ring_crossover_bytes)
        assert at_crossover.latency_share == pytest.approx(0.5, rel=1e-12)
        ring_bytes = magnitude(ring.ring_crossover_bytes, "B")
        point_bytes = magnitude(ring.point_to_point_crossover, "B")
        assert ring_bytes == pytest.approx(ring.devices * point_bytes, rel=1e-12)


def test_alpha_beta_small_messages_are_latency_bound() -> None:
    # The textbook's compressed gradient, 1 GB / 64 on 256 GPUs: 2 × 255 × 5 µs
    # of latency against 2 × 255/256 × 15.625 MB / 50 GB/s of transfer.
    small = Scenarios.RingAllReduceTopKCompressedOn256Gpus
    latency = 2 * 255 * 5e-6
    transfer = 2 * 255 / 256 * (1e9 / 64) / 50e9
    assert small.latency_share == pytest.approx(latency / (latency + transfer), rel=1e-12)


def test_bus_bandwidth_tends_to_the_link_bandwidth() -> None:
    # nccl-tests: busBw = algBw × 2(n - 1)/n, so that a large all-reduce on a
    # ring reports close to the link's own bandwidth (12.5 GB/s here).
    big = Scenarios.Zero7p5BGradientAllReduceAlphaBeta
    assert magnitude(big.bus_bandwidth, "GB/s") == pytest.approx(12.5, rel=1e-3)


# ZeRO communication volume (Rajbhandari et al. 2020, section 7)


def test_zero_stages_1_and_2_move_what_data_parallelism_moves() -> None:
    # Section 7.2: P_os and P_os+g move 2Ψ, the same as data parallelism.
    zero = Scenarios.Zero7p5BCommunication
    two_psi = 2 * 7.5e9 * 2  # bytes of 2Ψ FP16 elements
    for volume in (
        zero.data_parallel_volume,
        zero.optimizer_partitioned_volume,
        zero.gradients_partitioned_volume,
    ):
        assert magnitude(volume, "B") == pytest.approx(two_psi, rel=1e-12)


def test_zero_stage_3_moves_1_5_times_data_parallelism() -> None:
    # Section 7.2: P_os+g+p moves 3Ψ, "1.5x" the baseline, exact.
    zero = Scenarios.Zero7p5BCommunication
    assert magnitude(zero.fully_partitioned_volume, "B") == pytest.approx(3 * 7.5e9 * 2)
    assert zero.stage3_ratio == pytest.approx(1.5, rel=1e-12)


# Roofline of a matrix product: NVIDIA's GPU Performance Background guide
# ("Understanding Performance") and Matrix Multiplication Background guide
# ("Math and Memory Bounds")


def test_v100_ops_per_byte_ratio_is_138_9() -> None:
    # Matrix Multiplication Background guide: "V100's 138.9 FLOPS:B" (125
    # TFLOPS over 900 GB/s), one decimal.
    ridge = Scenarios.NvidiaLinearBatch512OnV100.ridge_point
    assert magnitude(ridge, "FLOP/B") == pytest.approx(138.9, abs=0.05)


def test_linear_layer_at_batch_512_is_315_flops_per_byte() -> None:
    # GPU Performance Background guide, table of example operations: "315
    # FLOPS/B", a whole number, usually "arithmetic"-limited (FP16, V100).
    layer = Scenarios.NvidiaLinearBatch512OnV100
    assert magnitude(layer.intensity, "FLOP/B") == pytest.approx(315, abs=0.5)
    assert layer.limited_by == "arithmetic"
    assert magnitude(layer.attainable, "TFLOP/s") == pytest.approx(125, rel=1e-12)


def test_linear_layer_at_batch_1_is_1_flop_per_byte() -> None:
    # The same table: "1 FLOPS/B", a whole number, usually "memory"-limited.
    layer = Scenarios.NvidiaLinearBatch1OnV100
    assert magnitude(layer.intensity, "FLOP/B") == pytest.approx(1, abs=0.5)
    assert layer.limited_by == "memory"
    attainable = magnitude(layer.intensity, "FLOP/B") * 900e9 / 1e12
    assert magnitude(layer.attainable, "TFLOP/s") == pytest.approx(attainable, rel=1e-12)


# KV-cache capacity: the vLLM paper, Figure 1 and section 3


def test_opt13b_weights_are_26_gb_and_65_percent_of_an_a100_40gb() -> None:
    # Figure 1, left: "Parameters (26GB, 65%)"; 13B × 2 bytes is exactly 26 GB,
    # 26/40 exactly 65%.
    opt = Scenarios.Opt13BOnA100_40GB
    assert magnitude(opt.weight_bytes, "GB") == pytest.approx(26, rel=1e-12)
    assert opt.weight_share == pytest.approx(0.65, rel=1e-12)
    # Figure 1 gives the KV cache ">30%"; what the weights leave is 35%, the
    # cache and the other data together (computed, not printed).
    assert magnitude(opt.free_memory, "GB") == pytest.approx(14, rel=1e-12)
    assert opt.free_share == pytest.approx(0.35, rel=1e-12)
    assert opt.free_share > 0.30


def test_opt13b_figure_1_case_counts_no_cache_tokens() -> None:
    # Figure 1 states no cache size, so the entry has none: the whole 14 GB
    # the weights leave is not the cache (vLLM's own server gives it 12 GB,
    # Table 1), and no token count divides it by the cache per token.
    opt = Scenarios.Opt13BOnA100_40GB
    assert opt.kv_memory is None
    with pytest.raises(AttributeError):
        opt.max_tokens  # noqa: B018


def test_vllm_server_keeps_7_full_length_sequences() -> None:
    # The class's arithmetic, not a printed figure: Table 1's 15,728 slots
    # hold 7 whole sequences of OPT's 2048 tokens.
    assert Scenarios.VllmOpt13BCacheSlots.max_sequences == 15_728 // 2048 == 7


# TTFT and TPOT: Databricks


def test_databricks_time_per_output_token_is_14_ms() -> None:
    # "14 ms per output token" for a 16-bit 7B model at 50% MBU of 2 TB/s;
    # exact arithmetic, 14 GB at 1 TB/s.
    tpot = Scenarios.Databricks7BServingLatency.time_per_output_token
    assert magnitude(tpot, "ms") == pytest.approx(14, rel=1e-12)


def test_databricks_entry_has_no_prompt_or_output_lengths() -> None:
    # The example prints neither, nor a peak compute: no TTFT, no latency.
    databricks = Scenarios.Databricks7BServingLatency
    assert databricks.prompt_tokens is None
    assert databricks.output_tokens is None
    assert databricks.peak_compute is None


# TTFT: "How to Scale Your Model", section 8, "What about prefill?"


def test_scaling_book_llama3_70b_prefill_takes_0_91_s() -> None:
    # 2 * 70e9 * 8192 / (16 * 1.97e14 * 0.4) = 0.91s, printed to two
    # decimals (the book's later "910ms per prefill step" is the same
    # figure). The inputs are the printed ones.
    prefill = Scenarios.ScalingBookLlama70BPrefill
    assert prefill.parameters == 70e9
    assert prefill.prompt_tokens == 8192
    assert prefill.compute_utilization == 0.4
    assert magnitude(prefill.peak_compute, "FLOP/s") == pytest.approx(16 * 1.97e14, rel=1e-12)
    assert magnitude(prefill.time_to_first_token, "s") == pytest.approx(0.91, abs=0.005)


def test_prefill_is_compute_bound_and_decode_bandwidth_bound() -> None:
    # The class's formulas, not a registry entry or a printed figure (no
    # source read prints a TTFT from these inputs): 2 × 7e9 × 512 FLOP at
    # 312 TFLOP/s, and 14 GB at 2,039 GB/s per token; latency = TTFT + 256 ×
    # TPOT, exact.
    a100 = ServingLatencyScenario(
        parameters=7e9,
        bytes_per_param=2 * ureg.byte,
        prompt_tokens=512,
        output_tokens=256,
        memory_bandwidth=2039 * ureg.GB / ureg.s,
        peak_compute=312 * ureg.TFLOP / ureg.s,
    )
    ttft = 2 * 7e9 * 512 / 312e12
    tpot = 14e9 / 2039e9
    assert magnitude(a100.time_to_first_token, "s") == pytest.approx(ttft, rel=1e-12)
    assert magnitude(a100.time_per_output_token, "s") == pytest.approx(tpot, rel=1e-12)
    assert magnitude(a100.request_latency, "s") == pytest.approx(ttft + 256 * tpot, rel=1e-12)


# Little's law: the Informix (HCL OneDB) performance guide, "Disk utilization"


def test_informix_disk_utilization_is_0_36() -> None:
    # "U = (A * 1.2) * X = (.03 * 1.2) * 10 = .36": 10 transfers a second,
    # each holding the disk for 30 ms plus 20 percent, two decimals as
    # printed; the product is exactly 0.36. It is the mean number of
    # transfers in service: Little's law with the 36 ms service time as W.
    disk = Scenarios.InformixDiskUtilization
    assert magnitude(disk.service_time, "ms") == pytest.approx(36, rel=1e-12)
    assert disk.utilization == pytest.approx(0.36, rel=1e-12)
    assert round(disk.utilization, 2) == 0.36


def test_informix_transaction_takes_0_72_s_and_1_13_s() -> None:
    # "P = 20 (.03 * 1.2) = 20 * .036 = .72" and "S = P/(1-U) = .72 / (1 -
    # .36) = .72 / .64 = 1.13": two decimals as printed (.72/.64 is 1.125,
    # which the guide rounds up to 1.13).
    disk = Scenarios.InformixDiskUtilization
    assert magnitude(disk.transaction_processing_time, "s") == pytest.approx(0.72, abs=0.005)
    assert magnitude(disk.transaction_time, "s") == pytest.approx(0.72 / 0.64, rel=1e-12)
    assert magnitude(disk.transaction_time, "s") == pytest.approx(1.13, abs=0.005)


def test_informix_disk_holds_0_56_transfers_in_the_system() -> None:
    # Computed, not printed: the guide's own S = P/(1 - U) for one transfer
    # is 36 ms / 0.64 = 56.25 ms, and Little's law with that time counts
    # 10/s × 56.25 ms = 0.5625 transfers at the disk, in service or queued,
    # more than the 0.36 in service. That is the M/M/1 number in the system,
    # U/(1 - U), exactly.
    disk = Scenarios.InformixDiskUtilization
    assert magnitude(disk.residence_time, "ms") == pytest.approx(56.25, rel=1e-12)
    assert disk.mean_in_system == pytest.approx(0.5625, rel=1e-12)
    u = disk.utilization
    assert disk.mean_in_system == pytest.approx(u / (1 - u), rel=1e-12)
    assert disk.mean_in_system > disk.utilization


# Independent node failures: the class's scaling at Llama 3's rate


def test_fleet_failures_scale_with_the_node_count() -> None:
    # The class's formula, not a registry entry or a printed figure: the
    # Llama 3 node rate (419 interruptions over 2,048 nodes and 54 days) on
    # 16,384 nodes, eight times as many, fails eight times as often. Exact.
    small = Scenarios.FleetJob16kGpus
    big = FleetFailureScenario(
        gpus=8 * small.gpus,
        gpus_per_node=small.gpus_per_node,
        node_failure_rate=small.node_failure_rate,
    )
    assert big.node_failure_rate == small.node_failure_rate
    assert big.nodes == 8 * small.nodes
    assert magnitude(big.failure_rate, "1/day") == pytest.approx(8 * 419 / 54, rel=1e-12)
    assert magnitude(big.mtbf, "hour") == pytest.approx(54 * 24 / (8 * 419), rel=1e-12)


# MFU and HFU: Megatron-LM's README table, Korthikanti et al.'s accounting


def test_megatron_175b_hfu_is_52_8_percent() -> None:
    # README at tag core_v0.7.0, "Training Speed and Scalability" table (and
    # Korthikanti et al.'s Table 5): 51.4% MFU and "52.8%" HFU,
    # one decimal of a percentage.
    assert Scenarios.Megatron175BUtilization.hfu_selective == pytest.approx(0.528, abs=0.0005)


def test_megatron_1t_hfu_is_57_0_percent() -> None:
    # README at tag core_v0.7.0, "Training Speed and Scalability" table (and
    # Korthikanti et al.'s Table 5): 56.3% MFU and "57.0%" HFU,
    # one decimal of a percentage.
    assert Scenarios.Megatron1TUtilization.hfu_selective == pytest.approx(0.570, abs=0.0005)


def test_selective_recomputation_follows_korthikanti_appendix_a() -> None:
    # Korthikanti et al., Appendix A: Equation 8's hardware FLOPs
    # 72BLsh²(1 + s/3h + v/12hL) over Equation 7's model FLOPs
    # 72BLsh²(1 + s/6h + v/12hL), exactly the factor the class uses.
    gpt = Scenarios.Megatron175BUtilization
    s, h, layers, v = 2048, 12288, 96, 51200
    hardware = 1 + s / (3 * h) + v / (12 * h * layers)
    model = 1 + s / (6 * h) + v / (12 * h * layers)
    assert gpt.hfu_selective / gpt.model_flops_utilization == pytest.approx(
        hardware / model, rel=1e-12
    )


def test_full_recomputation_lengthens_the_iteration() -> None:
    # Narayanan et al.'s 96Bslh²(1 + s/6h + V/16lh) hardware FLOPs with full
    # recomputation, over Korthikanti et al.'s 72Bslh²(1 + s/3h + V/12hl)
    # with selective recomputation: the iteration grows by that ratio at the
    # measured run's hardware FLOP rate, and the MFU falls by it. The class's
    # model, exact; no source prints a full-recomputation MFU for these runs.
    gpt = Scenarios.Megatron175BUtilization
    s, h, layers, v = 2048, 12288, 96, 51200
    full = 96 * (1 + s / (6 * h) + v / (16 * layers * h))
    selective = 72 * (1 + s / (3 * h) + v / (12 * h * layers))
    assert gpt.full_recompute_slowdown == pytest.approx(full / selective, rel=1e-12)
    assert gpt.full_recompute_mfu == pytest.approx(0.514 * selective / full, rel=1e-12)
    # The hardware does the same share of its peak either way: the HFU of
    # the longer iteration is the measured one.
    full_hfu = gpt.full_recompute_mfu * gpt.full_flops_factor / gpt.model_flops_factor
    assert full_hfu == pytest.approx(gpt.hfu_selective, rel=1e-12)
    # No attribute claims an HFU for full recomputation at the measured
    # iteration time, which full recomputation cannot keep.
    assert not hasattr(gpt, "hfu_full")


# Embodied and operational carbon: Luccioni et al. on BLOOM


def test_bloom_dynamic_energy_is_433_196_kwh() -> None:
    # 1,082,990 GPU hours × 400 W = 433,196 kWh, exact.
    energy = Scenarios.BloomTrainingCarbon.dynamic_energy
    assert magnitude(energy, "kWh") == pytest.approx(433_196, rel=1e-12)


def test_bloom_operational_emissions_are_24_7_tonnes() -> None:
    # Abstract: "approximately 24.7 tonnes", one decimal.
    emissions = Scenarios.BloomTrainingCarbon.operational_emissions
    assert magnitude(emissions, "tCO2e") == pytest.approx(24.7, abs=0.05)


def test_bloom_embodied_emissions_are_11_2_tonnes() -> None:
    # "11.2 tonnes" of embodied emissions, one decimal.
    emissions = Scenarios.BloomTrainingCarbon.embodied_emissions
    assert magnitude(emissions, "tCO2e") == pytest.approx(11.2, abs=0.05)


def test_bloom_total_is_50_5_tonnes_with_idle_consumption() -> None:
    # Abstract: "50.5 tonnes" in all; Table 3: embodied 11.2 t (22.2%),
    # dynamic 24.69 t (48.9%), idle 14.6 t (28.9%). The idle 14.6 t is an
    # input as printed; the total and the shares are computed from it, the
    # entry's embodied and dynamic emissions, one decimal as printed.
    bloom = Scenarios.BloomTrainingCarbon
    assert magnitude(bloom.idle_emissions, "tCO2e") == 14.6
    assert magnitude(bloom.total_emissions, "tCO2e") == pytest.approx(50.5, abs=0.05)
    assert bloom.embodied_share == pytest.approx(0.222, abs=0.0005)
    total = bloom.total_emissions
    assert (bloom.operational_emissions / total).to("").magnitude == pytest.approx(
        0.489, abs=0.0005
    )
    assert (bloom.idle_emissions / total).to("").magnitude == pytest.approx(0.289, abs=0.0005)
    # Without the idle part the share would be 31%: the figure the entry gave
    # before it counted idle consumption, which the paper does not print.
    without_idle = bloom.embodied_emissions / (
        bloom.embodied_emissions + bloom.operational_emissions
    )
    assert without_idle.to("").magnitude == pytest.approx(0.312, abs=0.0005)

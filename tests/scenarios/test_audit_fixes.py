"""Issue 39's audit fixes that brought new classes: the two floors of the phone's
update step, and ZeRO's gradient all-reduce on the two-level cluster it ran on.

No source prints these entries' results: each test holds the inputs to the
figures their sources print, exactly, and the results to the classes'
formulas, exactly, and says so.
"""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from refgen_scenarios import Scenarios, registry, ureg


def magnitude(quantity, unit: str) -> float:
    """The magnitude of ``quantity`` in ``unit``."""
    return quantity.to(unit).magnitude


# The phone's update step: arithmetic against DRAM traffic


def test_phone_step_is_76_8_gflop_at_96_flop_per_byte() -> None:
    # Kaplan et al.'s 6 operations a parameter a token (section 1.3, C ≈
    # 6NBS) on the working-set entry's 10 M parameters and its nominal batch
    # of 10 sequences of 128 tokens; over that entry's 800 MB of traffic.
    # Computed, not printed; exact.
    step = Scenarios.PhoneFullUpdateStepAtNpuPeak
    phone = Scenarios.PhoneFullUpdateWorkingSet
    assert step.parameters == phone.parameters == 10e6
    assert step.tokens_per_step == 10 * 128
    assert step.step_traffic == phone.step_traffic
    assert magnitude(step.step_flops, "FLOP") == pytest.approx(6 * 10e6 * 1280, rel=1e-12)
    assert magnitude(step.arithmetic_intensity, "FLOP/B") == pytest.approx(96, rel=1e-12)
    # The traffic floor is the seed page's step_floor, unchanged.
    assert magnitude(step.traffic_floor, "ms") == pytest.approx(15.625, rel=1e-12)
    assert magnitude(phone.step_floor, "ms") == pytest.approx(15.625, rel=1e-12)
    assert phone.amplification == pytest.approx(9.0, rel=1e-12)


def test_phone_step_leaves_out_about_5_percent_of_attention() -> None:
    # The attention scores of the illustrative shape (4 layers, hidden size
    # 448, 128 tokens) add 12·L·s·h operations a token beside the 6N, as in
    # PaLM's Appendix B count: 4.6% more, the "about 5%" the class excludes.
    extra = 12 * 4 * 128 * 448 / (6 * 10e6)
    assert extra == pytest.approx(0.046, abs=0.0005)


def test_at_the_npu_peak_memory_traffic_binds() -> None:
    # 35e12 operations a second (the A17 Pro Neural Engine as the textbook's
    # hardware registry gives it, beside 51.2 GB/s): ridge 683.6 FLOP/B,
    # above the step's 96, so the 15.625 ms of traffic outlast the 2.19 ms of
    # arithmetic. Exact; computed, not printed.
    npu = Scenarios.PhoneFullUpdateStepAtNpuPeak
    assert magnitude(npu.peak_compute, "FLOP/s") == 35e12
    assert magnitude(npu.memory_bandwidth, "GB/s") == pytest.approx(51.2, rel=1e-12)
    assert magnitude(npu.ridge_point, "FLOP/B") == pytest.approx(35e12 / 51.2e9, rel=1e-12)
    assert magnitude(npu.compute_floor, "ms") == pytest.approx(7.68e10 / 35e12 * 1e3, rel=1e-12)
    assert npu.arithmetic_intensity < npu.ridge_point
    assert npu.limited_by == "memory"
    assert npu.step_floor == npu.traffic_floor


def test_at_the_measured_gpu_rate_arithmetic_binds() -> None:
    # 70 GFLOP/s, the top of the 40-70 GFLOPs Das et al. measured for
    # training kernels on Snapdragon 8 series GPUs (abstract): the step's
    # 7.68e10 operations take 1.097 s, 70 times the traffic floor. Exact;
    # computed, not printed.
    gpu = Scenarios.PhoneFullUpdateStepAtMeasuredGpuRate
    assert magnitude(gpu.peak_compute, "GFLOP/s") == 70
    assert magnitude(gpu.compute_floor, "s") == pytest.approx(7.68e10 / 70e9, rel=1e-12)
    assert gpu.limited_by == "arithmetic"
    assert gpu.step_floor == gpu.compute_floor
    assert (gpu.compute_floor / gpu.traffic_floor).to("").magnitude == pytest.approx(70.2, abs=0.05)
    # Any processor below 96 FLOP/B × 51.2 GB/s = 4.9 TFLOP/s is bound by
    # arithmetic on this step; the change of regime is exactly there.
    threshold = 96 * 51.2e9 * ureg.FLOP / ureg.s
    at_threshold = dataclasses.replace(gpu, peak_compute=threshold)
    assert magnitude(at_threshold.compute_floor, "ms") == pytest.approx(15.625, rel=1e-12)


# ZeRO's gradient all-reduce on DGX-2 nodes


def test_zero_cluster_inputs_are_section_10s() -> None:
    # Section 10.1: "400 V100 GPUs (25 DGX-2 nodes) with 800 Gbps internode
    # communication bandwidth"; section 10.2: "300GB/sec per link
    # (NVSwitch)". Figure 1's N_d = 64 is 4 of those nodes (the entry's
    # assumption). Exact.
    zero = Scenarios.Zero7p5BHierarchicalAllReduce
    assert zero.gpus_per_node == 400 // 25 == 16
    assert zero.devices == 64
    assert magnitude(zero.inter_node_bandwidth, "Gbit/s") == 800
    assert magnitude(zero.intra_node_bandwidth, "GB/s") == 300
    assert magnitude(zero.gradient_bytes, "GB") == pytest.approx(15, rel=1e-12)


def test_zero_hierarchical_allreduce_takes_0_32_s() -> None:
    # Computed, not printed: 2 × 15/16 × 15 GB at 300 GB/s inside the nodes
    # (93.75 ms) and 2 × 3/4 × 15 GB per node at 100 GB/s between them
    # (225 ms). Exact.
    zero = Scenarios.Zero7p5BHierarchicalAllReduce
    assert magnitude(zero.intra_node_time, "s") == pytest.approx(2 * 15 / 16 * 15 / 300)
    assert magnitude(zero.inter_node_time, "s") == pytest.approx(2 * 3 / 4 * 15 / 100)
    assert magnitude(zero.sync_time, "s") == pytest.approx(0.31875, rel=1e-12)
    # Read as both directions together, 300 GB/s would halve the intra-node
    # rate: 0.41 s, as the class's assumptions say.
    halved = dataclasses.replace(zero, intra_node_bandwidth=150 * ureg.GB / ureg.s)
    assert round(magnitude(halved.sync_time, "s"), 2) == 0.41


def test_flat_ring_on_one_edr_link_is_a_bound_no_source_prints() -> None:
    # The flat entry: every hop one 12.5 GB/s link, 2 × 63/64 × 15 GB in
    # 2.3625 s (exact), seven times the two-level estimate. Neither time is
    # printed by ZeRO; the flat one is a one-link bound and its docstring
    # says so.
    flat = Scenarios.Zero7p5BGradientAllReduce
    assert magnitude(flat.sync_time, "s") == pytest.approx(2 * 63 / 64 * 15 / 12.5, rel=1e-12)
    hierarchical = Scenarios.Zero7p5BHierarchicalAllReduce
    ratio = (flat.sync_time / hierarchical.sync_time).to("").magnitude
    assert ratio == pytest.approx(7.41, abs=0.005)
    source = inspect.getsource(registry)
    entry = source[source.index("    Zero7p5BGradientAllReduce = ") :]
    docstring = entry[: entry.index("    Zero7p5BHierarchicalAllReduce = ")]
    assert "one-link bound that no" in " ".join(docstring.split())


def test_a_single_node_has_no_inter_node_phase() -> None:
    # The class's formulas at k = 1: only the NVSwitch phases remain, the
    # ring of one node sends nothing between nodes. Exact.
    one_node = dataclasses.replace(Scenarios.Zero7p5BHierarchicalAllReduce, nodes=1)
    assert magnitude(one_node.inter_node_traffic, "GB") == 0
    assert one_node.sync_time == one_node.intra_node_time

"""The classic models of the field, checked against their sources.

One test per figure. A figure printed in the source is checked at the
source's own precision; a worked example, where the source prints only the
formula, is checked against that formula exactly, and the test says so.
"""

from __future__ import annotations

import pytest

from scenarios import Scenarios


def magnitude(quantity, unit: str) -> float:
    """The magnitude of ``quantity`` in ``unit``."""
    return quantity.to(unit).magnitude


# Pipeline bubble: GPipe (Huang et al. 2019) and Narayanan et al. 2021


def test_pipeline_bubble_is_gpipes_fraction() -> None:
    # Worked example of section 2.3's (K - 1)/(M + K - 1) at K = 4, M = 16:
    # 3/19, exact.
    assert Scenarios.GpipeFourStagesSixteenMicroBatches.bubble_fraction == pytest.approx(
        3 / 19, rel=1e-12
    )


def test_pipeline_bubble_overhead_is_narayanans_fraction() -> None:
    # Worked example of section 2.2.1's (p - 1)/m and 2.2.2's (1/v)(p - 1)/m:
    # 3/16 and 3/32, exact.
    pipe = Scenarios.GpipeFourStagesSixteenMicroBatches
    assert pipe.bubble_overhead == pytest.approx(3 / 16, rel=1e-12)
    assert pipe.interleaved_bubble_overhead == pytest.approx(3 / 32, rel=1e-12)
    # The two papers' forms describe one bubble: idle over total is
    # overhead / (1 + overhead).
    assert pipe.bubble_fraction == pytest.approx(
        pipe.bubble_overhead / (1 + pipe.bubble_overhead), rel=1e-12
    )


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


# α–β ring all-reduce: a worked example of Thakur et al.'s cost model


def test_alpha_beta_allreduce_terms() -> None:
    # Exact arithmetic of 2(n - 1)α + 2(n - 1)/n × M/B for the stated inputs.
    big = Scenarios.Zero7p5BGradientAllReduceAlphaBeta
    assert magnitude(big.latency_term, "us") == pytest.approx(2 * 63 * 5, rel=1e-12)
    bandwidth_seconds = 2 * 63 / 64 * 15e9 / 12.5e9
    assert magnitude(big.bandwidth_term, "s") == pytest.approx(bandwidth_seconds, rel=1e-12)
    assert magnitude(big.time, "s") == pytest.approx(bandwidth_seconds + 630e-6, rel=1e-12)
    # At the crossover size the two terms are equal: n × α × B = 4 MB.
    assert magnitude(big.crossover_bytes, "MB") == pytest.approx(4, rel=1e-12)


def test_alpha_beta_small_messages_are_latency_bound() -> None:
    small = Scenarios.OneMegabyteAllReduceOn64Devices
    assert small.latency_share == pytest.approx(0.630 / (0.630 + 0.1575), rel=1e-12)


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

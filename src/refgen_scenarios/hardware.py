"""Hardware scenarios

What a datasheet's figures imply: the memory bandwidth that a data rate on
a bus of given width delivers, and the ridge point of the roofline, the
arithmetic intensity an accelerator needs before its arithmetic, not its
memory, sets the pace.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from refgen_scenarios.units import Quantity, ureg
from refgen_scenarios.validation import (
    BYTES,
    COMPUTE_RATE,
    DATA_RATE,
    RATE,
    Rules,
    check_inputs,
    input_rules,
)


@dataclass(frozen=True, kw_only=True)
class MemoryBandwidthScenario:
    """Peak memory bandwidth from the data rate of each pin and the width of the bus.

    A memory interface moves bus_width bits at every transfer, and each pin
    makes data_rate transfers a second; a double-data-rate (DDR) interface
    transfers on both edges of its clock, so its data rate is twice the
    memory clock a datasheet quotes. The product is the peak bandwidth that
    datasheets print, which the other scenarios take as an input.

    Notes
    -----
    Equation: bandwidth = data_rate × bus_width.
    Assumptions: Every pin transfers at the full data rate all the time.
    Excludes: Refresh, bank conflicts, page misses and protocol overhead,
        which keep sustained bandwidth below the peak, and ECC bits that
        some interfaces carry outside the quoted width.

    References
    ----------
    - NVIDIA, "NVIDIA A100 Tensor Core GPU Architecture" whitepaper, 2020,
      the table comparing NVIDIA data-center GPUs (P100, V100, A100): memory
      interface 4096-bit HBM2, 4096-bit HBM2 and 5120-bit HBM2; memory data
      rate 703 MHz DDR, 877.5 MHz DDR and 1215 MHz DDR; memory bandwidth
      720 GB/sec, 900 GB/sec and 1555 GB/sec. Read in a text extraction of
      the whitepaper; the table's number in the PDF was not checked.
    - Samsung Electronics, press release announcing its 8Gb LPDDR5 DRAM,
      Samsung Newsroom, July 2018: a data rate of up to 6,400 Mb/s, 51.2 GB
      of data a second. The 64-bit bus is this library's phone entry's
      assumption (see UpdateWorkingSetScenario), not Samsung's.

    Examples
    --------
    >>> from refgen_scenarios import Scenarios
    >>> print(round(Scenarios.A100Hbm2Bandwidth.bandwidth))
    1555 GB/s
    >>> print(round(Scenarios.V100Hbm2Bandwidth.bandwidth, -1))
    900.0 GB/s
    >>> print(round(Scenarios.P100Hbm2Bandwidth.bandwidth))
    720 GB/s
    >>> print(round(Scenarios.PhoneLpddr5Bandwidth.bandwidth, 1))
    51.2 GB/s
    """

    rules: ClassVar[Rules] = input_rules(data_rate=RATE, bus_width=BYTES)

    data_rate: Quantity
    """Transfers per second on each pin: twice the memory clock for DDR."""
    bus_width: Quantity
    """Width of the memory interface in bits."""

    def __post_init__(self) -> None:
        check_inputs(self)

    @property
    def bytes_per_transfer(self) -> Quantity:
        """Bytes the whole bus moves in one transfer, in B."""
        return self.bus_width.to('B')

    @property
    def bandwidth(self) -> Quantity:
        """Peak memory bandwidth in GB/s: data_rate × bus_width."""
        return (self.data_rate * self.bus_width).to('GB/s')


@dataclass(frozen=True, kw_only=True)
class AcceleratorRidgeScenario:
    """An accelerator's ridge point, and the batch a weight matmul needs to reach it.

    An accelerator reaches its peak rate only on work that does at least
    ridge_point operations per byte it reads from memory: the peak dense
    rate over the memory bandwidth. A matrix product of a batch of tokens
    with a weight matrix does two operations per weight per token and reads
    each weight once, so its intensity is 2 × tokens / bytes_per_param, and
    it turns compute-bound at critical_batch tokens.

    Notes
    -----
    Equation: ridge_point = peak_compute / memory_bandwidth; critical_batch =
        ridge_point × bytes_per_param / 2 FLOP.
    Assumptions: Peak dense rates (a datasheet's rate "with sparsity" is
        halved); weight reads dominate the traffic of the product, which
        holds while the batch is much smaller than the matrix dimensions.
    Excludes: Caches and on-chip memory, activation traffic, and clocks that
        drop below the rated boost under load.

    References
    ----------
    - Williams, Waterman and Patterson, "Roofline: An Insightful Visual
      Performance Model for Multicore Architectures", CACM 52(4), 2009.
    - Google Cloud, "TPU v5e" documentation, table of key chip
      specifications: peak compute per chip (bf16) 197 TFLOPs, HBM2 capacity
      and bandwidth 16 GB, 819 GBps (one stored version of the page gives
      the bandwidth as 800 GiBps instead).
    - Austin et al., "How to Scale Your Model" (jax-ml/scaling-book),
      section "All About Rooflines": the TPU v5e does 1.97e14 FLOPs/s and
      loads 8.2e11 bytes/s, so its critical intensity is "about 240
      FLOPs/byte" and a bfloat16 matmul is compute-bound above a local batch
      of 240 tokens; with int8 weights and bfloat16 FLOPs, above 120. For
      the H100 it quotes the datasheet's bfloat16 "1.979e15 FLOPs/s with
      an asterisk noting 'with sparsity'", halves it to "close to 1e15",
      and with 3.35e12 bytes/s prints a critical batch of 298; with the
      halved datasheet figure itself, 989.5 TFLOP/s, the ridge is 295.
    - NVIDIA, H100 Tensor Core GPU datasheet, H100 SXM column: BF16 Tensor
      Core 1,979 teraFLOPS with sparsity, GPU memory bandwidth 3.35 TB/s
      (read as the scaling book quotes it; the datasheet itself was not
      read).
    - NVIDIA, A100 Tensor Core GPU datasheet: BF16 Tensor Core 312 TFLOPS
      (624 with sparsity), 2,039 GB/s for the A100 80GB SXM (the figures
      this library's Opt13BBatchDecodeOnA100 entry uses). The A100 40GB
      entry takes its bandwidth from MemoryBandwidthScenario instead.

    Examples
    --------
    >>> from refgen_scenarios import Scenarios
    >>> v5e = Scenarios.TpuV5eRidge
    >>> print(round(v5e.ridge_point, -1))
    240.0 FLOP/B
    >>> round(v5e.critical_batch, -1)
    240.0
    >>> round(Scenarios.TpuV5eInt8WeightsRidge.critical_batch, -1)
    120.0

    The H100 SXM at its dense BF16 rate; the scaling book's 298 comes from
    rounding that rate up to 1e15:

    >>> print(round(Scenarios.H100SxmRidge.ridge_point))
    295 FLOP/B
    >>> int(1e15 / 3.35e12)
    298
    >>> print(round(Scenarios.A100Sxm80GbRidge.ridge_point))
    153 FLOP/B
    """

    rules: ClassVar[Rules] = input_rules(
        peak_compute=COMPUTE_RATE, memory_bandwidth=DATA_RATE, bytes_per_param=BYTES
    )

    peak_compute: Quantity
    """Peak dense operation rate of the accelerator at the working precision."""
    memory_bandwidth: Quantity
    """Peak bandwidth of the accelerator's main (HBM) memory."""
    bytes_per_param: Quantity
    """Bytes of one weight as the matrix product reads it."""

    def __post_init__(self) -> None:
        check_inputs(self)

    @property
    def ridge_point(self) -> Quantity:
        """Operations per byte in FLOP/B at which the accelerator turns compute-bound."""
        return (self.peak_compute / self.memory_bandwidth).to('FLOP/B')

    @property
    def critical_batch(self) -> float:
        """Tokens a weight matmul needs to reach the ridge point (dimensionless)."""
        return (self.ridge_point * self.bytes_per_param / (2 * ureg.FLOP)).to('').magnitude

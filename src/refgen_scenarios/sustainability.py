"""Efficiency and sustainability scenarios

How much of the hardware's arithmetic a training run turns into model
progress, and what the run costs in electricity and in emissions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from refgen_scenarios.physics import (
    calc_amortized_embodied_emissions,
    calc_model_flops_per_token,
    calc_training_energy,
    calc_transformer_flops_factor,
)
from refgen_scenarios.units import Quantity, ureg
from refgen_scenarios.validation import (
    CARBON_INTENSITY,
    COMPUTE_RATE,
    DURATION,
    ENERGY,
    FRACTION,
    POWER,
    RATE,
    RATIO_AT_LEAST_ONE,
    Rule,
    Rules,
    check_inputs,
    input_rules,
)

EMISSIONS = Rule("an amount of emissions in CO2e", "[emissions]")
"""Rule for an amount of CO2-equivalent emissions, such as the embodied emissions of a device."""
EMISSIONS_OR_ZERO = Rule("an amount of emissions in CO2e", "[emissions]", minimum_allowed=True)
"""Rule for emissions that may be none at all, such as a run's idle consumption."""


@dataclass(frozen=True, kw_only=True)
class ModelFlopsUtilizationScenario:
    """Model FLOPs utilization: the share of peak arithmetic a training run spends on the model.

    Model FLOPs utilization (MFU) divides the operations the model needs per
    token, times the tokens processed per second, by the fleet's peak rate.
    Recomputed activations do not count, which makes MFU comparable across
    systems that recompute differently. The attention term adds the score and
    value products that no parameter accounts for.

    Notes
    -----
    Equation: mfu = flops_per_token × tokens_per_second / (chips ×
        peak_throughput), with flops_per_token = 6N + 12 × L × H × Q × T.
    Assumptions: The throughput is sustained; the peak is the matrix-unit
        peak at the training precision.
    Excludes: Recomputation, optimizer arithmetic and non-matmul operations.

    References
    ----------
    - refgen_scenarios.physics.calc_model_flops_per_token
    - Chowdhery et al., "PaLM: Scaling Language Modeling with Pathways", JMLR
      2023 (arXiv:2204.02311), Table 3 and Appendix B (PaLM 540B: 238.3K
      tokens/s on 6144 TPU v4 chips of 275 TFLOP/s peak; 46.2% MFU, 45.7%
      without the attention term), and section 4.1, "Training Efficiency"
      (GPT-3's MFU "is 21.3% based on 24.6 non-attention model TFLOP/s per
      GPU, reported by OpenAI via Patterson et al."; Table 3 lists GPT-3 on
      V100 at 21.3%). Section 4.1 was read in a stored copy of the paper's
      text, not in the paper's PDF.
    - Brown et al., "Language Models are Few-Shot Learners", NeurIPS 2020,
      Table 2.1 (GPT-3 175B: 96 layers, 96 heads of 128, context of 2048
      tokens), and Patterson et al., "Carbon Emissions and Large Neural
      Network Training", arXiv:2104.10350, 2021, Table 4 (GPT-3 on V100s at
      a measured 24.6 TFLOP/s each; V100 peak 125 TFLOP/s): the inputs of
      Gpt3ModelFlopsUtilization. From them this class gives 19.7% without
      the attention term and 20.2% with it, not PaLM's 21.3%: PaLM prints no
      other input, and 21.3% would need a peak of 118.7 TFLOP/s (or 26.6
      model TFLOP/s a GPU at 125), which no cited source gives. The
      difference is not explained.

    Examples
    --------
    >>> from refgen_scenarios import Scenarios
    >>> palm = Scenarios.Palm540BTraining
    >>> print(f"{palm.mfu:.1%}")
    46.2%
    >>> print(f"{palm.mfu_without_attention:.1%}")
    45.7%

    GPT-3 at the 24.6 non-attention TFLOP/s a V100 that PaLM's 21.3% is
    based on; the attention term adds half a point, not 1.6:

    >>> gpt3 = Scenarios.Gpt3ModelFlopsUtilization
    >>> print(f"{gpt3.mfu_without_attention:.1%} -> {gpt3.mfu:.1%}")
    19.7% -> 20.2%
    """

    rules: ClassVar[Rules] = input_rules(tokens_per_second=RATE, peak_throughput=COMPUTE_RATE)

    parameters: float
    """Number of model parameters, N."""
    layers: int
    """Transformer layers, L."""
    attention_heads: int
    """Attention heads per layer, H."""
    head_dim: int
    """Dimension of one attention head, Q."""
    sequence_length: int
    """Tokens per training sequence, T."""
    tokens_per_second: Quantity
    """Training throughput of the whole run, in tokens per second."""
    chips: int
    """Accelerators in the run."""
    peak_throughput: Quantity
    """Peak matrix-unit rate of one accelerator."""

    def __post_init__(self) -> None:
        check_inputs(self)

    @property
    def flops_per_token(self) -> Quantity:
        """Model operations per training token in TFLOP, attention included."""
        return calc_model_flops_per_token(
            self.parameters,
            self.layers,
            self.attention_heads,
            self.head_dim,
            self.sequence_length,
        ).to('TFLOP')

    @property
    def dense_flops_per_token(self) -> Quantity:
        """Model operations per token in TFLOP counting only the parameters, 6N."""
        return (6 * ureg.FLOP * self.parameters).to('TFLOP')

    @property
    def model_throughput(self) -> Quantity:
        """Model operations per second the run achieves, in PFLOP/s."""
        return (self.flops_per_token * self.tokens_per_second).to('PFLOP/s')

    @property
    def peak_fleet_throughput(self) -> Quantity:
        """Peak operation rate of all the accelerators together, in PFLOP/s."""
        return (self.chips * self.peak_throughput).to('PFLOP/s')

    @property
    def mfu(self) -> float:
        """Model FLOPs utilization with the attention term."""
        return (self.model_throughput / self.peak_fleet_throughput).to('').magnitude

    @property
    def mfu_without_attention(self) -> float:
        """Model FLOPs utilization counting 6N operations per token only."""
        return (
            (self.dense_flops_per_token * self.tokens_per_second / self.peak_fleet_throughput)
            .to('')
            .magnitude
        )


@dataclass(frozen=True, kw_only=True)
class DeliveredComputeScenario:
    """Operations a fleet delivers over a run at a measured utilization.

    The fleet's peak rate, times the fraction of it the run sustains, times
    the run's length gives the operations actually performed. It is the
    inverse of estimating a run's time from its operation count.

    Notes
    -----
    Equation: delivered_flops = chips × peak_throughput × utilization ×
        duration.
    Assumptions: The utilization holds over the whole duration.
    Excludes: Downtime and restarts not counted in the duration.

    References
    ----------
    - Thoppilan et al., "LaMDA: Language Models for Dialog Applications",
      arXiv:2201.08239, 2022, section 10 (1024 TPU v3 chips at 123 TFLOP/s,
      56.5% utilization, 57.7 days: 3.55E+23 FLOPs).

    Examples
    --------
    >>> from refgen_scenarios import Scenarios
    >>> lamda = Scenarios.LamdaPretrainingCompute
    >>> print(f"{lamda.delivered_flops:.3g~D}")
    3.55e+23 FLOP
    """

    rules: ClassVar[Rules] = input_rules(
        peak_throughput=COMPUTE_RATE, utilization=FRACTION, duration=DURATION
    )

    chips: int
    """Accelerators in the run."""
    peak_throughput: Quantity
    """Peak operation rate of one accelerator."""
    utilization: float
    """Fraction of the peak rate the run sustains."""
    duration: Quantity
    """Length of the run."""

    def __post_init__(self) -> None:
        check_inputs(self)

    @property
    def sustained_throughput(self) -> Quantity:
        """Operation rate the fleet sustains, in PFLOP/s."""
        return (self.chips * self.peak_throughput * self.utilization).to('PFLOP/s')

    @property
    def delivered_flops(self) -> Quantity:
        """Operations performed over the run, in FLOP."""
        return (self.sustained_throughput * self.duration).to('FLOP')


@dataclass(frozen=True, kw_only=True)
class TrainingEnergyScenario:
    """Electricity of a training run: accelerator energy scaled by datacenter overhead.

    The accelerators draw their measured average system power for the length
    of the run; the datacenter's power usage effectiveness (PUE) adds cooling
    and power distribution on top.

    Notes
    -----
    Equation: accelerator_energy = accelerators × power_per_accelerator ×
        duration; facility_energy = accelerator_energy × pue
        (calc_training_energy).
    Assumptions: Average power is steady; every accelerator is busy for the
        whole duration.
    Excludes: Development and failed runs, storage and networking outside the
        accelerator systems, and the energy embodied in the hardware.

    References
    ----------
    - refgen_scenarios.physics.calc_training_energy
    - Patterson et al., "Carbon Emissions and Large Neural Network Training",
      arXiv:2104.10350, 2021, Table 4 (GPT-3: 10,000 V100s at 330 W for 14.8
      days with a PUE of 1.10: 1,287 MWh). The table's inputs are rounded
      and its energy is not their product: 10,000 × 330 W × 14.8 days ×
      1.10 is 1,289.4 MWh, 0.18% above the printed 1,287 MWh, which
      corresponds, for instance, to 14.77 days at 330 W (within the rounding
      of 14.8). The GPT-3 entry is therefore an approximation of the printed
      energy, not a reproduction.
    - Thoppilan et al., "LaMDA: Language Models for Dialog Applications",
      arXiv:2201.08239, 2022, section 10 (1024 TPU v3 chips at 289 W for 57.7
      days with a PUE of 1.10: 451 MWh).

    Examples
    --------
    >>> from refgen_scenarios import Scenarios
    >>> print(round(Scenarios.Gpt3TrainingEnergy.facility_energy))
    1289 MWh
    >>> print(round(Scenarios.LamdaTrainingEnergy.facility_energy))
    451 MWh
    """

    rules: ClassVar[Rules] = input_rules(
        power_per_accelerator=POWER, duration=DURATION, pue=RATIO_AT_LEAST_ONE
    )

    accelerators: int
    """Accelerators in the run."""
    power_per_accelerator: Quantity
    """Measured average system power per accelerator (chip, memory, network, fans, host share)."""
    duration: Quantity
    """Wall-clock length of the run."""
    pue: float
    """Power usage effectiveness of the datacenter: facility power over IT power."""

    def __post_init__(self) -> None:
        check_inputs(self)

    @property
    def accelerator_energy(self) -> Quantity:
        """Energy the accelerator systems draw, in MWh."""
        return (self.accelerators * self.power_per_accelerator * self.duration).to('MWh')

    @property
    def facility_energy(self) -> Quantity:
        """Energy the datacenter draws for the run in MWh, from calc_training_energy."""
        return calc_training_energy(
            self.accelerators, self.power_per_accelerator, self.duration, self.pue
        ).to('MWh')

    @property
    def facility_power(self) -> Quantity:
        """Average power the run draws at the datacenter, in MW."""
        return (self.facility_energy / self.duration).to('MW')


@dataclass(frozen=True, kw_only=True)
class OperationalCarbonScenario:
    """Operational emissions of a run: its energy times the carbon intensity of the grid mix.

    The grid mix behind a datacenter emits some mass of CO2-equivalent per
    kilowatt-hour; the same run emits many times more on a coal-heavy grid
    than on a largely carbon-free one.

    Notes
    -----
    Equation: emissions = energy × carbon_intensity.
    Assumptions: One average carbon intensity for the whole run.
    Excludes: Embodied emissions of the hardware and buildings, and hourly
        variation of the grid mix.

    References
    ----------
    - Patterson et al., "Carbon Emissions and Large Neural Network Training",
      arXiv:2104.10350, 2021, Table 4 (GPT-3: 1,287 MWh at 0.429 kg CO2e/kWh,
      552.1 tCO2e) and section 2.5 (tCO2e = kWh × kg CO2e per kWh / 1000).
    - Thoppilan et al., "LaMDA: Language Models for Dialog Applications",
      arXiv:2201.08239, 2022, section 10 (451 MWh at 0.056 kg CO2e/kWh:
      about 25.2 tCO2e).

    Examples
    --------
    >>> from refgen_scenarios import Scenarios
    >>> print(round(Scenarios.Gpt3TrainingCarbon.emissions, 1))
    552.1 tCO2e
    >>> print(round(Scenarios.LamdaTrainingCarbon.emissions, 1))
    25.2 tCO2e
    """

    rules: ClassVar[Rules] = input_rules(energy=ENERGY, carbon_intensity=CARBON_INTENSITY)

    energy: Quantity
    """Electricity the run draws at the facility."""
    carbon_intensity: Quantity
    """CO2-equivalent emitted per unit of that electricity."""

    def __post_init__(self) -> None:
        check_inputs(self)

    @property
    def emissions(self) -> Quantity:
        """Operational emissions in tonnes of CO2-equivalent."""
        return (self.energy * self.carbon_intensity).to('tCO2e')


@dataclass(frozen=True, kw_only=True)
class HardwareFlopsUtilizationScenario:
    """Hardware FLOPs utilization next to model FLOPs utilization, with activation recomputation.

    Model FLOPs utilization (MFU) credits a run only with the operations the
    model needs; hardware FLOPs utilization (HFU) also counts the operations
    recomputation repeats, which the hardware does perform. Both divide by
    the same measured iteration time, so HFU is MFU times the ratio of
    hardware to model FLOPs. Selective recomputation repeats only the
    attention core, so the two stay close. Full recomputation repeats each
    layer's forward pass, about a third more hardware FLOPs, and so cannot
    keep the measured iteration time: at the hardware FLOP rate of the
    measured run its iteration is full_recompute_slowdown times longer, and
    its MFU falls to full_recompute_mfu. That MFU is this class's model,
    computed, not printed.

    Notes
    -----
    Equation: model FLOPs = 72Bslh²(1 + s/6h + V/12hl); with selective
        recomputation 72Bslh²(1 + s/3h + V/12hl); with full recomputation
        96Bslh²(1 + s/6h + V/16hl); hfu = mfu × hardware FLOPs / model FLOPs;
        full_recompute_slowdown = full / selective hardware FLOPs;
        full_recompute_mfu = mfu / full_recompute_slowdown.
    Assumptions: Only matrix multiplications are counted; the logit layer is
        not recomputed; MFU and HFU share the measured iteration time. For
        full recomputation, the hardware keeps the measured run's hardware
        FLOP rate (its HFU), so the iteration grows with the hardware FLOPs.
    Excludes: Softmax, normalisation and elementwise operations, the
        optimizer step, communication, and the larger micro-batches or
        smaller model parallelism that the memory full recomputation saves
        would allow.

    References
    ----------
    - refgen_scenarios.physics.calc_transformer_flops_factor
    - Korthikanti et al., "Reducing Activation Recomputation in Large
      Transformer Models", MLSys 2023 (arXiv:2205.05198; numbering of the
      arXiv text): section 6.3 defines model and hardware FLOPs utilization,
      Appendix A counts them (Equations 7 and 8), and Table 5 prints the same
      utilizations as the README for the 175B (51.4% and 52.8%) and 1T
      (56.3% and 57.0%) configurations.
    - NVIDIA, Megatron-LM repository, README.md at release tag core_v0.7.0
      (commit a645f89, 2024-05-30), section "Training Speed and
      Scalability", the table "Model Size | Model FLOPs Utilization |
      Hardware FLOPs Utilization" of runs on Selene nodes of 8 NVIDIA 80GB
      A100 GPUs, measured with a data-parallel size of one (175B: MFU 51.4%,
      HFU 52.8%; 1T: MFU 56.3%, HFU 57.0%). The table entered the README in
      commit 2e90a34 (2022-05-19), in its opening text; the heading came
      with commit 21ae815 (2024-03-04), and H100 results replaced the table
      in commit f2e5db4 (2024-07-15). Releases 23.04 and core_v0.5.0 print
      the same rows without the heading.
    - Narayanan et al., "Efficient Large-Scale Language Model Training on GPU
      Clusters Using Megatron-LM", SC 2021, Table 1 (175B: 96 layers, hidden
      size 12288; 1T: 128 layers, hidden size 25600) and section 5.1
      (vocabulary of 51,200; 96Bslh²(1 + s/6h + V/16lh) with full
      recomputation).

    Examples
    --------
    >>> from refgen_scenarios import Scenarios
    >>> gpt175 = Scenarios.Megatron175BUtilization
    >>> print(f"{gpt175.hfu_selective:.1%}")
    52.8%
    >>> trillion = Scenarios.Megatron1TUtilization
    >>> print(f"{trillion.hfu_selective:.1%}")
    57.0%

    With full recomputation at the same hardware FLOP rate, each iteration
    would take about 32% longer and the MFU would fall in proportion:

    >>> print(round(trillion.full_recompute_slowdown, 3))
    1.316
    >>> print(f"{trillion.full_recompute_mfu:.1%}")
    42.8%
    """

    rules: ClassVar[Rules] = input_rules(model_flops_utilization=FRACTION)

    model_flops_utilization: float
    """Measured MFU: model FLOPs per second over the peak rate."""
    sequence_length: int
    """Tokens per sequence, s."""
    hidden_size: int
    """Hidden dimension, h."""
    layers: int
    """Transformer layers, l."""
    vocab_size: int
    """Vocabulary size, V."""

    def __post_init__(self) -> None:
        check_inputs(self)

    @property
    def model_flops_factor(self) -> float:
        """Model FLOPs per iteration over 72Bslh², 1 + s/6h + V/12hl (dimensionless)."""
        return calc_transformer_flops_factor(
            self.sequence_length, self.hidden_size, self.layers, self.vocab_size, 'none'
        )

    @property
    def selective_flops_factor(self) -> float:
        """Hardware FLOPs over 72Bslh² with selective recomputation (dimensionless)."""
        return calc_transformer_flops_factor(
            self.sequence_length, self.hidden_size, self.layers, self.vocab_size, 'selective'
        )

    @property
    def full_flops_factor(self) -> float:
        """Hardware FLOPs over 72Bslh² with full recomputation (dimensionless)."""
        return calc_transformer_flops_factor(
            self.sequence_length, self.hidden_size, self.layers, self.vocab_size, 'full'
        )

    @property
    def hfu_selective(self) -> float:
        """Hardware FLOPs utilization with selective recomputation."""
        return self.model_flops_utilization * self.selective_flops_factor / self.model_flops_factor

    @property
    def full_recompute_slowdown(self) -> float:
        """Iteration time with full over selective recomputation at one hardware FLOP rate."""
        return self.full_flops_factor / self.selective_flops_factor

    @property
    def full_recompute_mfu(self) -> float:
        """MFU of the run redone with full recomputation in its longer iteration (not printed)."""
        return self.model_flops_utilization / self.full_recompute_slowdown


@dataclass(frozen=True, kw_only=True)
class EmbodiedCarbonScenario:
    """Embodied emissions of the hardware a training run uses, next to its operational emissions.

    Making servers and accelerators emits CO2-equivalent before any training
    starts. Spread over the hours of use in a device's life, a run that
    occupies accelerator_hours is charged its share of that. Its operational
    emissions are the energy its accelerators draw times the carbon
    intensity of the grid. The rest of the infrastructure draws power too
    while the run holds it, computing or not; idle_emissions carries that
    part as its source states it. The total is the three together, and on a
    low-carbon grid the embodied share becomes a large part of it.

    Notes
    -----
    Equation: dynamic_energy = accelerator_hours × power_per_accelerator;
        operational_emissions = dynamic_energy × carbon_intensity;
        embodied_emissions = embodied_per_accelerator × accelerator_hours /
        (lifetime × utilization); total_emissions = embodied_emissions +
        operational_emissions + idle_emissions; embodied_share =
        embodied_emissions / total_emissions.
    Assumptions: Embodied emissions are amortised linearly over the hours of
        use; the average power is steady; the idle consumption is an input,
        not modelled here (for BLOOM, Luccioni et al.'s own estimate).
    Excludes: Datacenter overhead (PUE) beyond what the idle estimate
        counts, networking and storage equipment, and end-of-life treatment.

    References
    ----------
    - refgen_scenarios.physics.calc_amortized_embodied_emissions
    - Luccioni, Viguier and Ligozat, "Estimating the Carbon Footprint of BLOOM,
      a 176B Parameter Language Model", JMLR 24(253), 2023
      (arXiv:2211.02001): abstract (24.7 tonnes CO2eq from dynamic power
      consumption, 50.5 tonnes in all); Table 1 (1,082,990 GPU hours, 433,196
      kWh, a grid of 57 gCO2eq/kWh); section 4.1, "Embodied Emissions" (about
      150 kg CO2eq per GPU and 2,500 kg per server, a 6-year replacement
      rate and 85% average usage, giving 7.57 tonnes for the servers and
      3.64 for the GPUs, 11.2 tonnes in all); section 4.2 (the dynamic
      energy counts each GPU hour at the A100's 400 W); Table 3, the
      breakdown of the 50.5 tonnes (embodied emissions 11.2 tonnes, 22.2%;
      dynamic consumption 24.69 tonnes, 48.9%; idle consumption 14.6
      tonnes, 28.9%). Table 1, section 4.1 and Table 3 were read in verbatim
      quotations of the paper, not in the paper itself; how the paper
      derives its idle consumption was not read, so the entry takes the
      14.6 tonnes as printed.

    Examples
    --------
    >>> from refgen_scenarios import Scenarios
    >>> bloom = Scenarios.BloomTrainingCarbon
    >>> print(round(bloom.dynamic_energy))
    433 MWh
    >>> print(round(bloom.operational_emissions, 1))
    24.7 tCO2e
    >>> print(round(bloom.embodied_emissions, 1))
    11.2 tCO2e

    With the idle consumption of Table 3, the total and the embodied share
    are the paper's:

    >>> print(round(bloom.total_emissions, 1))
    50.5 tCO2e
    >>> print(f"{bloom.embodied_share:.1%}")
    22.2%
    """

    rules: ClassVar[Rules] = input_rules(
        accelerator_hours=DURATION,
        power_per_accelerator=POWER,
        carbon_intensity=CARBON_INTENSITY,
        embodied_per_accelerator=EMISSIONS,
        lifetime=DURATION,
        utilization=FRACTION,
        idle_emissions=EMISSIONS_OR_ZERO,
    )

    accelerator_hours: Quantity
    """Accelerator-hours the run uses, e.g. GPU-hours."""
    power_per_accelerator: Quantity
    """Average power of one accelerator while the run uses it."""
    carbon_intensity: Quantity
    """CO2-equivalent emitted per unit of the electricity drawn."""
    embodied_per_accelerator: Quantity
    """Manufacturing emissions of one accelerator with its share of the server."""
    lifetime: Quantity
    """Service life of the hardware."""
    utilization: float
    """Fraction of its life the hardware is in use."""
    idle_emissions: Quantity
    """Emissions of the infrastructure's idle consumption during the run, as its source states."""

    def __post_init__(self) -> None:
        check_inputs(self)

    @property
    def dynamic_energy(self) -> Quantity:
        """Energy the accelerators draw for the run, in MWh."""
        return (self.accelerator_hours * self.power_per_accelerator).to('MWh')

    @property
    def operational_emissions(self) -> Quantity:
        """Emissions of generating that energy, in tCO2e."""
        return (self.dynamic_energy * self.carbon_intensity).to('tCO2e')

    @property
    def embodied_emissions(self) -> Quantity:
        """Manufacturing emissions in tCO2e the run is charged, amortised over the hours of use."""
        return calc_amortized_embodied_emissions(
            self.embodied_per_accelerator, self.accelerator_hours, self.lifetime, self.utilization
        ).to('tCO2e')

    @property
    def total_emissions(self) -> Quantity:
        """Embodied, operational and idle emissions together, in tCO2e."""
        return (self.embodied_emissions + self.operational_emissions + self.idle_emissions).to(
            'tCO2e'
        )

    @property
    def embodied_share(self) -> float:
        """Embodied emissions as a share of the total (dimensionless)."""
        return (self.embodied_emissions / self.total_emissions).to('').magnitude

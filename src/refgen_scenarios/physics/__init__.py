"""Physics helpers: the accounting rules that scenario classes delegate to.

One module per topic. Each helper states its equation, assumptions and
sources in its docstring, so a scenario that calls it points readers there
instead of repeating the rule. Every helper is importable from this package.
"""

from refgen_scenarios.physics.compute import (
    calc_amdahl_speedup,
    calc_compute_optimal_parameters,
    calc_compute_time,
    calc_decode_step_time,
    calc_matmul_intensity,
    calc_model_flops_per_token,
    calc_pipeline_bubble_fraction,
    calc_roofline_attainable,
    calc_training_flops,
    calc_transformer_flops_factor,
    calc_weight_matmul_intensity,
)
from refgen_scenarios.physics.energy import calc_amortized_embodied_emissions, calc_training_energy
from refgen_scenarios.physics.memory import (
    calc_bytes_per_parameter,
    calc_kv_cache_bytes_per_token,
    calc_selective_recomputation_saving,
    calc_transformer_activation_bytes,
    calc_update_step_traffic,
    calc_zero_bytes_per_device,
)
from refgen_scenarios.physics.network import (
    calc_ring_allreduce_alpha_beta_time,
    calc_ring_allreduce_time,
    calc_ring_allreduce_traffic,
)
from refgen_scenarios.physics.parallelism import (
    calc_expert_dispatch_tokens,
    calc_gpt_iteration_flops,
    calc_gpt_parameters,
    calc_layer_activation_bytes,
    calc_tensor_parallel_traffic,
    calc_zero_largest_model,
)
from refgen_scenarios.physics.reliability import (
    calc_checkpoint_overhead,
    calc_daly_interval,
    calc_fleet_failure_rate,
    calc_young_interval,
)

__all__ = [
    "calc_amdahl_speedup",
    "calc_amortized_embodied_emissions",
    "calc_bytes_per_parameter",
    "calc_checkpoint_overhead",
    "calc_compute_optimal_parameters",
    "calc_compute_time",
    "calc_daly_interval",
    "calc_decode_step_time",
    "calc_expert_dispatch_tokens",
    "calc_fleet_failure_rate",
    "calc_gpt_iteration_flops",
    "calc_gpt_parameters",
    "calc_kv_cache_bytes_per_token",
    "calc_layer_activation_bytes",
    "calc_matmul_intensity",
    "calc_model_flops_per_token",
    "calc_pipeline_bubble_fraction",
    "calc_ring_allreduce_alpha_beta_time",
    "calc_ring_allreduce_time",
    "calc_ring_allreduce_traffic",
    "calc_roofline_attainable",
    "calc_selective_recomputation_saving",
    "calc_tensor_parallel_traffic",
    "calc_training_energy",
    "calc_training_flops",
    "calc_transformer_activation_bytes",
    "calc_transformer_flops_factor",
    "calc_update_step_traffic",
    "calc_weight_matmul_intensity",
    "calc_young_interval",
    "calc_zero_bytes_per_device",
    "calc_zero_largest_model",
]

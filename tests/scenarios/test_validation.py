"""Input validation of scenario classes: what is rejected, and what the message says."""

from __future__ import annotations

import dataclasses
import math
import re
import typing
from dataclasses import dataclass
from typing import ClassVar

import pint
import pytest

from refgen_scenarios import Scenarios, ureg
from refgen_scenarios.sustainability import TrainingEnergyScenario
from refgen_scenarios.training import TrainingComputeScenario, UpdateWorkingSetScenario
from refgen_scenarios.units import Quantity
from refgen_scenarios.validation import BYTES, COUNT_OR_ZERO, Rules, check_inputs, input_rules

PHONE = Scenarios.PhoneFullUpdateWorkingSet


def rebuilt(scenario: object, **changes: object) -> object:
    """``scenario`` built again with some inputs changed (runs the checks again)."""
    return dataclasses.replace(scenario, **changes)


def test_quantity_of_the_wrong_dimension_names_class_field_and_value() -> None:
    with pytest.raises(TypeError) as error:
        rebuilt(PHONE, bandwidth=3 * ureg.meter)
    assert str(error.value) == (
        "UpdateWorkingSetScenario.bandwidth: expected a rate in bytes per time "
        "([information]/[time]), got 3 meter"
    )


def test_plain_number_where_a_quantity_is_expected() -> None:
    with pytest.raises(TypeError) as error:
        rebuilt(PHONE, bytes_per_param=4)
    assert str(error.value) == (
        "UpdateWorkingSetScenario.bytes_per_param: expected a size in bytes ([information]), got 4"
    )


def test_bytes_are_a_dimension_not_a_plain_number() -> None:
    # pint's stock registry makes a byte dimensionless; the shared registry does not.
    with pytest.raises(TypeError, match=r"bytes_per_param: expected a size in bytes"):
        rebuilt(PHONE, bytes_per_param=4 * ureg.dimensionless)
    assert (1 * ureg.GB / ureg.s).dimensionality == ureg.get_dimensionality("[information]/[time]")


def test_zero_count_is_rejected_with_its_bounds() -> None:
    with pytest.raises(ValueError) as error:
        rebuilt(Scenarios.Opt13BKvCache, layers=0)
    assert str(error.value) == "KvCacheScenario.layers: expected a whole number above 0, got 0"


def test_negative_count_is_rejected() -> None:
    with pytest.raises(ValueError, match=r"^KvCacheScenario\.kv_heads: .* got -8$"):
        rebuilt(Scenarios.Llama2_70BKvCache, kv_heads=-8)


def test_zero_parameters_are_rejected() -> None:
    with pytest.raises(ValueError) as error:
        rebuilt(PHONE, parameters=0)
    assert str(error.value) == (
        "UpdateWorkingSetScenario.parameters: expected a number above 0, got 0"
    )


def test_negative_quantity_is_rejected_with_its_unit() -> None:
    with pytest.raises(ValueError) as error:
        rebuilt(Scenarios.Databricks7BDecode, memory_bandwidth=-2 * ureg.TB / ureg.s)
    assert str(error.value) == (
        "DecodeBandwidthScenario.memory_bandwidth: expected a rate in bytes per time "
        "([information]/[time]) above 0, got -2.0 terabyte/second"
    )


def test_zero_is_allowed_where_the_rule_says_so() -> None:
    sgd = rebuilt(PHONE, optimizer_moments=0, activation_factor=0.0)
    assert sgd.optimizer_moments == 0
    with pytest.raises(ValueError, match=r"optimizer_moments: expected a whole number at least 0"):
        rebuilt(PHONE, optimizer_moments=-1)


def test_fraction_above_one_is_rejected() -> None:
    with pytest.raises(ValueError) as error:
        rebuilt(Scenarios.Gpt3TrainingCompute, utilization=1.5)
    assert str(error.value) == (
        "TrainingComputeScenario.utilization: expected a fraction above 0 and at most 1, got 1.5"
    )


def test_pue_below_one_is_rejected() -> None:
    with pytest.raises(ValueError) as error:
        rebuilt(Scenarios.Gpt3TrainingEnergy, pue=0.9)
    assert str(error.value) == "TrainingEnergyScenario.pue: expected a ratio at least 1, got 0.9"


def test_non_finite_numbers_are_rejected() -> None:
    with pytest.raises(ValueError, match=r"parameters: expected a number that is finite, got nan"):
        rebuilt(PHONE, parameters=math.nan)
    with pytest.raises(ValueError, match=r"bandwidth: .* that is finite, got inf gigabyte/second"):
        rebuilt(PHONE, bandwidth=math.inf * ureg.GB / ureg.s)


def test_float_where_a_whole_number_is_expected() -> None:
    with pytest.raises(TypeError) as error:
        rebuilt(Scenarios.Opt13BKvCache, layers=40.0)
    assert str(error.value) == "KvCacheScenario.layers: expected a whole number, got 40.0"


def test_bool_and_str_are_not_numbers() -> None:
    with pytest.raises(TypeError, match=re.escape("got True (bool)")):
        rebuilt(Scenarios.Opt13BKvCache, layers=True)
    message = "parameters: expected a number, got '10e6' (str)"
    with pytest.raises(TypeError, match=re.escape(message)):
        rebuilt(PHONE, parameters="10e6")


def test_quantity_where_a_plain_number_is_expected() -> None:
    with pytest.raises(TypeError, match=re.escape("pue: expected a ratio, got 1.1 dimensionless")):
        rebuilt(Scenarios.Gpt3TrainingEnergy, pue=1.1 * ureg.dimensionless)


def test_quantity_from_another_registry_is_rejected() -> None:
    other = pint.UnitRegistry()
    with pytest.raises(TypeError, match=r"bandwidth: .* from another unit registry"):
        rebuilt(PHONE, bandwidth=51.2 * other.GB / other.s)


def test_none_only_where_the_annotation_is_optional() -> None:
    assert rebuilt(PHONE, bandwidth=None).bandwidth is None
    with pytest.raises(TypeError) as error:
        rebuilt(PHONE, bytes_per_param=None)
    assert str(error.value) == (
        "UpdateWorkingSetScenario.bytes_per_param: expected a size in bytes ([information]), "
        "got None"
    )


def test_checks_run_when_a_scenario_is_built_directly() -> None:
    with pytest.raises(TypeError, match=r"^TrainingEnergyScenario\.duration: expected a duration"):
        TrainingEnergyScenario(
            accelerators=8, power_per_accelerator=700 * ureg.W, duration=3 * ureg.kWh, pue=1.2
        )
    with pytest.raises(TypeError, match=r"^TrainingComputeScenario\.flops_per_param_token"):
        TrainingComputeScenario(
            parameters=1e9,
            tokens=2e10,
            flops_per_param_token=6,
            devices=8,
            peak_throughput=1 * ureg.PFLOP / ureg.s,
            utilization=0.4,
        )


def test_update_working_set_keeps_its_inputs_and_annotations() -> None:
    names = [f.name for f in dataclasses.fields(UpdateWorkingSetScenario)]
    assert names == [
        "parameters",
        "bytes_per_param",
        "optimizer_moments",
        "activation_factor",
        "activation_factor_high",
        "bandwidth",
        "master_copies",
        "optimizer_width",
    ]
    assert UpdateWorkingSetScenario.__annotations__["bandwidth"] == "Optional[Quantity]"


def registry_entries() -> list[tuple[str, object]]:
    return [(name, value) for name, value in vars(Scenarios).items() if not name.startswith("_")]


def wrong_values(scenario: object) -> list[tuple[str, object, type[Exception]]]:
    """For each input of ``scenario``: a value its checks must refuse, and the error."""
    hints = typing.get_type_hints(type(scenario))
    cases = []
    for field in dataclasses.fields(scenario):
        hint = hints[field.name]
        if Quantity in typing.get_args(hint) or hint is Quantity:
            cases.append((field.name, 3 * ureg.meter, TypeError))
        elif hint is int or int in typing.get_args(hint):  # int or Optional[int]
            cases.append((field.name, -1, ValueError))
        else:
            cases.append((field.name, -1.0, ValueError))
    return cases


@pytest.mark.parametrize(("entry", "scenario"), registry_entries())
def test_every_input_of_every_class_is_checked(entry: str, scenario: object) -> None:
    for name, value, error in wrong_values(scenario):
        where = f"{type(scenario).__name__}.{name}: "
        with pytest.raises(error, match=f"^{re.escape(where)}"):
            rebuilt(scenario, **{name: value})


def test_a_rule_for_an_unknown_input_is_a_mistake_in_the_class() -> None:
    @dataclass(frozen=True, kw_only=True)
    class Misspelt:
        rules: ClassVar[Rules] = input_rules(byte_per_param=BYTES)
        bytes_per_param: Quantity

        def __post_init__(self) -> None:
            check_inputs(self)

    with pytest.raises(TypeError, match=r"Misspelt\.rules names no input of the class: byte_per"):
        Misspelt(bytes_per_param=2 * ureg.B)


def test_a_quantity_input_needs_a_rule() -> None:
    @dataclass(frozen=True, kw_only=True)
    class Undeclared:
        rules: ClassVar[Rules] = input_rules(count=COUNT_OR_ZERO)
        count: int
        size: Quantity | None = None

        def __post_init__(self) -> None:
            check_inputs(self)

    with pytest.raises(TypeError, match=r"Undeclared\.size: a Quantity input needs a rule"):
        Undeclared(count=0)

"""One rule for every figure: its digits, its unit and the symbols readers see."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from refgen.evaluate.quantities import readable
from refgen.evaluate.values import THIN_SPACE, format_value, shown
from refgen_scenarios import ureg


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (2048, "2048"),
        (16384, f"16{THIN_SPACE}384"),
        (16384.0, f"16{THIN_SPACE}384"),
        (-131072, f"-131{THIN_SPACE}072"),
        (60000 * ureg.token, f"60{THIN_SPACE}000 token"),
        (1.5e9, "1.5×10⁹"),
        (0.25, "0.25"),
    ],
)
def test_digits_are_grouped_from_five_on(value: object, shown: str) -> None:
    assert format_value(value) == shown


@given(st.integers(min_value=-99_999, max_value=99_999))
def test_an_integer_and_the_equal_float_read_the_same(number: int) -> None:
    shown = format_value(number)
    assert shown == format_value(float(number)) == format_value(number * ureg.token)[:-6]
    assert shown.replace(THIN_SPACE, "") == str(number)


def test_an_authors_format_is_kept_as_given() -> None:
    assert format_value(16384, ",d") == "16,384"
    assert format_value(16384.0, ".1f") == "16384.0"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (60000 * ureg.MB, "60 GB"),
        (1.5e5 * ureg.MB, "150 GB"),
        (0.050332 * ureg.GB, "50.332 MB"),
        (0.3 * ureg.byte, "0.3 B"),  # no millibytes
        (2048 * ureg.KiB, "2 MiB"),  # binary stays binary
        (0.5 * ureg.GiB, "512 MiB"),
        (3 * ureg.GiB / ureg.s, "3 GiB/s"),
        (1e19 * ureg.FLOP, "10 EFLOP"),
        (3.14e23 * ureg.FLOP, "3.14×10²³ FLOP"),  # past exa: the plain unit
        (3.14e-15 * ureg.s, "3.14×10⁻¹⁵ s"),
        (1.5e12 * ureg.FLOP / ureg.token, "1.5 TFLOP/token"),
        (16384 * ureg.token, f"16{THIN_SPACE}384 token"),  # a count pint cannot prefix
        (0.22536 * ureg.hour, "13.522 min"),
        (7200 * ureg.s, "2 h"),
        (90 * ureg.s, "90 s"),  # already between 1 and 1000
        (3e-5 * ureg.s, "30 µs"),
        (15625 * ureg.ms, "15.625 s"),
        (1 * ureg.year, "1 yr"),
        (0.0065 / ureg.day, "0.0065 per day"),
        (5 * ureg.pfs_day, "5 petaflop/s-day"),
        (2 * ureg.W * ureg.h, "2 W·h"),  # the order the code wrote
    ],
)
def test_a_quantity_is_shown_in_the_unit_a_reader_would_write(value: object, expected: str) -> None:
    assert format_value(value) == expected


def test_an_exact_integer_changes_unit_only_when_every_digit_survives() -> None:
    assert format_value(60000 * ureg.MB) == "60 GB"
    assert format_value(123456789 * ureg.byte) == f"123{THIN_SPACE}456{THIN_SPACE}789 B"
    assert format_value(123456.0 * ureg.byte) == "123.46 kB"  # a float is rounded


def test_number_and_unit_are_kept_apart_with_the_figure_in_the_unit_shown() -> None:
    figure = shown(15625 * ureg.ms)
    assert (figure.number, figure.unit) == ("15.625", "s")
    assert (figure.magnitude, figure.units) == (15.625, "second")


def test_an_authors_format_applies_to_the_number_in_the_readable_unit() -> None:
    assert format_value(0.22536 * ureg.hour, ".1f") == "13.5 min"


units = st.sampled_from(["byte", "MB", "GB", "KiB", "GiB", "FLOP", "s", "ms", "hour", "token"])


@given(st.floats(min_value=1e-9, max_value=1e21, allow_nan=False), units, units)
def test_a_readable_quantity_is_the_same_quantity(magnitude: float, unit: str, per: str) -> None:
    quantity = ureg.Quantity(magnitude, unit) / ureg.Quantity(1, per)
    converted = readable(quantity)
    assert converted.to(quantity.units).magnitude == pytest.approx(quantity.magnitude, rel=1e-12)
    assert converted.dimensionality == quantity.dimensionality

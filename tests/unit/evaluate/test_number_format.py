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
    assert format_value(2048 * ureg.KiB) == "2 MiB"
    assert format_value(123456789 * ureg.byte) == f"123{THIN_SPACE}456{THIN_SPACE}789 B"
    assert format_value(1000 * ureg.s) == "1000 s"  # not 16.667 min
    assert format_value(1500 * ureg.KiB) == "1500 KiB"  # not 1.4648 MiB
    assert format_value(4000 * ureg.hour) == "4000 h"
    assert format_value(123456.0 * ureg.byte) == "123.46 kB"  # a float is rounded


def test_past_the_largest_prefix_a_figure_keeps_its_plain_unit_binary_too() -> None:
    assert format_value(2.0**70 * ureg.byte) == "1.1806×10²¹ B"
    assert format_value(8 * 1024.0**3 * ureg.EiB) == "9.9035×10²⁷ B"  # not 8 GiEiB


def test_negative_zero_is_zero() -> None:
    assert format_value(-0.0 * ureg.GB) == "0 GB"


def test_number_and_unit_are_kept_apart_with_the_figure_in_the_unit_shown() -> None:
    figure = shown(15625 * ureg.ms)
    assert (figure.number, figure.unit) == ("15.625", "s")
    assert (figure.magnitude, figure.units) == (15.625, "second")


def test_an_authors_format_formats_the_figure_in_the_codes_own_unit() -> None:
    assert format_value(0.22536 * ureg.hour, ".1f") == "0.2 h"
    assert format_value(1500 * ureg.KiB, ",d") == "1,500 KiB"  # integers keep d and ,


units = st.sampled_from(["byte", "MB", "GB", "KiB", "GiB", "FLOP", "s", "ms", "hour", "token"])


@given(st.floats(min_value=1e-9, max_value=1e21, allow_nan=False), units, units)
def test_a_readable_quantity_is_the_same_quantity(magnitude: float, unit: str, per: str) -> None:
    quantity = ureg.Quantity(magnitude, unit) / ureg.Quantity(1, per)
    converted = readable(quantity)
    assert converted.to(quantity.units).magnitude == pytest.approx(quantity.magnitude, rel=1e-12)
    assert converted.dimensionality == quantity.dimensionality


def test_a_terminal_table_never_cuts_a_grouped_number() -> None:
    """Thin spaces group digits; textwrap does not break there, so neither may the column."""
    from refgen.render import blocks as b
    from refgen.render.text import TextWriter

    figure = format_value(1125899906846720 * ureg.byte)
    rows = (((b.text("size"),), (b.text(figure),)),) * 3
    table = b.Table(((b.text("Attribute"),), (b.text("Value"),)), rows)
    lines = TextWriter(24).block(table, "", 1)
    number = figure.rpartition(" ")[0]
    assert sum(number in line for line in lines) == 3, lines


def test_a_registry_that_cannot_be_a_cache_key_still_gets_readable_units() -> None:
    import pint

    class Unhashable(pint.UnitRegistry):  # type: ignore[misc]
        __hash__ = None  # type: ignore[assignment]

    registry = Unhashable()
    assert format_value(registry.Quantity(60000, "MB")) == "60 GB"

"""One rule for the digits of every figure: ints, floats and quantities alike."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from refgen.evaluate.values import THIN_SPACE, format_value
from refgen_scenarios import ureg


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (2048, "2048"),
        (16384, f"16{THIN_SPACE}384"),
        (16384.0, f"16{THIN_SPACE}384"),
        (-131072, f"-131{THIN_SPACE}072"),
        (60000 * ureg.MB, f"60{THIN_SPACE}000 MB"),
        (1.5e9, "1.5×10⁹"),
        (0.25, "0.25"),
    ],
)
def test_digits_are_grouped_from_five_on(value: object, shown: str) -> None:
    assert format_value(value) == shown


@given(st.integers(min_value=-99_999, max_value=99_999))
def test_an_integer_and_the_equal_float_read_the_same(number: int) -> None:
    shown = format_value(number)
    assert shown == format_value(float(number)) == format_value(number * ureg.byte)[:-2]
    assert shown.replace(THIN_SPACE, "") == str(number)


def test_an_authors_format_is_kept_as_given() -> None:
    assert format_value(16384, ",d") == "16,384"
    assert format_value(16384.0, ".1f") == "16384.0"

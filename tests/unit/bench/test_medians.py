"""``bench/medians.py``: the median's confidence interval and the verdict of a target."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given
from hypothesis import strategies as st

BENCH = Path(__file__).parents[3] / "bench"


@pytest.fixture(scope="module")
def medians() -> Iterator[ModuleType]:
    sys.path.insert(0, str(BENCH))
    try:
        yield importlib.import_module("medians")
    finally:
        sys.path.remove(str(BENCH))


@pytest.mark.parametrize(
    ("rounds", "ranks"),
    [(6, (1, 6)), (12, (3, 10)), (20, (6, 15)), (30, (10, 21))],
)
def test_the_interval_runs_between_the_ranks_the_binomial_tables_give(
    medians: ModuleType, rounds: int, ranks: tuple[int, int]
) -> None:
    """Rank k from each end, for the largest k with 2 P(X <= k - 1) <= 5 %, X ~ B(n, 1/2)."""
    values = [float(value) for value in range(1, rounds + 1)]
    assert medians.median_interval(values[::-1]) == (float(ranks[0]), float(ranks[1]))


def test_too_few_rounds_give_the_whole_range(medians: ModuleType) -> None:
    assert medians.median_interval([1.4, 1.2, 1.9, 1.6, 1.3]) == (1.2, 1.9)


@given(st.lists(st.floats(0.5, 3.0), min_size=1, max_size=60))
def test_the_interval_holds_the_sample_median(medians: ModuleType, values: list[float]) -> None:
    low, high = medians.median_interval(values)
    ordered = sorted(values)
    middle = (ordered[(len(values) - 1) // 2] + ordered[len(values) // 2]) / 2
    assert low <= middle <= high


@pytest.mark.parametrize(
    ("low", "high", "expected"),
    [(1.2, 1.45, "met"), (1.2, 1.5, "met"), (1.3, 1.6, "not settled"), (1.51, 1.8, "NOT met")],
)
def test_the_verdict_asks_the_whole_interval(
    medians: ModuleType, low: float, high: float, expected: str
) -> None:
    assert medians.verdict(low, high, 1.5) == expected

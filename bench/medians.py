"""The median of a benchmark's rounds, and how sure one can be of it on a noisy machine.

On this machine one build's time drifts by a quarter from one minute to the
next (bench/RESULTS.md, stop 56), so a median of a few rounds can land on either
side of a target. The benchmarks give the median a confidence interval that
assumes nothing of the noise's distribution, and call a target met only when
the whole interval is within it.
"""

from __future__ import annotations

import math

CONFIDENCE = 0.95


def median_interval(values: list[float], confidence: float = CONFIDENCE) -> tuple[float, float]:
    """A distribution-free confidence interval for the median of what ``values`` sample.

    The number of values under the true median is binomial (n, 1/2). The interval
    runs from the k-th smallest value to the k-th largest, for the largest k whose
    two tails together are at most ``1 - confidence``. With fewer than six values no
    such k exists: the interval is then the whole range, which holds the median with
    less confidence than asked.
    """
    ordered = sorted(values)
    n = len(ordered)
    k = 0
    while k + 1 <= n // 2 and 2 * _binomial_tail(n, k + 1) <= 1 - confidence:
        k += 1
    if k == 0:
        return ordered[0], ordered[-1]
    return ordered[k - 1], ordered[n - k]


def _binomial_tail(n: int, k: int) -> float:
    """P(X <= k - 1) for X ~ binomial(n, 1/2): the chance the k-th smallest value is
    above the median."""
    outcomes: int = 2**n
    return sum(math.comb(n, i) for i in range(k)) / outcomes


def verdict(low: float, high: float, target: float) -> str:
    """ "met" when the whole interval is at or under ``target``, "NOT met" when it is all
    above, "not settled" when it holds the target."""
    if high <= target:
        return "met"
    if low > target:
        return "NOT met"
    return "not settled"

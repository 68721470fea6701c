"""Sensitivity: how much each derived figure of a registry entry moves when one input moves by 1 %.

For every numeric input ``x`` of an entry (a number or a quantity, not zero,
not a bool) the class is built again from the entry's inputs with ``x`` scaled
by :data:`STEP` (``1.01``), and every numeric derived figure ``y`` is computed
again. The elasticity of ``y`` to ``x`` is ``ln(y′/y) / ln(1.01)``: for a
+1 % change that is ``(Δy/y)/(Δx/x)`` to within half a percent of itself, and
it is exact for the power laws these models are made of, so a figure that is
inversely proportional to an input reads −1 and one proportional to its square
reads 2.

Scenario code runs here as everywhere in evaluation: through
:func:`~refgen.analysis.guard.call_user_code`, within the settings' time
limit. A class that refuses the scaled input (a count must be whole, a
fraction at most 1), a figure that raises, is zero or changes sign: each is a
cell that says "not available" and why, never an exception.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from numbers import Real
from typing import Any

from refgen.analysis.failures import describe_error
from refgen.analysis.guard import call_user_code
from refgen.analysis.model import RegistryEntryDoc, ScenarioDoc
from refgen.evaluate.quantities import is_quantity

STEP = 1.01
"""The factor each input is scaled by: a 1 % increase."""
NOT_AVAILABLE = "n/a"
STRONG = 0.5
"""Elasticities at least this large (either sign) are the ones that matter most."""
MINUS = "\u2212"


@dataclass(frozen=True)
class Elasticity:
    """One cell: the elasticity of a figure to an input, as a number and as text."""

    text: str
    value: float | None = None
    reason: str = ""
    """Why there is no number, when there is none."""

    @property
    def available(self) -> bool:
        return self.value is not None

    @property
    def strong(self) -> bool:
        return self.value is not None and abs(self.value) >= STRONG

    @property
    def none(self) -> bool:
        """The figure does not move at all."""
        return self.value == 0


@dataclass(frozen=True)
class Sensitivity:
    """The elasticities of one registry entry: one row per figure, one column per input."""

    entry: str
    qualname: str
    """Dotted path of the entry (``registry.Entry``)."""
    inputs: tuple[str, ...] = ()
    """The numeric inputs scaled, in declaration order: the columns."""
    figures: tuple[str, ...] = ()
    """The numeric derived figures, in declaration order: the rows."""
    cells: tuple[tuple[Elasticity, ...], ...] = ()
    """``cells[row][column]``: figure ``figures[row]`` against input ``inputs[column]``."""
    reason: str = ""
    """Why there is no table at all (the entry cannot be built again from its inputs)."""

    def cell(self, figure: str, input_name: str) -> Elasticity | None:
        if figure not in self.figures or input_name not in self.inputs:
            return None
        return self.cells[self.figures.index(figure)][self.inputs.index(input_name)]

    def column_reasons(self) -> tuple[tuple[str, str], ...]:
        """Inputs none of whose cells has a number, each with the reason its first cell gives."""
        found = []
        for column, name in enumerate(self.inputs):
            column_cells = [row[column] for row in self.cells]
            if column_cells and not any(cell.available for cell in column_cells):
                found.append((name, column_cells[0].reason))
        return tuple(found)


def is_number(value: Any) -> bool:
    """A real number or a quantity whose magnitude is one (bools and arrays are not)."""
    magnitude = value.magnitude if is_quantity(value) else value
    return isinstance(magnitude, Real) and not isinstance(magnitude, bool)


def elasticity_text(value: float) -> str:
    """``−1.00`` for −1: two decimals, a true minus sign, ``0`` for a figure that does not move."""
    if value == 0:
        return "0"
    shown = f"{value:.2f}"
    return shown.replace("-", MINUS) if shown.strip("-0.") else shown.lstrip("-")


def unavailable(reason: str) -> Elasticity:
    return Elasticity(NOT_AVAILABLE, None, reason)


def _ratio(before: Any, after: Any) -> float:
    """``after / before`` as a plain number (units cancel)."""
    quotient = after / before
    if is_quantity(quotient):
        quotient = quotient.to("dimensionless").magnitude
    return float(quotient)


def elasticity(before: Any, after: Any) -> Elasticity:
    """The elasticity of a figure that was ``before`` and became ``after`` for a +1 % input."""
    if not is_number(after):
        return unavailable("the figure is no longer a number")
    if not _nonzero(before):
        return unavailable("the figure is 0, so it has no relative change")
    ratio, error = call_user_code(_ratio, before, after)
    if error is not None:
        return unavailable(f"cannot compare the two figures: {describe_error(error)}")
    assert ratio is not None
    if not math.isfinite(ratio) or ratio <= 0:
        return unavailable("the figure changes sign")
    value = math.log(ratio) / math.log(STEP)
    if abs(value) < 1e-9:  # rounding noise of a figure that does not depend on the input
        value = 0.0
    return Elasticity(elasticity_text(value), value)


def _figure(instance: Any, name: str, timeout: float | None) -> tuple[Any, str]:
    """A derived figure of ``instance``, or ``(None, why not)``."""
    value, error = call_user_code(getattr, instance, name, timeout=timeout)
    if error is not None:
        return None, describe_error(error)
    return value, ""


def entry_sensitivity(
    scenario: ScenarioDoc,
    entry: RegistryEntryDoc,
    instance: Any,
    timeout: float | None = None,
) -> Sensitivity:
    """The elasticity of every numeric derived figure of ``instance`` to every numeric input."""
    qualname = f"{entry.registry}.{entry.name}"
    cls = type(instance)
    inputs: dict[str, Any] = {}
    for item in scenario.inputs:
        value, error = call_user_code(getattr, instance, item.name, timeout=timeout)
        if error is not None:
            reason = f"cannot read input {item.name}: {describe_error(error)}"
            return Sensitivity(entry.name, qualname, reason=reason)
        inputs[item.name] = value

    def build(**changed: Any) -> tuple[Any, str]:
        built, error = call_user_code(lambda: cls(**{**inputs, **changed}), timeout=timeout)
        return (built, "") if error is None else (None, describe_error(error))

    baseline, failure = build()
    if baseline is None:
        reason = f"{scenario.name} cannot be built again from this entry's inputs: {failure}"
        return Sensitivity(entry.name, qualname, reason=reason)
    before = {}
    for derived in scenario.derived:
        value, _why = _figure(baseline, derived.name, timeout)
        if value is not None and is_number(value):
            before[derived.name] = value
    scaled = tuple(name for name, value in inputs.items() if is_number(value) and _nonzero(value))
    columns = [_column(build, name, inputs[name], before, timeout) for name in scaled]
    rows = tuple(tuple(column[row] for column in columns) for row in range(len(before)))
    return Sensitivity(entry.name, qualname, scaled, tuple(before), rows)


def _nonzero(value: Any) -> bool:
    magnitude = value.magnitude if is_quantity(value) else value
    return bool(magnitude != 0)


def _column(
    build: Callable[..., tuple[Any, str]],
    name: str,
    value: Any,
    before: dict[str, Any],
    timeout: float | None,
) -> list[Elasticity]:
    """The elasticity of every figure in ``before`` to input ``name``."""
    changed, error = call_user_code(lambda: value * STEP, timeout=timeout)
    if error is not None:
        return [unavailable(f"cannot scale {name}: {describe_error(error)}")] * len(before)
    instance, failure = build(**{name: changed})
    if instance is None:
        refused = unavailable(f"the class refuses {name} 1 % larger: {failure}")
        return [refused] * len(before)
    cells = []
    for figure, old in before.items():
        new, why = _figure(instance, figure, timeout)
        cells.append(unavailable(why) if new is None else elasticity(old, new))
    return cells

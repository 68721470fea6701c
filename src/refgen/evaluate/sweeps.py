"""Parameter sweeps: a registry entry's figures computed again as one of its inputs varies.

A sweep starts from a registry entry, replaces one input by each of a series
of values given in the input's own unit, builds the scenario again from its
keyword inputs and computes the figures asked for. What comes back is data:

- a :class:`Sweep` with a ``problem`` and nothing else when the request cannot be
  met at all (an entry, input or figure that does not exist, values that cannot
  be read or are not in the input's unit);
- otherwise the varied input and each figure as a :class:`Series` of magnitudes
  in one unit per series, and a :class:`Gap` for each point the user's code
  could not compute (the scenario refused the value, or a figure raised). A gap
  is a hole in the plot and a reason, never an exception.

Like the rest of evaluation, this module knows nothing of Sphinx.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from numbers import Integral, Real
from typing import Any

from refgen.analysis.failures import describe_error
from refgen.analysis.guard import call_user_code
from refgen.analysis.model import ScenarioDoc
from refgen.evaluate.entries import FoundEntry
from refgen.evaluate.quantities import is_quantity, readable, units_text, with_unit
from refgen.evaluate.sweep_request import Axis, Refused, SweepRequest, check_names
from refgen.evaluate.values import (
    DEFAULT_PRECISION,
    NOT_AVAILABLE,
    grouped,
    pretty_number,
    unavailable,
)


@dataclass(frozen=True)
class Series:
    """One quantity along the sweep: the varied input, or a figure."""

    name: str
    target: str
    """Dotted path of the attribute (``module.Class.name``), for links."""
    unit: str
    """The unit every magnitude is in, in short symbols (``GB/s``); empty for plain numbers."""
    units: str
    """pint's long name of that unit (``gigabyte / second``)."""
    magnitudes: tuple[float | None, ...]
    """One per point, None where the point is a gap."""
    texts: tuple[str, ...]
    """Each magnitude as shown (``15.625``), ``not available`` for a gap."""


@dataclass(frozen=True)
class Gap:
    """A point, or one figure at a point, that could not be computed."""

    point: int
    """Index of the point in the sweep."""
    figure: str
    """The figure that failed; empty when the scenario could not be built at all."""
    reason: str


@dataclass(frozen=True)
class Sweep:
    """The figures of a registry entry along a varied input, or why there are none."""

    request: SweepRequest
    problem: str = ""
    """Why nothing could be swept; when set, the rest is empty."""
    entry: str = ""
    """Dotted path of the registry entry (``registry.Entry``)."""
    entry_name: str = ""
    scenario: str = ""
    """Dotted path of the entry's class."""
    input: Series | None = None
    figures: tuple[Series, ...] = ()
    gaps: tuple[Gap, ...] = field(default=())

    def gap_messages(self) -> tuple[str, ...]:
        """What each gap is and why, naming the point by the input's value."""
        if self.input is None:
            return ()
        messages = []
        for gap in self.gaps:
            at = f"{self.input.name} = {with_unit(self.input.texts[gap.point], self.input.unit)}"
            what = f"{gap.figure} at {at}" if gap.figure else f"the scenario at {at}"
            messages.append(f"{what} ({gap.reason})")
        return tuple(messages)


def sweep(
    found: FoundEntry | str,
    request: SweepRequest,
    precision: int = DEFAULT_PRECISION,
    timeout: float | None = None,
) -> Sweep:
    """The figures ``request`` asks for, computed at each of its points; ``found`` is the
    entry it starts from, or why there is none."""
    if isinstance(found, str):
        return Sweep(request, problem=found)
    try:
        return _sweep(found, request, precision, timeout)
    except Refused as refused:
        return Sweep(request, problem=str(refused))


def _sweep(
    found: FoundEntry, request: SweepRequest, precision: int, timeout: float | None
) -> Sweep:
    instance, scenario = found.instance, found.scenario
    entry = (found.entry.registry, found.entry.name)
    check_names(scenario, request)
    current, error = call_user_code(getattr, instance, request.vary, timeout=timeout)
    if error is not None:
        raise Refused(f"cannot read {request.vary} of {request.entry}: {describe_error(error)}")
    axis = Axis.of(current, request.vary)
    points = axis.points(request)
    inputs = _inputs(instance, scenario, timeout)
    built = [_built(type(instance), inputs, request.vary, axis.value(m), timeout) for m in points]
    gaps = [Gap(i, "", reason) for i, (_, reason) in enumerate(built) if reason]
    columns = []
    for name in request.plot:
        raws, figure_gaps = _computed(scenario, name, built, timeout)
        column, column_gaps = _column(name, raws)
        columns.append(column)
        gaps += figure_gaps + column_gaps
    shown = _shown_units(columns)
    figures = [
        _series(column, f"{scenario.qualname}.{column.name}", shown.get(column.name), precision)
        for column in columns
    ]
    x = Series(
        request.vary,
        f"{scenario.qualname}.{request.vary}",
        axis.unit,
        axis.units,
        tuple(points),
        tuple(_number(m, precision) for m in points),
    )
    return Sweep(
        request,
        entry=f"{entry[0]}.{entry[1]}",
        entry_name=entry[1],
        scenario=scenario.qualname,
        input=x,
        figures=tuple(figures),
        gaps=tuple(sorted(gaps, key=lambda g: (g.point, g.figure))),
    )


# ---------------------------------------------------------------------- the points


def _inputs(instance: Any, scenario: ScenarioDoc, timeout: float | None) -> dict[str, Any]:
    """The entry's inputs, read back from it, to build it again with one replaced."""
    inputs = {}
    for item in scenario.inputs:
        value, error = call_user_code(getattr, instance, item.name, timeout=timeout)
        if error is not None:
            raise Refused(
                f"cannot build {scenario.name} again: its input {item.name} cannot be read "
                f"back from the entry ({describe_error(error)})"
            )
        inputs[item.name] = value
    return inputs


def _built(
    cls: type, inputs: dict[str, Any], name: str, value: Any, timeout: float | None
) -> tuple[Any, str]:
    """``cls`` built with ``name`` set to ``value``, or None and why not."""
    built, error = call_user_code(lambda: cls(**{**inputs, name: value}), timeout=timeout)
    if error is not None:
        return None, f"cannot build {cls.__name__}: {describe_error(error)}"
    return built, ""


_SKIPPED = object()
"""A figure not computed at a point: the scenario could not be built there, or the
figure raised (the gap is noted where that is found)."""


def _computed(
    scenario: ScenarioDoc, name: str, built: Sequence[tuple[Any, str]], timeout: float | None
) -> tuple[list[Any], list[Gap]]:
    """The figure ``name`` at each point (:data:`_SKIPPED` where it is not), and where it raised."""
    raws: list[Any] = []
    gaps = []
    for index, (scenario_at, _) in enumerate(built):
        if scenario_at is None:
            raws.append(_SKIPPED)
            continue
        raw, failed = call_user_code(getattr, scenario_at, name, timeout=timeout)
        if failed is not None:
            gaps.append(Gap(index, name, unavailable(scenario, scenario_at, name, failed).reason))
        raws.append(_SKIPPED if failed is not None else raw)
    return raws, gaps


@dataclass(frozen=True)
class _Column:
    """A figure's points as magnitudes in the unit of its first quantity (``reference``)."""

    name: str
    reference: Any
    """The figure's first computed quantity; None for plain numbers."""
    magnitudes: tuple[float | None, ...]


def _column(name: str, raws: Sequence[Any]) -> tuple[_Column, list[Gap]]:
    """One figure along the sweep, every point in one unit; the points that cannot be."""
    gaps: list[Gap] = []
    computed = [(i, raw) for i, raw in enumerate(raws) if raw is not _SKIPPED]
    quantities = [raw for _, raw in computed if is_quantity(raw)]
    reference = quantities[0] if quantities else None
    magnitudes: list[float | None] = [None] * len(raws)
    for index, raw in computed:
        magnitude, reason = _magnitude(raw, reference)
        if reason:
            gaps.append(Gap(index, name, reason))
        magnitudes[index] = magnitude
    return _Column(name, reference, tuple(magnitudes)), gaps


def _shown_units(columns: Sequence[_Column]) -> dict[str, Any]:
    """The unit each quantity figure is shown in: the one a reader would write for the
    middle figure (the median size) of its dimension, so that figures of one dimension
    (two times, two sizes) share a unit and can be compared (and share a panel of the
    plot), and a sweep over decades reads in the unit of its middle."""
    groups: dict[tuple[int, Any], list[_Column]] = {}
    for column in columns:
        if column.reference is not None:
            key = (id(column.reference._REGISTRY), column.reference.dimensionality)
            groups.setdefault(key, []).append(column)
    shown = {}
    for members in groups.values():
        first = members[0].reference
        sizes = sorted(
            abs(_converted(m, member.reference, first.units))
            for member in members
            for m in member.magnitudes
            if m
        )
        middle = sizes[(len(sizes) - 1) // 2] if sizes else None
        unit = readable(first._REGISTRY.Quantity(middle, first.units)) if middle else first
        shown.update({member.name: unit for member in members})
    return shown


def _converted(magnitude: float, reference: Any, units: Any) -> Any:
    return reference._REGISTRY.Quantity(magnitude, reference.units).to(units).magnitude


def _series(column: _Column, target: str, shown: Any, precision: int) -> Series:
    """The figure in the unit it is shown in, each number as text."""
    magnitudes = column.magnitudes
    unit = units = ""
    if column.reference is not None and shown is not None:
        unit, units = units_text(shown), format(shown.units, "D")
        if shown.units != column.reference.units:
            magnitudes = tuple(
                _converted(m, column.reference, shown.units) if m is not None else None
                for m in magnitudes
            )
    texts = tuple(_number(m, precision) if m is not None else NOT_AVAILABLE for m in magnitudes)
    return Series(column.name, target, unit, units, magnitudes, texts)


def _magnitude(raw: Any, reference: Any) -> tuple[float | None, str]:
    """The figure as a number, in ``reference``'s unit when there is one; or why not."""
    if reference is not None:
        if not is_quantity(raw):
            return None, f"{raw!r} is not a quantity like the other points"
        converted, error = call_user_code(raw.to, reference.units)
        if error is not None or converted is None:
            return None, f"{raw} is not in the unit of the other points ({reference.units})"
        raw = converted.magnitude
    if isinstance(raw, bool) or not isinstance(raw, Real):
        return None, f"{raw!r} is not a number"
    if not math.isfinite(raw):
        return None, f"{raw!r} is not a finite number"
    return (int(raw) if isinstance(raw, Integral) else float(raw)), ""


def _number(magnitude: float, precision: int) -> str:
    if isinstance(magnitude, Integral):
        return grouped(str(magnitude))
    return pretty_number(grouped(format(magnitude, f".{precision}g")))

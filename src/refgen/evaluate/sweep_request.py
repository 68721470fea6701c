"""Sweep requests: what an author asked to sweep, checked, and its values read as points.

A :class:`SweepRequest` is the ``refgen-sweep`` directive's options as written.
:func:`check_names` refuses one that names no input or figure of the scenario,
and :class:`Axis` reads its values (numbers, or quantities in the input's own
unit) into the magnitudes of the sweep's points. Whatever cannot be met is
:class:`Refused`, with a message that says why; :func:`refgen.evaluate.sweeps.sweep`
turns it into the sweep's problem.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import asdict, dataclass
from numbers import Integral, Real
from typing import Any

from refgen.analysis.failures import describe_error
from refgen.analysis.guard import call_user_code
from refgen.analysis.model import ScenarioDoc
from refgen.evaluate.quantities import is_quantity, units_text

DEFAULT_STEPS = 11
"""Points of a ``from``/``to`` sweep that does not say how many."""
MOST_POINTS = 200
"""The most points one sweep may have: every point builds the scenario again."""


@dataclass(frozen=True)
class SweepRequest:
    """What to sweep, as the author wrote it: every part is checked before anything is computed."""

    entry: str
    """The registry entry the sweep starts from (``Entry`` or ``registry.path.Entry``)."""
    vary: str
    """The input that varies."""
    plot: tuple[str, ...]
    """The derived attributes computed at each point."""
    values: tuple[str, ...] = ()
    """The input's values, each a number or a quantity (``25 GB/s``)."""
    start: str = ""
    """Without ``values``: the first value (``from``) ..."""
    stop: str = ""
    """... the last (``to``) ..."""
    steps: str = ""
    """... and how many points, evenly spaced (:data:`DEFAULT_STEPS` when empty)."""
    log: bool = False
    """Space the points (and the plot's axis) logarithmically."""

    def key(self) -> str:
        """The request as one string, the same for the same request."""
        return json.dumps(asdict(self), sort_keys=True, ensure_ascii=False)

    @classmethod
    def from_key(cls, key: str) -> SweepRequest:
        fields = json.loads(key)
        return cls(**{**fields, "plot": tuple(fields["plot"]), "values": tuple(fields["values"])})


class Refused(Exception):
    """The request cannot be met; the message says why."""


def check_names(scenario: ScenarioDoc, request: SweepRequest) -> None:
    """:class:`Refused` unless ``request`` varies an input of ``scenario`` and plots
    derived attributes of it."""
    inputs = [i.name for i in scenario.inputs]
    derived = [d.name for d in scenario.derived]
    if not request.vary:
        raise Refused("name the input to vary")
    if request.vary not in inputs:
        raise Refused(
            f"{scenario.name} has no input {request.vary!r} (its inputs: {', '.join(inputs)})"
        )
    if not request.plot:
        raise Refused("name the figures to plot (derived attributes of the scenario)")
    for name in request.plot:
        if name not in derived:
            raise Refused(
                f"{scenario.name} has no derived attribute {name!r} "
                f"(its derived attributes: {', '.join(derived)})"
            )


@dataclass(frozen=True)
class Axis:
    """The varied input's kind: a quantity in a unit, a whole number or a number."""

    name: str
    quantity: Any = None
    """The entry's value when it is a pint quantity: its unit and registry are the sweep's."""
    whole: bool = False

    @classmethod
    def of(cls, current: Any, name: str) -> Axis:
        if is_quantity(current):
            if not isinstance(current.magnitude, Real):
                raise Refused(f"{name} is not a single number (its value: {current!r})")
            return cls(name, quantity=current)
        if isinstance(current, bool) or not isinstance(current, Real):
            kind = "nothing (None)" if current is None else type(current).__name__
            raise Refused(
                f"{name} is {kind} in this entry: only an input that is a number or a "
                "quantity can vary"
            )
        return cls(name, whole=isinstance(current, Integral))

    @property
    def unit(self) -> str:
        return units_text(self.quantity) if self.quantity is not None else ""

    @property
    def units(self) -> str:
        return format(self.quantity.units, "D") if self.quantity is not None else ""

    def value(self, magnitude: float) -> Any:
        """The input's value at ``magnitude``: in the entry's unit and registry."""
        if self.quantity is None:
            return magnitude
        return self.quantity._REGISTRY.Quantity(magnitude, self.quantity.units)

    def read(self, text: str, option: str) -> float:
        """A value as written, as a magnitude in the input's unit."""
        text = text.strip()
        if not text:
            raise Refused(f"{option}: a value is empty")
        if self.quantity is None:
            return self._number(text, option)
        registry = self.quantity._REGISTRY
        read, error = call_user_code(registry.Quantity, text)
        if error is not None or not is_quantity(read):
            reason = f": {describe_error(error)}" if error is not None else ""
            raise Refused(f"{option}: cannot read {text!r} as a quantity{reason}")
        parsed: Any = read
        if parsed.dimensionless and not self.quantity.dimensionless:
            parsed = registry.Quantity(parsed.magnitude, self.quantity.units)
        converted, error = call_user_code(parsed.to, self.quantity.units)
        if error is not None or converted is None:
            raise Refused(
                f"{option}: {text!r} is not in the unit of {self.name} ({self.unit}, {self.units})"
            )
        magnitude = converted.magnitude
        if not isinstance(magnitude, Real) or not math.isfinite(magnitude):
            raise Refused(f"{option}: {text!r} is not a finite number")
        if isinstance(magnitude, Integral):
            return int(magnitude)
        return float(f"{magnitude:.15g}")  # 1 TB/s is 1000 GB/s, not 1000.0000000000001

    def _number(self, text: str, option: str) -> float:
        try:
            number = int(text) if self.whole and re.fullmatch(r"[+-]?[\d_]+", text) else float(text)
        except ValueError:
            raise Refused(
                f"{option}: {self.name} is a plain number in this entry, and {text!r} is not one"
            ) from None
        if not math.isfinite(number):
            raise Refused(f"{option}: {text!r} is not a finite number")
        return number

    def points(self, request: SweepRequest) -> list[float]:
        if request.values and (request.start or request.stop or request.steps):
            raise Refused("give either values or from/to/steps, not both")
        if request.values:
            points = [self.read(text, "values") for text in request.values]
        elif request.start and request.stop:
            points = self._spaced(request)
        else:
            raise Refused("give the values to sweep: values, or from and to (and steps)")
        if len(points) < 2:
            raise Refused("a sweep needs at least two values")
        if len(points) > MOST_POINTS:
            raise Refused(f"a sweep has at most {MOST_POINTS} points, not {len(points)}")
        if request.log and any(p <= 0 for p in points):
            raise Refused("a logarithmic sweep needs values above zero")
        return points

    def _spaced(self, request: SweepRequest) -> list[float]:
        start, stop = self.read(request.start, "from"), self.read(request.stop, "to")
        steps_text = request.steps.strip() or str(DEFAULT_STEPS)
        if not steps_text.isdigit() or not 2 <= int(steps_text) <= MOST_POINTS:
            raise Refused(f"steps: give a whole number from 2 to {MOST_POINTS}, not {steps_text!r}")
        steps = int(steps_text)
        if request.log and (start <= 0 or stop <= 0):
            raise Refused("a logarithmic sweep needs values above zero")
        fractions = [i / (steps - 1) for i in range(steps)]
        if request.log:  # in log space: stop / start overflows from 1e-300 to 1e300
            low, high = math.log10(start), math.log10(stop)
            spaced = [10 ** (low * (1 - f) + high * f) for f in fractions]
        else:  # weighted, not start + (stop - start) * f: the difference may overflow
            spaced = [start * (1 - f) + stop * f for f in fractions]
        spaced[0], spaced[-1] = start, stop
        if self.whole:  # a count takes whole values: rounded, each once
            return list(dict.fromkeys(round(p) for p in spaced))
        return spaced

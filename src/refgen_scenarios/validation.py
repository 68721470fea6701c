"""Input checks for scenario classes.

A scenario checks its stated inputs when it is built, so a wrong unit or an
impossible count fails at the registry line that wrote it, with a message that
names the class, the input and the value, instead of surfacing later as a
strange number or a pint error deep inside an equation.

How a class opts in:

- each input keeps its plain annotation (``int``, ``float``, ``Quantity``,
  ``Optional[Quantity]``); the annotation decides the kind of value accepted;
- a ``rules`` class variable (``ClassVar[Rules]``, built with :func:`input_rules`)
  gives the :class:`Rule` of every ``Quantity`` input, which names its
  dimension, and of any number whose range is not the default;
- ``__post_init__`` calls :func:`check_inputs`.

Defaults for inputs without a rule: an ``int`` must be a whole number above 0,
a ``float`` a finite number above 0. ``None`` is accepted only where the
annotation is ``Optional``. A ``Quantity`` input without a rule is a mistake
in the class, reported as such.
"""

from __future__ import annotations

import dataclasses
import math
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType, NoneType, UnionType
from typing import Any

import pint

from refgen_scenarios.units import Quantity, ureg


@dataclass(frozen=True)
class Rule:
    """What one input must hold.

    ``dimension`` is a pint dimensionality such as ``"[information]/[time]"``
    for quantities, None for plain numbers. The value (the magnitude, for a
    quantity) must be finite, above ``minimum`` (or equal to it when
    ``minimum_allowed``) and, when ``maximum`` is set, at most ``maximum``.
    """

    description: str
    dimension: str | None = None
    minimum: float = 0.0
    minimum_allowed: bool = False
    maximum: float | None = None

    @property
    def expected(self) -> str:
        """The kind of value, e.g. ``a rate in bytes per time ([information]/[time])``."""
        if self.dimension is None:
            return self.description
        return f"{self.description} ({self.dimension})"

    @property
    def bounds(self) -> str:
        """The allowed range in words, e.g. ``above 0`` or ``above 0 and at most 1``."""
        lower = f"at least {self.minimum:g}" if self.minimum_allowed else f"above {self.minimum:g}"
        return lower if self.maximum is None else f"{lower} and at most {self.maximum:g}"

    def in_range(self, number: float) -> bool:
        above = number >= self.minimum if self.minimum_allowed else number > self.minimum
        return above and (self.maximum is None or number <= self.maximum)


Rules = Mapping[str, Rule]
"""The type of a scenario's ``rules`` class variable: input name to rule."""


def input_rules(**by_input: Rule) -> Rules:
    """A read-only ``rules`` mapping, written with one keyword per input."""
    return MappingProxyType(dict(by_input))


# Plain numbers.
POSITIVE_COUNT = Rule("a whole number")
COUNT_OR_ZERO = Rule("a whole number", minimum_allowed=True)
POSITIVE_NUMBER = Rule("a number")
NUMBER_OR_ZERO = Rule("a number", minimum_allowed=True)
FRACTION = Rule("a fraction", maximum=1.0)
RATIO_AT_LEAST_ONE = Rule("a ratio", minimum=1.0, minimum_allowed=True)

# Quantities.
BYTES = Rule("a size in bytes", "[information]")
DATA_RATE = Rule("a rate in bytes per time", "[information]/[time]")
DURATION = Rule("a duration", "[time]")
RATE = Rule("a rate per unit time", "1/[time]")
COMPUTE = Rule("an amount of compute in FLOP", "[compute]")
COMPUTE_RATE = Rule("a compute rate in FLOP per time", "[compute]/[time]")
POWER = Rule("a power", "[power]")
ENERGY = Rule("an energy", "[energy]")
CARBON_INTENSITY = Rule("emissions per unit of energy in CO2e", "[emissions]/[energy]")


def check_inputs(scenario: Any) -> None:
    """Check every constructor input of a dataclass scenario against its rules.

    Raises TypeError for a value of the wrong kind (a plain number where a
    quantity is expected, a quantity of the wrong dimension or from another
    registry, a float where a whole number is expected, a missing value) and
    ValueError for a value of the right kind outside its range.
    """
    cls = type(scenario)
    declared = getattr(cls, "rules", {})
    inputs = _inputs(cls)
    unknown = sorted(set(declared) - set(inputs))
    if unknown:
        raise TypeError(f"{cls.__name__}.rules names no input of the class: {', '.join(unknown)}")
    for name, annotation in inputs.items():
        _check(f"{cls.__name__}.{name}", getattr(scenario, name), annotation, declared.get(name))


@dataclass(frozen=True)
class _Annotation:
    kind: type
    optional: bool


@cache
def _inputs(cls: type) -> dict[str, _Annotation]:
    """Constructor inputs of ``cls`` in order, with the kind their annotation admits."""
    hints = typing.get_type_hints(cls)
    found = {}
    for field in dataclasses.fields(cls):
        if field.init:
            found[field.name] = _read_annotation(cls, field.name, hints[field.name])
    return found


def _read_annotation(cls: type, name: str, hint: Any) -> _Annotation:
    optional = False
    if typing.get_origin(hint) in (typing.Union, UnionType):
        members = [arg for arg in typing.get_args(hint) if arg is not NoneType]
        optional = len(members) < len(typing.get_args(hint))
        if len(members) == 1:
            hint = members[0]
    if hint in (int, float, Quantity):
        return _Annotation(hint, optional)
    raise TypeError(
        f"{cls.__name__}.{name}: cannot check an input annotated {hint!r}; "
        "use int, float, Quantity or Optional[Quantity]"
    )


def _check(where: str, value: Any, annotation: _Annotation, rule: Rule | None) -> None:
    if annotation.kind is Quantity:
        if rule is None or rule.dimension is None:
            raise TypeError(f"{where}: a Quantity input needs a rule with a dimension in rules")
    else:
        rule = rule or (POSITIVE_COUNT if annotation.kind is int else POSITIVE_NUMBER)
    if value is None:
        if annotation.optional:
            return
        raise TypeError(f"{where}: expected {rule.expected}, got None")
    number = _number(where, value, annotation.kind, rule)
    if not math.isfinite(number):
        raise ValueError(f"{where}: expected {rule.expected} that is finite, got {_shown(value)}")
    if not rule.in_range(number):
        raise ValueError(f"{where}: expected {rule.expected} {rule.bounds}, got {_shown(value)}")


def _number(where: str, value: Any, kind: type, rule: Rule) -> float:
    """The number to range-check: the value itself, or a quantity's magnitude."""
    if kind is Quantity:
        if not isinstance(value, pint.Quantity):
            raise TypeError(f"{where}: expected {rule.expected}, got {_shown(value)}")
        if not isinstance(value, ureg.Quantity):
            raise TypeError(
                f"{where}: expected {rule.expected}, got {_shown(value)} from another unit "
                "registry; build quantities from refgen_scenarios.ureg"
            )
        if value.dimensionality != ureg.get_dimensionality(rule.dimension):
            raise TypeError(f"{where}: expected {rule.expected}, got {_shown(value)}")
        magnitude = value.magnitude
        if isinstance(magnitude, bool) or not isinstance(magnitude, int | float):
            raise TypeError(
                f"{where}: expected {rule.expected} with one real magnitude, got {value!r}"
            )
        return magnitude
    whole = kind is int
    accepted = (int,) if whole else (int, float)
    if isinstance(value, bool) or not isinstance(value, accepted):
        raise TypeError(f"{where}: expected {rule.expected}, got {_shown(value)}")
    return value


def _shown(value: Any) -> str:
    """A value as the error message quotes it: ``3 meter``, ``-1``, ``'3' (str)``."""
    if isinstance(value, pint.Quantity):
        return f"{value:P}"
    if isinstance(value, bool) or not isinstance(value, int | float):
        return f"{value!r} ({type(value).__name__})"
    return repr(value)

"""Units: pint's short symbols for unit spellings, and the registries a project binds.

An equation's units are spelt by pint (``millisecond`` is ``ms``); a unit
written as ``ureg.FLOP`` is looked up in the registry the documented modules
bind to ``ureg``. This is a lookup in pint, not layout: the Project owns one
:class:`UnitSymbols` and hands it to the pages that set equations.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import pint
from pint.registry import ApplicationRegistry, UnitRegistry

from refgen.analysis import discovery

QUANTITY_REGISTRY = "_REGISTRY"
"""The attribute of a pint quantity class (``ureg.Quantity``) that holds its registry."""


def _is_unit_registry(value: object) -> bool:
    # Its real type: a module-level object may say anything of itself (discovery.is_class).
    return issubclass(type(value), UnitRegistry | ApplicationRegistry)


def _quantity_registry(value: object) -> object:
    """The registry of ``value`` if it is a quantity class of one (``ureg.Quantity``)."""
    if not discovery.is_class(value):
        return None
    assert isinstance(value, type)  # the real type, checked just above
    if not any(base is pint.Quantity for base in discovery.class_mro(value)):
        return None
    return discovery.class_dict(value).get(QUANTITY_REGISTRY)


def unit_registries(module_names: Iterable[str]) -> dict[str, Any]:
    """The pint registries the modules ``module_names`` bind at module level, by the name
    they bind them to (``ureg``), and those of the quantity classes they bind
    (``Q_ = ureg.Quantity``), by the attribute that holds them (``Q_._REGISTRY``); the
    first module to bind a name decides what it means."""
    found: dict[str, Any] = {}
    for name in module_names:
        module = sys.modules.get(name)
        for bound, value in vars(module).items() if module is not None else ():
            if _is_unit_registry(value):
                found.setdefault(bound, value)
            elif _is_unit_registry(registry := _quantity_registry(value)):
                found.setdefault(f"{bound}.{QUANTITY_REGISTRY}", registry)
    return found


_PLAIN_UNIT_FACTOR = r"[^\W\d]\w*(?: +\w+)*(?:\s*(?:\*\*|\^)\s*-?\d{1,2})?"
_PLAIN_UNIT = re.compile(rf"\s*{_PLAIN_UNIT_FACTOR}(?:\s*[*/]\s*{_PLAIN_UNIT_FACTOR})*\s*")
"""Unit spellings handed to pint: names, products, quotients, small powers.

Anything else (numbers, long powers) is shown as written, so that pint never
evaluates arithmetic taken from the page. A factor's name ends in a word
character, so the spaces around an operator can be read one way only: text
that does not match fails in linear time, not exponential.
"""


def _unit_in(registry: Any, written: str) -> Any:
    """``written`` as a unit of ``registry``; None if it is no unit there."""
    if len(written) > 100 or not _PLAIN_UNIT.fullmatch(written):
        return None
    try:
        return registry.Unit(written)
    except Exception:  # the registry does not know it
        return None


class UnitSymbols:
    """Pint's short symbols for unit spellings, remembered by whoever owns this (the Project).

    ``find_registries`` gives the project's own pint registries by the names its
    modules bind them to (``{"ureg": ...}``): a unit written as ``ureg.FLOP`` is
    looked up in that registry, a unit written as text in the first that knows
    it, then in a registry of pint's definitions, made on first use (loading them
    is the slowest step of laying out an equation).
    """

    def __init__(
        self,
        registry: Any = None,
        find_registries: Callable[[], Mapping[str, Any]] | None = None,
    ) -> None:
        self._registry = registry
        self._find_registries = find_registries
        self._registries: Mapping[str, Any] | None = None
        self._symbols: dict[str, str | None] = {}
        self._known: dict[tuple[str, str], bool] = {}

    def _project_registries(self) -> Mapping[str, Any]:
        if self._registries is None:
            found = self._find_registries() if self._find_registries is not None else None
            self._registries = found or {}
        return self._registries

    def _pints_registry(self) -> Any:
        if self._registry is None:
            self._registry = pint.UnitRegistry()
        return self._registry

    def symbol(self, written: str) -> str | None:
        """Pint's short form of a unit (``millisecond`` → ``ms``); None if dimensionless."""
        if written not in self._symbols:
            self._symbols[written] = self._lookup(written)
        return self._symbols[written]

    def knows(self, owner: str, name: str) -> bool:
        """Whether ``owner.name`` is a unit: ``owner`` a registry of the project that
        knows ``name`` (``ureg.FLOP``), not any object with an attribute of that name."""
        key = (owner, name)
        if key not in self._known:
            registry = self._project_registries().get(owner)
            self._known[key] = registry is not None and _unit_in(registry, name) is not None
        return self._known[key]

    def _unit_of(self, written: str) -> Any:
        for registry in self._project_registries().values():
            unit = _unit_in(registry, written)
            if unit is not None:
                return unit
        return _unit_in(self._pints_registry(), written)

    def _lookup(self, written: str) -> str | None:
        if not written.strip():
            return None
        unit = self._unit_of(written)
        if unit is None:  # show it as written
            return written
        try:
            return f"{unit:~P}" or None
        except Exception:  # a unit pint cannot abbreviate: as written
            return written

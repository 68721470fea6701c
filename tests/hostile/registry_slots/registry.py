"""The registry."""

from registry_slots.models import Gauge


class Registry:
    """Named scenarios; the slot is no entry."""

    __slots__ = ("hidden",)

    One = Gauge(size=1.0)
    """A small gauge."""

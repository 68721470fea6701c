"""The registry."""

from registry_inherited.models import Gauge


class Base:
    """Scenarios every registry has."""

    One = Gauge(size=1.0)
    """A small gauge, inherited."""


class Registry(Base):
    """Named scenarios."""

    Two = Gauge(size=2.0)
    """A larger gauge."""

"""The named gauges."""

from value_addresses.models import Gauge


class Registry:
    """Named scenarios."""

    First = Gauge(size=1.0)
    """A gauge."""

    Second = Gauge(size=1.0)
    """The same gauge again."""

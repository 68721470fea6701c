"""The named gauges."""

from property_os_exit.models import Gauge


class Registry:
    """Named scenarios."""

    Small = Gauge(size=1.0)
    """A small gauge."""

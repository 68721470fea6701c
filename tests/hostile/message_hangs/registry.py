"""The named gauges."""

from message_hangs.models import Gauge


class Registry:
    """Named scenarios."""

    Small = Gauge(size=1.0)
    """A small gauge."""

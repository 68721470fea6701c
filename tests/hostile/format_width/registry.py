"""The named gauges."""

from format_width.models import Gauge


class Registry:
    """Named scenarios."""

    Small = Gauge(num=1.0)
    """A small gauge."""

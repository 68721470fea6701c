"""The named gauges."""

from text_subclass.models import Gauge


class Registry:
    """Named scenarios."""

    Small = Gauge(size=1.0)
    """A small gauge."""

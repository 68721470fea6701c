"""The named gauges."""

from sweep_log_range.models import Gauge


class Registry:
    """Named scenarios."""

    Small = Gauge(size=1.0)
    """A small gauge."""

"""The named gauges."""

from undecodable_file_name.models import Gauge


class Registry:
    """Named scenarios."""

    Small = Gauge(size=1.0)
    """A small gauge."""

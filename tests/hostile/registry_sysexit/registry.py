"""The named gauges."""

from registry_sysexit.models import Gauge, refuse


class Registry:
    """Named scenarios."""

    Small = Gauge(size=refuse())  # <- refgen
    """A gauge whose size cannot be made."""

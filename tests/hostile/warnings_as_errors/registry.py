"""The named gauges."""

from warnings_as_errors.models import Gauge


class Registry:
    """Named scenarios."""

    Small = Gauge(size=1.0)
    """A small gauge; see :func:`warnings_as_errors.models.Gauge`."""

"""Named gauges"""

from description_lines.models import Gauge, Meter


class Registry:
    """Named gauges."""

    Small = Gauge()
    """The small gauge.

    A |broken substitution.  # <- refgen
    """

    Meter = Meter()
    """A meter."""

"""The named gauges."""

from docstring_scripts.models import Gauge


class Registry:
    """Named scenarios; `home <javascript:alert(5)>`_."""

    Small = Gauge(size=1.0)
    """A small gauge: `more <javascript:alert(6)>`_."""

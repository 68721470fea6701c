"""Named gauges"""

from docstring_labels.models import Gauge


class Registry:
    """Named gauges."""

    Small = Gauge()
    """The small gauge.

    .. _search:

    Found under the label of the search page.
    """

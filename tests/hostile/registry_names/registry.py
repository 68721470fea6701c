"""The registry, with a name that would be markup wherever a name goes."""

from registry_names.models import Gauge


class Registry:
    """Named scenarios."""

    Fine = Gauge(size=1.0)
    """A well-named gauge."""


setattr(Registry, 'q" onmouseover="alert(4)" x="', Gauge(size=3.0))  # <- refgen

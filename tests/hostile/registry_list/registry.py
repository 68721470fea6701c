"""The registry."""

from registry_list.models import Gauge

Registry = [Gauge(size=1.0)]

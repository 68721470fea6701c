"""The registry."""

from registry_dict.models import Gauge

Registry = {"One": Gauge(size=1.0), "Two": Gauge(size=2.0)}

"""Named gauges, looked up by name: the module answers for the names it holds"""

from registry_not_found.models import Gauge

_NAMED = {"Gauges": {"Small": Gauge()}}
__getattr__ = _NAMED.__getitem__  # a name it does not hold is a KeyError, raised in C

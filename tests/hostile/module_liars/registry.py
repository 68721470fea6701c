"""One named disk."""

from module_liars.models import Disk


class Registry:
    Small = Disk(size=2000.0)
    """A small disk."""

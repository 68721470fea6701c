"""One named disk, and an entry that lies about its class."""

from module_liars.models import Disk


class _RaisesWhenAsked:
    """Asked what it is, it raises KeyboardInterrupt."""

    @property
    def __class__(self):  # type: ignore[override]
        raise KeyboardInterrupt


class Registry:
    Small = Disk(size=2000.0)
    """A small disk."""
    Fake = _RaisesWhenAsked()  # <- refgen
    """Not a scenario, whatever it says."""

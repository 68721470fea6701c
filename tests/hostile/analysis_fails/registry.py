"""The named scenarios, one of a class that cannot be analysed."""

from analysis_fails.models import Broken, Fine


class Registry:
    """Named scenarios."""

    Good = Fine(size=1.0)
    """A fine one."""

    Bad = Broken(size=1.0)
    """An entry of the class that cannot be analysed: no second warning about it."""

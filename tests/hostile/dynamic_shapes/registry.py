"""The named shapes."""

from dynamic_shapes.models import Dynamic, Shapes


class Registry:
    """Named scenarios."""

    Made = Shapes(size=1.5)
    """A shape."""

    Runtime = Dynamic()
    """A class with no source."""

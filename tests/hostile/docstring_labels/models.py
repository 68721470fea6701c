"""Scenarios whose docstrings take the labels Sphinx keeps for its own pages"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Gauge:
    """A gauge that labels its paragraphs.

    .. _gauge-notes:

    A label of the author's own, which pages may link to.

    .. _genindex:

    A paragraph under the label of the general index.
    """

    size: float = 2.0
    """The size, under the label of the module index: _`modindex`."""

    @property
    def doubled(self) -> float:
        """Twice the size."""
        return self.size * 2

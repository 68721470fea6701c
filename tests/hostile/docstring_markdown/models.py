"""Scenarios whose prose is HTML to a Markdown reader <img src=x onerror=alert(0)>"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Gauge:
    """A gauge <img src=x onerror=alert(1)>.

    More prose <img src=x onerror=alert(2)> and [a link](javascript:alert(3)).

    Notes
    -----
    A note <img src=x onerror=alert(4)>.
    """

    size: float = 2.0
    """The size <img src=x onerror=alert(5)>."""

    @property
    def doubled(self) -> float:
        """Twice the size <img src=x onerror=alert(6)>."""
        return self.size * 2

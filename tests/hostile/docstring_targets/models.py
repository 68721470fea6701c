"""Scenarios whose docstrings reach a script through targets resolved after parsing"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Gauge:
    """A scenario that cites `the paper`_.

    Read `the notes`__ too.

    .. _the paper: paper_
    .. _paper: javascript:alert(1)

    __ javascript:alert(2)

    .. image:: https://example.org/gauge.png
       :target: javascript:alert(3)

    The |badge| and `fine <https://example.org>`_.

    .. |badge| image:: https://example.org/badge.png
       :target: JavaScript:alert(4)
    """

    size: float = 2.0
    """The size.

    Read `one`__ and `two`__.  # <- refgen

    __ javascript:alert(5)

    .. image:: https://example.org/size.png
       :target: javascript:alert(6)

    Then `named`_ and `also <later_>`_.

    .. _named: javascript:alert(7)
    .. _later: data:text/html;base64,PHNjcmlwdD4=
    """

    @property
    def doubled(self) -> float:
        """Twice the size.

        See `a`__.

        __ https://example.org/doubled
        """
        return self.size * 2

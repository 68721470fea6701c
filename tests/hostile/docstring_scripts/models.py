"""Scenarios whose docstrings try to link scripts

Read `the manual <javascript:alert(1)>`_ first.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Gauge:
    """A scenario whose prose holds `a script link <JavaScript:alert(2)>`_.

    Also `data <data:text/html;base64,PHNjcmlwdD4=>`_ and `fine <https://example.org>`_.
    """

    size: float = 2.0
    """The size; `click <vbscript:msgbox(3)>`_."""

    @property
    def doubled(self) -> float:
        """Twice the size, see `this <javascript:alert(4)>`_."""
        return self.size * 2

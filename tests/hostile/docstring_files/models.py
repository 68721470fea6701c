"""Scenarios whose docstrings try to make the build read or publish files."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Gauge:
    """A scenario whose docstring reaches outside the documentation folder.

    Get :download:`the secret <../../../secret.txt>`, or :download:`this one </../secret.txt>`;
    :download:`the notes </files/notes.txt>` are inside and may be published;
    :download:`not a URI <data:/../../../../secret.txt>` climbs out all the same.

    .. literalinclude:: /../secret.txt

    .. include:: /../secret.txt

    .. raw:: html
       :file: /../secret.txt

    .. csv-table:: Remote
       :url: https://example.org/table.csv

    .. image:: /../secret.txt
       :alt: a picture of the secret

    .. include:: <../../../../../../../../../../../../../../../../etc/hostname>
       :literal:

    .. role:: sup(raw)
       :format: html

    .. meta::
       :http-equiv=refresh: 0; url=https://example.org/

    .. literalinclude:: x://../../../../secret.txt

    .. title:: Another page's title

    .. default-domain:: c

    .. toctree::

       /index
    """

    size: float = 2.0

    @property
    def doubled(self) -> float:
        """Twice the size."""
        return self.size * 2

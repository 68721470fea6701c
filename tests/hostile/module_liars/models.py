"""Module-level objects that lie about what they are, beside a scenario class."""

from dataclasses import dataclass

import pint

ureg = pint.UnitRegistry()
Q_ = ureg.Quantity


class _ClaimsToBeAClass:
    """Says it is a class; asked for its bases, it ends the process."""

    @property
    def __class__(self):  # type: ignore[override]
        return type

    @property
    def __bases__(self):
        raise SystemExit("a module-level object that only pretends")


class _RaisesWhenAsked:
    """Asked what it is, it raises KeyboardInterrupt."""

    @property
    def __class__(self):  # type: ignore[override]
        raise KeyboardInterrupt


PRETENDER = _ClaimsToBeAClass()
ASKED = _RaisesWhenAsked()


@dataclass(frozen=True, kw_only=True)
class Disk:
    """A disk of a given size."""

    size: float = 1000.0
    """Size in bytes."""

    @property
    def megabytes(self) -> pint.Quantity:
        """The size in megabytes."""
        return (self.size * ureg.byte).to("MB")

"""Scenarios whose descriptions in table cells hold broken markup a few lines in"""

from dataclasses import dataclass

from pydantic import BaseModel, Field


@dataclass(frozen=True)
class Gauge:
    """A gauge."""

    size: float = 2.0
    """
    The size, after an empty first line.

    A *broken emphasis.  # <- refgen
    """

    @property
    def doubled(self) -> float:
        """Twice the size.

        A ``broken literal.  # <- refgen
        """
        return self.size * 2

    halved = property(
        lambda self: self.size / 2,
        doc="""Half the size.

        A `broken reference.  # <- refgen
        """,
    )


class Meter(BaseModel):
    """A meter, read by pydantic."""

    reading: float = Field(
        default=1.0,
        description="""The reading.

        A **broken strong.  # <- refgen
        """,
    )

    @property
    def twice(self) -> float:
        """Twice the reading."""
        return self.reading * 2

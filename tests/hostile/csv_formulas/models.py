"""Scenarios whose text values read as spreadsheet formulas"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Cell:
    """A scenario whose figures are text that a spreadsheet would run."""

    label: str = "=HYPERLINK(\"https://example.org\", \"click\")"
    """A label that is a formula."""

    offset: float = -1.5
    """A negative number, which stays a number."""

    @property
    def plus(self) -> str:
        """Text beginning with a plus sign."""
        return "+1+cmd|' /C calc'!A0"

    @property
    def minus(self) -> str:
        """Text beginning with a minus sign."""
        return "-2+3"

    @property
    def at(self) -> str:
        """Text beginning with an at sign."""
        return "@SUM(1+1)*cmd|' /C calc'!A0"

    @property
    def tab(self) -> str:
        """Text beginning with a tab."""
        return "\t=1+1"

    @property
    def carriage_return(self) -> str:
        """Text beginning with a carriage return."""
        return "\r=1+1"

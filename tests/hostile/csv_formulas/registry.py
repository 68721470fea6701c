"""The named cells."""

from csv_formulas.models import Cell


class Registry:
    """Named scenarios."""

    Formulas = Cell()
    """Every figure a formula."""

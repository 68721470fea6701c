"""Which registry entries of a class differ, and where: marked in the class page's values.

A class with two or more registry entries shows them side by side in its
**Registry values** table, one row per attribute and one column (a number and
its unit) per entry. A row whose entries do not all show the same value is a
difference: a sentence above the table names those rows and, unless every row
differs, their cells get :data:`DIFFERS` (the site highlights them). Values are
compared as shown, so a difference the table cannot show is none.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from refgen.evaluate.values import EntryValues
from refgen.render.blocks import Code, Inline, Paragraph, text
from refgen.render.common import joined
from refgen.render.figures import value_text

DIFFERS = "refgen-differs"
DIFFERENCES = "refgen-differences"
"""The class of the sentence naming the rows that differ."""
COMPARED_ENTRIES = 2
"""Registry entries a class needs for its values to be compared."""


def differing(names: Sequence[str], values: Sequence[EntryValues]) -> list[str]:
    """The attributes of ``names`` whose values, as shown, are not the same for every entry."""
    return [name for name in names if len({value_text(v.value(name)) for v in values}) > 1]


def differences_sentence(differences: Sequence[str], compared: int) -> Paragraph:
    """Which of the ``compared`` rows differ between the entries, in words: a row differs
    when its values are not all the same."""
    count = len(differences)
    if not differences:
        words: tuple[str | Inline, ...] = ("The entries have the same values in every row.",)
    elif count == compared:
        words = ("Every row has values that differ between the entries.",)
    else:
        lead = f"{count} row{'s' if count != 1 else ''} differ{'s' if count == 1 else ''}"
        names = joined([Code(name) for name in differences])
        words = (f"{lead} between the entries: ", *names, ".")
    return dataclasses.replace(text(*words), classes=(DIFFERENCES,))

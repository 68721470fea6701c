"""Tables of refgen's own settings and warning kinds, for its documentation.

Generated from :class:`refgen.config.Settings` and
:class:`refgen.analysis.model.WarningKind`, the one declaration of each, so the
documentation cannot drift from the code.
"""

from __future__ import annotations

from refgen.analysis.model import WarningKind
from refgen.config import settings_table
from refgen.render.blocks import Code, Paragraph, Table, Text, text


def settings_reference() -> Table:
    """Every setting: its ``conf.py`` name, its ``[tool.refgen]`` key, default and meaning."""
    rows = tuple(
        (
            (Paragraph((Code(conf_name),)),),
            (Paragraph((Code(key),)),),
            (Paragraph((Code(default),)),),
            (Paragraph((Text(meaning),)),),
        )
        for conf_name, key, default, meaning in settings_table()
    )
    header = tuple(
        (text(label),) for label in ("conf.py", "[tool.refgen] / pytest ini", "Default", "Meaning")
    )
    return Table(header, rows, ("refgen-settings",))


def warnings_reference() -> Table:
    """Every warning type refgen reports and when."""
    rows = tuple(
        ((Paragraph((Code(f"refgen.{kind.value}"),)),), (text(kind.description),))
        for kind in WarningKind
    )
    return Table(((text("Warning"),), (text("Raised when"),)), rows, ("refgen-warnings",))

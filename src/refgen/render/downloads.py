"""The registry's values as files to download: CSV and JSON, one record per entry and attribute.

Each value keeps what the site shows (``text``) and what a program needs: the
number in the unit shown (``magnitude``) and pint's long name of that unit
(``units``), so ``15.625`` and ``millisecond`` read back as the quantity the
page shows as ``15.625 ms``. A value that cannot be computed has no
magnitude, ``available`` false and the reason. The values arrive computed
(:class:`~refgen.evaluate.values.EntryValues`); this only lays them out.

A CSV file is opened in spreadsheets, which run a cell beginning with ``=``,
``+``, ``-``, ``@``, a tab or a carriage return as a formula: every text cell
that begins so gets a leading ``'`` (:func:`spreadsheet_text`, OWASP's rule for
CSV injection); the magnitude stays a number.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from typing import Any

from refgen.evaluate.values import EntryValues, Value, json_number

CSV_NAME = "registry.csv"
JSON_NAME = "registry.json"
COLUMNS = (
    "entry",
    "class",
    "attribute",
    "kind",
    "magnitude",
    "units",
    "unit",
    "text",
    "available",
    "reason",
)
"""The CSV's header, one row per value; the JSON's value records use the same names."""


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What makes a spreadsheet read a cell as a formula."""


def spreadsheet_text(text: str) -> str:
    """``text`` for a CSV text cell: a spreadsheet shows it, and never runs it."""
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def download_paths(registry_docname: str) -> tuple[str, str]:
    """The CSV and JSON files, beside the registry page (paths from the site's root)."""
    folder = registry_docname.rpartition("/")[0]
    prefix = f"{folder}/" if folder else ""
    return f"{prefix}{CSV_NAME}", f"{prefix}{JSON_NAME}"


def value_record(entry: EntryValues, value: Value) -> dict[str, Any]:
    """One value as a record of the :data:`COLUMNS`."""
    return {
        "entry": entry.entry,
        "class": entry.scenario,
        "attribute": value.name,
        "kind": "input" if value.name in entry.inputs else "derived",
        "magnitude": json_number(value.magnitude),
        "units": value.units,
        "unit": value.unit,
        "text": value.text,
        "available": value.available,
        "reason": value.reason,
    }


def registry_csv(entries: Sequence[EntryValues]) -> str:
    """Every value of every entry, one CSV row each, in registry and attribute order."""
    out = io.StringIO()
    # RFC 4180's line break: the writer quotes a field holding any character of it, so a
    # carriage return in a value is quoted, not taken for the end of a row.
    writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\r\n")
    writer.writeheader()
    for entry in entries:
        for value in entry.values:
            row = {
                column: spreadsheet_text(cell) if isinstance(cell, str) else cell
                for column, cell in value_record(entry, value).items()
            }
            row["magnitude"] = "" if row["magnitude"] is None else repr(row["magnitude"])
            row["available"] = "true" if value.available else "false"
            writer.writerow(row)
    return out.getvalue()


def registry_json(registry: str, generator: str, entries: Sequence[EntryValues]) -> str:
    """Every entry with its values, as JSON (``registry``: the registry's dotted path)."""
    data = {
        "registry": registry,
        "generator": generator,
        "entries": [
            {
                "name": entry.entry,
                "qualname": entry.qualname,
                "class": entry.scenario,
                "values": [
                    {
                        k: v
                        for k, v in value_record(entry, value).items()
                        if k not in ("entry", "class")
                    }
                    for value in entry.values
                ],
            }
            for entry in entries
        ],
    }
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"

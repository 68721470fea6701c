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
from collections.abc import Iterable
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


RenderedEntry = tuple[str, str]
"""One entry laid out for both files: its CSV rows, and its JSON object indented for its
place in the file's list of entries."""


def rendered_entry(entry: EntryValues) -> RenderedEntry:
    """``entry``'s part of :func:`registry_csv` and of :func:`registry_json`: laid out
    once, when the values are computed, and joined at every build."""
    return _csv_rows(entry), _json_object(entry)


def _csv_rows(entry: EntryValues) -> str:
    out = io.StringIO()
    # RFC 4180's line break: the writer quotes a field holding any character of it, so a
    # carriage return in a value is quoted, not taken for the end of a row.
    writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\r\n")
    for value in entry.values:
        row = {
            column: spreadsheet_text(cell) if isinstance(cell, str) else cell
            for column, cell in value_record(entry, value).items()
        }
        row["magnitude"] = "" if row["magnitude"] is None else repr(row["magnitude"])
        row["available"] = "true" if value.available else "false"
        writer.writerow(row)
    return out.getvalue()


_IN_LIST = "  "
"""The indent of an entry's lines in the JSON file: the list of entries is one level in."""


def _json_object(entry: EntryValues) -> str:
    record = {
        "name": entry.entry,
        "qualname": entry.qualname,
        "class": entry.scenario,
        "values": [
            {k: v for k, v in value_record(entry, value).items() if k not in ("entry", "class")}
            for value in entry.values
        ],
    }
    # JSON escapes every line break inside a string: each "\n" here is between tokens.
    text = json.dumps(record, indent=1, ensure_ascii=False)
    return _IN_LIST + text.replace("\n", "\n" + _IN_LIST)


def registry_csv(entries: Iterable[EntryValues | RenderedEntry]) -> str:
    """Every value of every entry, one CSV row each, in registry and attribute order."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerow(COLUMNS)
    return out.getvalue() + "".join(_rendered(entry)[0] for entry in entries)


def registry_json(
    registry: str, generator: str, entries: Iterable[EntryValues | RenderedEntry]
) -> str:
    """Every entry with its values, as JSON (``registry``: the registry's dotted path):
    ``json.dumps`` of the whole, one space an indent, text as it is."""
    objects = [_rendered(entry)[1] for entry in entries]
    head = json.dumps({"registry": registry, "generator": generator}, indent=1, ensure_ascii=False)
    listed = "[\n" + ",\n".join(objects) + "\n ]" if objects else "[]"
    return f'{head[:-2]},\n "entries": {listed}\n}}\n'


def _rendered(entry: EntryValues | RenderedEntry) -> RenderedEntry:
    return rendered_entry(entry) if isinstance(entry, EntryValues) else entry

"""The registry's downloads, joined from entries laid out one at a time.

Each page lays its entries out once, when it computes their values, and every
build joins the parts (``refgen.sphinx.exports``). The joined files must be
exactly what laying out the whole registry at once gives: ``json.dumps`` of
the whole document, and one CSV writer over every row. Those are the oracles
here, written out independently of the module, over hostile text.
"""

from __future__ import annotations

import csv
import io
import json
import math

from hypothesis import given
from hypothesis import strategies as st

from refgen.evaluate.values import EntryValues, Value
from refgen.render.downloads import (
    COLUMNS,
    registry_csv,
    registry_json,
    rendered_entry,
    spreadsheet_text,
    value_record,
)

text = st.text(st.characters(codec="utf-8"), max_size=12)
magnitudes = st.one_of(
    st.none(), st.integers(-(10**20), 10**20), st.floats(allow_nan=False, allow_infinity=False)
)
values = st.builds(
    Value,
    name=text,
    text=text,
    available=st.booleans(),
    reason=text,
    unit=text,
    units=text,
    magnitude=magnitudes,
)
entries = st.builds(
    EntryValues,
    entry=text,
    qualname=text,
    values=st.lists(values, max_size=3).map(tuple),
    scenario=text,
    inputs=st.lists(text, max_size=2).map(tuple),
)


def whole_json(registry: str, generator: str, found: list[EntryValues]) -> str:
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
            for entry in found
        ],
    }
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def whole_csv(found: list[EntryValues]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\r\n")
    writer.writeheader()
    for entry in found:
        for value in entry.values:
            row = {
                column: spreadsheet_text(cell) if isinstance(cell, str) else cell
                for column, cell in value_record(entry, value).items()
            }
            row["magnitude"] = "" if row["magnitude"] is None else repr(row["magnitude"])
            row["available"] = "true" if value.available else "false"
            writer.writerow(row)
    return out.getvalue()


@given(registry=text, generator=text, found=st.lists(entries, max_size=4))
def test_joined_parts_are_the_whole_registry_laid_out_at_once(
    registry: str, generator: str, found: list[EntryValues]
) -> None:
    parts = [rendered_entry(entry) for entry in found]
    assert registry_json(registry, generator, parts) == whole_json(registry, generator, found)
    assert registry_json(registry, generator, found) == whole_json(registry, generator, found)
    assert registry_csv(parts) == whole_csv(found) == registry_csv(found)


def test_text_that_looks_like_layout_stays_text() -> None:
    """A value whose text holds line breaks, JSON brackets and a formula reads back as it
    was given, in both files."""
    tricky = "=1+1\n ]\n}\r\n\u2028"
    entry = EntryValues(
        tricky, "r." + tricky, (Value("a", tricky, magnitude=math.pi, units=tricky),), "m.C"
    )
    data = json.loads(registry_json("r", "g", [rendered_entry(entry)]))
    assert data["entries"][0]["name"] == tricky
    assert data["entries"][0]["values"][0]["magnitude"] == math.pi
    rows = list(csv.reader(io.StringIO(registry_csv([rendered_entry(entry)]), newline="")))
    assert rows[1][0] == rows[1][7] == "'" + tricky

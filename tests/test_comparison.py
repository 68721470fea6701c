"""Entries compared: a class's registry entries side by side on its page, differences marked."""

from __future__ import annotations

from collections import Counter

from bs4 import Tag

from refgen.config import load_settings
from refgen.project import Project
from refgen.testing import BuildResult
from tests.conftest import REPO
from tests.html_helpers import read_html, section, text

KV_CACHE = "reference/refgen_scenarios.inference/KvCacheScenario"
DIFFERENCES = "p.refgen-differences"


def rows(table: Tag) -> dict[str, tuple[list[str], list[Tag]]]:
    """{attribute: (each entry's value as shown, every cell of the row)} of a values table."""
    found = {}
    for row in table.find("tbody").find_all("tr"):
        cells = row.find_all("td")
        texts = [" ".join(cell.get_text("").split()) for cell in cells]
        shown = [" ".join(filter(None, texts[i : i + 2])) for i in range(0, len(texts), 2)]
        found[text(row.find("th"))] = (shown, [row.find("th"), *cells])
    return found


def registry_values(site: BuildResult, page: str) -> Tag:
    return section(read_html(site.outdir / f"{page}.html"), "Registry values")


def test_every_class_with_two_entries_or_more_names_its_differences(site: BuildResult) -> None:
    project = Project(load_settings(REPO))
    registry = project.registry
    assert registry is not None
    counts = Counter(entry.scenario for entry in registry.entries)
    compared = [qualname for qualname, count in counts.items() if count >= 2]
    single = [qualname for qualname, count in counts.items() if count == 1]
    assert len(compared) >= 13 and single
    for qualname in compared + single:
        module, _, name = qualname.rpartition(".")
        values = registry_values(site, f"reference/{module}/{name}")
        assert (values.select_one(DIFFERENCES) is not None) == (qualname in compared), qualname
        if qualname in single:  # one entry: nothing to compare, nothing marked
            assert values.select(".refgen-differs") == [], qualname
    assert not list(site.outdir.glob("reference/*/*-compare.html"))  # no page of its own


def test_differing_values_are_marked_and_equal_ones_are_not(site: BuildResult) -> None:
    values = registry_values(site, KV_CACHE)
    table = rows(values.find("table", class_="refgen-values"))
    headings = [text(th) for th in values.find("thead").find_all("th")[1:]]
    assert headings == ["Opt13BKvCache", "Llama2_7BKvCache", "Llama2_70BKvCache"]
    assert table["layers"][0] == ["40", "32", "80"]
    assert table["bytes_per_token"][0] == ["800 KiB", "512 KiB", "320 KiB"]
    assert table["head_dim"][0] == ["128", "128", "128"]
    for name, (shown, cells) in table.items():
        differs = len(set(shown)) > 1
        marked = {"refgen-differs" in (cell.get("class") or []) for cell in cells}
        assert marked == {differs}, name
    assert text(values.select_one(DIFFERENCES)) == (
        "7 values differ between the entries (highlighted): layers , kv_heads , "
        "sequence_length , batch_size , bytes_per_token , bytes_per_sequence and "
        "bytes_per_batch ."
    )


def test_when_every_value_differs_the_sentence_says_so_and_no_row_is_marked(
    site: BuildResult,
) -> None:
    values = registry_values(site, "reference/refgen_scenarios.training/UpdateWorkingSetScenario")
    assert text(values.select_one(DIFFERENCES)) == "Every value differs between the entries."
    assert values.select(".refgen-differs") == []  # a table all tinted would mark nothing

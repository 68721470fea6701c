"""Entries compared: a class's registry entries side by side on its page, differences marked."""

from __future__ import annotations

from collections import Counter

from bs4 import Tag

from refgen.config import load_settings
from refgen.evaluate.values import EntryValues, Value
from refgen.project import Project
from refgen.render.blocks import Code, Paragraph
from refgen.render.comparison import differences_sentence, differing
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
        "7 rows differ between the entries: layers , kv_heads , "
        "sequence_length , batch_size , bytes_per_token , bytes_per_sequence and "
        "bytes_per_batch ."
    )


def test_when_every_value_differs_the_sentence_says_so_and_no_row_is_marked(
    site: BuildResult,
) -> None:
    # Daly's and GraphLab's checkpointing differ in every input and figure.
    values = registry_values(
        site, "reference/refgen_scenarios.reliability/CheckpointIntervalScenario"
    )
    assert text(values.select_one(DIFFERENCES)) == (
        "Every row has values that differ between the entries."
    )
    assert values.select(".refgen-differs") == []  # a table all tinted would mark nothing


def entries(**rows: tuple[str, ...]) -> list[EntryValues]:
    """Entries ``E0``, ``E1``, ... whose attribute ``name`` shows ``rows[name][i]``."""
    count = len(next(iter(rows.values())))
    return [
        EntryValues(f"E{i}", f"reg.E{i}", tuple(Value(n, shown[i]) for n, shown in rows.items()))
        for i in range(count)
    ]


def words(paragraph: Paragraph) -> str:
    return "".join(f"`{i.text}`" if isinstance(i, Code) else i.text for i in paragraph.inlines)


def test_a_row_differs_when_its_values_are_not_all_the_same() -> None:
    values = entries(a=("1 s", "1 s", "1 s"), b=("2 s", "3 s", "2 s"), c=("n/a", "1 s", "1 s"))
    assert differing(["a", "b", "c"], values) == ["b", "c"]
    assert words(differences_sentence(["b", "c"], 3)) == (
        "2 rows differ between the entries: `b` and `c`."
    )
    assert words(differences_sentence(["b"], 3)) == "1 row differs between the entries: `b`."


def test_the_sentence_speaks_of_rows_when_none_or_all_differ() -> None:
    same = entries(a=("1 s", "1 s"))
    assert differing(["a"], same) == []
    assert words(differences_sentence([], 1)) == "The entries have the same values in every row."
    # Two of three entries alike: every row still differs, though not every entry does.
    alike = entries(a=("1 s", "2 s", "1 s"), b=("5", "6", "5"))
    assert differing(["a", "b"], alike) == ["a", "b"]
    assert words(differences_sentence(["a", "b"], 2)) == (
        "Every row has values that differ between the entries."
    )

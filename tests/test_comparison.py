"""Comparison pages: the registry entries of one class side by side, differences highlighted."""

from __future__ import annotations

from collections import Counter

from bs4 import BeautifulSoup, Tag

from refgen.config import load_settings
from refgen.project import Project
from refgen.testing import BuildResult
from tests.conftest import REPO
from tests.html_helpers import main, read_html, section, text

KV_CACHE = "reference/refgen_scenarios.inference/KvCacheScenario"


def rows(table: Tag) -> dict[str, tuple[list[str], list[Tag]]]:
    """{attribute: (each entry's value as shown, every cell of the row)} of a comparison table."""
    found = {}
    for row in table.find("tbody").find_all("tr"):
        cells = row.find_all("td")
        texts = [" ".join(cell.get_text("").split()) for cell in cells]
        shown = [" ".join(filter(None, texts[i : i + 2])) for i in range(0, len(texts), 2)]
        found[text(row.find("th"))] = (shown, [row.find("th"), *cells])
    return found


def test_every_class_with_two_entries_or_more_has_a_comparison_page(site: BuildResult) -> None:
    project = Project(load_settings(REPO))
    registry = project.registry
    assert registry is not None
    counts = Counter(entry.scenario for entry in registry.entries)
    expected = {
        f"reference/{qualname.rpartition('.')[0]}/{qualname.rpartition('.')[2]}-compare.html"
        for qualname, count in counts.items()
        if count >= 2
    }
    built = {
        path.relative_to(site.outdir).as_posix()
        for path in site.outdir.glob("reference/*/*-compare.html")
    }
    assert built == expected and len(built) >= 13


def test_the_class_page_links_its_comparison_page(site: BuildResult) -> None:
    page = read_html(site.outdir / f"{KV_CACHE}.html")
    link = section(page, "Registry values").find("p", class_="refgen-comparison-link")
    assert link is not None
    anchor = link.find("a")
    assert anchor["href"] == "KvCacheScenario-compare.html"
    assert text(anchor) == "KvCacheScenario: entries compared"
    single = read_html(site.outdir / "reference/refgen_scenarios.inference/RooflineScenario.html")
    assert (
        single.find("p", class_="refgen-comparison-link") is None
    )  # one entry: nothing to compare


def test_differing_values_are_marked_and_equal_ones_are_not(site: BuildResult) -> None:
    page = read_html(site.outdir / f"{KV_CACHE}-compare.html")
    assert text(page.find("h1")).startswith("KvCacheScenario: entries compared")
    inputs = rows(section(page, "Inputs").find("table", class_="refgen-comparison"))
    derived = rows(section(page, "Derived attributes").find("table", class_="refgen-comparison"))
    headings = [text(th) for th in section(page, "Inputs").find("thead").find_all("th")[1:]]
    assert headings == ["Opt13BKvCache", "Llama2_7BKvCache", "Llama2_70BKvCache"]
    assert inputs["layers"][0] == ["40", "32", "80"]
    assert derived["bytes_per_token"][0] == ["800 KiB", "512 KiB", "320 KiB"]
    assert inputs["head_dim"][0] == ["128", "128", "128"]
    for name, (shown, cells) in {**inputs, **derived}.items():
        differs = len(set(shown)) > 1
        marked = {"refgen-differs" in (cell.get("class") or []) for cell in cells}
        assert marked == {differs}, name
    summary = text(main(page).find_all("p")[2])
    assert summary == (
        "7 values differ: layers , kv_heads , sequence_length , batch_size , "
        "bytes_per_token , bytes_per_sequence and bytes_per_batch ."
    )


def test_a_comparison_page_links_back_to_its_class_and_category(
    site: BuildResult,
) -> None:
    page: BeautifulSoup = read_html(site.outdir / f"{KV_CACHE}-compare.html")
    provenance = page.find("p", class_="refgen-provenance")
    assert [a["href"] for a in provenance.find_all("a")] == ["KvCacheScenario.html", "index.html"]

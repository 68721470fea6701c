"""Files built with the site: the registry's values as CSV and JSON, llms.txt and a Markdown
file per page."""

from __future__ import annotations

import csv
import io
import json
import re

from refgen.render import blocks as b
from refgen.render.markdown import MarkdownWriter, code_span, escaped
from refgen.testing import BuildResult, write_scenario_project
from tests.html_helpers import main, read_html

CLASS_MARKDOWN = "reference/refgen_scenarios.training/UpdateWorkingSetScenario.md"


def registry_rows(site: BuildResult) -> list[dict[str, str]]:
    text = (site.outdir / "reference" / "registry.csv").read_text(encoding="utf-8")
    return list(csv.DictReader(io.StringIO(text)))


def test_registry_csv_has_every_value_with_magnitude_and_units(site: BuildResult) -> None:
    rows = registry_rows(site)
    found = {(row["entry"], row["attribute"]): row for row in rows}
    step_floor = found["PhoneFullUpdateWorkingSet", "step_floor"]
    assert step_floor == {
        "entry": "PhoneFullUpdateWorkingSet",
        "class": "refgen_scenarios.training.UpdateWorkingSetScenario",
        "attribute": "step_floor",
        "kind": "derived",
        "magnitude": "15.625",
        "units": "millisecond",
        "unit": "ms",
        "text": "15.625 ms",
        "available": "true",
        "reason": "",
    }
    assert found["PhoneFullUpdateWorkingSet", "bandwidth"]["kind"] == "input"
    missing = found["Gpt2XlFp16UpdateWorkingSet", "step_floor"]
    assert (missing["magnitude"], missing["available"]) == ("", "false")
    assert missing["reason"] == "needs bandwidth, which this scenario does not give"
    from refgen_scenarios import Scenarios

    entries = {name for name in vars(Scenarios) if not name.startswith("_")}
    assert {row["entry"] for row in rows} == entries  # every registry entry


def test_registry_json_holds_the_same_values(site: BuildResult) -> None:
    data = json.loads((site.outdir / "reference" / "registry.json").read_text(encoding="utf-8"))
    assert data["registry"] == "refgen_scenarios.Scenarios"
    entries = {entry["name"]: entry for entry in data["entries"]}
    phone = {v["attribute"]: v for v in entries["PhoneFullUpdateWorkingSet"]["values"]}
    assert phone["step_floor"]["magnitude"] == 15.625
    assert phone["step_floor"]["units"] == "millisecond"
    assert phone["optimizer_moments"]["magnitude"] == 2  # an exact integer stays one
    flat = [
        (entry["name"], value["attribute"], value["text"])
        for entry in data["entries"]
        for value in entry["values"]
    ]
    assert flat == [(r["entry"], r["attribute"], r["text"]) for r in registry_rows(site)]


def test_the_registry_page_links_its_downloads(site: BuildResult) -> None:
    page = read_html(site.outdir / "reference" / "registry.html")
    links = main(page).select("p.refgen-downloads a")
    assert [(a["href"], a.get_text(), a.has_attr("download")) for a in links] == [
        ("registry.csv", "registry.csv", True),
        ("registry.json", "registry.json", True),
    ]


def test_llms_txt_lists_every_generated_page_with_its_summary(site: BuildResult) -> None:
    llms = (site.outdir / "llms.txt").read_text(encoding="utf-8")
    assert llms.startswith("# refgen reference\n\n> ")
    links = re.findall(r"^- \[([^\]]+)\]\(([^)]+)\)(?:: (.*))?$", llms, re.M)
    by_title = {title: (path, summary) for title, path, summary in links}
    assert by_title["UpdateWorkingSetScenario"] == (
        CLASS_MARKDOWN,
        "A full on-device update with Adam: its working set and the DRAM bytes of one step.",
    )
    for _title, path, _summary in links:  # every link is a file of the site
        assert (site.outdir / path).is_file(), path
    pages = {
        p.with_suffix("").relative_to(site.outdir) for p in site.outdir.glob("reference/**/*.md")
    }
    html = {
        p.with_suffix("").relative_to(site.outdir) for p in site.outdir.glob("reference/**/*.html")
    }
    assert pages == html  # one Markdown file per generated page
    assert {f"{p.as_posix()}.md" for p in pages} <= {path for _t, path, _s in links}
    assert "## Guides" in llms and "(_sources/getting-started.md.txt)" in llms
    assert "- [registry.csv](reference/registry.csv)" in llms


def test_a_class_page_as_markdown_holds_its_figures(site: BuildResult) -> None:
    markdown = (site.outdir / CLASS_MARKDOWN).read_text(encoding="utf-8")
    assert markdown.startswith("# UpdateWorkingSetScenario\n")
    for heading in ("## Inputs", "## Derived attributes", "## Registry values", "## Sensitivity"):
        assert f"\n{heading}\n" in markdown
    assert "| `step_floor` | 15.625 | ms | not available" in markdown
    # The optimizer's values keep their own width (issue 39), so the weight
    # width moves 80% of the traffic, and optimizer_width the rest.
    assert "| `step_floor` | 1.00 | 0.80 | n/a | 0.50 | 0 | −1.00 | 0.20 |" in markdown
    assert "```pycon\n>>> from refgen_scenarios import Scenarios\n" in markdown
    # Both entries keep Adam's two moments and 4-byte optimizer values, so
    # those two rows are alike; the page names the rows that differ.
    differ = next(line for line in markdown.splitlines() if "differ between the entries" in line)
    assert differ.startswith("21 rows differ between the entries: `parameters`")
    assert "`optimizer_moments`" not in differ and "`optimizer_width`" not in differ


def test_markdown_shows_data_as_text() -> None:
    assert escaped("a*b_ [x](y) <img> | `c`") == r"a\*b\_ \[x\](y) \<img\> \| \`c\`"
    assert escaped("bytes_per_param") == "bytes_per_param"  # inside a word, _ is plain
    assert code_span("a ` b") == "``a ` b``"
    table = b.Table(((b.text("x"),),), (((b.Paragraph((b.Code("a|b"),)),),),))
    assert MarkdownWriter().table(table) == ["| x |", "| --- |", r"| `a\|b` |", ""]


def fences(markdown: str) -> dict[str, list[str]]:
    """The fenced code blocks of a MyST page, by language."""
    found: dict[str, list[str]] = {}
    for language, body in re.findall(r"^```(\w*)\n(.*?)^```$", markdown, re.M | re.S):
        found.setdefault(language, []).append(body.rstrip("\n"))
    return found


def test_the_docs_page_shows_what_the_site_builds(site: BuildResult) -> None:
    """docs/site-features.md quotes the copied Python, a CSV row and an llms.txt line:
    each as this build makes it."""
    from refgen.config import load_settings
    from refgen.project import Project
    from tests.conftest import DOCS, REPO

    page = (DOCS / "site-features.md").read_text(encoding="utf-8")
    shown = fences(page)
    project = Project(load_settings(REPO))
    phone = project.entry("PhoneFullUpdateWorkingSet")
    assert phone is not None
    assert shown["python"] == [phone.python]
    csv_row, llms_line = shown["text"]
    assert csv_row in (site.outdir / "reference" / "registry.csv").read_text().splitlines()
    assert llms_line in (site.outdir / "llms.txt").read_text().splitlines()
    # The elasticities the page walks through.
    found = project.found_entry(phone)
    assert not isinstance(found, str), found
    [sensitivity, _] = project.sensitivities(found.scenario)
    cells = {
        (figure, name): sensitivity.cell(figure, name).text  # type: ignore[union-attr]
        for figure, name in [
            ("step_floor", "bandwidth"),
            ("step_floor", "activation_factor_high"),
            ("total", "activation_factor"),
        ]
    }
    assert cells == {
        ("step_floor", "bandwidth"): "−1.00",
        ("step_floor", "activation_factor_high"): "0",
        ("total", "activation_factor"): "0.56",
    }
    assert "reads −1.00 under\n`bandwidth`" in page and "= 0.56" in page


def test_a_figure_that_is_no_finite_number_downloads_without_a_magnitude() -> None:
    """registry.json stays valid JSON: NaN and infinities have no JSON number."""
    from refgen.evaluate.values import EntryValues, Value
    from refgen.render.downloads import value_record

    entry = EntryValues("E", "reg.E", (), scenario="pkg.C", inputs=())
    for magnitude in (float("nan"), float("inf")):
        value = Value("x", "nan GB", number="nan", unit="GB", magnitude=magnitude, units="gigabyte")
        assert value_record(entry, value)["magnitude"] is None


SURROGATE_MODULE = '''
    """Signals that cannot all be written as UTF-8."""

    from dataclasses import dataclass


    @dataclass(frozen=True, kw_only=True)
    class Pair:
        """A string that is half a surrogate pair."""

        count: float = 1.0
        """How many."""

        @property
        def half(self) -> str:
            """A lone high surrogate, which UTF-8 cannot hold."""
            return "half " + chr(0xD800) + " pair"
'''

SURROGATE_REGISTRY = '''
    from halves.pairs import Pair


    class Named:
        """Named scenarios."""

        One = Pair(count=1.0)
        """The one entry."""
'''


def test_a_value_utf8_cannot_hold_is_written_escaped(tmp_path) -> None:
    project = write_scenario_project(
        tmp_path,
        "halves",
        {"pairs": SURROGATE_MODULE, "registry": SURROGATE_REGISTRY},
        registry="registry.Named",
    )
    result = project.build("html", "-W")
    assert result.returncode == 0, result.stderr
    reference = result.outdir / "reference"
    exported = json.loads((reference / "registry.json").read_text(encoding="utf-8"))
    assert "half \ud800 pair" in json.dumps(exported, ensure_ascii=False)
    assert "half \\ud800 pair" in (reference / "registry.csv").read_text(encoding="utf-8")
    page = (reference / "halves.pairs" / "Pair.md").read_text(encoding="utf-8")
    assert "| `half` | half \ufffd pair |" in page  # as the HTML page shows it

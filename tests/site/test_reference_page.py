"""The generated page of UpdateWorkingSetScenario, checked against the seed page.

Every assertion reads the parsed HTML of a real ``sphinx-build -W`` run of docs/.
"""

from __future__ import annotations

from urllib.parse import urldefrag

import pytest
from bs4 import BeautifulSoup, Tag

from refgen.testing import BuildResult
from tests.html_helpers import (
    SECTIONS,
    field_values,
    heading_text,
    main,
    read_html,
    row_cells,
    section,
    text,
)
from tests.sphinx.test_cross_references import read_inventory

CLASS = "refgen_scenarios.training.UpdateWorkingSetScenario"

INPUTS = {
    "parameters": ("float", "required"),
    "bytes_per_param": ("Quantity", "required"),
    "optimizer_moments": ("int", "required"),
    "activation_factor": ("float", "required"),
    "activation_factor_high": ("float", "required"),
    "bandwidth": ("Optional[Quantity]", "None"),
    # Beyond the seed page: the width of the optimizer's values, so that
    # mixed-precision state (issue 39) is counted in bytes, not in arrays of
    # the weight width. Their defaults leave the seed's figures as they are.
    "master_copies": ("int", "0"),
    "optimizer_width": ("Quantity", "4 * ureg.byte"),
}

EQUATIONS = {
    "weights": "(self.parameters * self.bytes_per_param).to('MB')",
    "gradients": "self.weights",
    "optimizer_bytes": (
        "((self.optimizer_moments + self.master_copies) * self.optimizer_width).to('B')"
    ),
    "optimizer_state": "(self.parameters * self.optimizer_bytes).to('MB')",
    "activations": "(self.activation_factor * self.weights).to('MB')",
    "persistent": "(self.weights + self.gradients + self.optimizer_state).to('MB')",
    "total": "(self.persistent + self.activations).to('MB')",
    "amplification": "(self.total / self.weights).to('').magnitude",
    "floor": "(self.persistent / self.weights).to('').magnitude",
    "ceiling": "self.floor + self.activation_factor_high",
    "traffic_ratio": "(self.step_traffic / self.weights).to('').magnitude",
    "weight_read_share": "(self.weight_reads / self.step_traffic).to('').magnitude",
    "step_floor": "(self.step_traffic / self.bandwidth).to('millisecond')",
}
BODY_EQUATIONS = ("step_traffic", "weight_reads")
HELPER = "refgen_scenarios.physics.memory.calc_update_step_traffic"
DERIVED = [
    "weights",
    "gradients",
    "optimizer_bytes",
    "optimizer_state",
    "activations",
    "persistent",
    "total",
    "amplification",
    "floor",
    "ceiling",
    "step_traffic",
    "weight_reads",
    "traffic_ratio",
    "weight_read_share",
    "step_floor",
]


def row(page: BeautifulSoup, name: str) -> dict[str, Tag]:
    """The cells of attribute ``name``'s row in the Inputs or Derived attributes table."""
    return row_cells(page, f"{CLASS}.{name}")


def test_site_builds_with_zero_warnings(site: BuildResult) -> None:
    assert site.returncode == 0, site.stderr
    assert site.warnings == []


def test_title_is_the_class_name(scenario_page: BeautifulSoup) -> None:
    headings = main(scenario_page).find_all("h1")
    assert [heading_text(h) for h in headings] == ["UpdateWorkingSetScenario"]


def test_page_parts_follow_the_seed_order(scenario_page: BeautifulSoup) -> None:
    body = main(scenario_page)
    markers = [
        body.find("h1"),
        body.find(class_="refgen-provenance"),
        body.find(class_="refgen-construction"),
        scenario_page.find(id=CLASS),
        *(section(scenario_page, t) for t in SECTIONS),
    ]
    assert all(marker is not None for marker in markers)
    positions = [marker.sourceline * 10_000 + marker.sourcepos for marker in markers]
    assert positions == sorted(positions)
    h2 = [heading_text(h) for h in body.find_all("h2")]
    assert h2 == SECTIONS
    assert body.find("h3") is None  # one table row per attribute, no section each


def test_attribute_tables_list_every_attribute_in_source_order(
    scenario_page: BeautifulSoup,
) -> None:
    inputs = section(scenario_page, "Inputs").find("table")
    derived = section(scenario_page, "Derived attributes").find("table")
    assert [text(th) for th in inputs.find("thead").find_all("th")] == [
        "Name",
        "Type",
        "Declared default",
        "Description",
    ]
    assert [text(th) for th in derived.find("thead").find_all("th")] == [
        "Name",
        "Equation",
        "Description",
    ]
    shown = [
        [
            cells.find(class_="refgen-name").get_text()
            for cells in table.find("tbody").find_all("tr")
        ]
        for table in (inputs, derived)
    ]
    assert shown == [list(INPUTS), DERIVED]
    for name in [*INPUTS, *DERIVED]:
        assert text(row(scenario_page, name)["Description"]), name


def test_links_to_an_attribute_land_on_its_row(scenario_page: BeautifulSoup) -> None:
    diagram = section(scenario_page, "Data flow").find("svg")
    diagram_links = [a["href"] for a in diagram.find_all("a")]
    value_links = [a["href"] for a in section(scenario_page, "Registry values").find_all("a")]
    for href in diagram_links + value_links:
        anchor = urldefrag(href)[1]
        if anchor.startswith(f"{CLASS}."):
            assert row(scenario_page, anchor.removeprefix(f"{CLASS}."))
    assert len(diagram_links) == len(INPUTS) + len(DERIVED)


def test_category_and_implementation_links(site: BuildResult, scenario_page: BeautifulSoup) -> None:
    provenance = main(scenario_page).find(class_="refgen-provenance")
    links = {a.get_text(): a["href"] for a in provenance.find_all("a")}
    assert links["Training scenarios"] == "index.html"
    source_href = links["refgen_scenarios/training.py"]
    page, anchor = urldefrag(source_href)
    assert anchor == "UpdateWorkingSetScenario"
    source = read_html((site.outdir / "reference" / "refgen_scenarios.training" / page).resolve())
    assert source.find(id=anchor) is not None
    assert "class UpdateWorkingSetScenario" in text(source.find(id=anchor).parent)
    category = read_html(site.outdir / "reference" / "refgen_scenarios.training" / "index.html")
    assert heading_text(main(category).find("h1")) == "Training scenarios"


def test_summary_and_description_show_field_names_as_code(scenario_page: BeautifulSoup) -> None:
    description = scenario_page.find(id=CLASS).find_next_sibling("dd")
    paragraphs = description.find_all("p", recursive=False)
    assert text(paragraphs[0]).startswith("A full on-device update with Adam")
    code = {c.get_text() for c in paragraphs[1].find_all("code")}
    assert {"optimizer_moments", "activation_factor", "activation_factor_high"} <= code


def test_notes_have_equation_assumptions_excludes(scenario_page: BeautifulSoup) -> None:
    fields = field_values(section(scenario_page, "Notes"))
    assert list(fields) == ["Equation", "Assumptions", "Excludes"]
    assert "weights + gradients + optimizer_state + activations" in text(fields["Equation"])


def test_references_link_to_the_helper_entry_with_its_equation(
    site: BuildResult, scenario_page: BeautifulSoup
) -> None:
    references = section(scenario_page, "References")
    link = next(a for a in references.find_all("a") if "calc_update_step_traffic" in a.get_text())
    page, anchor = urldefrag(link["href"])
    assert anchor == HELPER
    helper_page = read_html(
        (site.outdir / "reference" / "refgen_scenarios.training" / page).resolve()
    )
    helper = helper_page.find(id=HELPER).find_next_sibling("dd")
    equation = field_values(helper)["Equation"]
    assert "V = (W + A) + (A + W + G) + (W + G + S) + (W + S)" in text(equation)
    assert "Kingma and Ba" in text(references)


def test_example_shows_the_registry_figure(scenario_page: BeautifulSoup) -> None:
    examples = section(scenario_page, "Examples")
    block = examples.find("pre").get_text()
    assert ">>> scenario = Scenarios.PhoneFullUpdateWorkingSet" in block
    lines = block.splitlines()
    assert lines[lines.index(">>> round(scenario.amplification, 6)") + 1] == "9.0"


@pytest.mark.parametrize("name", list(INPUTS))
def test_input_type_and_default(scenario_page: BeautifulSoup, name: str) -> None:
    cells = row(scenario_page, name)
    annotation, default = INPUTS[name]
    assert cells["Type"].find("code").get_text() == annotation
    assert text(cells["Declared default"]) == default


@pytest.mark.parametrize("name", list(EQUATIONS))
def test_equation_is_the_return_expression_as_written(
    scenario_page: BeautifulSoup, name: str
) -> None:
    equation = row(scenario_page, name)["Equation"]
    assert equation.find("math") is not None
    folded = equation.find("details", class_="refgen-code")
    assert folded is not None and folded.get("open") is None
    assert folded.find("code", class_="refgen-equation").get_text() == EQUATIONS[name]


@pytest.mark.parametrize("name", BODY_EQUATIONS)
def test_multi_statement_body_points_at_its_helper(scenario_page: BeautifulSoup, name: str) -> None:
    equation = row(scenario_page, name)["Equation"]
    assert "method body" in text(equation)
    link = equation.find("a")
    assert urldefrag(link["href"])[1] == HELPER


def test_inventory_sends_readers_to_each_attribute_row(
    site: BuildResult, scenario_page: BeautifulSoup
) -> None:
    """objects.inv (intersphinx, ``:attr:`` links) points at the rows of the tables."""
    inventory = read_inventory(site.outdir / "objects.inv")
    for role, names in (("py:attribute", INPUTS), ("py:property", DERIVED)):
        for name in names:
            page, anchor = urldefrag(inventory[(role, f"{CLASS}.{name}")])
            assert page.endswith("UpdateWorkingSetScenario.html")
            assert row(scenario_page, name)["Name"].find(id=anchor) is not None


def test_code_keeps_straight_quotes(scenario_page: BeautifulSoup) -> None:
    for code in main(scenario_page).find_all("code"):
        assert not set(code.get_text()) & set("‘’“”"), code.get_text()


def test_category_page_lists_scenarios_with_headline_figures(site: BuildResult) -> None:
    page = read_html(site.outdir / "reference" / "refgen_scenarios.training" / "index.html")
    table = main(page).find("table")
    assert [text(th) for th in table.find("thead").find_all("th")] == [
        "Scenario",
        "Summary",
        "Headline figure",
    ]
    rows = {
        text(cells[0]): [text(c) for c in cells[1:]]
        for cells in (tr.find_all("td") for tr in table.find("tbody").find_all("tr"))
    }
    summary, headline = rows["UpdateWorkingSetScenario"]
    assert summary.startswith("A full on-device update with Adam")
    assert headline == "amplification = 9 (PhoneFullUpdateWorkingSet)"


def test_registry_page_gives_each_entry_its_class_and_its_python(site: BuildResult) -> None:
    page = read_html(site.outdir / "reference" / "registry.html")
    entry = "refgen_scenarios.Scenarios.PhoneFullUpdateWorkingSet"
    section_heading = page.find(id=entry).find_parent("section").find("h2")
    assert heading_text(section_heading) == "PhoneFullUpdateWorkingSet"
    fields = field_values(page.find(id=entry).find_next_sibling("dd"))
    link = fields["Scenario"].find("a")
    assert link["href"] == f"refgen_scenarios.training/UpdateWorkingSetScenario.html#{CLASS}"
    box = fields["Python"].find("div", class_="refgen-copyable")
    assert box.find("button", class_="refgen-copy").get_text() == "Copy as Python"
    assert box.find("pre").get_text() == PHONE_PYTHON + "\n"  # the inputs as written


PHONE_PYTHON = """\
from refgen_scenarios.training import UpdateWorkingSetScenario
from refgen_scenarios.units import ureg

PhoneFullUpdateWorkingSet = UpdateWorkingSetScenario(
    parameters=10e6,
    bytes_per_param=4 * ureg.byte,
    optimizer_moments=2,
    activation_factor=5.0,
    activation_factor_high=8.0,
    bandwidth=51.2 * ureg.GB / ureg.s,
)"""

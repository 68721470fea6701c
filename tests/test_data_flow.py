"""What each derived attribute reads, what each input feeds, and the diagram."""

from __future__ import annotations

from urllib.parse import urldefrag

from bs4 import BeautifulSoup

from tests.html_helpers import field_values, section

CLASS = "scenarios.training.UpdateWorkingSetScenario"


def linked_names(page: BeautifulSoup, name: str, field: str) -> list[str]:
    dd = page.find(id=f"{CLASS}.{name}").find_next_sibling("dd")
    links = field_values(dd)[field].find_all("a")
    targets = [urldefrag(a["href"])[1] for a in links]
    assert all(t.startswith(f"{CLASS}.") for t in targets)
    return [t.removeprefix(f"{CLASS}.") for t in targets]


def test_derived_attributes_list_what_they_read(scenario_page: BeautifulSoup) -> None:
    assert linked_names(scenario_page, "weights", "Reads") == ["parameters", "bytes_per_param"]
    assert linked_names(scenario_page, "step_floor", "Reads") == ["step_traffic", "bandwidth"]
    # step_traffic reads its inputs through the helper's arguments.
    assert linked_names(scenario_page, "step_traffic", "Reads") == [
        "weights",
        "gradients",
        "optimizer_state",
        "activations",
    ]


def test_inputs_and_derived_attributes_list_what_they_feed(scenario_page: BeautifulSoup) -> None:
    assert linked_names(scenario_page, "bandwidth", "Feeds") == ["step_floor"]
    assert linked_names(scenario_page, "total", "Feeds") == ["amplification"]
    dd = scenario_page.find(id=f"{CLASS}.amplification").find_next_sibling("dd")
    assert "Feeds" not in field_values(dd)


def test_diagram_has_a_linked_node_per_attribute_and_an_edge_per_read(
    scenario_page: BeautifulSoup,
) -> None:
    svg = section(scenario_page, "Data flow").find("svg")
    assert svg["role"] == "img" and svg["aria-label"].startswith("Data flow of")
    nodes = svg.find_all("a", class_="refgen-node")
    hrefs = [urldefrag(a["href"])[1].removeprefix(f"{CLASS}.") for a in nodes]
    assert len(hrefs) == 20 and len(set(hrefs)) == 20
    for node in nodes:
        assert scenario_page.find(id=urldefrag(node["href"])[1]) is not None
    inputs = [a.find("text").get_text() for a in svg.find_all("a", class_="refgen-input")]
    assert inputs[0] == "parameters" and len(inputs) == 6
    reads = sum(
        len(linked_names(scenario_page, name, "Reads"))
        for name in hrefs
        if "Reads" in field_values(scenario_page.find(id=f"{CLASS}.{name}").find_next_sibling("dd"))
    )
    assert len(svg.find_all("path", class_="refgen-edge")) == reads


def test_diagram_places_readers_right_of_what_they_read(scenario_page: BeautifulSoup) -> None:
    svg = section(scenario_page, "Data flow").find("svg")
    x = {
        a.find("text").get_text(): float(a.find("rect")["x"])
        for a in svg.find_all("a", class_="refgen-node")
    }
    assert x["parameters"] < x["weights"] < x["gradients"] < x["persistent"] < x["total"]
    assert x["step_traffic"] < x["step_floor"]

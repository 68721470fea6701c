"""What each derived attribute reads, what each input feeds, and the diagram."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urldefrag

from bs4 import BeautifulSoup, Tag

from refgen.testing import write_scenario_project
from tests.html_helpers import read_html, section

CLASS = "refgen_scenarios.training.UpdateWorkingSetScenario"


def diagram(page: BeautifulSoup) -> Tag:
    svg = section(page, "Data flow").find("svg")
    assert svg is not None
    return svg


def node_title(page: BeautifulSoup, name: str) -> str:
    """What the diagram's box of ``name`` says of it (its tooltip, read by screen readers)."""
    for node in diagram(page).find_all("a", class_="refgen-node"):
        if urldefrag(node["href"])[1] == f"{CLASS}.{name}":
            return node.find("title").get_text()
    raise AssertionError(f"no box for {name}")


def reads(page: BeautifulSoup, name: str) -> list[str]:
    edges = diagram(page).find_all("path", class_="refgen-edge", attrs={"data-to": name})
    return [edge["data-from"] for edge in edges]


def test_derived_attributes_show_what_they_read(scenario_page: BeautifulSoup) -> None:
    assert reads(scenario_page, "weights") == ["parameters", "bytes_per_param"]
    assert reads(scenario_page, "step_floor") == ["step_traffic", "bandwidth"]
    # step_traffic reads its inputs through the helper's arguments.
    assert reads(scenario_page, "step_traffic") == [
        "weights",
        "gradients",
        "optimizer_state",
        "activations",
    ]
    assert node_title(scenario_page, "step_floor") == (
        "step_floor (derived); reads step_traffic, bandwidth"
    )


def test_inputs_and_derived_attributes_show_what_they_feed(scenario_page: BeautifulSoup) -> None:
    assert node_title(scenario_page, "bandwidth") == "bandwidth (input); feeds step_floor"
    assert node_title(scenario_page, "total").endswith("; feeds amplification")
    assert "feeds" not in node_title(scenario_page, "amplification")


def test_diagram_is_folded_under_its_section(scenario_page: BeautifulSoup) -> None:
    folded = section(scenario_page, "Data flow").find("details", class_="refgen-data-flow")
    assert folded is not None and folded.get("open") is None
    assert folded.find("summary").get_text() and folded.find("svg") is not None


def test_diagram_has_a_linked_node_per_attribute_and_an_edge_per_read(
    scenario_page: BeautifulSoup,
) -> None:
    svg = diagram(scenario_page)
    assert svg["role"] == "img" and svg["aria-label"].startswith("Data flow of")
    nodes = svg.find_all("a", class_="refgen-node")
    hrefs = [urldefrag(a["href"])[1].removeprefix(f"{CLASS}.") for a in nodes]
    assert len(hrefs) == 23 and len(set(hrefs)) == 23  # the seed's 20, and 3 for issue 39
    for node in nodes:
        assert scenario_page.find(id=urldefrag(node["href"])[1]) is not None
    inputs = [a.find("text").get_text() for a in svg.find_all("a", class_="refgen-input")]
    assert inputs[0] == "parameters" and len(inputs) == 8
    read_count = sum(
        len(title.partition("; reads ")[2].partition(";")[0].split(", "))
        for title in (node_title(scenario_page, name) for name in hrefs)
        if "; reads " in title
    )
    assert len(svg.find_all("path", class_="refgen-edge")) == read_count


def test_diagram_places_readers_right_of_what_they_read(scenario_page: BeautifulSoup) -> None:
    svg = diagram(scenario_page)
    x = {
        a.find("text").get_text(): float(a.find("rect")["x"])
        for a in svg.find_all("a", class_="refgen-node")
    }
    assert x["parameters"] < x["weights"] < x["gradients"] < x["persistent"] < x["total"]
    assert x["step_traffic"] < x["step_floor"]


def path_points(d: str, steps: int = 40) -> list[tuple[float, float]]:
    """Points along an SVG path of M, L and C commands (as the diagram writes them)."""
    tokens = re.findall(r"[MLC]|-?\d+(?:\.\d+)?", d)
    points: list[tuple[float, float]] = []
    here = (0.0, 0.0)
    command = ""
    numbers: list[float] = []

    def flush() -> None:
        nonlocal here
        pairs = list(zip(numbers[::2], numbers[1::2], strict=True))
        if command == "M":
            here = pairs[0]
            points.append(here)
        elif command == "L":
            (x, y) = pairs[0]
            points.extend(
                (here[0] + (x - here[0]) * t / steps, here[1] + (y - here[1]) * t / steps)
                for t in range(1, steps + 1)
            )
            here = (x, y)
        elif command == "C":
            (a, b, c) = pairs
            for step in range(1, steps + 1):
                t = step / steps
                u = 1 - t
                points.append(
                    tuple(  # type: ignore[arg-type]
                        u**3 * p0 + 3 * u * u * t * p1 + 3 * u * t * t * p2 + t**3 * p3
                        for p0, p1, p2, p3 in zip(here, a, b, c, strict=True)
                    )
                )
            here = c

    for token in tokens:
        if token in "MLC":
            if command:
                flush()
            command, numbers = token, []
        else:
            numbers.append(float(token))
    flush()
    return points


def test_edges_end_in_arrowheads_and_cross_no_box(scenario_page: BeautifulSoup) -> None:
    svg = diagram(scenario_page)
    marker = svg.find("marker")
    assert marker is not None and marker.find("path") is not None
    boxes = [
        tuple(float(rect[key]) for key in ("x", "y", "width", "height"))
        for rect in svg.find_all("rect")
    ]
    edges = svg.find_all("path", class_="refgen-edge")
    long_edges = 0
    for edge in edges:
        assert edge["marker-end"] == f"url(#{marker['id']})"
        long_edges += " L" in edge["d"]
        for x, y in path_points(edge["d"])[1:-1]:
            inside = [
                box
                for box in boxes
                if box[0] + 1 < x < box[0] + box[2] - 1 and box[1] + 1 < y < box[1] + box[3] - 1
            ]
            assert not inside, f"{edge['data-from']} -> {edge['data-to']} crosses {inside}"
    assert long_edges > 0  # step_floor reads bandwidth, an input three columns back


CYCLE = '''
    """Cycles"""

    from dataclasses import dataclass


    @dataclass(frozen=True, kw_only=True)
    class Loop:
        """Properties that read each other."""

        seed: float = 1.0
        """Where it starts."""

        @property
        def first(self) -> float:
            """Reads the second."""
            return self.second + self.seed

        @property
        def second(self) -> float:
            """Reads the first."""
            return self.first + 1

        @property
        def third(self) -> float:
            """Reads the second."""
            return self.second * 2
'''


def boxes_crossed(svg: Tag) -> list[str]:
    boxes = [
        tuple(float(rect[key]) for key in ("x", "y", "width", "height"))
        for rect in svg.find_all("rect")
    ]
    crossed = []
    for edge in svg.find_all("path", class_="refgen-edge"):
        for x, y in path_points(edge["d"])[1:-1]:
            if any(
                box[0] + 1 < x < box[0] + box[2] - 1 and box[1] + 1 < y < box[1] + box[3] - 1
                for box in boxes
            ):
                crossed.append(f"{edge['data-from']} -> {edge['data-to']}")
                break
    return crossed


def test_edges_of_a_cycle_cross_no_box_either(tmp_path: Path) -> None:
    project = write_scenario_project(tmp_path, "loops", {"models": CYCLE})
    result = project.build("html", "--keep-going")
    page = read_html(result.outdir / "reference" / "loops.models" / "Loop.html")
    svg = page.find("svg", class_="refgen-dataflow")
    assert len(svg.find_all("path", class_="refgen-edge")) == 4
    assert boxes_crossed(svg) == []

"""Equations are shown as MathML beside the code, with no network needed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup, Tag

from refgen.testing import BuildResult
from tests.html_helpers import read_html, row_cells

CLASS = "refgen_scenarios.training.UpdateWorkingSetScenario"
HELPER = "refgen_scenarios.physics.memory.calc_update_step_traffic"


def leaves(math: Tag) -> list[str]:
    """Texts of the MathML token elements, in reading order."""
    names = ["mi", "mo", "mn", "mtext"]
    tokens = [math] if math.name in names else math.find_all(names)
    return [t.get_text() for t in tokens if t.get_text().strip() and t.get_text() != "\u2061"]


def equation_math(page: BeautifulSoup, name: str) -> Tag:
    """The equation's MathML: one ``<math>``, or the pieces a long one wraps between."""
    math = row_cells(page, f"{CLASS}.{name}")["Equation"].find(class_="refgen-math")
    assert math is not None and math.find("math") is not None, f"{name} has no MathML"
    return math


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("weights", ["parameters", "×", "bytes_per_param", "in MB"]),
        ("gradients", ["weights"]),
        ("ceiling", ["floor", "+", "activation_factor_high"]),
        ("step_floor", ["step_traffic", "bandwidth", "in ms"]),
    ],
)
def test_equation_math_follows_the_source(
    scenario_page: BeautifulSoup, name: str, expected: list[str]
) -> None:
    assert leaves(equation_math(scenario_page, name)) == expected


def test_ratio_is_a_fraction_without_unit(scenario_page: BeautifulSoup) -> None:
    math = equation_math(scenario_page, "amplification")
    fraction = math.find("mfrac")
    assert [leaves(part) for part in fraction.find_all(recursive=False)] == [["total"], ["weights"]]
    assert not any(text.startswith("in ") for text in leaves(math))


def test_names_are_upright_not_subscripted(scenario_page: BeautifulSoup) -> None:
    math = equation_math(scenario_page, "weights")
    assert math.find("msub") is None
    assert all(mi.get("mathvariant") == "normal" for mi in math.find_all("mi"))


def test_helper_entry_shows_its_body_as_formulas(site: BuildResult) -> None:
    page = read_html(site.outdir / "reference" / "helpers" / "refgen_scenarios.physics.memory.html")
    helper = page.find(id=HELPER).find_next_sibling("dd")
    steps = helper.find(class_="refgen-steps").find_next_sibling("ul")
    formulas = [leaves(m) for m in steps.find_all(class_="refgen-math")]
    assert ["forward", "=", "weights", "+", "activations"] in formulas
    assert ["weight_reads", "=", "3", "×", "weights"] in formulas


def test_site_loads_nothing_from_the_network(site: BuildResult) -> None:
    remote = re.compile(r"^(https?:)?//")
    for path in Path(site.outdir).rglob("*.html"):
        page = read_html(path)
        for tag, attribute in (("script", "src"), ("link", "href"), ("img", "src")):
            for element in page.find_all(tag):
                assert not remote.match(element.get(attribute, "")), (path, element)


def test_every_equation_of_the_library_is_typeset(site: BuildResult) -> None:
    """Equations that multiply by units of the project's registry (``ureg.FLOP``) too."""
    shown = 0
    for path in sorted(site.outdir.glob("reference/refgen_scenarios.*/*.html")):
        table = read_html(path).find("table", class_="refgen-derived")
        for row in table.find("tbody").find_all("tr") if table else ():
            code = row.find("code", class_="refgen-equation")
            if code is not None:
                shown += 1
                assert row.find("math") is not None, f"{path.name}: {code.get_text()}"
    assert shown > 100


def test_what_a_helper_returns_is_a_formula_named_after_it(site: BuildResult) -> None:
    page = read_html(
        site.outdir / "reference" / "helpers" / "refgen_scenarios.physics.network.html"
    )
    helper = page.find(id="refgen_scenarios.physics.network.calc_ring_allreduce_traffic")
    steps = helper.find_next_sibling("dd").find(class_="refgen-steps").find_next_sibling("ul")
    formulas = [leaves(m) for m in steps.find_all(class_="refgen-math")]
    assert any(formula[:2] == ["calc_ring_allreduce_traffic", "="] for formula in formulas)
    for path in sorted((site.outdir / "reference" / "helpers").glob("*.html")):
        for item in read_html(path).select(".refgen-steps + ul > li"):
            written = item.find("code").get_text()
            tuple_return = written.startswith("return ") and "," in written
            assert tuple_return or item.find("math") is not None, f"{path.name}: {written}"

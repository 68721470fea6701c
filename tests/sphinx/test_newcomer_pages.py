"""What a newcomer's library looks like on the site: undocumented dataclasses, a dict
registry, a category of many classes, classes with inputs only.

One build of a throwaway package shaped like the libraries people bring (no
docstrings on most classes, a module-level dict of named instances, 40 classes
in one module); each test reads one thing of it from the built HTML.
``tests/sphinx/test_browser_newcomer.py`` opens the same site in Chromium.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from refgen.render.pages import FILTER_ABOVE
from refgen.testing import BuildResult, ScenarioProject, write_scenario_project
from tests.html_helpers import read_html, section, text

CLASSES = FILTER_ABOVE + 10

GPUS = '''
    """GPU configurations

    Plain dataclasses, mostly undocumented, as configuration libraries write them.
    """

    from dataclasses import dataclass

'''


def gpu_class(number: int) -> str:
    return f'''
    @dataclass(frozen=True, kw_only=True)
    class GPUConfig{number}:
        name: str
        mem_per_GPU_in_GB: float
        count: int = {number + 1}
        bandwidth_GB_per_s: float = 2000.0

        @property
        def total_memory_GB(self) -> float:
            return self.mem_per_GPU_in_GB * self.count

        @property
        def read_time_ms(self) -> float:
            return self.mem_per_GPU_in_GB / self.bandwidth_GB_per_s * 1000 + 0.0 * self.count

'''


SETTINGS = '''
    @dataclass(frozen=True, kw_only=True)
    class ClusterSettings:
        """Settings of a cluster: inputs only, nothing derived."""

        racks: int = 4
        """Racks in the cluster."""
        gpus_per_rack: int = 32
        """GPUs in each rack."""
'''

CASES = """
    from newcomer.gpus import GPUConfig0, GPUConfig1

    BY_NAME = {
        "a100": GPUConfig0(name="A100", mem_per_GPU_in_GB=80.0),
        "h100": GPUConfig1(name="H100", mem_per_GPU_in_GB=80.0, bandwidth_GB_per_s=3350.0),
        "small": GPUConfig1(name="L4", mem_per_GPU_in_GB=24.0, bandwidth_GB_per_s=300.0),
    }
"""


@pytest.fixture(scope="module")
def newcomer(tmp_path_factory: pytest.TempPathFactory) -> tuple[ScenarioProject, BuildResult]:
    gpus = GPUS + "".join(gpu_class(n) for n in range(CLASSES)) + SETTINGS
    project = write_scenario_project(
        tmp_path_factory.mktemp("newcomer"),
        "newcomer",
        {"gpus": gpus, "cases": CASES},
        registry="cases.BY_NAME",
        conf_extra='html_theme = "furo"\n',  # what `refgen init` writes
    )
    result = project.build("html", "--keep-going")
    assert result.returncode == 0, result.stderr
    return project, result


def page(built: tuple[ScenarioProject, BuildResult], name: str) -> BeautifulSoup:
    return read_html(built[1].outdir / "reference" / name)


def test_an_undocumented_dataclass_shows_no_made_up_summary(
    newcomer: tuple[ScenarioProject, BuildResult],
) -> None:
    """dataclasses give a class without a docstring its signature as ``__doc__``."""
    made_up = "GPUConfig0(*, name: str, mem_per_GPU_in_GB: float"
    class_page = page(newcomer, "newcomer.gpus/GPUConfig0.html")
    category = page(newcomer, "newcomer.gpus/index.html")
    assert "GPUConfig0" in text(class_page.body)
    # The signature's annotations as the made-up text gives them ("name: str"); the
    # page's own signature and inputs table show names and types apart.
    assert "name: str" not in text(class_page.body)
    assert "name: str" not in text(category.body)
    markdown = (newcomer[1].outdir / "reference" / "newcomer.gpus" / "GPUConfig0.md").read_text()
    assert made_up not in markdown


def test_a_class_without_derived_attributes_has_no_data_flow(
    newcomer: tuple[ScenarioProject, BuildResult],
) -> None:
    settings = page(newcomer, "newcomer.gpus/ClusterSettings.html")
    with_properties = page(newcomer, "newcomer.gpus/GPUConfig1.html")
    assert settings.select("svg.refgen-dataflow") == []
    assert "Data flow" not in text(settings.body)
    assert section(settings, "Inputs") is not None
    assert with_properties.select("svg.refgen-dataflow"), "a class that derives keeps its diagram"


def test_a_dict_registry_is_called_a_dict_of_its_entries(
    newcomer: tuple[ScenarioProject, BuildResult],
) -> None:
    registry = page(newcomer, "registry.html")
    described = registry.select_one("dl.py")
    assert described is not None
    assert "py" in described["class"] and "data" in described["class"]
    assert "class" not in described["class"]
    assert "A dict of 3 entries." in text(described)
    assert "class" not in text(described.select_one("dt")).split()


def test_a_big_category_is_filterable_and_shows_no_column_empty_in_most_rows(
    newcomer: tuple[ScenarioProject, BuildResult],
) -> None:
    category = page(newcomer, "newcomer.gpus/index.html")
    table = category.select_one("table.refgen-category")
    assert table is not None
    assert "refgen-filterable" in table["class"]
    headers = [text(th) for th in table.select("thead th")]
    assert headers == ["Scenario"], "summaries and headline figures are empty in most rows"
    assert len(table.select("tbody tr")) == CLASSES + 1
    scripts = [s.get("src", "") for s in category.select("script")]
    assert any("refgen-filter.js" in src for src in scripts)


def test_a_small_category_keeps_its_columns_and_has_no_filter(tmp_path: Path) -> None:
    project = write_scenario_project(
        tmp_path,
        "smallcat",
        {
            "gpus": GPUS
            + gpu_class(0).replace("GPUConfig0:", 'GPUConfig0:\n        """One GPU."""')
            + SETTINGS
        },
    )
    result = project.build("html")
    assert result.returncode == 0, result.stderr
    table = read_html(result.outdir / "reference" / "smallcat.gpus" / "index.html").select_one(
        "table.refgen-category"
    )
    assert table is not None and "refgen-filterable" not in table["class"]
    assert [text(th) for th in table.select("thead th")] == ["Scenario", "Summary"]


def test_sensitivity_cells_line_up_on_the_decimal_point(
    newcomer: tuple[ScenarioProject, BuildResult],
) -> None:
    """As the values table's cells do: each number split into its whole part and the rest,
    both as wide as the column's widest."""
    class_page = page(newcomer, "newcomer.gpus/GPUConfig1.html")
    table = class_page.select_one("table.refgen-elasticities")
    assert table is not None
    cells = [td for td in table.select("tbody td") if "refgen-unavailable" not in td["class"]]
    assert cells
    for cell in cells:
        figure = cell.select_one(".refgen-figure")
        assert figure is not None, cell
        assert figure.select_one(".refgen-whole") and figure.select_one(".refgen-fraction")
    columns = len(table.select("thead th")) - 1
    for column in range(columns):
        widths = {
            tuple(c for c in part["class"] if c.startswith("refgen-w"))
            for row in table.select("tbody tr")
            for part in row.select("td")[column].select(".refgen-whole")
        }
        assert len(widths) == 1, f"one width for the whole parts of column {column}: {widths}"

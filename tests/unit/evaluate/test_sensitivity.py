"""Sensitivity: each registry entry's elasticities, computed at build time, on its class page."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from bs4 import BeautifulSoup, Tag

from refgen.config import Settings, load_settings
from refgen.evaluate.sensitivity import Sensitivity, elasticity_text
from refgen.project import Project
from refgen.testing import BuildResult, ScenarioProject, fresh_imports, write_scenario_project
from tests.conftest import REPO
from tests.html_helpers import read_html, section, text


@pytest.fixture(scope="module")
def library() -> Project:
    return Project(load_settings(REPO))


def sensitivity_of(project: Project, entry_name: str) -> Sensitivity:
    entry = project.entry(entry_name)
    assert entry is not None
    found_entry = project.found_entry(entry)
    assert not isinstance(found_entry, str), found_entry
    sensitivities = project.sensitivities(found_entry.scenario)
    assert not isinstance(sensitivities, str), sensitivities
    found = {s.entry: s for s in sensitivities}
    return found[entry_name]


def test_step_floor_is_inversely_proportional_to_bandwidth(library: Project) -> None:
    """step_floor = step_traffic / bandwidth: 1 % more bandwidth, 1/1.01 of the time, −1."""
    found = sensitivity_of(library, "PhoneFullUpdateWorkingSet")
    cell = found.cell("step_floor", "bandwidth")
    assert cell is not None and cell.value is not None
    assert cell.value == pytest.approx(-1.0, abs=1e-9)
    assert cell.text == "−1.00" and cell.strong


def test_an_elasticity_that_is_no_power_law_matches_a_hand_computation(library: Project) -> None:
    """total = weights + gradients + optimizer_state + activations = 40 + 40 + 80 + 200 MB,
    and activations = activation_factor × weights: 1 % more activation factor gives
    202 MB of activations and 362 MB in all."""
    found = sensitivity_of(library, "PhoneFullUpdateWorkingSet")
    cell = found.cell("total", "activation_factor")
    assert cell is not None and cell.value is not None
    by_hand = math.log(362 / 360) / math.log(1.01)
    assert cell.value == pytest.approx(by_hand, rel=1e-9)
    assert cell.text == "0.56"
    # An input a figure does not read leaves it where it was.
    assert found.cell("weights", "bandwidth") == found.cell("weights", "activation_factor")
    assert found.cell("weights", "bandwidth").text == "0"  # type: ignore[union-attr]


def test_a_count_the_class_refuses_to_scale_is_not_available_with_the_reason(
    library: Project,
) -> None:
    found = sensitivity_of(library, "PhoneFullUpdateWorkingSet")
    cells = [found.cell(figure, "optimizer_moments") for figure in found.figures]
    assert cells and all(cell is not None and not cell.available for cell in cells)
    reasons = dict(found.column_reasons())
    assert "expected a whole number, got 2.02" in reasons["optimizer_moments"]


@pytest.mark.parametrize(
    "value, shown", [(-1.0, "−1.00"), (0.0, "0"), (2.0, "2.00"), (-0.001, "0.00"), (0.5577, "0.56")]
)
def test_elasticity_text(value: float, shown: str) -> None:
    assert elasticity_text(value) == shown


# Scenario code that fails in every way a perturbation can: the site builds all the same.

PROBES = '''
    """Probe scenarios

    Scenarios that fail when their inputs move.
    """

    import sys
    from dataclasses import dataclass


    @dataclass(frozen=True, kw_only=True)
    class Probe:
        """A probe that refuses some changes."""

        size: float
        """Megabytes."""
        rate: float
        """Megabytes per second."""
        label: str = "probe"
        """A name, not a number."""

        def __post_init__(self) -> None:
            if self.size > 10.05:
                sys.exit("size is fixed")

        @property
        def seconds(self) -> float:
            """Transfer time."""
            return self.size / self.rate

        @property
        def picky(self) -> float:
            """Fails once the rate moves."""
            if self.rate != 2.0:
                raise KeyboardInterrupt("not this rate")
            return 1.0

        @property
        def flips(self) -> float:
            """Crosses zero when the rate moves."""
            return 2.01 - self.rate

        @property
        def nothing(self) -> float:
            """Zero, whatever the inputs."""
            return 0.0
'''
PROBE_REGISTRY = '''
    """Named probes."""

    from probes.kinds import Probe


    class Named:
        """Named probes."""

        Small = Probe(size=10.0, rate=2.0)
        """A small probe."""
'''


@pytest.fixture(scope="module")
def probes(tmp_path_factory: pytest.TempPathFactory) -> ScenarioProject:
    root: Path = tmp_path_factory.mktemp("probes")
    return write_scenario_project(
        root, "probes", {"kinds": PROBES, "registry": PROBE_REGISTRY}, registry="registry.Named"
    )


def elasticity_table(container: Tag) -> dict[tuple[str, str], Tag]:
    """{(figure, input): cell} of the first elasticity table under ``container``."""
    table = container.find("table", class_="refgen-elasticities")
    assert table is not None
    inputs = [text(th) for th in table.find("thead").find_all("th")[1:]]
    cells = {}
    for row in table.find("tbody").find_all("tr"):
        figure = text(row.find("th"))
        for name, cell in zip(inputs, row.find_all("td"), strict=True):
            cells[figure, name] = cell
    return cells


def test_failing_perturbations_are_cells_not_crashes(probes: ScenarioProject) -> None:
    result: BuildResult = probes.build("html", "-W", "--keep-going")
    assert result.returncode == 0, result.stderr
    page = read_html(result.outdir / "reference" / "probes.kinds" / "Probe.html")
    shown = section(page, "Sensitivity")
    cells = elasticity_table(shown)
    assert set(cells) == {
        (figure, name)
        for figure in ("seconds", "picky", "flips", "nothing")
        for name in ("size", "rate")
    }
    assert cells["seconds", "rate"].get_text("").strip() == "−1.00"
    assert "refgen-strong" in cells["seconds", "rate"]["class"]
    assert text(cells["picky", "rate"]) == "n/a"
    assert text(cells["flips", "rate"]) == "n/a"
    for figure in ("seconds", "picky", "flips"):  # the class refuses a larger size
        assert "refgen-unavailable" in cells[figure, "size"]["class"]
    notes = text(shown)
    assert "size : the class refuses size 1 % larger: SystemExit: size is fixed" in notes
    assert "picky against rate : KeyboardInterrupt: not this rate" in notes
    assert "flips against rate : the figure changes sign" in notes
    assert "nothing against rate : the figure is 0, so it has no relative change" in notes


def test_the_class_page_shows_the_entries_elasticities(scenario_page: BeautifulSoup) -> None:
    shown = section(scenario_page, "Sensitivity")
    folded = shown.find_all("details", class_="refgen-sensitivity-table")
    summaries = [text(d.find("summary")) for d in folded]
    assert summaries == [
        # The phone's master_copies is 0, which has no 1 % change; the GPT-2
        # entry states no bandwidth, so it has no step floor.
        "PhoneFullUpdateWorkingSet: 15 figures against 7 inputs",
        "Gpt2XlFp16UpdateWorkingSet: 14 figures against 7 inputs",
    ]
    cells = elasticity_table(folded[0])
    assert cells["step_floor", "bandwidth"].get_text("").strip() == "−1.00"
    assert "refgen-strong" in cells["step_floor", "bandwidth"]["class"]
    assert "refgen-none" in cells["weights", "bandwidth"]["class"]
    assert "ln(y′/y) / ln(1.01)" in text(shown.find("p"))


MODE_SETTING = '''
    """Jobs whose construction sets a process-wide precision factor."""

    from dataclasses import dataclass

    MODE = {"factor": 1.0}


    @dataclass(frozen=True, kw_only=True)
    class Job:
        """A job; building one sets the process-wide precision factor."""

        work: float = 10.0
        """Work."""
        factor: float = 1.0
        """Precision factor."""

        def __post_init__(self) -> None:
            MODE["factor"] = self.factor

        @property
        def seconds(self) -> float:
            """Work times the factor in force."""
            return self.work * MODE["factor"]
'''
MODE_REGISTRY = '''
    """Named jobs."""

    from jobs.kinds import Job


    class Named:
        """Named jobs."""

        Exact = Job(work=10.0, factor=4.0)
        """A precise job."""
        Rough = Job(work=10.0, factor=1.0)
        """A rough one, built last: the factor in force is its own."""
'''


def test_the_baseline_is_the_class_built_again_not_the_figures_of_the_values(
    tmp_path: Path,
) -> None:
    """The values of ``Exact`` are computed with the last factor built (``Rough``'s);
    its elasticities compare the class built again, and 1 % more work is 1 % more time.
    Comparing with the values' figures (tried: the same fields, so the same figures?)
    gave 140.32."""
    written = write_scenario_project(
        tmp_path,
        "jobs",
        {"kinds": MODE_SETTING, "registry": MODE_REGISTRY},
        registry="registry.Named",
    )
    with fresh_imports(written.src):
        settings = Settings.from_mapping(
            {"modules": ["jobs.kinds"], "registry": "jobs.registry.Named"}, "the test"
        )
        project = Project(settings)
        assert project.load() == ()
        exact = sensitivity_after_values(project, "Exact")
    cell = exact.cell("seconds", "work")
    assert cell is not None and cell.text == "1.00"


def sensitivity_after_values(project: Project, entry_name: str) -> Sensitivity:
    found = project.entry_named(entry_name)
    assert not isinstance(found, str), found
    assert not isinstance(project.values(found.scenario), str)
    return sensitivity_of(project, entry_name)

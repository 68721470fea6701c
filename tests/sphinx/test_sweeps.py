"""Parameter sweeps: ``refgen-sweep`` computes figures along one input, plots and tabulates them.

The data is checked against the scenario class built directly in the test:
the table's numbers, and the plot's points read back from the SVG through its
axis ticks. Bad options are ``refgen.value`` warnings at the directive's line;
an incremental build reads a sweep's page again exactly when its figures change.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from bs4 import BeautifulSoup, Tag

from refgen.config import Settings
from refgen.evaluate.sweep_request import SweepRequest
from refgen.evaluate.sweeps import Sweep
from refgen.project import Project
from refgen.testing import BuildResult, ScenarioProject, fresh_imports, write_scenario_project
from tests.html_helpers import main, read_html, text
from tests.sphinx.test_incremental import reread, touch_edit

UNITS = '''
    """The package's unit registry."""

    import pint

    ureg = pint.UnitRegistry()
'''
MODELS = '''
    """Pump scenarios

    Filling tanks.
    """

    from dataclasses import dataclass

    from pint import Quantity


    @dataclass(frozen=True, kw_only=True)
    class Pump:
        """A pump filling a tank through one or more stages."""

        volume: Quantity
        """The tank's volume."""
        rate: Quantity
        """The pump's flow rate."""
        stages: int = 1
        """Stages the flow passes through."""

        def __post_init__(self) -> None:
            if self.rate.magnitude <= 0:
                raise ValueError("rate must be above zero")

        @property
        def fill_time(self) -> Quantity:
            """Time to fill the tank."""
            return (self.volume / self.rate).to("s")

        @property
        def per_stage(self) -> Quantity:
            """Volume through each stage."""
            return self.volume / self.stages

        @property
        def label(self) -> str:
            """The pump's name."""
            return "pump"

        @property
        def fussy(self) -> float:
            """Twice the stages, up to four stages."""
            if self.stages > 4:
                raise RuntimeError("too many stages")
            return self.stages * 2.0

        @property
        def hostile(self) -> float:
            """One, up to three stages; above, an error whose message is markup."""
            if self.stages > 3:
                raise RuntimeError("<script>alert(1)</script>")
            return 1.0
'''
REGISTRY = '''
    """Named pumps."""

    from pumps.models import Pump
    from pumps.units import ureg


    class Named:
        """Named scenarios."""

        Small = Pump(volume=2 * ureg.m**3, rate=10 * ureg.L / ureg.s, stages=2)
'''
PAGE = """\
Sweeps
======

.. refgen-sweep:: Small
   :vary: rate
   :values: 10 L/s, 0 L/s, 40 L/s
   :plot: fill_time, per_stage

.. refgen-sweep:: Nobody
   :vary: rate
   :values: 1 L/s, 2 L/s
   :plot: fill_time

.. refgen-sweep:: Small
   :vary: speed
   :values: 1 L/s, 2 L/s
   :plot: fill_time

.. refgen-sweep:: Small
   :vary: rate
   :values: 1 L/s, 2 L/s
   :plot: flow

.. refgen-sweep:: Small
   :vary: rate
   :values: 1 s, 2 s
   :plot: fill_time

After the sweeps.
"""
MYST_PAGE = """\
# Sweeps in Markdown

```{refgen-sweep} Small
:vary: stages
:from: 1
:to: 6
:steps: 6
:plot: fussy, hostile
```

```{refgen-sweep} Small
:vary: stages
:values: 1 m, 2 m
:plot: fussy
```

After the Markdown sweeps.
"""


def pumps_package(root: Path) -> ScenarioProject:
    return write_scenario_project(
        root,
        "pumps",
        {"units": UNITS, "models": MODELS, "registry": REGISTRY},
        registry="registry.Named",
        documented=["models"],
        conf_extra='extensions.append("myst_parser")\n',
    )


# ---------------------------------------------------------------------- evaluation


@pytest.fixture
def pumps(tmp_path: Path) -> Iterator[tuple[Project, object, object]]:
    """A Project of the pumps package (no Sphinx), the Pump class and the unit registry."""
    project = pumps_package(tmp_path)
    with fresh_imports(project.src):
        settings = Settings(modules=("pumps.models",), registry="pumps.registry.Named")
        from pumps.models import Pump
        from pumps.units import ureg

        yield Project(settings), Pump, ureg


def swept(project: Project, vary: str, *plot: str, **options: object) -> Sweep:
    return project.sweep(SweepRequest("Small", vary, plot, **options))  # type: ignore[arg-type]


def test_values_in_any_unit_are_swept_in_the_input_unit(pumps) -> None:
    project, pump, ureg = pumps
    result = swept(project, "rate", "fill_time", values=("0.5 L/s", "0.001 m**3/s", "2"))
    assert result.problem == ""
    assert result.input is not None
    assert (result.input.unit, result.input.magnitudes) == ("l/s", (0.5, 1, 2))
    [fill] = result.figures
    expected = [
        pump(volume=2 * ureg.m**3, rate=r * ureg.L / ureg.s, stages=2).fill_time
        for r in (0.5, 1, 2)
    ]
    assert fill.unit == "min"  # the unit a reader would write for the middle figure, 2000 s
    assert fill.magnitudes == pytest.approx([e.to("min").magnitude for e in expected])
    assert fill.texts == ("66.667", "33.333", "16.667")


def test_from_to_spacing_linear_logarithmic_and_whole(pumps) -> None:
    project, _, _ = pumps
    linear = swept(project, "rate", "fill_time", start="10 L/s", stop="40 L/s", steps="4")
    assert linear.input is not None and linear.input.magnitudes == (10, 20, 30, 40)
    log = swept(project, "rate", "fill_time", start="1 L/s", stop="1 m**3/s", steps="4", log=True)
    assert log.input is not None
    assert log.input.magnitudes == pytest.approx([1, 10, 100, 1000])
    whole = swept(project, "stages", "per_stage", start="1", stop="10", steps="4", log=True)
    assert whole.input is not None and whole.input.magnitudes == (1, 2, 5, 10)
    default = swept(project, "stages", "per_stage", start="1", stop="30")
    assert default.input is not None and len(default.input.magnitudes) == 11


def test_points_the_code_cannot_compute_are_gaps_with_reasons(pumps) -> None:
    project, _, _ = pumps
    result = swept(project, "stages", "fussy", "label", values=("2", "6"))
    fussy, label = result.figures
    assert fussy.magnitudes == (4.0, None)
    assert fussy.texts == ("4", "not available")
    assert label.magnitudes == (None, None)
    assert result.gap_messages() == (
        "label at stages = 2 ('pump' is not a number)",
        "fussy at stages = 6 (RuntimeError: too many stages)",
        "label at stages = 6 ('pump' is not a number)",
    )
    refused = swept(project, "rate", "fill_time", values=("0 L/s", "5 L/s"))
    assert refused.figures[0].magnitudes[0] is None
    assert refused.gap_messages()[0] == (
        "the scenario at rate = 0 l/s (cannot build Pump: ValueError: rate must be above zero)"
    )


@pytest.mark.parametrize(
    ("entry", "vary", "plot", "options", "message"),
    [
        ("Nobody", "rate", ("fill_time",), {"values": ("1", "2")}, "no registry scenario 'Nobody'"),
        ("Small", "speed", ("fill_time",), {"values": ("1", "2")}, "Pump has no input 'speed'"),
        ("Small", "rate", ("flow",), {"values": ("1", "2")}, "no derived attribute 'flow'"),
        ("Small", "rate", (), {"values": ("1", "2")}, "name the figures to plot"),
        ("Small", "", ("fill_time",), {"values": ("1", "2")}, "name the input to vary"),
        ("Small", "rate", ("fill_time",), {"values": ("1 s", "2 s")}, "is not in the unit of rate"),
        ("Small", "rate", ("fill_time",), {"values": ("1 blorp/s",)}, "cannot read"),
        ("Small", "stages", ("fussy",), {"values": ("1 m", "2 m")}, "is not one"),
        ("Small", "rate", ("fill_time",), {"values": ("1 L/s",)}, "at least two values"),
        ("Small", "rate", ("fill_time",), {}, "give the values to sweep"),
        (
            "Small",
            "rate",
            ("fill_time",),
            {"values": ("1", "2"), "start": "1"},
            "either values or from/to/steps",
        ),
        ("Small", "rate", ("fill_time",), {"start": "1", "stop": "2", "steps": "x"}, "steps:"),
        ("Small", "rate", ("fill_time",), {"start": "1", "stop": "2", "steps": "500"}, "steps:"),
        (
            "Small",
            "rate",
            ("fill_time",),
            {"start": "0", "stop": "2", "log": True},
            "logarithmic sweep needs values above zero",
        ),
    ],
)
def test_bad_requests_are_refused_with_a_reason(
    pumps, entry: str, vary: str, plot: tuple[str, ...], options: dict[str, object], message: str
) -> None:
    project, _, _ = pumps
    result = project.sweep(SweepRequest(entry, vary, plot, **options))  # type: ignore[arg-type]
    assert message in result.problem
    assert result.figures == () and result.input is None


def test_a_request_survives_its_key() -> None:
    request = SweepRequest("Small", "rate", ("a", "b"), values=("1 L/s", "2"), log=True)
    assert SweepRequest.from_key(request.key()) == request


# ---------------------------------------------------------------------- the plot, read back


def _number(label: str) -> float:
    return float(label.replace("\u2212", "-"))


def _ticks(axes: Tag, axis: str) -> list[tuple[float, float]]:
    """(position in the SVG, value) of each labelled tick of the ``x`` or ``y`` axis."""
    ticks = []
    for tick in axes.find_all("g", id=re.compile(rf"-{axis}tick_\d+$")):
        label = tick.find("text")
        if label is None or not label.get_text().strip():
            continue
        mark = tick.find("use")
        ticks.append((float(mark[axis]), _number(label.get_text())))
    return ticks


def _scale(ticks: list[tuple[float, float]], log: bool) -> tuple[float, float]:
    """``(a, b)`` with value = a + b * position (in log10 for a logarithmic axis)."""
    (p0, v0), (p1, v1) = ticks[0], ticks[-1]
    if log:
        v0, v1 = math.log10(v0), math.log10(v1)
    slope = (v1 - v0) / (p1 - p0)
    return v0 - slope * p0, slope


def plotted(svg: Tag, figure: str, log_x: bool = False) -> list[tuple[float, float]]:
    """The points of ``figure``'s line, in data units, read from its markers and the ticks."""
    line = svg.find("g", id=re.compile(rf"-line-{re.escape(figure)}$"))
    assert line is not None, f"no line for {figure}"
    axes = line.find_parent("g", id=re.compile(r"-axes_\d+$"))
    every_axes = svg.find_all("g", id=re.compile(r"-axes_\d+$"))
    xa, xb = _scale(_ticks(every_axes[-1], "x"), log_x)  # the bottom panel labels x
    ya, yb = _scale(_ticks(axes, "y"), False)
    points = []
    for marker in line.find_all("use"):
        x = xa + xb * float(marker["x"])
        points.append((10**x if log_x else x, ya + yb * float(marker["y"])))
    return points


def sweep_after(page: BeautifulSoup, sentence: str) -> tuple[Tag, Tag]:
    """The plot and table of the sweep whose sentence contains ``sentence``."""
    for paragraph in main(page).find_all("p"):
        if sentence in text(paragraph):
            container = paragraph.find_parent(class_="refgen-sweep")
            return container.find("svg"), container.find("table")
    raise AssertionError(f"no sweep introduced by {sentence!r}")


def table_numbers(table: Tag) -> list[list[float]]:
    rows = table.find("tbody").find_all("tr")
    return [
        [float(cell.get_text("").replace("\u2009", "")) for cell in row.find_all(["th", "td"])]
        for row in rows
    ]


PHONE_INPUTS = {
    "parameters": 10e6,
    "optimizer_moments": 2,
    "activation_factor": 5.0,
    "activation_factor_high": 8.0,
}


def test_site_sweep_matches_the_class_built_directly(site: BuildResult) -> None:
    from refgen_scenarios.training import UpdateWorkingSetScenario
    from refgen_scenarios.units import ureg

    bandwidths = (34.128, 51.2, 68.264)
    expected = [
        UpdateWorkingSetScenario(
            **PHONE_INPUTS, bytes_per_param=4 * ureg.byte, bandwidth=b * ureg.GB / ureg.s
        )
        .step_floor.to("ms")
        .magnitude
        for b in bandwidths
    ]
    page = read_html(site.outdir / "sweeps.html")
    svg, table = sweep_after(page, "step_floor of PhoneFullUpdateWorkingSet as bandwidth")
    headings = [text(th) for th in table.find("thead").find_all("th")]
    assert headings == ["bandwidth (GB/s)", "step_floor (ms)"]
    rows = table_numbers(table)
    assert [row[0] for row in rows] == list(bandwidths)
    assert [row[1] for row in rows] == pytest.approx(expected, rel=1e-4)  # 5 figures shown
    points = plotted(svg, "step_floor")
    assert [x for x, _ in points] == pytest.approx(bandwidths, rel=1e-4)
    assert [y for _, y in points] == pytest.approx(expected, rel=1e-4)
    assert svg["role"] == "img"
    assert svg.find("title").get_text() == svg["aria-label"]
    assert "step_floor of PhoneFullUpdateWorkingSet" in svg["aria-label"]


def test_site_log_sweep_matches_the_class_built_directly(site: BuildResult) -> None:
    from refgen_scenarios import Scenarios
    from refgen_scenarios.reliability import FleetFailureScenario

    base = Scenarios.FleetJob16kGpus
    gpus = [1024 * 2**i for i in range(8)]
    built = [
        FleetFailureScenario(
            gpus=n,
            gpus_per_node=base.gpus_per_node,
            node_failure_rate=base.node_failure_rate,
            period=base.period,
        )
        for n in gpus
    ]
    page = read_html(site.outdir / "sweeps.html")
    svg, table = sweep_after(page, "mtbf and expected_failures of FleetJob16kGpus")
    rows = table_numbers(table)
    assert [row[0] for row in rows] == gpus
    assert [row[1] for row in rows] == pytest.approx(
        [s.mtbf.to("h").magnitude for s in built], rel=1e-4
    )
    assert [row[2] for row in rows] == pytest.approx([s.expected_failures for s in built], rel=1e-4)
    points = plotted(svg, "mtbf", log_x=True)
    assert [x for x, _ in points] == pytest.approx(gpus, rel=1e-4)
    assert [y for _, y in points] == pytest.approx(
        [s.mtbf.to("h").magnitude for s in built], rel=1e-4
    )
    # A second panel, for a figure in another unit
    assert len(svg.find_all("g", id=re.compile(r"-axes_\d+$"))) == 2


# ---------------------------------------------------------------------- a throwaway build


@pytest.fixture(scope="module")
def pumps_site(tmp_path_factory: pytest.TempPathFactory) -> tuple[ScenarioProject, BuildResult]:
    project = pumps_package(tmp_path_factory.mktemp("pumps-site"))
    (project.docs / "sweeps.rst").write_text(PAGE)
    (project.docs / "markdown.md").write_text(MYST_PAGE)
    index = project.docs / "index.rst"
    index.write_text(index.read_text() + "   sweeps\n   markdown\n")
    return project, project.build("html", "--keep-going")


def line_of(path: Path, text: str, occurrence: int = 1) -> int:
    lines = [n for n, line in enumerate(path.read_text().splitlines(), 1) if text in line]
    return lines[occurrence - 1]


@pytest.mark.parametrize(
    ("page", "directive", "occurrence", "message"),
    [
        ("sweeps.rst", ".. refgen-sweep:: Small", 1, "1 point not available"),
        ("sweeps.rst", ".. refgen-sweep:: Nobody", 1, "no registry scenario 'Nobody'"),
        ("sweeps.rst", ".. refgen-sweep:: Small", 2, "Pump has no input 'speed'"),
        ("sweeps.rst", ".. refgen-sweep:: Small", 3, "Pump has no derived attribute 'flow'"),
        ("sweeps.rst", ".. refgen-sweep:: Small", 4, "'1 s' is not in the unit of rate (l/s"),
        ("markdown.md", "```{refgen-sweep} Small", 1, "5 points not available"),
        ("markdown.md", "```{refgen-sweep} Small", 2, "stages is a plain number"),
    ],
)
def test_bad_options_are_warnings_at_the_directive(
    pumps_site: tuple[ScenarioProject, BuildResult],
    page: str,
    directive: str,
    occurrence: int,
    message: str,
) -> None:
    project, result = pumps_site
    source = project.docs / page
    line = line_of(source, directive, occurrence)
    matching = [w for w in result.warnings if w.startswith(f"{source}:{line}: WARNING:")]
    assert len(matching) == 1, result.warnings
    assert message in matching[0] and matching[0].endswith("[refgen.value]")


def test_the_rest_of_the_page_builds_and_gaps_are_shown(
    pumps_site: tuple[ScenarioProject, BuildResult],
) -> None:
    _, result = pumps_site
    assert result.returncode == 0, result.stderr
    assert len(result.warnings) == 7, result.warnings
    page = read_html(result.outdir / "sweeps.html")
    shown = text(main(page))
    assert "After the sweeps." in shown
    assert "Sweep of Nobody not available: no registry scenario 'Nobody'" in shown
    assert "Traceback" not in shown
    assert len(main(page).find_all(class_="refgen-sweep")) == 1
    svg, table = sweep_after(page, "fill_time and per_stage of Small as rate")
    cells = [[text(c) for c in row.find_all(["th", "td"])] for row in table.find_all("tr")]
    assert cells[0] == ["rate (l/s)", "fill_time (s)", "per_stage (m³)"]
    assert cells[2][1].startswith("not available (cannot build Pump: ValueError")
    assert cells[3][:2] == ["40", "50"]
    assert [y for _, y in plotted(svg, "fill_time")] == pytest.approx([200, 50])  # the gap
    warning = next(w for w in result.warnings if "1 point not available" in w)
    assert "per_stage at rate = 0 l/s" not in warning  # a point that cannot be built is one gap
    assert "the scenario at rate = 0 l/s (cannot build Pump" in warning
    markdown = read_html(result.outdir / "markdown.html")
    assert "After the Markdown sweeps." in text(main(markdown))
    svg, table = sweep_after(markdown, "fussy and hostile of Small as stages")
    assert [row[1] for row in table_numbers_or_gaps(table)] == [2, 4, 6, 8, None, None]
    # An error message that is markup is shown as text, in the table and nowhere as markup.
    assert main(markdown).find("script") is None
    assert "not available (RuntimeError: <script>alert(1)</script>)" in text(table)
    assert [y for _, y in plotted(svg, "hostile")] == pytest.approx([1, 1, 1])


def table_numbers_or_gaps(table: Tag) -> list[list[float | None]]:
    rows = table.find("tbody").find_all("tr")
    return [
        [
            None if "not available" in cell.get_text() else float(cell.get_text(""))
            for cell in row.find_all(["th", "td"])
        ]
        for row in rows
    ]


def test_two_plots_on_a_page_share_no_id(site: BuildResult) -> None:
    page = read_html(site.outdir / "sweeps.html")
    ids = [node["id"] for svg in main(page).find_all("svg") for node in svg.find_all(id=True)]
    assert len(ids) == len(set(ids))
    referenced = {
        found
        for svg in main(page).find_all("svg")
        for node in svg.find_all(True)
        for value in node.attrs.values()
        if isinstance(value, str)
        for found in re.findall(r"url\(#([^)]+)\)|^#(.+)$", value)
    }
    assert {name for pair in referenced for name in pair if name} <= set(ids)


# ---------------------------------------------------------------------- incremental builds


@pytest.fixture
def pumps_built(tmp_path: Path) -> ScenarioProject:
    project = pumps_package(tmp_path)
    page = (
        "Sweeps\n======\n\n"
        ".. refgen-sweep:: Small\n   :vary: rate\n   :values: 10 L/s, 20 L/s\n"
        "   :plot: fill_time\n"
    )
    (project.docs / "sweeps.rst").write_text(page)
    index = project.docs / "index.rst"
    index.write_text(index.read_text() + "   sweeps\n")
    first = project.build("html", "-W")
    assert first.returncode == 0, first.stderr
    return project


def fill_times(result: BuildResult) -> list[float]:
    table = main(read_html(result.outdir / "sweeps.html")).find("table")
    return [row[1] for row in table_numbers(table)]


def test_a_property_edit_redraws_the_sweep(pumps_built: ScenarioProject) -> None:
    touch_edit(
        pumps_built.module_path("models"),
        'return (self.volume / self.rate).to("s")',
        'return (2 * self.volume / self.rate).to("s")',
    )
    # A fresh interpreter, as a user's next build: only the pickled environment carries over.
    result = pumps_built.build("html", "-W", isolated=True)
    assert result.returncode == 0, result.stderr
    assert "sweeps" in reread(result)
    assert fill_times(result) == [400, 200]


def test_an_edit_the_sweep_does_not_show_leaves_it_unread(pumps_built: ScenarioProject) -> None:
    touch_edit(
        pumps_built.module_path("models"),
        "return self.volume / self.stages",
        "return self.volume / self.stages / 1",
    )
    result = pumps_built.build("html", "-W")
    assert result.returncode == 0, result.stderr
    assert "reference/pumps.models/Pump" in reread(result)
    assert "sweeps" not in reread(result)


def test_a_touch_without_a_change_rereads_no_sweep(pumps_built: ScenarioProject) -> None:
    for name in ("models", "registry", "units"):
        touch_edit(pumps_built.module_path(name), "", "")
    result = pumps_built.build("html", "-W")
    assert reread(result) == set()
    assert fill_times(result) == [200, 100]

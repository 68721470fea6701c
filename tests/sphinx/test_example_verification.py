"""Examples are verified at build time, by the doctest builder and by pytest.

A throwaway scenario package with a wrong example proves the failure path: the
warning names the class, the ``.py`` file and the example's line; ``-W`` fails
the build, ``--keep-going`` lists every failure, and the pages are still built.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from refgen.testing import ScenarioProject, write_scenario_project

SHAPES = '''
    """Shape scenarios

    Two tiny scenarios for tests.
    """

    from dataclasses import dataclass


    @dataclass(frozen=True, kw_only=True)
    class Square:
        """A square.

        Examples
        --------
        >>> from shapes.registry import Registry
        >>> Registry.Small.area
        {square_area}
        """

        side: float
        """Length of a side."""

        @property
        def area(self) -> float:
            """Area of the square."""
            return self.side**2


    @dataclass(frozen=True, kw_only=True)
    class Circle:
        """A circle.

        Examples
        --------
        >>> from shapes.registry import Registry
        >>> round(Registry.Unit.circumference, 2)
        {circle_circumference}
        """

        radius: float
        """Radius."""

        @property
        def circumference(self) -> float:
            """Length of the rim."""
            return 2 * 3.14159 * self.radius
'''

REGISTRY = '''
    """Named shapes."""

    from shapes.geometry import Circle, Square


    class Registry:
        """The named shapes."""

        Small = Square(side=3.0)
        Unit = Circle(radius=1.0)
'''


def shapes_project(root: Path, square_area: str, circle_circumference: str) -> ScenarioProject:
    geometry = SHAPES.format(square_area=square_area, circle_circumference=circle_circumference)
    return write_scenario_project(
        root,
        "shapes",
        {"geometry": geometry, "registry": REGISTRY},
        registry="registry.Registry",
        conf_extra='extensions.append("sphinx.ext.doctest")\n',
    )


def example_line(project: ScenarioProject, statement: str) -> int:
    lines = project.module_path("geometry").read_text().splitlines()
    return next(i for i, line in enumerate(lines, start=1) if statement in line)


@pytest.fixture
def wrong(tmp_path: Path) -> ScenarioProject:
    """Both examples state a wrong figure."""
    return shapes_project(tmp_path / "wrong", square_area="10.0", circle_circumference="6.0")


@pytest.fixture
def right(tmp_path: Path) -> ScenarioProject:
    return shapes_project(tmp_path / "right", square_area="9.0", circle_circumference="6.28")


def test_correct_examples_build_cleanly(right: ScenarioProject) -> None:
    result = right.build("html", "-W", "--keep-going")
    assert result.returncode == 0, result.stderr
    assert result.warnings == []


def test_progress_is_reported_through_the_status_iterator(right: ScenarioProject) -> None:
    lines = right.build("html").stdout.splitlines()
    assert "[refgen] importing scenario modules... [100%] shapes.geometry" in lines
    assert "[refgen] analysing scenario classes... [100%] shapes.geometry.Circle" in lines
    # A fresh build fingerprints in a fork, quietly; a rebuild, while it plans.
    again = right.build("html").stdout.splitlines()
    fingerprinted = [line for line in again if line.startswith("[refgen] fingerprinting pages")]
    # Category pages come last: they show their classes' figures.
    assert fingerprinted[-1].endswith("[100%] reference/shapes.geometry/index")
    assert "[refgen] running examples... [ 50%] shapes.geometry.Circle" in lines
    assert "[refgen] running examples... [100%] shapes.geometry.Square" in lines


def test_dash_q_keeps_the_progress_quiet(right: ScenarioProject, tmp_path: Path) -> None:
    result = right.build("html", "-q", outdir=tmp_path / "quiet")
    assert result.returncode == 0
    assert "[refgen]" not in result.stdout


def test_wrong_example_is_a_warning_naming_class_file_and_line(wrong: ScenarioProject) -> None:
    result = wrong.build("html", "--keep-going")
    assert result.returncode == 0
    square_line = example_line(wrong, ">>> Registry.Small.area")
    circle_line = example_line(wrong, ">>> round(Registry.Unit.circumference, 2)")
    path = wrong.module_path("geometry")
    assert len(result.warnings) == 2, result.warnings
    square, circle = sorted(result.warnings, key=lambda w: "Circle" in w)
    assert square.startswith(f"{path}:{square_line}: WARNING: example of shapes.geometry.Square")
    assert "    expected:\n        10.0\n    got:\n        9.0" in square
    assert circle.startswith(f"{path}:{circle_line}: WARNING: example of shapes.geometry.Circle")
    assert "[refgen.example]" in square and "[refgen.example]" in circle
    assert (result.outdir / "reference" / "shapes.geometry" / "Square.html").exists()


def test_dash_w_fails_and_keep_going_lists_every_failure(wrong: ScenarioProject) -> None:
    result = wrong.build("html", "-W", "--keep-going")
    assert result.returncode != 0
    assert len(result.warnings) == 2
    assert (result.outdir / "reference" / "shapes.geometry" / "Circle.html").exists()


def test_examples_run_once_per_html_build(tmp_path: Path) -> None:
    counter = tmp_path / "runs.txt"
    project = shapes_project(tmp_path, square_area="9.0", circle_circumference="6.28")
    source = project.module_path("geometry")
    marker = f">>> _ = open({str(counter)!r}, 'a').write('ran;')"
    source.write_text(
        source.read_text().replace(
            ">>> Registry.Small.area", f"{marker}\n    >>> Registry.Small.area"
        )
    )
    result = project.build("html", "-W")
    assert result.returncode == 0, result.stderr
    assert counter.read_text() == "ran;"


def test_doctest_builder_runs_the_generated_examples(
    right: ScenarioProject, wrong: ScenarioProject
) -> None:
    passing = right.build("doctest")
    assert passing.returncode == 0, passing.stdout + passing.stderr
    summary = (passing.outdir / "output.txt").read_text()
    assert "0 failures in tests" in summary
    failing = wrong.build("doctest")
    assert failing.returncode != 0
    report = (failing.outdir / "output.txt").read_text()
    assert "2 failures in tests" in report
    square_line = example_line(wrong, ">>> Registry.Small.area")
    assert f'geometry.py", line {square_line}, in default' in report


def run_pytest(project: ScenarioProject, *args: str) -> subprocess.CompletedProcess[str]:
    (project.root / "pytest.ini").write_text(
        textwrap.dedent(
            """
            [pytest]
            testpaths = src/shapes
            refgen_modules = shapes.geometry
            """
        )
    )
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
        capture_output=True,
        text=True,
        cwd=project.root,
        env=project.environment(),
        check=False,
    )


def test_pytest_collects_one_item_per_class(right: ScenarioProject) -> None:
    result = run_pytest(right, "--collect-only", "-q")
    items = [line for line in result.stdout.splitlines() if "::" in line]
    assert items == ["src/shapes/geometry.py::Square", "src/shapes/geometry.py::Circle"]
    assert run_pytest(right, "-q").returncode == 0


def test_pytest_failure_names_file_and_line(wrong: ScenarioProject) -> None:
    result = run_pytest(wrong, "-q")
    assert result.returncode == 1
    path = wrong.module_path("geometry")
    line = example_line(wrong, ">>> Registry.Small.area")
    assert f"example of shapes.geometry.Square failed at {path}:{line}" in result.stdout
    assert "2 failed" in result.stdout

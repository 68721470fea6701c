"""Incremental builds re-read only what an edit affects, and never publish a stale number."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest

from refgen.testing import BuildResult, ScenarioProject, write_scenario_project
from tests.html_helpers import main, read_html, section, text

MOTION = '''
    """Motion scenarios

    Distance and time.
    """

    from dataclasses import dataclass


    @dataclass(frozen=True, kw_only=True)
    class Trip:
        """A trip at constant speed.

        Examples
        --------
        >>> from travel.registry import Named
        >>> Named.Commute.hours
        2.0
        """

        distance: float
        """Kilometres."""
        speed: float
        """Kilometres per hour."""

        @property
        def hours(self) -> float:
            """Time taken."""
            return self.distance / self.speed
'''
COST = '''
    """Cost scenarios

    Money.
    """

    from dataclasses import dataclass


    @dataclass(frozen=True, kw_only=True)
    class Fare:
        """A fare."""

        price: float
        """Euros."""

        @property
        def with_tip(self) -> float:
            """Price plus ten percent."""
            return self.price * 1.1
'''
REGISTRY = '''
    """Named trips."""

    from travel.cost import Fare
    from travel.motion import Trip


    class Named:
        """Named scenarios."""

        Commute = Trip(distance=120.0, speed=60.0)
        Taxi = Fare(price=10.0)
'''

READING = re.compile(r"reading sources\.\.\. \[\s*\d+%\] (\S+)")


def reread(result: BuildResult) -> set[str]:
    return set(READING.findall(result.stdout))


def touch_edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))
    later = time.time() + 2
    os.utime(path, (later, later))


@pytest.fixture
def travel(tmp_path: Path) -> ScenarioProject:
    project = write_scenario_project(
        tmp_path,
        "travel",
        {"motion": MOTION, "cost": COST, "registry": REGISTRY},
        registry="registry.Named",
    )
    (project.docs / "story.rst").write_text(
        "Story\n=====\n\nThe commute takes :scenario:`Commute.hours:.1f` hours.\n"
    )
    index = project.docs / "index.rst"
    index.write_text(index.read_text() + "   story\n")
    first = project.build("html", "-W")
    assert first.returncode == 0, first.stderr
    return project


def quoted_hours(result: BuildResult) -> str:
    return text(main(read_html(result.outdir / "story.html")).find(class_="refgen-value"))


def trip_page(result: BuildResult):
    return read_html(result.outdir / "reference" / "travel.motion" / "Trip.html")


def registry_hours(result: BuildResult) -> str:
    table = section(trip_page(result), "Registry values").find("table")
    row = next(r for r in table.find_all("tr") if "hours" in text(r.find(["th", "td"])))
    return text(row.find_all("td")[-1])


def test_nothing_changed_rereads_nothing(travel: ScenarioProject) -> None:
    again = travel.build("html", "-W")
    assert reread(again) == set()


def test_rebuild_sees_the_configuration_unchanged(travel: ScenarioProject) -> None:
    """refgen's own settings (its static folder) must not read as a change to conf.py."""
    again = travel.build("html", "-W")
    assert "configuration has changed" not in again.stdout
    assert "targets for 0 source files that are out of date" in again.stdout


def test_registry_input_change_updates_every_page_that_shows_it(travel: ScenarioProject) -> None:
    touch_edit(travel.module_path("registry"), "Trip(distance=120.0", "Trip(distance=90.0")
    touch_edit(travel.module_path("motion"), "    2.0\n", "    1.5\n")
    # A fresh interpreter, as a user's next build: only the pickled environment carries over.
    result = travel.build("html", "-W", isolated=True)
    assert result.returncode == 0, result.stderr
    assert registry_hours(result) == "1.5"
    assert quoted_hours(result) == "1.5"
    assert "reference/travel.cost/Fare" in reread(result)  # Taxi lives in the same registry
    category = read_html(result.outdir / "reference" / "travel.motion" / "index.html")
    assert "hours = 1.5 (Commute)" in text(main(category).find("table"))


def test_property_body_change_rereads_its_pages_only(travel: ScenarioProject) -> None:
    touch_edit(
        travel.module_path("motion"),
        "return self.distance / self.speed",
        "return self.distance / self.speed / 2",
    )
    touch_edit(travel.module_path("motion"), "    2.0\n", "    1.0\n")
    result = travel.build("html", "-W")
    assert result.returncode == 0, result.stderr
    assert reread(result) == {
        "reference/travel.motion/Trip",
        "reference/travel.motion/index",
        "story",
    }
    equation = trip_page(result).find(class_="refgen-equation")
    assert equation.get_text() == "self.distance / self.speed / 2"
    assert registry_hours(result) == "1"
    assert quoted_hours(result) == "1.0"


def test_stale_example_is_caught_on_incremental_build(travel: ScenarioProject) -> None:
    touch_edit(travel.module_path("registry"), "speed=60.0", "speed=30.0")
    result = travel.build("html", "--keep-going")
    assert any("example of travel.motion.Trip failed" in w for w in result.warnings)


def test_fixing_a_broken_registry_brings_its_values_back(travel: ScenarioProject) -> None:
    registry = travel.module_path("registry")
    touch_edit(registry, "Trip(distance=120.0", "Trip(distance=undefined_name")
    broken = travel.build("html", "--keep-going")
    assert any("cannot import registry module" in w for w in broken.warnings)
    assert section_titles(trip_page(broken)).count("Registry values") == 0
    touch_edit(registry, "Trip(distance=undefined_name", "Trip(distance=120.0")
    fixed = travel.build("html", "-W")
    assert fixed.returncode == 0, fixed.stderr
    assert "reference/travel.motion/Trip" in reread(fixed)
    assert registry_hours(fixed) == "2"
    assert quoted_hours(fixed) == "2.0"


def section_titles(page) -> list[str]:
    return [text(h).rstrip("¶").strip() for h in main(page).find_all("h2")]

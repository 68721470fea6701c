"""The checks: reading stated units, findings as data, and the build reporting them."""

from __future__ import annotations

from pathlib import Path

import pint
import pytest

from refgen.analysis.model import SourceLocation
from refgen.checks import CheckKind, Finding
from refgen.checks.findings import finding
from refgen.checks.units import DIMENSIONLESS, parse_stated, stated_units
from refgen.testing import write_scenario_project

UREG = pint.UnitRegistry()


@pytest.mark.parametrize(
    ("description", "stated"),
    [
        ("Parameter storage in MB: the parameter count times the bytes.", ["MB"]),
        ("Bandwidth-bound time of one all-reduce in seconds.", ["seconds"]),
        ("MB: parameter storage", ["MB"]),
        ("Working set (MB)", ["MB"]),
        ("Energy in kWh per token", ["kWh per token"]),
        ("Traffic as a dimensionless multiple of the weight bytes.", ["dimensionless"]),
        ("Number of trainable parameters.", []),
    ],
)
def test_stated_units_finds_each_form(description: str, stated: list[str]) -> None:
    assert stated_units(description) == stated


@pytest.mark.parametrize(
    ("text", "unit"),
    [("MB", UREG.MB), ("seconds", UREG.second), ("ms", UREG.millisecond), ("bytes", UREG.byte)],
)
def test_parse_stated_reads_units(text: str, unit: object) -> None:
    assert parse_stated(text, UREG) == unit


@pytest.mark.parametrize("text", ["a", "turn", "units", "mass", "place", "petaflop/s-days"])
def test_parse_stated_does_not_read_english_as_units(text: str) -> None:
    assert parse_stated(text, UREG) is None


def test_dimensionless_is_its_own_answer() -> None:
    assert parse_stated("dimensionless", UREG) == DIMENSIONLESS


def test_findings_sort_by_file_and_line_and_keep_their_location() -> None:
    late = finding(CheckKind.UNIT_MISMATCH, "late", SourceLocation("a.py", 20))
    early = finding(CheckKind.MISSING_EXAMPLE, "early", SourceLocation("a.py", 3))
    nowhere = finding("analysis", "cannot analyse", None, "pkg.mod.Cls")
    assert sorted([late, nowhere, early]) == [early, late, nowhere]
    assert early.location == SourceLocation("a.py", 3)
    assert nowhere == Finding("pkg.mod.Cls", 0, "analysis", "cannot analyse")
    assert nowhere.location is None


SPARSE = '''
    """Sparse scenarios"""

    from dataclasses import dataclass


    @dataclass(frozen=True)
    class Sparse:
        """A scenario with no Notes and no examples."""

        size: float = 2.0
        """The size in bytes."""

        @property
        def doubled(self) -> float:
            """Twice the size."""
            return self.size * 2
'''


def test_the_build_reports_what_check_finds_when_asked(tmp_path: Path) -> None:
    project = write_scenario_project(
        tmp_path, "sparse", {"models": SPARSE}, conf_extra="refgen_checks = True\n"
    )
    result = project.build("html", "--keep-going")
    checks = [w for w in result.warnings if w.endswith("[refgen.check]")]
    assert any("no Equation: entry" in w and "[missing-equation]" in w for w in checks), checks
    assert any("no Examples section" in w for w in checks), checks
    assert all(w.startswith(f"{project.module_path('models')}:") for w in checks), checks


def test_check_warnings_are_off_by_default_and_can_be_silenced(tmp_path: Path) -> None:
    quiet = write_scenario_project(tmp_path / "a", "sparse", {"models": SPARSE})
    assert not [w for w in quiet.build("html").warnings if "refgen.check" in w]
    silenced = write_scenario_project(
        tmp_path / "b",
        "sparse",
        {"models": SPARSE},
        conf_extra='refgen_checks = True\nsuppress_warnings = ["refgen.check"]\n',
    )
    result = silenced.build("html", "-W")
    assert result.returncode == 0, result.stderr


FAMILY = '''
    """A family of scenarios"""

    from dataclasses import dataclass


    @dataclass(frozen=True)
    class Parent:
        """The base."""

        size: float = 2.0

        @property
        def doubled(self) -> float:
            return self.size * 2


    @dataclass(frozen=True)
    class Son(Parent):
        """One child."""


    @dataclass(frozen=True)
    class Daughter(Parent):
        """Another child."""
'''


def test_an_inherited_member_is_one_finding_under_its_base(tmp_path: Path) -> None:
    project = write_scenario_project(
        tmp_path, "family", {"models": FAMILY}, conf_extra="refgen_checks = True\n"
    )
    result = project.build("html", "--keep-going")
    missing = [w for w in result.warnings if "has no docstring" in w and "refgen.check" in w]
    assert len([w for w in missing if ".size: input has no docstring" in w]) == 1, missing
    assert len([w for w in missing if ".doubled: derived attribute" in w]) == 1, missing
    assert all("Parent." in w for w in missing if ".size:" in w or ".doubled:" in w), missing

"""The JSON export of this repository's ``refgen_scenarios``, held against a reviewed golden file.

``tests/golden/export.json`` is exactly what ``refgen export --json`` prints in
the repository. Any change to the export (a scenario, a docstring, a computed
figure or the exporter itself) makes the test fail with a unified diff. When
the change is intended, regenerate the file and review its diff in git:

    REFGEN_UPDATE_GOLDEN=1 python -m pytest tests/unit/cli/test_golden_export.py

Files in the export are relative to the folder holding the top-level package,
so the golden file is the same on every machine; the other tests here keep it so.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.golden import assert_matches_golden
from tests.unit.cli.test_cli import refgen, refgen_on_sloppy


@pytest.fixture(scope="module")
def export() -> str:
    result = refgen("export", "--json")
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_export_matches_the_golden_file(export: str) -> None:
    assert_matches_golden(export, "export.json", "refgen export --json")


def files_in(data: object) -> list[str]:
    """Every ``file`` field of the export, at any depth."""
    if isinstance(data, dict):
        own = [data["file"]] if isinstance(data.get("file"), str) else []
        return own + [f for value in data.values() for f in files_in(value)]
    if isinstance(data, list):
        return [f for value in data for f in files_in(value)]
    return []


def test_export_names_files_relative_to_the_package(export: str) -> None:
    files = files_in(json.loads(export))
    assert files
    assert all(f.startswith("refgen_scenarios/") and f.endswith(".py") for f in files), set(files)
    assert str(REPO) not in export
    assert tempfile.gettempdir() not in export


def test_export_of_a_package_elsewhere_names_no_folder_of_this_machine(tmp_path: Path) -> None:
    _, result = refgen_on_sloppy(tmp_path, "export", "--json")
    assert result.returncode == 0, result.stderr
    assert str(tmp_path) not in result.stdout
    assert set(files_in(json.loads(result.stdout))) == {"pkg/mod.py", "pkg/reg.py"}

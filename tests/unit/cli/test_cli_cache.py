"""``refgen show`` keeps its page on disk until a file it came from changes.

Each step runs the command as a user does (a subprocess) in a throwaway
project whose modules write a line to ``imports.log`` when they are imported:
a lookup answered from the cache imports nothing of the library.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from refgen.cli.cache import FOLDER
from refgen.testing import ScenarioProject, write_scenario_project

LOG = """
import pathlib as _pathlib

with open(_pathlib.Path(__file__).parents[2] / "imports.log", "a") as _log:
    _log.write(__name__ + "\\n")
"""

MODULES = {
    "helpers": LOG
    + '''
def doubled(value):
    """Twice ``value``."""
    return 2 * value
''',
    "boxes": LOG
    + '''
from pydantic import BaseModel

from .helpers import doubled


class Box(BaseModel):
    """A box of things."""

    items: int = 1

    @property
    def capacity(self) -> int:
        """Room for twice the items."""
        return doubled(self.items)

    @property
    def extra(self) -> int:
        """What a module beside the package adds, when there is one."""
        try:
            import cachesibling
        except ImportError:
            return -1
        return cachesibling.VALUE
''',
    "registry": """
from .boxes import Box


class Registry:
    Small = Box(items=21)
""",
}


@pytest.fixture
def project(tmp_path: Path) -> ScenarioProject:
    return write_scenario_project(tmp_path, "cachepkg", MODULES, registry="registry.Registry")


def show(project: ScenarioProject, *args: str) -> subprocess.CompletedProcess[str]:
    options = ["--module", "cachepkg.boxes", "--registry", "cachepkg.registry.Registry"]
    completed = subprocess.run(
        [sys.executable, "-m", "refgen", "show", *args, *options],
        capture_output=True,
        text=True,
        cwd=project.root,
        env={**project.environment(), "PYTHONIOENCODING": "utf-8"},
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    return completed


def imports(project: ScenarioProject) -> int:
    log = project.root / "imports.log"
    return len(log.read_text().splitlines()) if log.exists() else 0


def test_a_second_lookup_imports_nothing_and_prints_the_same(project: ScenarioProject) -> None:
    first = show(project, "Small")
    assert "42" in first.stdout
    loaded = imports(project)
    assert loaded == 2  # helpers and boxes
    second = show(project, "Small")
    assert second.stdout == first.stdout
    assert imports(project) == loaded
    ignore = project.root / FOLDER / ".gitignore"
    assert ignore.read_text().splitlines()[-1] == "*"


def test_an_edit_to_a_module_the_lookup_reached_is_seen(project: ScenarioProject) -> None:
    show(project, "Small")
    helpers = project.module_path("helpers")
    helpers.write_text(helpers.read_text().replace("2 * value", "3 * value"))
    assert "63" in show(project, "Small").stdout
    assert imports(project) == 4


def test_a_file_added_to_the_package_means_a_fresh_lookup(project: ScenarioProject) -> None:
    show(project, "Small")
    (project.src / "cachepkg" / "table.csv").write_text("a,b\n")
    show(project, "Small")
    assert imports(project) == 4


def test_each_name_and_option_has_its_own_page(project: ScenarioProject) -> None:
    summary = show(project, "Small").stdout
    page = show(project, "Small", "--page").stdout
    assert page != summary
    assert show(project, "Small", "--page").stdout == page
    assert show(project, "Box").stdout != summary
    assert imports(project) == 6  # three lookups computed, one answered from the cache


def test_no_cache_neither_reads_nor_writes_it(project: ScenarioProject) -> None:
    show(project, "Small", "--no-cache")
    assert not (project.root / FOLDER).exists()
    show(project, "Small")
    show(project, "Small", "--no-cache")
    assert imports(project) == 6


def test_a_damaged_cache_file_is_ignored(project: ScenarioProject) -> None:
    expected = show(project, "Small").stdout
    for stored in (project.root / FOLDER).glob("*.pickle"):
        stored.write_bytes(b"not a pickle")
    assert show(project, "Small").stdout == expected
    assert imports(project) == 4


def test_a_cache_folder_that_cannot_be_made_leaves_the_lookup_alone(
    project: ScenarioProject,
) -> None:
    (project.root / FOLDER).write_text("a file where the folder would go")
    assert "42" in show(project, "Small").stdout
    assert "42" in show(project, "Small").stdout
    assert imports(project) == 4


def test_a_lookup_where_a_value_ran_out_of_time_is_not_kept(project: ScenarioProject) -> None:
    (project.root / "pyproject.toml").write_text("[tool.refgen]\neval_timeout = 1\n")
    boxes = project.module_path("boxes")
    boxes.write_text(
        boxes.read_text().replace(
            "        return doubled(self.items)",
            "        import time\n\n        time.sleep(30)\n        return doubled(self.items)",
        )
    )
    assert "not available" in show(project, "Small").stdout
    show(project, "Small")
    assert imports(project) == 4


def test_a_module_added_beside_the_package_is_seen(project: ScenarioProject) -> None:
    assert "-1" in show(project, "Small.extra").stdout
    (project.src / "cachesibling.py").write_text("VALUE = 5\n")
    assert "5" in show(project, "Small.extra").stdout.replace("-1", "")
    assert imports(project) == 4


def test_a_namespace_package_is_cached_and_follows_edits(project: ScenarioProject) -> None:
    """Without an ``__init__.py`` the package's folders are those Python found for it."""
    (project.src / "cachepkg" / "__init__.py").unlink()
    assert "42" in show(project, "Small").stdout
    show(project, "Small")
    assert imports(project) == 2
    helpers = project.module_path("helpers")
    helpers.write_text(helpers.read_text().replace("return 2 * value", "return 3 * value"))
    assert "63" in show(project, "Small").stdout
    assert imports(project) == 4

"""The test harness: in-process builds act like ``python -m sphinx`` and import afresh."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from refgen.testing import ScenarioProject, analyse_source, write_scenario_project
from tests.html_helpers import read_html

COUNTING = '''
    """Counting scenarios

    One tiny class.
    """

    from dataclasses import dataclass


    @dataclass(frozen=True, kw_only=True)
    class Apples:
        """Apples in a basket.

        Notse
        -----
        A misspelt section, for a warning.
        """

        count: int
        """How many."""

        @property
        def doubled(self) -> int:
            """Twice as many."""
            return 2 * self.count
'''


def fruit(root: Path, source: str = COUNTING) -> ScenarioProject:
    return write_scenario_project(root, "fruit", {"counting": source})


def leftovers(project: ScenarioProject) -> list[str]:
    src = os.path.join(project.src, "")
    imported = [
        name
        for name, module in sys.modules.items()
        if name.partition(".")[0] == project.package
        or str(getattr(module, "__file__", None) or "").startswith(src)
    ]
    return imported + [entry for entry in sys.path if entry.startswith(str(project.src))]


def test_in_process_build_reports_as_a_subprocess_build_does(tmp_path: Path) -> None:
    project = fruit(tmp_path)
    here = project.build("html", "-W", "--keep-going", outdir=tmp_path / "here")
    there = project.build("html", "-W", "--keep-going", outdir=tmp_path / "there", isolated=True)
    assert (here.returncode, there.returncode) == (1, 1)
    assert here.warnings == there.warnings
    (warning,) = here.warnings
    line = project.module_path("counting").read_text().splitlines().index("    Notse") + 1
    assert warning.startswith(f"{project.module_path('counting')}:{line}: WARNING: ")
    assert warning.endswith("[refgen.docstring]")
    assert "\x1b[" not in here.stdout + here.stderr  # no colour
    assert leftovers(project) == []


REGISTRY = '''
    """Named baskets."""

    from fruit.counting import Apples


    class Named:
        """Named baskets."""

        Basket = Apples(count=5)
'''


def test_an_edit_between_builds_is_imported(tmp_path: Path) -> None:
    """Same size, same mtime: neither a cached module nor stale bytecode hides the edit."""
    project = write_scenario_project(
        tmp_path, "fruit", {"counting": COUNTING, "registry": REGISTRY}, registry="registry.Named"
    )
    (project.docs / "story.rst").write_text("Story\n=====\n\n:scenario:`Basket.doubled`\n")
    index = project.docs / "index.rst"
    index.write_text(index.read_text() + "   story\n")

    def quoted() -> str:
        result = project.build("text", "-E")
        assert result.returncode == 0, result.stderr
        assert leftovers(project) == []
        return (result.outdir / "story.txt").read_text().split()[-1]

    assert quoted() == "10"
    path = project.module_path("counting")
    stat = path.stat()
    path.write_text(path.read_text().replace("2 * self.count", "3 * self.count"))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert quoted() == "15"


def test_two_packages_of_one_name_do_not_share_source(tmp_path: Path) -> None:
    """Sphinx caches module analysers by module name; each build must see its own package."""
    first = fruit(tmp_path / "first")
    second = fruit(tmp_path / "second", COUNTING.replace("2 * self.count", "self.count + 7"))
    shown = {}
    for project in (first, second):
        result = project.build("html")
        assert result.returncode == 0, result.stderr
        shown[project] = read_html(
            result.outdir / "_modules" / "fruit" / "counting.html"
        ).get_text()
        assert leftovers(project) == []
    assert "2 * self.count" in shown[first] and "self.count + 7" not in shown[first]
    assert "self.count + 7" in shown[second] and "2 * self.count" not in shown[second]


def test_analyse_source_imports_each_source_afresh() -> None:
    one = analyse_source(COUNTING.replace("2 * self.count", "4 * self.count"))
    two = analyse_source(COUNTING)
    assert one["Apples"].derived[0].equation.expression == "4 * self.count"
    assert two["Apples"].derived[0].equation.expression == "2 * self.count"
    assert not [name for name in sys.modules if name == "memo" or name.startswith("memo.")]
    assert not Path(two.path).exists()

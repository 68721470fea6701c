"""Warnings a person can read at scale: counted, grouped, and never lost.

A library whose only gaps are properties without docstrings builds under
``-W``: one line of the build's output counts them, ``refgen
check`` lists each, and ``refgen_missing_docstrings`` makes them warnings
again. Other repeats of one problem are one warning at the first one's line.
A rebuild with nothing changed prints what the clean build printed. On the
benchmark's shape of library (``bench/real_library.py``) the default build
prints a handful of warning lines, not one per class.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from refgen.testing import BuildResult, ScenarioProject, sphinx_build, write_scenario_project

REPO = Path(__file__).resolve().parents[2]
CLASSES = 30
ATTRIBUTES = ("double", "triple")


def quiet_models(count: int) -> str:
    """``count`` documented classes with two documented inputs and two properties each, the
    properties without a docstring."""
    parts = ['"""Quiet scenarios"""\n\nfrom dataclasses import dataclass\n']
    for number in range(count):
        parts.append(
            f'''

@dataclass(frozen=True)
class Quiet{number:02d}:
    """Scenario number {number}: documented, its properties not."""

    size: float = {number + 1}.0
    """The size."""

    @property
    def double(self) -> float:
        return 2 * self.size

    @property
    def triple(self) -> float:
        return 3 * self.size
'''
        )
    return "".join(parts)


def quiet_project(root: Path, conf: str = "") -> ScenarioProject:
    return write_scenario_project(root, "quiet", {"models": quiet_models(CLASSES)}, conf_extra=conf)


def summary_lines(result: BuildResult) -> list[str]:
    return [line for line in result.stdout.splitlines() if "without a docstring" in line]


def line_of(path: Path, text: str) -> int:
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def property_lines(project: ScenarioProject, module: str = "models") -> list[int]:
    """The ``def`` line of every property in the module, in order."""
    source = project.module_path(module).read_text(encoding="utf-8").splitlines()
    return [n for n, line in enumerate(source, 1) if line.strip().startswith("def ")]


def refgen_check(project: ScenarioProject, *args: str) -> tuple[int, dict[str, Any]]:
    """``refgen check --format json ARGS`` on the project's documented modules."""
    completed = subprocess.run(
        [sys.executable, "-m", "refgen", "check", "--format", "json", *args],
        capture_output=True,
        text=True,
        cwd=project.root,
        env=project.environment(),
        check=False,
    )
    return completed.returncode, json.loads(completed.stdout)


# ---------------------------------------------------------------------- missing docstrings


@pytest.fixture(scope="module")
def quiet(tmp_path_factory: pytest.TempPathFactory) -> tuple[ScenarioProject, list[BuildResult]]:
    """The quiet project built with ``-W`` twice: clean, then with nothing changed."""
    project = quiet_project(tmp_path_factory.mktemp("quiet"))
    builds = [project.build("html", "-W", "--keep-going") for _ in range(2)]
    return project, builds


def test_missing_docstrings_are_one_line_and_w_passes(
    quiet: tuple[ScenarioProject, list[BuildResult]],
) -> None:
    _, (clean, _) = quiet
    assert clean.returncode == 0, clean.stderr
    assert clean.warnings == []
    assert summary_lines(clean) == [
        f"[refgen] {CLASSES} classes have {CLASSES * len(ATTRIBUTES)} derived attributes "
        "without a docstring (not a warning): `refgen check --kind missing-docstring` lists "
        'them, and refgen_missing_docstrings = "warn" makes each class a warning'
    ]


def test_a_rebuild_with_nothing_changed_prints_the_same_summary(
    quiet: tuple[ScenarioProject, list[BuildResult]],
) -> None:
    _, (clean, again) = quiet
    assert "0 added, 0 changed, 0 removed" in again.stdout
    assert again.returncode == clean.returncode == 0
    assert summary_lines(again) == summary_lines(clean)
    assert again.warnings == clean.warnings == []


def test_refgen_check_lists_each_missing_docstring(
    quiet: tuple[ScenarioProject, list[BuildResult]],
) -> None:
    project, _ = quiet
    status, report = refgen_check(
        project, "--module", "quiet.models", "--kind", "missing-docstring"
    )
    assert status == 1
    path = project.module_path("models").relative_to(project.root).as_posix()
    assert [(f["path"], f["line"]) for f in report["findings"]] == [
        (path, line) for line in property_lines(project)
    ]
    messages = {f["message"] for f in report["findings"]}
    assert messages == {
        f"Quiet{n:02d}.{name}: derived attribute has no docstring"
        for n in range(CLASSES)
        for name in ATTRIBUTES
    }


def test_refgen_check_refuses_a_kind_no_finding_has(
    quiet: tuple[ScenarioProject, list[BuildResult]],
) -> None:
    project, _ = quiet
    completed = subprocess.run(
        [sys.executable, "-m", "refgen", "check", "--module", "quiet.models", "--kind", "typo"],
        capture_output=True,
        text=True,
        cwd=project.root,
        env=project.environment(),
        check=False,
    )
    assert completed.returncode == 2
    assert "no finding is of kind typo; the kinds are missing-docstring," in completed.stderr
    assert completed.stderr.rstrip().endswith("analysis, registry, value")


def test_an_edit_changes_the_count_as_a_clean_build_would(tmp_path: Path) -> None:
    project = quiet_project(tmp_path)
    assert project.build("html", "-W").returncode == 0
    path = project.module_path("models")
    source = path.read_text(encoding="utf-8")
    path.write_text(
        source.replace(
            "    def double(self) -> float:\n",
            '    def double(self) -> float:\n        """Twice the size."""\n',
            1,
        ),
        encoding="utf-8",
    )
    edited = project.build("html", "-W")
    clean = project.build("html", "-W", "-E", outdir=tmp_path / "clean")
    assert edited.returncode == clean.returncode == 0, edited.stderr
    assert summary_lines(edited) == summary_lines(clean)
    assert f"have {CLASSES * len(ATTRIBUTES) - 1} derived attributes" in summary_lines(clean)[0]


@pytest.mark.parametrize("strict", ["warn", "each"])
def test_the_strict_setting_makes_them_warnings_that_name_each(tmp_path: Path, strict: str) -> None:
    project = quiet_project(tmp_path, f'refgen_missing_docstrings = "{strict}"\n')
    builds = [project.build("html", "-W", "--keep-going") for _ in range(2)]
    for result in builds:
        assert result.returncode == 1
        assert summary_lines(result) == []
        assert all(w.endswith("[refgen.docstring]") for w in result.warnings), result.warnings
    clean, again = builds
    assert again.warnings == clean.warnings
    path = project.module_path("models")
    if strict == "warn":  # a warning per class, at its class line, naming both
        source = path.read_text(encoding="utf-8").splitlines()
        class_lines = [n for n, line in enumerate(source, 1) if line.startswith("class ")]
        assert clean.warnings == [
            f"{path}:{line}: WARNING: quiet.models.Quiet{n:02d}: 2 derived attributes have "
            "no docstring: double, triple [refgen.docstring]"
            for n, line in enumerate(class_lines)
        ]
    else:  # a warning per attribute, at its own line
        assert [w.partition(": WARNING:")[0] for w in clean.warnings] == [
            f"{path}:{line}" for line in property_lines(project)
        ]


# ---------------------------------------------------------------------- other repeats

MISSPELT = 8
"""Classes whose docstring has a section numpydoc does not know."""
CAVEATS = "\n    Caveats\n    -------\n    Not a numpydoc section.\n"
RAISING = 7
"""Registry entries a helper fails for."""
STRAYS = 7
"""Registry entries of a class no documented module defines."""
LEGACY = '''
    """Undocumented scenarios"""

    from dataclasses import dataclass


    @dataclass(frozen=True)
    class Stray:
        """Documented nowhere."""

        size: float = 1.0
        """The size."""
'''


def repeats_models() -> str:
    parts = ['"""Repeated problems"""\n\nfrom dataclasses import dataclass\n\n\n']
    parts.append("def rate(size: float) -> float:\n    return 1.0 / (size - 1.0)\n")
    for number in range(MISPELT_AND_RAISING):
        section = (
            "\n    Caveats\n    -------\n    Not a numpydoc section.\n" if number < MISSPELT else ""
        )
        parts.append(
            f'''

@dataclass(frozen=True)
class Busy{number:02d}:
    """Scenario number {number}.
{section}    """

    size: float = 2.0
    """The size."""

    @property
    def speed(self) -> float:
        """The rate at this size."""
        return rate(self.size)
'''
        )
    return "".join(parts)


MISPELT_AND_RAISING = max(MISSPELT, RAISING)
REPEATS_REGISTRY = (
    '"""Named scenarios."""\n\nfrom repeats import legacy, models\n\n\nclass Registry:\n'
    + "".join(
        f"    Entry{number:02d} = models.Busy{number:02d}(size=1.0)\n" for number in range(RAISING)
    )
    + "".join(f"    Lost{number:02d} = legacy.Stray()\n" for number in range(STRAYS))
)


def repeats_project(root: Path, conf: str = "") -> ScenarioProject:
    return write_scenario_project(
        root,
        "repeats",
        {"models": repeats_models(), "legacy": LEGACY, "registry": REPEATS_REGISTRY},
        registry="registry.Registry",
        documented=["models"],
        conf_extra=conf,
    )


@pytest.fixture(scope="module")
def repeats(tmp_path_factory: pytest.TempPathFactory) -> tuple[ScenarioProject, list[BuildResult]]:
    """The project of repeated problems built twice (clean, then nothing changed)."""
    project = repeats_project(tmp_path_factory.mktemp("repeats"))
    builds = [project.build("html", "--keep-going") for _ in range(2)]
    return project, builds


def test_repeats_of_one_problem_are_one_warning_at_the_first_ones_line(
    repeats: tuple[ScenarioProject, list[BuildResult]],
) -> None:
    project, (clean, _) = repeats
    assert clean.returncode == 0, clean.stderr
    path = project.module_path("models")
    source = path.read_text(encoding="utf-8").splitlines()
    [registry, docstring, value] = clean.warnings  # the registry's at builder-inited
    caveats = source.index("    Caveats") + 1
    assert docstring.startswith(
        f"{path}:{caveats}: WARNING: repeats.models.Busy00: unknown docstring section 'Caveats'"
    )
    assert (
        f"(and {MISSPELT - 1} more like it: repeats.models.Busy01, repeats.models.Busy02, "
        "repeats.models.Busy03, …; `refgen check --kind docstring` lists them all, and "
        "refgen_group_warnings = False warns about each) [refgen.docstring]"
    ) in docstring
    speed = source.index("    def speed(self) -> float:") + 1
    assert value.startswith(
        f"{path}:{speed}: WARNING: repeats.models.Busy00.speed cannot be computed for registry "
        "entry Entry00: ZeroDivisionError: float division by zero "
        f"(and {RAISING - 1} more like it: repeats.models.Busy01.speed,"
    )
    assert value.endswith("refgen_group_warnings = False warns about each) [refgen.value]")
    registry_path = project.module_path("registry")
    assert registry.startswith(f"{registry_path}:{line_of(registry_path, 'class Registry')}: ")
    assert registry.endswith(
        f"{STRAYS} registry entries are instances of classes no module in refgen_modules "
        "defines: Lost00 (repeats.legacy.Stray), Lost01 (repeats.legacy.Stray), Lost02 "
        f"(repeats.legacy.Stray) and {STRAYS - 3} more (`refgen check --kind registry` lists "
        "them all) [refgen.registry]"
    )


def test_a_rebuild_with_nothing_changed_gives_the_same_grouped_warnings(
    repeats: tuple[ScenarioProject, list[BuildResult]],
) -> None:
    _, (clean, again) = repeats
    assert again.returncode == clean.returncode
    assert again.warnings == clean.warnings


def test_refgen_check_lists_every_repeat(
    repeats: tuple[ScenarioProject, list[BuildResult]],
) -> None:
    project, _ = repeats
    _, report = refgen_check(
        project,
        "--module",
        "repeats.models",
        "--registry",
        "repeats.registry.Registry",
        "--kind",
        "docstring",
        "--kind",
        "value",
        "--kind",
        "registry",
    )
    kinds = [f["kind"] for f in report["findings"]]
    assert kinds.count("docstring") == MISSPELT
    assert kinds.count("value") == RAISING
    assert kinds.count("registry") == STRAYS
    assert {f["message"].split(" ", 1)[0] for f in report["findings"] if f["kind"] == "value"} == {
        f"repeats.models.Busy{n:02d}.speed" for n in range(RAISING)
    }


@pytest.mark.parametrize(
    ("conf", "counts"),
    [
        (
            "refgen_group_warnings = False",
            {"docstring": MISSPELT, "value": RAISING, "registry": 1},
        ),
        ('suppress_warnings = ["refgen.docstring"]', {"value": 1, "registry": 1}),
    ],
)
def test_each_repeat_is_one_setting_away_and_a_group_keeps_its_kind(
    tmp_path: Path, conf: str, counts: dict[str, int]
) -> None:
    result = repeats_project(tmp_path, f"{conf}\n").build("html", "--keep-going")
    found: dict[str, int] = {}
    for warning in result.warnings:
        kind = warning.rpartition("[refgen.")[2].rstrip("]")
        found[kind] = found.get(kind, 0) + 1
    assert found == counts, result.warnings


# ---------------------------------------------------------------------- the benchmark's shape


def test_the_benchmark_shape_prints_a_handful_of_warning_lines(tmp_path: Path) -> None:
    """60 classes of ``bench/real_library.py`` (most properties without a docstring; a few
    registry entries of a module the reference does not document): before, one warning
    per class; now the registry's one, and the count of missing docstrings."""
    sys.path.insert(0, str(REPO / "bench"))
    try:
        import real_library
    finally:
        sys.path.remove(str(REPO / "bench"))
    library = real_library.write_library(tmp_path / "src", classes=60)
    real_library.write_refgen_docs(tmp_path / "docs")
    result = sphinx_build(
        tmp_path / "docs", tmp_path / "out", "html", paths=[tmp_path / "src"], cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stderr.splitlines() if "WARNING" in line]
    assert len(lines) <= 20, lines
    assert [line.rpartition(" ")[2] for line in lines] == ["[refgen.registry]"]
    [summary] = summary_lines(result)
    assert summary.startswith("[refgen] ")
    undocumented = int(summary.split(" have ")[1].split(" ")[0])
    assert 0.8 * library.properties <= undocumented < library.properties

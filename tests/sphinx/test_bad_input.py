"""Bad input is a warning naming the file, line and object; the rest of the site builds."""

from __future__ import annotations

from pathlib import Path

import pytest

from refgen.testing import BuildResult, ScenarioProject, write_scenario_project

GOOD = '''
    """Good scenarios

    These build.
    """

    from dataclasses import dataclass


    @dataclass(frozen=True, kw_only=True)
    class Good:
        """Fine.

        Notse
        -----
        A misspelt section.

        See Also
        --------
        $ not a name here
        """

        size: float
        """A size."""

        def __post_init__(self) -> None:
            if self.size < 0:
                raise ValueError(f"Good.size: must not be negative, got {self.size}")

        @property
        def twice(self) -> float:
            """Twice the size."""
            return 2 * self.size
'''

SYNTAX = '''
    """Broken syntax"""

    def oops(:
        pass
'''

RAISING = '''
    """Raises on import"""

    SETTING = 1
    raise RuntimeError("no configuration found")
'''

REGISTRY = '''
    """Registry with one bad entry."""

    from broken.good import Good


    class Named:
        """Named scenarios."""

        Fine = Good(size=1.0)
        Negative = Good(size=-1.0)
'''

OTHER = '''
    """Not documented"""

    from dataclasses import dataclass


    @dataclass
    class Stray:
        """Nobody documents this."""

        x: int
'''

STRAY_REGISTRY = '''
    """Registry naming an undocumented class."""

    from broken.good import Good
    from broken.other import Stray


    class Named:
        """Named scenarios."""

        Fine = Good(size=1.0)
        Lost = Stray(x=1)
'''


Built = tuple[ScenarioProject, BuildResult]


def line_of(path: Path, text: str) -> int:
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def only(warnings: list[str], prefix: str) -> str:
    matching = [w for w in warnings if w.startswith(prefix)]
    assert len(matching) == 1, warnings
    return matching[0]


@pytest.fixture(scope="module")
def broken_modules(tmp_path_factory: pytest.TempPathFactory) -> Built:
    project = write_scenario_project(
        tmp_path_factory.mktemp("modules"),
        "broken",
        {"good": GOOD, "syntax": SYNTAX, "raising": RAISING},
    )
    return project, project.build("html", "--keep-going")


def test_the_good_pages_are_built(broken_modules: Built) -> None:
    _, result = broken_modules
    assert result.returncode == 0, result.stderr
    assert (result.outdir / "reference" / "broken.good" / "Good.html").exists()


def test_syntax_error_names_file_and_line(
    broken_modules: Built,
) -> None:
    project, result = broken_modules
    path = project.module_path("syntax")
    warning = only(result.warnings, f"{path}:{line_of(path, 'def oops')}: WARNING:")
    assert "cannot import scenario module 'broken.syntax'" in warning
    assert "[refgen.import]" in warning


def test_import_error_names_the_raising_statement(
    broken_modules: Built,
) -> None:
    project, result = broken_modules
    path = project.module_path("raising")
    warning = only(result.warnings, f"{path}:{line_of(path, 'raise RuntimeError')}: WARNING:")
    assert "broken.raising" in warning and "RuntimeError: no configuration found" in warning


def test_docstring_problems_name_the_line(
    broken_modules: Built,
) -> None:
    project, result = broken_modules
    path = project.module_path("good")
    unknown = only(result.warnings, f"{path}:{line_of(path, 'Notse')}: WARNING:")
    assert "broken.good.Good: unknown docstring section 'Notse'" in unknown
    malformed = only(result.warnings, f"{path}:{line_of(path, '$ not a name here')}: WARNING:")
    assert "numpydoc cannot read the See Also entry '$ not a name here'" in malformed
    assert "[refgen.docstring]" in malformed
    assert "[refgen.docstring]" in unknown


def test_registry_entry_failing_validation(tmp_path: Path) -> None:
    project = write_scenario_project(
        tmp_path, "broken", {"good": GOOD, "registry": REGISTRY}, registry="registry.Named"
    )
    (project.docs / "quotes.rst").write_text("Quotes\n======\n\n:scenario:`Fine.twice`\n")
    index = project.docs / "index.rst"
    index.write_text(index.read_text() + "   quotes\n")
    result = project.build("html", "--keep-going")
    assert result.returncode == 0, result.stderr
    # Reported once, not again for every quote and example that needs the registry.
    assert [w for w in result.warnings if "[refgen." in w and "docstring" not in w] == [
        w for w in result.warnings if "cannot import registry module" in w
    ]
    path = project.module_path("registry")
    warning = only(result.warnings, f"{path}:{line_of(path, 'Negative =')}: WARNING:")
    assert "broken.registry.Named.Negative: cannot import registry module" in warning
    assert "Good.size: must not be negative, got -1.0" in warning
    good = project.module_path("good")
    assert f"raised at {good}:{line_of(good, 'raise ValueError')}" in warning
    assert (result.outdir / "reference" / "broken.good" / "Good.html").exists()


def test_registry_naming_an_undocumented_class(tmp_path: Path) -> None:
    project = write_scenario_project(
        tmp_path,
        "broken",
        {"good": GOOD, "other": OTHER, "registry": STRAY_REGISTRY},
        registry="registry.Named",
        documented=["good"],
    )
    result = project.build("html", "--keep-going")
    path = project.module_path("registry")
    warning = only(result.warnings, f"{path}:{line_of(path, 'Lost =')}: WARNING:")
    assert "broken.registry.Named.Lost" in warning
    assert "broken.other.Stray, which no module in refgen_modules defines" in warning
    assert "[refgen.registry]" in warning


def test_dash_w_turns_them_into_a_failure(
    broken_modules: Built,
) -> None:
    project, _ = broken_modules
    result = project.build("html", "-W", "--keep-going", outdir=project.root / "strict")
    assert result.returncode != 0
    assert len(result.warnings) >= 4


MISSING_IMPORT_REGISTRY = '''
    """Registry whose module imports something that does not exist."""

    from broken.good import Good
    from broken.nonexistent import LIMIT


    class Named:
        """Named scenarios."""

        Fine = Good(size=LIMIT)
'''


def test_import_error_inside_the_registry_is_reported_as_itself(tmp_path: Path) -> None:
    project = write_scenario_project(
        tmp_path,
        "broken",
        {"good": GOOD, "registry": MISSING_IMPORT_REGISTRY},
        registry="registry.Named",
    )
    result = project.build("html", "--keep-going")
    path = project.module_path("registry")
    warning = only(result.warnings, f"{path}:{line_of(path, 'broken.nonexistent')}: WARNING:")
    assert "ModuleNotFoundError: No module named 'broken.nonexistent'" in warning


def test_entries_of_undocumented_classes_are_one_warning_and_listed(tmp_path: Path) -> None:
    registry = STRAY_REGISTRY.replace(
        "Lost = Stray(x=1)", "Lost = Stray(x=1)\n        Gone = Stray(x=2)"
    )
    project = write_scenario_project(
        tmp_path,
        "broken",
        {"good": GOOD, "other": OTHER, "registry": registry},
        registry="registry.Named",
        documented=["good"],
    )
    result = project.build("html", "--keep-going")
    [warning] = [w for w in result.warnings if "[refgen.registry]" in w]
    path = project.module_path("registry")
    assert warning.startswith(f"{path}:{line_of(path, 'class Named')}: WARNING:")
    assert "2 registry entries are instances of classes no module in refgen_modules" in warning
    assert "Lost (broken.other.Stray), Gone (broken.other.Stray)" in warning
    page = (result.outdir / "reference" / "registry.html").read_text(encoding="utf-8")
    assert "Lost" in page and "Gone" in page


UNDOCUMENTED = """
    \"\"\"Quiet scenarios\"\"\"

    from dataclasses import dataclass


    @dataclass(frozen=True)
    class Terse:
        \"\"\"Properties without docstrings.\"\"\"

        x: float = 1.0
        \"\"\"Input.\"\"\"

        @property
        def double(self) -> float:
            return 2 * self.x

        @property
        def triple(self) -> float:
            return 3 * self.x

        @property
        def half(self) -> float:
            return self.x / 2
"""


def test_attributes_without_docstrings_are_one_line_of_output_not_warnings(
    tmp_path: Path,
) -> None:
    project = write_scenario_project(tmp_path, "quiet", {"models": UNDOCUMENTED})
    result = project.build("html", "-W", "--keep-going")
    assert result.returncode == 0, result.stderr
    assert result.warnings == []
    [line] = [line for line in result.stdout.splitlines() if "without a docstring" in line]
    assert line.startswith("[refgen] 1 class has 3 derived attributes without a docstring")
    assert "refgen check --kind missing-docstring" in line
    assert 'refgen_missing_docstrings = "warn"' in line


@pytest.mark.parametrize(
    ("conf", "count"),
    [
        ('refgen_missing_docstrings = "warn"', 1),
        ('refgen_missing_docstrings = "each"', 3),
        ("refgen_each_missing_docstring = True", 3),  # the old spelling of "each"
    ],
)
def test_attributes_without_docstrings_are_one_warning_per_class_or_each_when_asked(
    tmp_path: Path, conf: str, count: int
) -> None:
    project = write_scenario_project(
        tmp_path, "quiet", {"models": UNDOCUMENTED}, conf_extra=f"{conf}\n"
    )
    result = project.build("html", "-W", "--keep-going")
    assert result.returncode == 1
    found = [w for w in result.warnings if "[refgen.docstring]" in w]
    assert len(found) == count, found
    assert "without a docstring" not in result.stdout
    path = project.module_path("models")
    if count == 1:
        assert found[0].startswith(f"{path}:{line_of(path, 'class Terse')}: WARNING:")
        assert "3 derived attributes have no docstring: double, triple, half" in found[0]
    else:
        assert [w.partition(": WARNING:")[0] for w in found] == [
            f"{path}:{line_of(path, f'def {name}')}" for name in ("double", "triple", "half")
        ]

"""The newcomer's set-up: README commands, CI script, lint, and a clean work tree."""

from __future__ import annotations

import ast
import importlib
import inspect
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import setuptools

from refgen.testing import BuildResult
from tests.conftest import REPO, copy_docs, sphinx_build


def readme_commands() -> list[str]:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```sh\n(.+?)\n```", readme, flags=re.S)


def test_readme_gives_exactly_two_commands() -> None:
    build, test = readme_commands()
    assert "sphinx" in build and "index.html" in build
    assert "pytest" in test


def test_ci_runs_the_readme_test_command() -> None:
    script = (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert readme_commands()[1] in script


def test_code_is_ruff_clean() -> None:
    for command in (["check"], ["format", "--check"]):
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "ruff",
                *command,
                "src",
                "tests",
                "docs",
                "bench",
            ],
            capture_output=True,
            text=True,
            cwd=REPO,
            check=False,
        )
        assert result.returncode == 0, result.stdout + result.stderr


def test_generated_pages_and_build_output_are_ignored_by_git(tmp_path: Path) -> None:
    srcdir = copy_docs(tmp_path / "docs")
    before = {p for p in srcdir.rglob("*") if p.is_file()}
    result = sphinx_build(srcdir, srcdir / "_build" / "html", "html")
    assert result.returncode == 0, result.stderr
    generated = [p for p in srcdir.rglob("*") if p.is_file() and p not in before]
    assert generated
    relative = sorted({f"docs/{p.relative_to(srcdir).as_posix()}" for p in generated})
    checked = subprocess.run(
        ["git", "check-ignore", "--no-index", "--stdin"],
        input="\n".join(relative),
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )
    assert sorted(checked.stdout.split()) == relative


def test_the_search_index_is_stemmed_by_the_c_build_of_snowball() -> None:
    """Sphinx stems every word of every page; the pure-Python stemmer took about a tenth
    of a clean build of the 600-class benchmark library (bench/RESULTS.md)."""
    import snowballstemmer
    import Stemmer

    assert isinstance(snowballstemmer.stemmer("english"), Stemmer.Stemmer)


def test_the_site_build_does_not_print_mysts_configuration(site: BuildResult) -> None:
    assert "build succeeded" in site.stdout  # the build's own lines are captured
    assert "MdParserConfig(" not in site.stdout + site.stderr


def test_the_distribution_installs_no_generic_top_level_package() -> None:
    """Our examples ship as ``refgen_scenarios``: a user's own ``scenarios`` never clashes."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    found = config["tool"]["setuptools"]["packages"]["find"]
    packages = setuptools.find_packages(
        where=str(REPO / found["where"][0]), include=found["include"]
    )
    top_level = {name.partition(".")[0] for name in packages}
    assert top_level == {"refgen", "refgen_scenarios"}


def test_the_architecture_page_lists_every_module_of_refgen() -> None:
    table = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `(src/refgen/[^`]+\.py)` \|", table, flags=re.M))
    modules = {p.relative_to(REPO).as_posix() for p in (REPO / "src" / "refgen").rglob("*.py")}
    assert listed == modules


RENDERING_TAKES_FROM = (
    "refgen.render.",
    "refgen.analysis.model.",
    "refgen.analysis.source.",
    "refgen.config.",
    "refgen.site.plan.",
    "refgen.evaluate.",
)
"""What a module of ``render/`` may import from refgen: records, never the Project."""
CONVERSIONS_FROM_EVALUATION = frozenset({"json_number"})


def test_rendering_imports_no_project_and_no_evaluation() -> None:
    """Rendering lays out what it is given: no module of ``render/`` asks the Project or
    composes a page, and from ``evaluate/`` it takes records and constants, no function
    that computes."""
    for path in sorted((REPO / "src" / "refgen" / "render").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom) or not (node.module or "").startswith("refgen"):
                continue
            module = node.module or ""
            assert f"{module}.".startswith(RENDERING_TAKES_FROM), (path.name, module)
            if module.startswith("refgen.evaluate."):
                source = importlib.import_module(module)
                computing = [
                    alias.name
                    for alias in node.names
                    if inspect.isfunction(getattr(source, alias.name))
                    and alias.name not in CONVERSIONS_FROM_EVALUATION
                ]
                assert not computing, (path.name, module, computing)

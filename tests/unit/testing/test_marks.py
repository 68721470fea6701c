"""The markers of the inner loop: a test that builds Sphinx is marked ``build``, or fails.

``tests/marks.py`` marks tests from their code at collection. Here pytest
collects a file of tests that build in each way the suite does, and one that
hides its build from the rule: that one must fail, though it catches the error.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from refgen.testing import sphinx_build
from tests.marks import UnmarkedBuild, builds_refused

BUILDING = '''
import subprocess
import sys

import pytest
from hypothesis import given, strategies as st

from refgen.testing import ScenarioProject, sphinx_build


def build_the_docs(project):
    return project.build("html")


@pytest.fixture
def site(tmp_path):
    return sphinx_build(tmp_path / "docs", tmp_path / "html")


@pytest.fixture
def page(site):
    return site.outdir / "index.html"


def test_through_a_helper(tmp_path):
    build_the_docs(ScenarioProject(tmp_path, "pkg"))


def test_through_a_fixture_of_a_fixture(page):
    pass


@given(st.integers())
def test_under_hypothesis(tmp_path, number):
    ScenarioProject(tmp_path, "pkg").build("html")


def test_in_a_process(tmp_path):
    subprocess.run([sys.executable, "-m", "sphinx", str(tmp_path), str(tmp_path / "out")])


def test_of_the_command_line():
    subprocess.run([sys.executable, "-m", "refgen", "show", "Thing"])


def test_of_nothing_but_text():
    assert "sphinx".upper() == "SPHINX"
'''

HIDDEN = """
from refgen.testing import write_scenario_project


def test_hides_its_build(tmp_path):
    project = write_scenario_project(tmp_path, "pkg", {"mod": "X = 1"})
    try:
        getattr(project, "bu" + "ild")("html")  # out of the rule's sight
    except Exception:
        pass  # and the refusal swallowed: the test fails all the same
"""


def with_the_plugin(pytester: pytest.Pytester) -> None:
    pytester.makeconftest('pytest_plugins = ["tests.marks"]')
    pytester.makeini("[pytest]\nmarkers =\n    build\n    browser\n    slow\n")


def collected(pytester: pytest.Pytester, marker: str) -> list[str]:
    result = pytester.runpytest_inprocess("--collect-only", "-q", "-m", marker)
    return sorted(line.partition("::")[2] for line in result.outlines if "::" in line)


def test_each_way_of_building_is_marked_build(pytester: pytest.Pytester) -> None:
    with_the_plugin(pytester)
    pytester.makepyfile(test_building=BUILDING)
    assert collected(pytester, "build") == [
        "test_in_a_process",
        "test_through_a_fixture_of_a_fixture",
        "test_through_a_helper",
        "test_under_hypothesis",
    ]
    assert collected(pytester, "slow") == ["test_of_the_command_line"]
    assert collected(pytester, "not build and not slow") == ["test_of_nothing_but_text"]


def test_a_build_hidden_from_the_rule_fails_the_test(pytester: pytest.Pytester) -> None:
    with_the_plugin(pytester)
    pytester.makepyfile(test_hidden=HIDDEN)
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*without the `build` marker*"])


def test_a_sphinx_build_is_refused_where_it_is_not_marked(tmp_path: Path) -> None:
    with builds_refused() as refused, pytest.raises(UnmarkedBuild, match="`build` marker"):
        sphinx_build(tmp_path / "docs", tmp_path / "html")
    assert refused == ["sphinx.cmd.build.build_main"]


def test_a_sphinx_process_is_refused_where_it_is_not_marked() -> None:
    with builds_refused() as refused, pytest.raises(UnmarkedBuild, match="runs Sphinx"):
        subprocess.run([sys.executable, "-m", "sphinx", "--version"], check=False)
    assert len(refused) == 1


def test_other_processes_run_where_builds_are_refused() -> None:
    with builds_refused() as refused:
        done = subprocess.run([sys.executable, "-c", "print('ok')"], capture_output=True)
    assert done.stdout.strip() == b"ok" and refused == []

"""docs/new-project.md, followed step by step: its files written as shown, its commands run."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.html_helpers import last_figure, read_html, section

GUIDE = REPO / "docs" / "new-project.md"
FILE = re.compile(r"```\{code-block\} \w+\n:caption: (\S+)\n\n(.*?)```", re.S)
COMMANDS = re.compile(r"```sh\n(.*?)```", re.S)


def guide_files() -> dict[str, str]:
    return dict(FILE.findall(GUIDE.read_text(encoding="utf-8")))


def guide_commands() -> list[str]:
    blocks = COMMANDS.findall(GUIDE.read_text(encoding="utf-8"))
    return [line for block in blocks for line in block.splitlines() if line.strip()]


@dataclass
class Followed:
    """The folder the guide was followed in, and each command's run by its tool."""

    root: Path
    runs: dict[str, subprocess.CompletedProcess[str]]


@pytest.fixture(scope="module")
def followed(tmp_path_factory: pytest.TempPathFactory) -> Followed:
    """Each command of the guide, run in a folder holding the guide's files.

    ``pip install -e .`` is the one step not run: the package is put on
    ``PYTHONPATH`` instead, as the guide allows, so that the test changes
    nothing in the environment it runs in.
    """
    root = tmp_path_factory.mktemp("myserving")
    for name, text in guide_files().items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    environment = {**os.environ, "PYTHONPATH": str(root / "src")}
    environment.pop("PYTEST_ADDOPTS", None)
    results = {}
    for command in guide_commands():
        words = command.split()
        if words[:4] == ["python3", "-m", "pip", "install"]:
            continue
        assert words[0] == "python3", command
        results[words[2]] = subprocess.run(
            [
                sys.executable,
                *words[1:],
                *(["-p", "no:cacheprovider"] if words[2] == "pytest" else []),
            ],
            cwd=root,
            env=environment,
            capture_output=True,
            text=True,
            timeout=300,
        )
    return Followed(root, results)


def test_the_guide_writes_a_package_a_configuration_and_docs() -> None:
    assert {"pyproject.toml", "docs/conf.py", "docs/index.rst"} <= set(guide_files())
    assert any(name.startswith("src/myserving/") for name in guide_files())
    assert [command.split()[2] for command in guide_commands()] == [
        "pip",
        "sphinx",
        "pytest",
        "refgen",
    ]


@pytest.mark.build  # the guide's commands, sphinx among them, are read from its text
def test_the_site_builds_without_a_warning_and_shows_the_figure(
    followed: Followed,
) -> None:
    build = followed.runs["sphinx"]
    assert build.returncode == 0, build.stderr
    assert "WARNING" not in build.stderr
    page = followed.root / "docs/_build/html/reference/myserving.decode/DecodeStep.html"
    html = page.read_text(encoding="utf-8")
    assert "Decode scenarios" in html and "<math" in html
    rows = section(read_html(page), "Registry values").find("tbody").find_all("tr")
    assert "7 ms" in [last_figure(row) for row in rows]


@pytest.mark.build  # the guide's commands, sphinx among them, are read from its text
def test_pytest_runs_the_examples(followed: Followed) -> None:
    run = followed.runs["pytest"]
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 passed" in run.stdout


@pytest.mark.build  # the guide's commands, sphinx among them, are read from its text
def test_the_command_line_looks_the_figure_up(
    followed: Followed,
) -> None:
    show = followed.runs["refgen"]
    assert show.returncode == 0, show.stderr
    assert "7 ms" in show.stdout

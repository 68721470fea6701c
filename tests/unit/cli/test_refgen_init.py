"""``refgen init``: a new project's docs and settings, written from the package it finds.

Run as a user runs it, in a subprocess, on throwaway packages; the end-to-end
test installs one into a fresh virtual environment and builds what ``init``
wrote under ``sphinx-build -W``.
"""

from __future__ import annotations

import os
import pty
import subprocess
import sys
import tomllib
import venv
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from hypothesis import given
from hypothesis import strategies as st

from refgen.cli.scaffold import Choice, TableExists, with_refgen_table
from tests.conftest import REPO

PYPROJECT = """\
[project]
name = "{name}"
version = "0.1.0"

# a comment the command must keep, byte for byte
[tool.black]
line-length = 88
"""

SCENARIOS = '''\
"""Decode scenarios

How long one step of token generation takes.
"""

from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True)
class DecodeStep:
    """The shortest time one decode step can take: every weight read once."""

    weight_gb: float
    """Gigabytes of weights read per step."""
    bandwidth_gb_per_s: float
    """Memory bandwidth of the device, GB/s."""

    @property
    def step_ms(self) -> float:
        """Lower bound on the time of one step, in ms."""
        return self.weight_gb / self.bandwidth_gb_per_s * 1000


@dataclass
class Settings:
    """Configuration without derived figures: no scenario."""

    retries: int = 3
'''

CASES = '''\
"""Named cases."""

from {name}.decode import DecodeStep

BY_NAME = {{"tiny": DecodeStep(weight_gb=1.0, bandwidth_gb_per_s=100.0)}}
"""The same models, by name."""


class Registry:
    """The cases the site quotes."""

    SmallModel = DecodeStep(weight_gb=14.0, bandwidth_gb_per_s=2000.0)
    """A 7 B-parameter model in 16-bit weights on a 2 TB/s device."""

    LargeModel = DecodeStep(weight_gb=140.0, bandwidth_gb_per_s=3350.0)
    """A 70 B-parameter model on a 3.35 TB/s device."""
'''


def throwaway_package(root: Path, name: str, *, pyproject: bool = True) -> Path:
    package = root / "src" / name
    package.mkdir(parents=True)
    (package / "__init__.py").write_text('"""Serving models."""\n')
    (package / "decode.py").write_text(SCENARIOS)
    (package / "cases.py").write_text(CASES.format(name=name))
    (package / "broken.py").write_text('raise RuntimeError("broken at import")\n')
    if pyproject:
        (root / "pyproject.toml").write_text(PYPROJECT.format(name=name))
    return root


def refgen(
    *args: str, cwd: Path, stdin: int | None = subprocess.DEVNULL
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO / "src"), "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "refgen", *args],
        cwd=cwd,
        env=env,
        stdin=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_init_proposes_the_modules_and_registries_it_finds_and_yes_accepts(
    tmp_path: Path,
) -> None:
    root = throwaway_package(tmp_path, "initpkg_yes")
    before = (root / "pyproject.toml").read_bytes()

    done = refgen("init", "--yes", cwd=root)

    assert done.returncode == 0, done.stderr
    assert "[1] initpkg_yes.decode: 1 class (DecodeStep)" in done.stdout
    assert "[1] initpkg_yes.cases.Registry: a class of 2 entries" in done.stdout
    assert "[2] initpkg_yes.cases.BY_NAME: a dict of 1 entry" in done.stdout
    assert "skipped initpkg_yes.broken: RuntimeError: broken at import" in done.stdout
    after = (root / "pyproject.toml").read_bytes()
    assert after.startswith(before), "every line of pyproject.toml is kept"
    table = tomllib.loads(after.decode())["tool"]["refgen"]
    assert table == {"modules": ["initpkg_yes.decode"], "registry": "initpkg_yes.cases.Registry"}
    conf = (root / "docs" / "conf.py").read_text()
    assert 'extensions = ["refgen"]' in conf and 'html_theme = "furo"' in conf
    assert "load_settings" in conf, "conf.py reads the settings pyproject.toml now holds"
    assert "reference/index" in (root / "docs" / "index.rst").read_text()
    assert "/reference/" in (root / "docs" / ".gitignore").read_text()


def test_a_second_run_says_what_exists_and_writes_nothing(tmp_path: Path) -> None:
    root = throwaway_package(tmp_path, "initpkg_twice")
    assert refgen("init", "--yes", cwd=root).returncode == 0
    written = {p: p.read_bytes() for p in [*root.glob("docs/*"), *root.glob("docs/.*")]}
    pyproject = (root / "pyproject.toml").read_bytes()

    again = refgen("init", "--yes", cwd=root)

    assert again.returncode != 0
    assert "docs/conf.py" in again.stderr and "docs/index.rst" in again.stderr
    assert "[tool.refgen]" in again.stderr
    assert {p: p.read_bytes() for p in written} == written
    assert (root / "pyproject.toml").read_bytes() == pyproject


def test_hand_written_docs_are_never_overwritten(tmp_path: Path) -> None:
    root = throwaway_package(tmp_path, "initpkg_docs")
    (root / "docs").mkdir()
    (root / "docs" / "index.rst").write_text("My own page\n===========\n")

    done = refgen("init", "--yes", cwd=root)

    assert done.returncode != 0 and "docs/index.rst" in done.stderr
    assert (root / "docs" / "index.rst").read_text() == "My own page\n===========\n"
    assert not (root / "docs" / "conf.py").exists()
    assert "refgen" not in (root / "pyproject.toml").read_text()


def test_without_a_terminal_or_yes_it_proposes_and_writes_nothing(tmp_path: Path) -> None:
    root = throwaway_package(tmp_path, "initpkg_notty")

    done = refgen("init", cwd=root)

    assert done.returncode != 0
    assert "initpkg_notty.decode" in done.stdout and "--yes" in done.stderr
    assert not (root / "docs").exists()


def test_on_a_terminal_it_asks_which_modules_and_which_registry(tmp_path: Path) -> None:
    root = throwaway_package(tmp_path, "initpkg_tty")
    terminal, reader_end = pty.openpty()
    try:
        os.write(terminal, b"\n2\n")  # all modules; the second registry
        done = refgen("init", cwd=root, stdin=reader_end)
    finally:
        os.close(terminal)
        os.close(reader_end)

    assert done.returncode == 0, done.stderr
    assert "Modules to document" in done.stdout and "Registry" in done.stdout
    table = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["refgen"]
    assert table == {"modules": ["initpkg_tty.decode"], "registry": "initpkg_tty.cases.BY_NAME"}


def test_named_modules_without_a_pyproject_go_into_conf_py_and_the_table_is_printed(
    tmp_path: Path,
) -> None:
    root = throwaway_package(tmp_path, "initpkg_named", pyproject=False)

    done = refgen(
        "init",
        "--module",
        "initpkg_named.decode",
        "--registry",
        "initpkg_named.cases.Registry",
        str(root),
        cwd=tmp_path,
    )

    assert done.returncode == 0, done.stderr
    assert "Scenario modules in" not in done.stdout, "named modules need no search"
    assert '[tool.refgen]\nmodules = ["initpkg_named.decode"]' in done.stdout
    conf = (root / "docs" / "conf.py").read_text()
    assert 'refgen_modules = ["initpkg_named.decode"]' in conf
    assert 'refgen_registry = "initpkg_named.cases.Registry"' in conf
    assert not (root / "pyproject.toml").exists()


def test_a_folder_without_a_package_is_told_to_name_its_modules(tmp_path: Path) -> None:
    done = refgen("init", "--yes", cwd=tmp_path)
    assert done.returncode != 0 and "--module" in done.stderr
    assert not (tmp_path / "docs").exists()


@given(
    head=st.lists(
        st.sampled_from(
            [
                "[project]",
                'name = "x"',
                "# a comment",
                "",
                "[tool.black]",
                "line-length = 88",
                "[tool.refgen_other]",
                'a = "b"  # trailing',
            ]
        ),
        max_size=8,
    ),
    crlf=st.booleans(),
    final_newline=st.booleans(),
)
def test_the_table_is_added_and_every_other_byte_kept(
    head: list[str], crlf: bool, final_newline: bool
) -> None:
    newline = "\r\n" if crlf else "\n"
    text = newline.join(head) + (newline if final_newline and head else "")
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return  # a table named twice: not a file a user has
    choice = Choice("x", ("pkg.a", "pkg.b"), "pkg.Registry", "src")

    updated = with_refgen_table(text, choice)

    assert updated.startswith(text)
    assert tomllib.loads(updated)["tool"]["refgen"] == {
        "modules": ["pkg.a", "pkg.b"],
        "registry": "pkg.Registry",
    }
    if "\r\n" in text:
        added = updated[len(text) :]
        assert "\n" not in added.replace("\r\n", ""), "the table keeps the file's line endings"


def test_a_pyproject_that_cannot_take_the_table_is_refused() -> None:
    choice = Choice("x", ("pkg.a",), None, None)
    with pytest.raises(TableExists):
        with_refgen_table('[tool.refgen]\nmodules = ["a"]\n', choice)
    with pytest.raises(tomllib.TOMLDecodeError):
        with_refgen_table('tool = {black = {line-length = 88}}\n', choice)


@pytest.mark.build
def test_what_init_writes_builds_under_w_in_a_fresh_venv(tmp_path: Path) -> None:
    """The newcomer's first hour: a package, a fresh venv, ``refgen init``, a build."""
    root = throwaway_package(tmp_path / "project", "initpkg_venv")
    environment = tmp_path / "venv"
    # The venv sees the packages refgen needs (no network here); the package under
    # test is installed into it, and refgen is this checkout's.
    venv.create(environment, system_site_packages=True, with_pip=False)
    python = str(environment / "bin" / "python")
    env = {**os.environ, "PYTHONPATH": str(REPO / "src"), "NO_COLOR": "1"}
    # What `pip install -e .` leaves (wheel, which pip needs to do it offline, may be
    # missing here): the package's source folder on the venv's path.
    site_packages = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    (Path(site_packages) / "initpkg_venv.pth").write_text(str(root / "src") + "\n")
    init = subprocess.run(
        [python, "-m", "refgen", "init", "--yes"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert init.returncode == 0, init.stderr

    build = subprocess.run(
        [python, "-m", "sphinx", "-W", "--keep-going", "-b", "html", "docs", "docs/_build/html"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )

    assert build.returncode == 0, build.stderr
    html = root / "docs" / "_build" / "html"
    page = (html / "reference" / "initpkg_venv.decode" / "DecodeStep.html").read_text()
    text = "".join(BeautifulSoup(page, "html.parser").get_text().split())
    assert "step_ms741.791" in text, "the registry's figures are on the class page"
    assert (html / "reference" / "registry.html").is_file()
    shown = subprocess.run(
        [python, "-m", "refgen", "show", "--no-cache", "SmallModel"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert shown.returncode == 0 and "step_ms" in shown.stdout, "the command line reads the table"

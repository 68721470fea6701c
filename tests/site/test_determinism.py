"""Reference pages are the same whatever the run: twice clean, or read in parallel."""

from __future__ import annotations

from pathlib import Path

import pytest

from refgen.testing import BuildResult, write_scenario_project
from tests.conftest import copy_docs, sphinx_build


def reference_pages(outdir: Path) -> dict[str, bytes]:
    folder = outdir / "reference"
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*.html")}


@pytest.fixture(scope="module")
def parallel_site(tmp_path_factory: pytest.TempPathFactory) -> BuildResult:
    root = tmp_path_factory.mktemp("parallel")
    srcdir = copy_docs(root / "docs")
    return sphinx_build(srcdir, root / "html", "html", "-W", "-j", "2")


def test_parallel_build_gives_the_same_pages(site: BuildResult, parallel_site: BuildResult) -> None:
    assert parallel_site.returncode == 0, parallel_site.stderr
    assert reference_pages(parallel_site.outdir) == reference_pages(site.outdir)


def test_two_clean_builds_are_byte_identical(site: BuildResult, tmp_path: Path) -> None:
    """The second build runs in a fresh interpreter, as a user's does.

    The session's ``site`` was built in the test process, after whatever other
    builds ran before it; matching a subprocess build byte for byte shows that
    nothing left in the interpreter (imports, caches) shapes the pages.
    """
    srcdir = copy_docs(tmp_path / "docs")
    again = sphinx_build(srcdir, tmp_path / "html", "html", "-W", isolated=True)
    assert again.returncode == 0, again.stderr
    first, second = reference_pages(site.outdir), reference_pages(again.outdir)
    assert sorted(first) == sorted(second)
    assert [name for name in first if first[name] != second[name]] == []


MANY = "".join(
    f'''

@dataclass(frozen=True, kw_only=True)
class Shape{index}:
    """Shape number {index}.

    Examples
    --------
    >>> Shape{index}(size=2.0).twice
    {"5.0" if index == 3 else "4.0"}
    """

    size: float
    """A size."""

    @property
    def twice(self) -> float:
        """Twice the size."""
        return 2 * self.size
'''
    for index in range(8)
)


def test_parallel_read_runs_each_example_once(tmp_path: Path) -> None:
    """Eight pages are read by two workers; the one wrong example warns exactly once."""
    module = '"""Many shapes\n\nEnough pages to read in parallel.\n"""\n\n'
    module += "from dataclasses import dataclass\n"
    source = module + MANY.replace(">>> Shape", ">>> from many.shapes import *\n    >>> Shape")
    project = write_scenario_project(tmp_path, "many", {"shapes": source})
    result = project.build("html", "-j", "2", "--keep-going")
    assert result.returncode == 0, result.stderr
    examples = [w for w in result.warnings if "[refgen.example]" in w]
    assert len(examples) == 1, result.warnings
    assert "example of many.shapes.Shape3 failed" in examples[0]
    assert "[refgen] running examples... [100%]" in result.stdout

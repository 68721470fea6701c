"""Reference pages are the same whatever the run: twice clean, or read in parallel."""

from __future__ import annotations

from pathlib import Path

import pytest

from refgen.testing import BuildResult
from tests.conftest import copy_docs, sphinx_build


def reference_pages(outdir: Path) -> dict[str, bytes]:
    folder = outdir / "reference"
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*.html")}


@pytest.fixture(scope="module")
def parallel_site(tmp_path_factory: pytest.TempPathFactory) -> BuildResult:
    root = tmp_path_factory.mktemp("parallel")
    srcdir = copy_docs(root / "docs")
    return sphinx_build(srcdir, root / "html", "html", "-W", "-j", "2")


def test_extension_declares_parallel_safety() -> None:
    from refgen.sphinx_extension import setup

    class Recorder:
        def __getattr__(self, name: str):
            return lambda *args, **kwargs: None

    metadata = setup(Recorder())  # type: ignore[arg-type]
    assert metadata["parallel_read_safe"] is True
    assert metadata["parallel_write_safe"] is True


def test_parallel_build_gives_the_same_pages(site: BuildResult, parallel_site: BuildResult) -> None:
    assert parallel_site.returncode == 0, parallel_site.stderr
    assert reference_pages(parallel_site.outdir) == reference_pages(site.outdir)


def test_two_clean_builds_are_byte_identical(site: BuildResult, tmp_path: Path) -> None:
    srcdir = copy_docs(tmp_path / "docs")
    again = sphinx_build(srcdir, tmp_path / "html", "html", "-W")
    assert again.returncode == 0, again.stderr
    first, second = reference_pages(site.outdir), reference_pages(again.outdir)
    assert sorted(first) == sorted(second)
    assert [name for name in first if first[name] != second[name]] == []

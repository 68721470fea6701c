"""An edit that changes class pages' figures: those pages are read again, not composed first.

A class page whose fingerprint changed is composed again at ``env-get-outdated`` to
see whether it changed; when its registry values changed, it has, and computing the
values is a fraction of composing it. Such a page is read again straight away, its
figures computed by the worker while the pages are read.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from refgen.evaluate.ahead import FORK_AVAILABLE
from refgen.site import compose as compose_module
from refgen.sphinx import ahead as prefetching
from refgen.sphinx import incremental
from tests.unit.evaluate.test_ahead import CLASSES, site_files, write_boxes

pytestmark = pytest.mark.skipif(not FORK_AVAILABLE, reason="the worker forks (Linux only)")


@pytest.mark.parametrize(
    ("edit", "composed_to_compare"),
    [
        # Every figure doubles: no page is composed before it is read.
        (("return self.count * self.side", "return 2 * self.count * self.side"), 0),
        # The figures stay, the code does not: each page is composed to compare.
        (("_note_process()\n", "_note_process()\n        unused = 1\n"), CLASSES),
    ],
    ids=["figures changed", "figures kept"],
)
def test_pages_whose_figures_changed_are_read_again_without_composing_them_first(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    edit: tuple[str, str],
    composed_to_compare: int,
) -> None:
    build_pid = os.getpid()
    log = tmp_path / "composed.log"
    composing = compose_module.compose
    moment = {"now": "reading"}
    composing_early = incremental.compose_early

    def noting_when(app: Any, pages: Any) -> Any:
        moment["now"] = "outdated"
        try:
            return composing_early(app, pages)
        finally:
            moment["now"] = "reading"

    def noting(project: Any, planned: Any, stub_path: str) -> Any:
        if planned.kind == "scenario":
            where = "build" if os.getpid() == build_pid else "worker"
            with log.open("a") as stream:
                stream.write(f"{where}-{moment['now']}\n")
        return composing(project, planned, stub_path)

    monkeypatch.setattr(compose_module, "compose", noting)
    monkeypatch.setattr(incremental, "compose_early", noting_when)
    project = write_boxes(tmp_path / "boxes")
    first = project.build("html", "-W", outdir=tmp_path / "edited")
    assert first.returncode == 0, first.stderr
    models = project.module_path("models")
    models.write_text(models.read_text().replace(edit[0], edit[1]))
    log.unlink()
    edited = project.build("html", "-W", outdir=tmp_path / "edited")
    assert edited.returncode == 0, edited.stderr
    composed = log.read_text().split()
    assert len([c for c in composed if c.endswith("-outdated")]) == composed_to_compare
    if composed_to_compare == 0:
        assert f"0 added, {CLASSES} changed, 0 removed" in edited.stdout
        assert composed == ["worker-reading"] * CLASSES

    monkeypatch.setattr(prefetching, "AHEAD_MINIMUM", CLASSES + 1)
    clean = project.build("html", "-W", outdir=tmp_path / "clean")
    assert clean.returncode == 0, clean.stderr
    assert site_files(edited.outdir) == site_files(clean.outdir)


def test_a_hand_written_page_describing_a_class_again_is_read_with_its_page(
    tmp_path: Path,
) -> None:
    """A page of the author's own describes ``Box3`` too (a duplicate description, a
    warning on both pages). An edit of the figures reads both again, and the build
    warns and shows what a clean build does."""
    project = write_boxes(tmp_path / "boxes")
    index = project.docs / "index.rst"
    index.write_text(index.read_text() + "   notes\n")
    (project.docs / "notes.rst").write_text(
        "Notes\n=====\n\n.. refgen-scenario:: ahead.models.Box3\n"
    )
    first = project.build("html", outdir=tmp_path / "edited")
    assert first.returncode == 0, first.stderr
    models = project.module_path("models")
    models.write_text(models.read_text().replace("return self.count", "return 2 * self.count"))
    edited = project.build("html", outdir=tmp_path / "edited")
    assert edited.returncode == 0, edited.stderr
    clean = project.build("html", outdir=tmp_path / "clean")
    assert sorted(edited.warnings) == sorted(clean.warnings)
    assert any("duplicate object description" in warning for warning in clean.warnings)
    assert site_files(edited.outdir) == site_files(clean.outdir)

"""Every page built again with Sphinx's ``-E`` where the last build wrote (docs/using-refgen.md,
"Rebuilding every page"): the site a build into an empty folder gives."""

from __future__ import annotations

from pathlib import Path

from tests.unit.evaluate.test_ahead import site_files, write_boxes


def test_a_fresh_environment_over_the_last_output_gives_the_clean_site(tmp_path: Path) -> None:
    project = write_boxes(tmp_path / "boxes")
    last = tmp_path / "last"
    first = project.build("html", "-W", outdir=last)
    assert first.returncode == 0, first.stderr
    before = site_files(last)
    models = project.module_path("models")
    figures = ("return self.count * self.side", "return 2 * self.count * self.side")
    models.write_text(models.read_text().replace(*figures))
    rebuilt = project.build("html", "-W", "-E", outdir=last)
    assert rebuilt.returncode == 0, rebuilt.stderr
    clean = project.build("html", "-W", outdir=tmp_path / "clean")
    assert clean.returncode == 0, clean.stderr
    after = site_files(rebuilt.outdir)
    assert after == site_files(clean.outdir)
    assert after != before  # the edit changed figures the pages show

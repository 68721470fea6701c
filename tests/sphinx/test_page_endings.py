"""Page endings: the worker gives each class page's digest, Markdown and downloads while the
pages are written.

The environment is pickled with those records unended; the endings reach the next
build through a file of their own, and a record that file does not end is read again.
"""

from __future__ import annotations

import os
import pickle
import signal
import threading
from pathlib import Path
from typing import Any

import pytest

from refgen.evaluate.ahead import FORK_AVAILABLE
from refgen.site import compose as compose_module
from refgen.sphinx import ahead as prefetching
from refgen.sphinx.finishing import ENDINGS
from refgen.sphinx.state import STATE, PageRecord
from tests.unit.evaluate.test_ahead import CLASSES, site_files, write_boxes

pytestmark = pytest.mark.skipif(not FORK_AVAILABLE, reason="the worker forks (Linux only)")


def pickled_records(outdir: Path) -> dict[str, PageRecord]:
    """The class pages' records as Sphinx pickled them, once every page was read."""
    with (outdir / ".doctrees" / "environment.pickle").open("rb") as stream:
        env = pickle.load(stream)
    pages = getattr(env, STATE).pages
    return {d: r for d, r in pages.items() if d.startswith("reference/ahead.models/Box")}


def test_the_worker_ends_the_class_pages_after_they_are_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Digests taken and registry values laid out by the worker, not the build; pickled
    unended, kept in the endings file; the site is the one the build makes alone, and
    the next build reads nothing."""
    build_pid = os.getpid()
    digested_by_build: list[str] = []
    laid_out_by_build: list[str] = []
    digest = compose_module.page_digest
    lay_out = compose_module.rendered_entry

    def noting(composed: Any) -> str:
        if os.getpid() == build_pid:
            digested_by_build.append(composed.page.title)
        return digest(composed)

    def noting_entries(entry: Any) -> Any:
        if os.getpid() == build_pid:
            laid_out_by_build.append(entry.scenario)
        return lay_out(entry)

    monkeypatch.setattr(compose_module, "page_digest", noting)
    monkeypatch.setattr(compose_module, "rendered_entry", noting_entries)
    project = write_boxes(tmp_path / "boxes")
    ahead = project.build("html", "-W", outdir=tmp_path / "ahead")
    assert ahead.returncode == 0, ahead.stderr
    assert not [title for title in digested_by_build if title.startswith("Box")]
    assert not [scenario for scenario in laid_out_by_build if ".Box" in scenario]
    records = pickled_records(ahead.outdir)
    assert len(records) == CLASSES
    assert all(r.markdown is None and r.digest is None for r in records.values())
    _token, kept = pickle.loads((ahead.outdir / ".doctrees" / ENDINGS).read_bytes())
    assert sorted(kept) == sorted(records)

    again = project.build("html", "-W", outdir=tmp_path / "ahead")
    assert "0 added, 0 changed, 0 removed" in again.stdout

    monkeypatch.setattr(prefetching, "AHEAD_MINIMUM", CLASSES + 1)
    alone = project.build("html", "-W", outdir=tmp_path / "alone")
    alone_records = pickled_records(alone.outdir)
    assert {d: (r.digest, r.markdown, r.downloads) for d, r in alone_records.items()} == kept
    assert any(kept_ending[2] for kept_ending in kept.values())  # the boxes have entries
    assert site_files(ahead.outdir) == site_files(alone.outdir)
    markdown = ahead.outdir / "reference" / "ahead.models" / "Box3.md"
    assert markdown.read_text().startswith("# Box3")


@pytest.mark.parametrize("endings", ["missing", "of another build", "damaged", "of another shape"])
def test_records_the_endings_file_does_not_end_are_read_again(tmp_path: Path, endings: str) -> None:
    """Without its endings file, a build reads the class pages again rather than trust a
    record it cannot end, and gives the site a clean build gives."""
    project = write_boxes(tmp_path / "boxes")
    first = project.build("html", "-W", outdir=tmp_path / "out")
    assert first.returncode == 0, first.stderr
    kept = first.outdir / ".doctrees" / ENDINGS
    clean_site = site_files(first.outdir)
    if endings == "missing":
        kept.unlink()
    elif endings == "of another build":
        _token, found = pickle.loads(kept.read_bytes())
        kept.write_bytes(pickle.dumps(("another build's token", found)))
    elif endings == "damaged":
        kept.write_bytes(kept.read_bytes()[:40])
    else:
        token, found = pickle.loads(kept.read_bytes())
        kept.write_bytes(pickle.dumps((token, {d: (*e, "more") for d, e in found.items()})))
    again = project.build("html", "-W", outdir=tmp_path / "out")
    assert again.returncode == 0, again.stderr
    assert f"0 added, {CLASSES} changed, 0 removed" in again.stdout
    assert site_files(again.outdir) == clean_site
    ended = project.build("html", "-W", outdir=tmp_path / "out")
    assert "0 added, 0 changed, 0 removed" in ended.stdout


def test_pages_the_worker_does_not_end_are_ended_by_the_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker that dies once the figures are given, before any ending: the build
    composes those pages again from the figures it holds; nothing is missing."""
    ending = prefetching.Prefetcher._ending
    build_pid = os.getpid()

    def dying(self: prefetching.Prefetcher, qualname: str) -> Any:
        if os.getpid() != build_pid:
            os.kill(os.getpid(), signal.SIGKILL)
        return ending(self, qualname)

    monkeypatch.setattr(prefetching.Prefetcher, "_ending", dying)
    project = write_boxes(tmp_path / "boxes")
    died = project.build("html", "-W", outdir=tmp_path / "died")
    assert died.returncode == 0, died.stderr
    again = project.build("html", "-W", outdir=tmp_path / "died")
    assert "0 added, 0 changed, 0 removed" in again.stdout

    monkeypatch.setattr(prefetching, "AHEAD_MINIMUM", CLASSES + 1)
    alone = project.build("html", "-W", outdir=tmp_path / "alone")
    assert site_files(died.outdir) == site_files(alone.outdir)


STOPPING = """

import os as _os


def _stop(app, pagename, *args):
    if _os.environ.get("STOP_WRITING"):
        raise KeyboardInterrupt  # as Ctrl-C while pages are written


def setup(app):
    app.connect("html-page-context", _stop)
"""


def test_a_build_stopped_while_pages_are_written_leaves_the_next_its_worker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C while the pages are written: the thread writing the Markdown files waits for
    more, and no ``build-finished`` tells it there is none. The next build in the same
    process finishes it, so it may fork its worker."""
    project = write_boxes(tmp_path / "boxes")
    conf = project.docs / "conf.py"
    conf.write_text(conf.read_text() + STOPPING)
    monkeypatch.setenv("STOP_WRITING", "1")
    stopped = project.build("html", outdir=tmp_path / "stopped")
    assert stopped.returncode != 0
    monkeypatch.delenv("STOP_WRITING")
    again = project.build("html", "-v", outdir=tmp_path / "again")
    assert again.returncode == 0, again.stderr
    assert "computed ahead in process" in again.stdout
    assert [t.name for t in threading.enumerate() if t.name == "refgen-files"] == []

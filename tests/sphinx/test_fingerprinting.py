"""A fresh build takes its pages' fingerprints beside the build, in its worker or in a fork
(:mod:`refgen.sphinx.fingerprinting`): the same fingerprints the build would take, of
the files as the build imported them, taken by the build itself when the fork fails."""

from __future__ import annotations

import multiprocessing
import os
import pickle
import shutil
import signal
import time
from pathlib import Path

import pytest

from refgen.evaluate.ahead import FORK_AVAILABLE
from refgen.site.fingerprint import ForkedFingerprints
from refgen.sphinx import fingerprinting
from refgen.sphinx.state import STATE
from refgen.testing import BuildResult, ScenarioProject
from tests.sphinx.test_incremental import chain_value, reread, touch_edit, write_chain
from tests.unit.evaluate.test_ahead import write_boxes

pytestmark = pytest.mark.skipif(not FORK_AVAILABLE, reason="the fingerprints fork (Linux only)")

FORKED = "pages fingerprinted in process"


def kept_fingerprints(project: ScenarioProject) -> dict[str, str | None]:
    """The fingerprint each generated page's record keeps for the next build."""
    pickled = project.root / "_build" / "html" / ".doctrees" / "environment.pickle"
    env = pickle.loads(pickled.read_bytes())
    pages = getattr(env, STATE).pages
    return {docname: record.fingerprint for docname, record in pages.items()}


def build(project: ScenarioProject) -> BuildResult:
    result = project.build("html", "-W", "-v")
    assert result.returncode == 0, result.stderr
    return result


def test_a_fresh_build_fingerprints_in_a_fork_as_the_build_itself_would(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = write_chain(tmp_path)
    assert FORKED in build(project).stdout
    forked = kept_fingerprints(project)
    shutil.rmtree(project.root / "_build")
    with monkeypatch.context() as patched:
        patched.setattr(fingerprinting, "_may_fork", lambda app: False)
        assert FORKED not in build(project).stdout
    assert forked == kept_fingerprints(project)
    assert all(forked.values()) and len(set(forked.values())) == len(forked)
    shutil.rmtree(project.root / "_build")
    assert FORKED in build(project).stdout
    # The next build compares with them: nothing changed, nothing read.
    again = build(project)
    assert FORKED not in again.stdout  # records to compare with: taken while planning
    assert reread(again) == set()


@pytest.mark.parametrize(
    ("module", "old", "new", "shown_first", "shown_next"),
    [
        ("constants", "RATE = 3.0", "RATE = 4.0", "7", "9"),  # imported with the library
        ("deep", "return x * 2", "return x * 5", "16", "16"),  # imported by a helper's body
    ],
)
def test_a_file_saved_while_the_build_runs_is_fingerprinted_as_it_was_planned(
    tmp_path: Path, module: str, old: str, new: str, shown_first: str, shown_next: str
) -> None:
    """The fork reads the files after the build planned the pages: an editor saving a file
    in between must not leave the next build with a page of old code taken as current.
    A module the library imported shows its old code, and the next build reads the page
    again; one a helper imports in its body shows the new code at once."""
    project = write_chain(tmp_path)
    path = project.src / "chain" / f"{module}.py"
    marker = tmp_path / "saved"
    conf = project.docs / "conf.py"
    conf.write_text(
        conf.read_text()
        + f"""

def _save_while_building(app):
    from pathlib import Path
    marker, path = Path({str(marker)!r}), Path({str(path)!r})
    if not marker.exists():  # the user saves once, after the build planned its pages
        marker.touch()
        path.write_text(path.read_text().replace({old!r}, {new!r}))


def setup(app):
    app.connect("builder-inited", _save_while_building, priority=900)
"""
    )
    first = build(project)
    assert FORKED in first.stdout
    assert chain_value(first, "Direct", "result") == shown_first
    again = build(project)
    assert ("reference/chain.models/Direct" in reread(again)) == (shown_next != shown_first)
    assert chain_value(again, "Direct", "result") == shown_next


def test_a_fork_that_dies_leaves_the_fingerprints_to_the_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def die(forked: ForkedFingerprints, key: str) -> None:
        os.kill(os.getpid(), signal.SIGKILL)

    project = write_chain(tmp_path)
    with monkeypatch.context() as patched:
        patched.setattr(ForkedFingerprints, "_in_fork", die)
        assert FORKED in build(project).stdout
    assert all(kept_fingerprints(project).values())
    assert reread(build(project)) == set()
    touch_edit(project.src / "chain" / "constants.py", "RATE = 3.0", "RATE = 4.0")
    edited = build(project)
    assert "reference/chain.models/Direct" in reread(edited)
    assert chain_value(edited, "Direct", "result") == "9"


@pytest.mark.parametrize("linked", [False, True])
def test_a_sibling_package_saved_while_the_fork_runs_is_fingerprinted_as_imported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, linked: bool
) -> None:
    """A helper imports, in its body, a module of another package beside the project's;
    the file is saved once the pages are read and before the (slow) fork reads it: the
    fork must fingerprint the code the build ran, so the next build reads the page again.
    A package behind a symbolic link to a folder is not in the snapshot: the page's
    fingerprint then matches nothing, without a warning."""
    project = write_chain(tmp_path)
    sibling = project.src / "chainx"
    if linked:
        (tmp_path / "elsewhere").mkdir()
        sibling.symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    else:
        sibling.mkdir()
    (sibling / "__init__.py").write_text("")
    shutil.copy(project.src / "chain" / "deep.py", sibling / "deep.py")
    helpers = project.src / "chain" / "helpers.py"
    helpers.write_text(helpers.read_text().replace("from chain.deep", "from chainx.deep"))
    marker = tmp_path / "saved"
    conf = project.docs / "conf.py"
    conf.write_text(
        conf.read_text()
        + f"""

def _save_once_read(app, env):
    from pathlib import Path
    marker, deep = Path({str(marker)!r}), Path({str(sibling / "deep.py")!r})
    if not marker.exists():
        marker.touch()
        deep.write_text(deep.read_text().replace("return x * 2", "return x * 5"))


def setup(app):
    app.connect("env-updated", _save_once_read, priority=100)
"""
    )
    forked = ForkedFingerprints._in_fork

    def slow(self: ForkedFingerprints, key: str) -> object:
        time.sleep(2)  # a large site's fork, still walking when the file is saved
        return forked(self, key)

    with monkeypatch.context() as patched:
        patched.setattr(ForkedFingerprints, "_in_fork", slow)
        first = build(project)
    assert FORKED in first.stdout
    assert chain_value(first, "Direct", "result") == "7"
    kept = kept_fingerprints(project)["reference/chain.models/Direct"]
    assert kept is not None and kept.startswith("unknown") == linked
    again = build(project)
    assert "reference/chain.models/Direct" in reread(again)
    assert chain_value(again, "Direct", "result") == "16"


def test_a_build_that_fails_after_planning_leaves_no_fork(tmp_path: Path) -> None:
    """Another ``builder-inited`` handler fails after refgen planned the pages: Sphinx
    emits no ``build-finished`` then, and no process is left running."""
    project = write_chain(tmp_path)
    conf = project.docs / "conf.py"
    conf.write_text(
        conf.read_text()
        + """

def _fail(app):
    raise RuntimeError("a later handler fails")


def setup(app):
    app.connect("builder-inited", _fail, priority=900)
"""
    )
    failed = project.build("html", "-v")
    assert failed.returncode != 0
    assert multiprocessing.active_children() == []


def fingerprints_for_the_next_build(project: ScenarioProject) -> dict[str, str | None]:
    """The fingerprints the next build compares with: its records', given those the last
    build kept in a file of their own."""
    doctrees = project.root / "_build" / "html" / ".doctrees"
    state = getattr(pickle.loads((doctrees / "environment.pickle").read_bytes()), STATE)
    fingerprinting.restore_fingerprints(state, doctrees)
    return {docname: record.fingerprint for docname, record in state.pages.items()}


def test_the_worker_fingerprints_a_fresh_build_once_its_pages_are_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a worker computing the figures, it takes the fingerprints too, after them (no
    process of their own); the next build compares with the same fingerprints the build
    takes alone, and with nothing changed it neither reads nor composes a page."""
    project = write_boxes(tmp_path / "boxes")
    first = build(project)
    assert FORKED not in first.stdout
    assert set(kept_fingerprints(project).values()) == {""}  # pickled before they came
    given = fingerprints_for_the_next_build(project)
    shutil.rmtree(project.root / "_build")
    with monkeypatch.context() as patched:
        patched.setattr(fingerprinting, "_may_fork", lambda app: False)
        build(project)
    assert given == kept_fingerprints(project)
    assert all(given.values()) and len(set(given.values())) == len(given)

    shutil.rmtree(project.root / "_build")
    build(project)
    log = tmp_path / "computed.log"
    monkeypatch.setenv("AHEAD_TEST_LOG", str(log))
    again = build(project)
    assert reread(again) == set()
    assert not log.exists()  # no figure computed: no page composed again


def test_without_the_fingerprints_file_the_next_build_composes_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file of the worker's fingerprints lost: the next build trusts no page, composes
    each again to see whether it changed, and reads again only those that did."""
    project = write_boxes(tmp_path / "boxes")
    build(project)
    (project.root / "_build" / "html" / ".doctrees" / fingerprinting.FINGERPRINTS).unlink()
    log = tmp_path / "computed.log"
    monkeypatch.setenv("AHEAD_TEST_LOG", str(log))
    touch_edit(project.module_path("models"), "Box number 0.", "Box number 0, edited.")
    again = build(project)
    assert log.exists()  # the pages composed again, to see whether they changed
    # The class's page, and its category's, which shows its summary.
    assert reread(again) == {"reference/ahead.models/Box0", "reference/ahead.models/index"}
    page = again.outdir / "reference" / "ahead.models" / "Box0.html"
    assert "Box number 0, edited." in page.read_text()

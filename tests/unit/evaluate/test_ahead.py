"""Values and elasticities computed ahead in a forked worker while Sphinx reads the pages."""

from __future__ import annotations

import functools
import gc
import json
import multiprocessing
import os
import pickle
import signal
import threading
import time
import weakref
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pygments
import pytest

from refgen.evaluate import ahead as ahead_module
from refgen.evaluate.ahead import FORK_AVAILABLE, NOT_GIVEN, AheadWorker, can_fork
from refgen.site import compose as compose_module
from refgen.site.plan import PlannedPage
from refgen.sphinx import ahead as prefetching
from refgen.sphinx import highlighting
from refgen.testing import ScenarioProject, write_scenario_project
from tests.html_helpers import read_html, section, text
from tests.sphinx.test_incremental import READING

pytestmark = pytest.mark.skipif(not FORK_AVAILABLE, reason="the worker forks (Linux only)")

CLASSES = 10  # more than refgen.sphinx.ahead.AHEAD_MINIMUM

MODELS = '''
import os
import signal
from dataclasses import dataclass
from pathlib import Path

BUILD_PID = os.getpid()  # imported by the build itself, before the worker forks


def _note_process() -> None:
    log = os.environ.get("AHEAD_TEST_LOG")
    if log:
        with open(log, "a") as stream:
            where = "build" if os.getpid() == BUILD_PID else "worker"
            stream.write(f"{where}\\n")
    if os.environ.get("AHEAD_TEST_DIE") and os.getpid() != BUILD_PID:
        os.kill(os.getpid(), signal.SIGKILL)  # os._exit would be a failure, caught as data
'''

CLASS = '''

@dataclass(frozen=True, kw_only=True)
class Box{n}:
    """Box number {n}."""

    side: float = 2.0
    """Side of the box."""
    count: int = 3
    """Boxes."""

    @property
    def volume(self) -> float:
        """Volume of all boxes."""
        _note_process()
        return self.count * self.side**{power}
'''

REGISTRY = '''
from ahead.models import *


class Named:
{entries}
'''


def write_boxes(root: Path, conf_extra: str = "") -> ScenarioProject:
    models = MODELS + "".join(CLASS.format(n=n, power=n % 3 + 1) for n in range(CLASSES))
    entries = "".join(
        f"    Small{n} = Box{n}(side=1.5)\n    Large{n} = Box{n}(side={n + 3}.0, count=5)\n"
        for n in range(CLASSES)
    )
    return write_scenario_project(
        root,
        "ahead",
        {"models": models, "registry": REGISTRY.format(entries=entries)},
        registry="registry.Named",
        documented=["models"],
        conf_extra=conf_extra,
    )


def figure_sections(outdir: Path) -> dict[str, str]:
    """The registry values and the elasticities of every class page, as text."""
    folder = outdir / "reference" / "ahead.models"
    shown = {}
    for n in range(CLASSES):
        page = read_html(folder / f"Box{n}.html")
        for title in ("Registry values", "Sensitivity"):
            shown[f"Box{n} {title}"] = text(section(page, title))
    return shown


def processes(log: Path) -> set[str]:
    """Where the figures were computed: ``build``, ``worker`` or both."""
    return set(log.read_text().split())


def test_the_worker_computes_the_figures_the_build_would(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = write_boxes(tmp_path / "boxes")
    log = tmp_path / "processes.log"
    monkeypatch.setenv("AHEAD_TEST_LOG", str(log))
    ahead = project.build("html", "-W", outdir=tmp_path / "ahead")
    assert ahead.returncode == 0, ahead.stderr
    assert processes(log) == {"worker"}  # the values and the elasticities

    log.unlink()
    monkeypatch.setattr(prefetching, "AHEAD_MINIMUM", CLASSES + 1)
    alone = project.build("html", "-W", outdir=tmp_path / "alone")
    assert processes(log) == {"build"}
    shown = figure_sections(ahead.outdir)
    assert shown == figure_sections(alone.outdir)
    # Each figure is its whole part and its fraction, lined up: "3" then ".00".
    assert "3 .00" in shown["Box2 Sensitivity"]  # volume = count × side³: elasticity 3 to the side


def test_a_worker_that_dies_leaves_every_page_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """User code that ends the process the moment it runs in the worker: the build
    computes the elasticities itself, and the pages are the ones it gives alone."""
    project = write_boxes(tmp_path / "boxes")
    monkeypatch.setenv("AHEAD_TEST_DIE", "1")
    died = project.build("html", "-W", outdir=tmp_path / "died")
    assert died.returncode == 0, died.stderr
    monkeypatch.setattr(prefetching, "AHEAD_MINIMUM", CLASSES + 1)
    alone = project.build("html", "-W", outdir=tmp_path / "alone")
    assert figure_sections(died.outdir) == figure_sections(alone.outdir)
    assert module_source(died.outdir) == module_source(alone.outdir)


def test_few_classes_start_no_worker(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = write_boxes(tmp_path / "boxes")
    log = tmp_path / "processes.log"
    monkeypatch.setenv("AHEAD_TEST_LOG", str(log))
    monkeypatch.setattr(prefetching, "AHEAD_MINIMUM", CLASSES + 1)
    assert project.build("html", "-W").returncode == 0
    assert processes(log) == {"build"}


def site_files(outdir: Path) -> dict[str, bytes]:
    """Every file of the built site but Sphinx's own records of the build."""
    return {
        path.relative_to(outdir).as_posix(): path.read_bytes()
        for path in sorted(outdir.rglob("*"))
        if path.is_file() and ".doctrees" not in path.parts and path.name != ".buildinfo"
    }


def test_the_worker_composes_each_class_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Class pages composed in the worker, with their digest and Markdown:
    the site is the one the build makes alone, and the next build re-reads nothing."""
    build_pid = os.getpid()
    composed_by_build: list[str] = []
    composing = compose_module.compose

    def noting(project: Any, planned: Any, stub_path: str) -> Any:
        if os.getpid() == build_pid:
            composed_by_build.append(planned.kind)
        return composing(project, planned, stub_path)

    monkeypatch.setattr(compose_module, "compose", noting)
    project = write_boxes(tmp_path / "boxes")
    ahead = project.build("html", "-W", outdir=tmp_path / "ahead")
    assert ahead.returncode == 0, ahead.stderr
    assert "scenario" not in composed_by_build
    again = project.build("html", "-W", outdir=tmp_path / "ahead")
    assert "0 added, 0 changed, 0 removed" in again.stdout

    monkeypatch.setattr(prefetching, "AHEAD_MINIMUM", CLASSES + 1)
    alone = project.build("html", "-W", outdir=tmp_path / "alone")
    assert composed_by_build.count("scenario") == CLASSES
    assert site_files(ahead.outdir) == site_files(alone.outdir)


UNIT_ON_FIRST_USE = '''
import os
import time
from dataclasses import dataclass

import pint

BUILD_PID = os.getpid()
ureg = pint.UnitRegistry()


def _define_widget() -> bool:
    """Units this library defines the first time a figure needs them."""
    if os.getpid() != BUILD_PID:
        time.sleep(0.05)  # the worker's figures cost more than the build's pages
    if "widget" not in ureg:
        ureg.define("widget = [widget]")
    return True
'''

UNIT_CLASS = '''

@dataclass(frozen=True, kw_only=True)
class Stock{n}:
    """Stock number {n}."""

    count: int = 3
    """Boxes."""

    @property
    def ready(self) -> bool:
        """Whether the library's units are defined."""
        return _define_widget()

    @property
    def stock(self) -> float:
        """Widgets in stock."""
        return self.count * ureg.widget
'''


def test_a_page_is_composed_where_its_figures_ran(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Composing reads the process's state (which names the unit registry knows, for the
    equations), and a figure may change it: a library that defines a unit on first use.
    Each class page is composed in the process that computed its figures, so a worker
    slower than the build gives the site the build gives alone (found in review of a
    build that composed the pages the worker had not reached)."""
    models = UNIT_ON_FIRST_USE + "".join(UNIT_CLASS.format(n=n) for n in range(CLASSES))
    entries = "".join(
        f"    Small{n} = Stock{n}(count=2)\n    Large{n} = Stock{n}(count=5)\n"
        for n in range(CLASSES)
    )
    project = write_scenario_project(
        tmp_path / "stock",
        "ahead",
        {"models": models, "registry": REGISTRY.format(entries=entries)},
        registry="registry.Named",
        documented=["models"],
    )
    ahead = project.build("html", "-W", outdir=tmp_path / "ahead")
    assert ahead.returncode == 0, ahead.stderr
    monkeypatch.setattr(prefetching, "AHEAD_MINIMUM", CLASSES + 1)
    alone = project.build("html", "-W", outdir=tmp_path / "alone")
    assert alone.returncode == 0, alone.stderr
    assert "widget" in text(read_html(alone.outdir / "reference/ahead.models/Stock3.html"))
    assert site_files(ahead.outdir) == site_files(alone.outdir)


def test_pages_whose_fingerprint_changed_are_composed_half_by_the_worker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An edit every class page reaches: at ``env-get-outdated`` the build composes the
    first half of the pages again and the worker the second, and the site is the one a
    clean build of the edited library gives."""
    build_pid = os.getpid()
    log = tmp_path / "composed.log"
    composing = compose_module.compose

    def noting(project: Any, planned: Any, stub_path: str) -> Any:
        if planned.kind == "scenario":
            with log.open("a") as stream:
                stream.write("build\n" if os.getpid() == build_pid else "worker\n")
        return composing(project, planned, stub_path)

    monkeypatch.setattr(compose_module, "compose", noting)
    monkeypatch.setattr(prefetching, "AHEAD_MINIMUM", 2)
    project = write_boxes(tmp_path / "boxes")
    first = project.build("html", "-W", outdir=tmp_path / "edited")
    assert first.returncode == 0, first.stderr
    models = project.root / "src" / "ahead" / "models.py"
    source = models.read_text()
    models.write_text(
        source.replace(
            "def _note_process() -> None:\n", "def _note_process() -> None:\n    edited = True\n", 1
        )
    )
    log.unlink()
    edited = project.build("html", "-W", outdir=tmp_path / "edited")
    assert edited.returncode == 0, edited.stderr
    assert sorted(log.read_text().split()) == ["build"] * 5 + ["worker"] * 5

    monkeypatch.setattr(prefetching, "AHEAD_MINIMUM", CLASSES + 1)
    clean = project.build("html", "-W", outdir=tmp_path / "clean")
    assert clean.returncode == 0, clean.stderr
    assert site_files(edited.outdir) == site_files(clean.outdir)


def test_the_modules_to_lex_are_those_the_pages_document() -> None:
    pages = [
        PlannedPage("reference/index", "index", "Reference", ("pkg.models/index",)),
        PlannedPage("reference/pkg.models/index", "category", "pkg.models", ("A",)),
        PlannedPage("reference/pkg.models/A", "scenario", "pkg.models.A"),
        PlannedPage("reference/helpers/pkg.physics", "helpers", "pkg.physics"),
        PlannedPage("reference/registry", "registry", "pkg.registry.Named"),
    ]
    assert prefetching.shown_modules(pages) == ["pkg.models", "pkg.physics", "pkg.registry"]


def module_source(outdir: Path) -> str:
    return (outdir / "_modules" / "ahead" / "models.html").read_text()


@pytest.mark.parametrize("line_numbers", [False, True])
def test_the_worker_lexes_and_formats_the_module_source_the_build_shows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, line_numbers: bool
) -> None:
    """A clean build's highlighted module: lexed and formatted by the worker while pages
    are read, as viewcode asks for it, and the same page the build makes alone."""
    build_pid = os.getpid()
    lexed_by_build: list[str] = []
    formatted_by_build: list[object] = []
    lexed = highlighting._lexed

    def noting(lexer: Any, text: str) -> Any:
        if os.getpid() == build_pid:
            lexed_by_build.append(text)
        return lexed(lexer, text)

    def noting_format(tokens: Any, formatter: Any) -> Any:
        if os.getpid() == build_pid:
            formatted_by_build.append(formatter)
        return pygments.format(tokens, formatter)

    monkeypatch.setattr(highlighting, "_lexed", noting)
    pieces_formatter = SimpleNamespace(format=noting_format, __version__=pygments.__version__)
    monkeypatch.setattr(highlighting, "pygments", pieces_formatter)
    project = write_boxes(tmp_path / "boxes", f"viewcode_line_numbers = {line_numbers}\n")
    ahead = project.build("html", "-W", outdir=tmp_path / "ahead")
    assert ahead.returncode == 0, ahead.stderr
    assert not [text for text in lexed_by_build if "class Box" in text]
    assert not formatted_by_build

    monkeypatch.setattr(prefetching, "AHEAD_MINIMUM", CLASSES + 1)
    alone = project.build("html", "-W", outdir=tmp_path / "alone")
    assert alone.returncode == 0, alone.stderr
    assert [text for text in lexed_by_build if "class Box" in text]
    assert formatted_by_build
    assert module_source(ahead.outdir) == module_source(alone.outdir)
    assert '<span class="nc">Box3</span>' in module_source(ahead.outdir)
    assert ('class="linenos"' in module_source(ahead.outdir)) is line_numbers


WORKER_WATCH = """
import json
from pathlib import Path
from refgen.sphinx.state import build_state

_seen = {}


def _note(moment):
    def note(app, *rest):
        ahead = build_state(app.env).ahead
        worker = ahead.worker if ahead is not None else None
        _seen[moment] = None if worker is None else worker.pid
        return []
    return note


def _report(app, exception):
    Path(app.outdir, "worker-seen.json").write_text(json.dumps(_seen))


def setup(app):
    app.connect("env-updated", _note("after reading"), priority=900)
    app.connect("html-collect-pages", _note("collecting pages"), priority=450)
    app.connect("build-finished", _report, priority=0)
"""


def worker_seen(outdir: Path) -> dict[str, int | None]:
    """The worker's process at each moment ``WORKER_WATCH`` notes (None: no worker)."""
    return json.loads((outdir / "worker-seen.json").read_text())


def test_a_build_that_fails_while_planning_leaves_no_worker_running(tmp_path: Path) -> None:
    """A stub that would overwrite a page the author wrote stops the build before any
    page is read: no worker is left running."""
    project = write_boxes(tmp_path / "boxes")
    written = project.docs / "reference" / "ahead.models" / "Box3.rst"
    written.parent.mkdir(parents=True)
    written.write_text("Box 3\n=====\n\nWritten by hand.\n")
    failed = project.build("html", outdir=tmp_path / "out")
    assert failed.returncode != 0
    assert multiprocessing.active_children() == []


def test_the_worker_lexes_on_while_pages_are_written(tmp_path: Path) -> None:
    """Once every page is read the worker, with modules left to lex, is not waited for:
    it runs on, and is done with by the time viewcode collects its pages."""
    project = write_boxes(tmp_path / "boxes", WORKER_WATCH)
    clean = project.build("html", "-W", outdir=tmp_path / "out")
    assert clean.returncode == 0, clean.stderr
    seen = worker_seen(clean.outdir)
    assert seen["after reading"] is not None
    assert seen["collecting pages"] is None
    assert '<span class="nc">Box3</span>' in module_source(clean.outdir)


def test_a_worker_that_has_sent_everything_says_so_without_waiting(tmp_path: Path) -> None:
    gate = tmp_path / "go"
    worker = AheadWorker(functools.partial(fails_then_waits, str(gate)), [1, 2], PATIENCE)
    try:
        assert not worker.has_given_all()  # the child waits on the gate: this does not
        assert not worker.has_given(2)
        gate.touch()
        worker._process.join(timeout=PATIENCE)
        assert worker.has_given_all()
        assert worker.take(2) == 2
    finally:
        worker.close()


PATIENCE = 60.0


def objects_frozen(key: int) -> int:
    return gc.get_freeze_count()


def test_the_child_leaves_what_the_build_made_to_the_collector_frozen() -> None:
    """Inherited objects (syntax trees the build lets go of later, the analysis) are never
    walked by the child's collections: on the deep bench shape the build waited a second
    for a child that walked them."""
    made_by_the_build = [[n] for n in range(1000)]
    worker = AheadWorker(objects_frozen, [1], PATIENCE)
    try:
        assert worker.take(1) >= len(made_by_the_build)
    finally:
        worker.close()


class _Cycle:
    def __init__(self) -> None:
        self.me = self


_KEPT_BY_THE_CHILD: list[list[int]] = []
_LEFT_BY_THE_CHILD: list[weakref.ref[_Cycle]] = []


def keeps_and_leaves_garbage(key: int) -> tuple[int, bool]:
    """Keeps a list and leaves a cycle behind at the first key; at the last, how many
    objects are frozen and whether that cycle is still alive."""
    if key == 0:
        _KEPT_BY_THE_CHILD.append(list(range(3)))
        _LEFT_BY_THE_CHILD.append(weakref.ref(_Cycle()))  # garbage at once, in a cycle
    return gc.get_freeze_count(), _LEFT_BY_THE_CHILD[0]() is not None


def test_the_child_freezes_what_it_keeps_after_collecting_what_it_left() -> None:
    gc.disable()  # in the child too: only the child's own freezes collect
    try:
        keys = list(range(ahead_module.KEYS_BETWEEN_FREEZES + 1))
        worker = AheadWorker(keeps_and_leaves_garbage, keys, PATIENCE)
    finally:
        gc.enable()
    try:
        frozen_at_first, cycle_alive = worker.take(0)
        assert cycle_alive
        frozen_at_last, cycle_alive = worker.take(keys[-1])
        assert not cycle_alive  # collected before the freeze, not frozen with it
        assert frozen_at_last > frozen_at_first  # what the child kept
    finally:
        worker.close()


def square(number: int) -> int:
    return number * number


def large_result_noting_the_last(marker: str, last: int, key: int) -> bytes:
    if key == last:
        Path(marker).touch()
    return bytes(40_000)


def test_the_child_runs_ahead_of_a_build_that_takes_nothing_yet(tmp_path: Path) -> None:
    """Eight results of 40 kB, none taken: the child computes the last one all the same,
    as it must while the build reads pages that ask it for nothing. (Failed with the
    system's default pipe buffer of 64 KiB: the child waited to send the second.)"""
    marker = tmp_path / "last computed"
    compute = functools.partial(large_result_noting_the_last, str(marker), 7)
    worker = AheadWorker(compute, range(8), PATIENCE)
    try:
        worker._process.join(timeout=PATIENCE)  # it ends once it has sent everything
        assert marker.exists()
        assert all(worker.take(key) == bytes(40_000) for key in range(8))
    finally:
        worker.close()


def test_pages_that_show_no_figures_are_read_first(tmp_path: Path) -> None:
    """While the worker computes the first classes' figures, the build reads the registry,
    helper and index pages; the class and category pages follow in Sphinx's order."""
    project = write_boxes(tmp_path / "boxes")
    result = project.build("html", "-W")
    assert result.returncode == 0, result.stderr
    order = READING.findall(result.stdout)
    first = ["reference/helpers/ahead.models", "reference/index", "reference/registry"]
    assert order[:3] == first
    assert order[3:] == sorted(order[3:]) == sorted(set(order) - set(first))
    assert {"index", "reference/ahead.models/Box0", "reference/ahead.models/index"} < set(order)


def test_results_come_in_any_order_asked_and_each_once() -> None:
    worker = AheadWorker(square, [1, 2, 3, 2], PATIENCE)
    try:
        assert worker.keys == [1, 2, 3]
        assert worker.take(3) == 9
        assert worker.take(1) == 1
        assert worker.take(1) is NOT_GIVEN  # given once; the caller keeps it
        assert worker.take(4) is NOT_GIVEN  # never asked of the worker
        assert worker.take(2) == 4
    finally:
        worker.close()


def test_each_take_takes_in_every_result_already_sent(monkeypatch: pytest.MonkeyPatch) -> None:
    """The child is held back only by a full pipe, not by the order the build asks in,
    until the build holds ``MOST_HELD`` bytes of results it has not asked for."""
    worker = AheadWorker(square, [1, 2, 3], PATIENCE)
    try:
        worker._process.join(timeout=PATIENCE)  # all three sent: the child has ended
        assert worker.take(1) == 1
        assert sorted(worker._results) == [2, 3]  # received, and kept pickled until taken
        assert worker.take(3) == 9
    finally:
        worker.close()

    monkeypatch.setattr(ahead_module, "MOST_HELD", 1)
    worker = AheadWorker(square, [1, 2, 3], PATIENCE)
    try:
        worker._process.join(timeout=PATIENCE)
        assert worker.take(1) == 1
        assert worker._results == {}  # the cap reached with its own result: 2 and 3 wait
        assert worker.take(3) == 9
        assert sorted(worker._results) == [2]
    finally:
        worker.close()


def fails_then_waits(gate: str, key: int) -> int:
    if key == 1:
        raise ValueError("the build computes this one itself")
    deadline = time.monotonic() + PATIENCE
    while not os.path.exists(gate) and time.monotonic() < deadline:
        time.sleep(0.01)
    return key


def test_a_result_the_child_could_not_give_is_not_waited_for(tmp_path: Path) -> None:
    """Asked for a key the child failed on, the build goes on at once; it does not wait
    for the child's other results, nor give the child up."""
    gate = tmp_path / "go"
    worker = AheadWorker(functools.partial(fails_then_waits, str(gate)), [1, 2], patience=5)
    try:
        assert worker.take(1) is NOT_GIVEN  # while the child still waits on the gate
        gate.touch()
        assert worker.take(2) == 2
    finally:
        worker.close()


def unpicklable_for_two(number: int) -> object:
    if number == 2:
        return lambda: number  # a result the pipe cannot carry
    if number == 3:
        raise SystemExit("user code the guard would have caught")
    return number


def test_what_the_worker_cannot_send_is_not_given() -> None:
    worker = AheadWorker(unpicklable_for_two, [1, 2, 3, 4], PATIENCE)
    try:
        assert [worker.take(n) for n in (1, 2, 3, 4)] == [1, NOT_GIVEN, NOT_GIVEN, 4]
    finally:
        worker.close()


def test_a_worker_is_only_its_owners() -> None:
    """A process forked from the build (a parallel Sphinx reader) computes for itself."""
    worker = AheadWorker(square, [5], PATIENCE)
    try:
        read, write = os.pipe()
        child = os.fork()
        if child == 0:  # pragma: no cover - the child reports through the pipe
            os.write(write, pickle.dumps(worker.take(5) is NOT_GIVEN))
            os._exit(0)
        os.close(write)
        os.waitpid(child, 0)
        assert pickle.loads(os.read(read, 100)) is True
        assert worker.take(5) == 25
    finally:
        worker.close()


def _sleep_forever(_key: int) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # user code may; closing still stops it
    time.sleep(3600)


def test_closing_stops_a_worker_still_running() -> None:
    worker = AheadWorker(_sleep_forever, [1], PATIENCE)
    time.sleep(0.2)  # let the child start ignoring SIGTERM
    started = time.monotonic()
    worker.close()
    assert time.monotonic() - started < 3
    assert worker.take(1) is NOT_GIVEN
    assert worker.pid is not None
    with pytest.raises(ProcessLookupError):
        os.kill(worker.pid, 0)


def test_a_child_that_sends_nothing_for_too_long_is_given_up() -> None:
    """A child stuck for good (a lock held at the fork, a stopped process) or slower than
    the build itself would be: after ``patience`` seconds the build goes on alone."""
    worker = AheadWorker(_sleep_forever, [1, 2], patience=0.5)
    started = time.monotonic()
    assert worker.take(1) is NOT_GIVEN
    assert worker.take(2) is NOT_GIVEN
    assert time.monotonic() - started < 3
    assert worker.pid is not None
    with pytest.raises(ProcessLookupError):
        os.kill(worker.pid, 0)


OWNER = os.getpid()


def _explode_where_it_was_made() -> None:
    if os.getpid() == OWNER:
        raise SystemExit("unpickled in the build")


class Explosive:
    """Pickles in the child; unpickling it raises in the process that made the worker."""

    def __reduce__(self) -> tuple[Any, tuple[()]]:
        return _explode_where_it_was_made, ()


def explosive_for_one(number: int) -> object:
    return Explosive() if number == 1 else number


def test_a_result_that_raises_as_it_is_unpickled_is_not_given() -> None:
    worker = AheadWorker(explosive_for_one, [1, 2], PATIENCE)
    try:
        assert worker.take(1) is NOT_GIVEN
        assert worker.take(2) == 2
    finally:
        worker.close()


def test_no_worker_while_another_thread_runs() -> None:
    """A lock that thread held at the fork would never be released in the child."""
    assert can_fork()
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert not can_fork()
    finally:
        stop.set()
        thread.join()


LIBRARY_THREAD = """
import os, threading, time


def _run_until_told() -> None:
    while not os.path.exists(os.environ["AHEAD_TEST_STOP"]):
        time.sleep(0.02)


threading.Thread(target=_run_until_told, name="library-thread", daemon=True).start()
"""


def test_a_library_that_starts_a_thread_gets_no_worker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = write_boxes(tmp_path / "boxes")
    models = project.module_path("models")
    models.write_text(models.read_text() + LIBRARY_THREAD)
    log, stop = tmp_path / "processes.log", tmp_path / "stop"
    monkeypatch.setenv("AHEAD_TEST_LOG", str(log))
    monkeypatch.setenv("AHEAD_TEST_STOP", str(stop))
    try:
        assert project.build("html", "-W").returncode == 0
    finally:
        stop.touch()
        for thread in threading.enumerate():
            if thread.name == "library-thread":
                thread.join()
    assert processes(log) == {"build"}

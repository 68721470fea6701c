"""A build lets go of each page's doctree once it is written, without waiting for the
collector, and keeps what lives for the whole build out of the collector's way."""

from __future__ import annotations

import gc
import json
import pickle
import weakref
from pathlib import Path

import pytest
from docutils import nodes
from docutils.frontend import get_default_settings
from docutils.parsers.rst import Parser
from docutils.utils import new_document

from refgen.analysis import cache
from refgen.analysis.source import ModuleSource, parse_module
from refgen.project import Project
from refgen.sphinx import extension
from refgen.sphinx.memory import take_apart
from refgen.testing import ISOLATED_VARIABLE, ScenarioProject, write_scenario_project

MODELS = '''
    """Shapes"""

    from dataclasses import dataclass


    @dataclass(frozen=True, kw_only=True)
    class Square:
        """A square."""

        side: float
        """Metres."""

        @property
        def area(self) -> float:
            """Square metres."""
            return self.side**2


    @dataclass(frozen=True, kw_only=True)
    class Cube:
        """A cube."""

        edge: float
        """Metres."""

        @property
        def volume(self) -> float:
            """Cubic metres."""
            return self.edge**3
'''
REGISTRY = '''
    from shapes.models import Cube, Square


    class Named:
        """Named shapes."""

        Tile = Square(side=0.3)
        Dice = Cube(edge=0.016)
'''


def doctree_watcher(watched: str, stop_collecting_at: str, report_at: str, before: str = "") -> str:
    """``conf.py`` code that keeps a weak reference to the content of every doctree the
    event ``watched`` hands over, turns the collector off at ``stop_collecting_at``, and at
    ``report_at`` writes to ``doctrees-alive.json`` how many were seen and are still alive.

    With the collector off, content still alive is content whose cycles nobody cut
    (or that was frozen with something else)."""
    return f"""
import gc
import json
import weakref
from pathlib import Path

{before}
_seen = []


def _watch(app, doctree, *rest):
    _seen.append(weakref.ref(doctree.children[-1]))


def _stop_collecting(app, *rest):
    gc.disable()


def _report(app, *rest):
    alive = sum(1 for content in _seen if content() is not None)
    gc.enable()
    report = {{"seen": len(_seen), "alive": alive}}
    Path(app.outdir, "doctrees-alive.json").write_text(json.dumps(report))


def setup(app):
    app.connect("{watched}", _watch, priority=999)
    app.connect("{stop_collecting_at}", _stop_collecting, priority=0)
    app.connect("{report_at}", _report, priority=0)
"""


def shapes_project(tmp_path: Path, conf_extra: str) -> ScenarioProject:
    """The two shapes and their registry, with ``conf_extra`` watching the build."""
    return write_scenario_project(
        tmp_path,
        "shapes",
        {"models": MODELS, "registry": REGISTRY},
        registry="registry.Named",
        conf_extra=conf_extra,
    )


def test_each_written_doctree_is_freed_without_the_collector(tmp_path: Path) -> None:
    watcher = doctree_watcher("doctree-resolved", "write-started", "build-finished")
    project = shapes_project(tmp_path, watcher)
    result = project.build("html", "-W")
    assert result.returncode == 0, result.stderr
    report = json.loads((result.outdir / "doctrees-alive.json").read_text())
    assert report["seen"] >= 6
    assert report["alive"] <= 1  # the page written last, taken apart when the build ends
    assert gc.get_freeze_count() == 0  # collecting as usual after the build


def test_each_written_doctree_is_freed_without_the_collector_though_frozen_often(
    tmp_path: Path,
) -> None:
    """A freeze after every other page written freezes the page about to be written: taken
    apart with the next page, reference counting still frees it."""
    freeze_often = "import refgen.sphinx.memory\nrefgen.sphinx.memory.PAGES_BETWEEN_FREEZES = 2"
    watcher = doctree_watcher("doctree-resolved", "write-started", "build-finished", freeze_often)
    frozen_while_writing = """
_frozen = []
def _count_freezes(app, doctree, docname):
    _frozen.append(gc.get_freeze_count())
def _report_freezes(app, exception):
    Path(app.outdir, "frozen-while-writing.json").write_text(json.dumps(_frozen))
_setup = setup
def setup(app):
    _setup(app)
    app.connect("doctree-resolved", _count_freezes, priority=950)
    app.connect("build-finished", _report_freezes, priority=0)
"""
    project = shapes_project(tmp_path, watcher + frozen_while_writing)
    result = project.build("html", "-W")
    assert result.returncode == 0, result.stderr
    report = json.loads((result.outdir / "doctrees-alive.json").read_text())
    assert report["seen"] >= 6
    assert report["alive"] <= 1
    frozen = json.loads((result.outdir / "frozen-while-writing.json").read_text())
    assert len(set(frozen)) >= 3  # the freeze count grew while pages were written
    assert gc.get_freeze_count() == 0


def test_each_page_read_is_freed_without_the_collector_though_frozen_often(
    tmp_path: Path,
) -> None:
    """With the collector off from the start and a freeze after every other page."""
    freeze_often = "import refgen.sphinx.memory\nrefgen.sphinx.memory.PAGES_BETWEEN_FREEZES = 2"
    watcher = doctree_watcher("doctree-read", "builder-inited", "env-updated", freeze_often)
    project = shapes_project(tmp_path, watcher)
    result = project.build("html", "-W")
    assert result.returncode == 0, result.stderr
    report = json.loads((result.outdir / "doctrees-alive.json").read_text())
    assert report["seen"] >= 6
    assert report["alive"] <= 1  # the page read last, still in Sphinx's cache
    assert gc.get_freeze_count() == 0


def test_a_taken_apart_document_has_no_cycles_left() -> None:
    document = new_document("<page>", get_default_settings(Parser))
    Parser().parse("Title\n=====\n\nA *page* with a ``literal`` and a `link`_.\n", document)
    for problem in ("parsing", "transforming"):
        message = nodes.system_message(problem, nodes.paragraph("", f"While {problem}."))
        document.transform_messages.append(message)
        document.parse_messages.append(message.deepcopy())
    # As Sphinx stores it and reads it back to write the page.
    document.reporter = document.transformer = None
    document = pickle.loads(pickle.dumps(document))
    freed = weakref.ref(document.children[0])
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        take_apart(document)
        assert freed() is None
    finally:
        if was_enabled:
            gc.enable()


# Records, when the first class is analysed, whether the library's classes are still
# walked by every full collection.
WATCH_FREEZE = """
import gc
import json
from pathlib import Path

from refgen.analysis import cache

_seen = {}
_analyse_class = cache.AnalysisCache._analyse_class


def _watching(self, cls):
    if not _seen:
        collected = {id(obj) for obj in gc.get_objects()}  # frozen objects are left out
        _seen["class walked by the collector"] = id(cls) in collected
        _seen["frozen"] = gc.get_freeze_count()
    return _analyse_class(self, cls)


cache.AnalysisCache._analyse_class = _watching


def _report(app, exception):
    Path(app.outdir, "frozen.json").write_text(json.dumps(_seen))


def setup(app):
    app.connect("build-finished", _report, priority=100)
"""


def test_the_library_is_frozen_before_it_is_analysed(tmp_path: Path) -> None:
    project = shapes_project(tmp_path, WATCH_FREEZE)
    result = project.build("html", "-W", isolated=True)  # it patches refgen
    assert result.returncode == 0, result.stderr
    seen = json.loads((result.outdir / "frozen.json").read_text())
    assert seen == {"class walked by the collector": False, "frozen": seen["frozen"]}
    assert seen["frozen"] > 10_000  # Sphinx and the library
    assert gc.get_freeze_count() == 0


def test_parsing_a_large_module_sets_off_no_collection(tmp_path: Path) -> None:
    module = tmp_path / "large.py"
    module.write_text("".join(f"def f{i}(x):\n    return x + {i}\n\n" for i in range(2000)))
    collections: list[int] = []

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collections.append(info["generation"])

    gc.callbacks.append(count)
    try:
        source = parse_module(str(module))
    finally:
        gc.callbacks.remove(count)
    assert len(source.tree.body) == 2000
    assert len(collections) <= 1  # the young objects, once, after the parse
    assert gc.isenabled()


# Registered when conf.py is read, before refgen's own exit handler: runs after it.
REPORT_AT_EXIT = """
import atexit
import gc
from pathlib import Path


def _report():
    Path(__file__).with_name("frozen-at-exit.txt").write_text(str(gc.get_freeze_count()))


atexit.register(_report)
"""


def test_the_process_exits_without_walking_what_it_holds(tmp_path: Path) -> None:
    project = shapes_project(tmp_path, REPORT_AT_EXIT)
    result = project.build("html", "-W", isolated=True)
    assert result.returncode == 0, result.stderr
    frozen = int((project.docs / "frozen-at-exit.txt").read_text())
    assert frozen > 10_000  # Sphinx, its environment and the library


FAIL_AFTER_READING = """
def _fail(app, env):
    raise RuntimeError("failed after reading")


def setup(app):
    app.connect("env-updated", _fail)
"""


def test_after_a_failed_build_the_process_exits_as_python_makes_it(tmp_path: Path) -> None:
    # Sphinx's doctest builder closes its report only in finish() or when collected.
    doctest = 'extensions.append("sphinx.ext.doctest")\n'
    project = shapes_project(tmp_path, REPORT_AT_EXIT + FAIL_AFTER_READING + doctest)
    result = project.build("doctest", isolated=True)
    assert result.returncode != 0
    assert "failed after reading" in result.stderr
    assert (project.docs / "frozen-at-exit.txt").read_text() == "0"
    assert (result.outdir / "output.txt").read_text().startswith("Results of doctest builder")


@pytest.mark.parametrize("let_go", [True, False], ids=["after letting go", "before"])
def test_a_module_is_parsed_once_though_its_tree_is_let_go(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, let_go: bool
) -> None:
    """viewcode asks for a module's tags before the trees are let go (when it looks for
    edited modules) and after (as pages are read): either way from analysis's parse."""
    module = tmp_path / "shapes.py"
    module.write_text("class Square:\n    def area(self):\n        return 1\n")
    parsed: list[str] = []

    def counted(path: str) -> ModuleSource:
        parsed.append(path)
        return parse_module(path)

    monkeypatch.setattr(cache, "parse_module", counted)
    analysis = cache.AnalysisCache()
    analysis.module_source(str(module))
    if let_go:
        analysis.release_syntax_trees()
    text, tags = analysis.text_and_tags(str(module))
    assert text.startswith("class Square:")
    assert tags == {"Square": ("class", 1, 3), "Square.area": ("def", 2, 3)}
    assert parsed == [str(module)]
    module.write_text("def volume():\n    return 1\n")  # an edit: parsed again
    assert analysis.text_and_tags(str(module))[1] == {"volume": ("def", 1, 2)}
    assert len(parsed) == 2


def test_a_build_that_fails_while_planning_leaves_nothing_frozen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def fail(project: Project, helper_modules: list[str] | None = None) -> None:
        raise RuntimeError("planning failed")

    monkeypatch.setattr(extension, "plan_pages", fail)
    monkeypatch.delenv(ISOLATED_VARIABLE, raising=False)  # the failure is this process's
    result = shapes_project(tmp_path, "").build("html")
    assert result.returncode != 0
    assert "planning failed" in result.stderr
    assert gc.get_freeze_count() == 0


# Records how many objects were frozen when Sphinx hands each environment to its build:
# right after unpickling it, for a build that finds one.
WATCH_ENVIRONMENT_LOAD = """
import gc
import json
from pathlib import Path

from sphinx.environment import BuildEnvironment

_setup_environment = BuildEnvironment.setup
_frozen_at_setup = []


def _watching(self, app):
    _frozen_at_setup.append(gc.get_freeze_count())
    return _setup_environment(self, app)


BuildEnvironment.setup = _watching


def _report(app, exception):
    Path(app.outdir, "frozen-at-environment.json").write_text(json.dumps(_frozen_at_setup))


def setup(app):
    app.connect("build-finished", _report, priority=100)
"""


def test_the_pickled_environment_is_loaded_with_sphinx_frozen(tmp_path: Path) -> None:
    project = shapes_project(tmp_path, WATCH_ENVIRONMENT_LOAD)
    first = project.build("html", "-W", isolated=True)  # it patches Sphinx
    assert first.returncode == 0, first.stderr
    again = project.build("html", "-W", isolated=True)
    assert again.returncode == 0, again.stderr
    assert "loading pickled environment" in again.stdout
    frozen = json.loads((again.outdir / "frozen-at-environment.json").read_text())[0]
    assert frozen > 10_000  # Sphinx and the extensions, frozen at config-inited


def test_what_a_build_that_stopped_as_sphinx_started_froze_is_let_go_by_the_next(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A theme Sphinx cannot find stops the build after ``config-inited``, before any
    event refgen could thaw at: the next build in the same process thaws first."""
    monkeypatch.delenv(ISOLATED_VARIABLE, raising=False)  # the failure is this process's
    broken = shapes_project(tmp_path / "broken", 'html_theme = "no_such_theme"\n')
    stopped = broken.build("html")
    assert stopped.returncode != 0
    assert "no_such_theme" in stopped.stderr + stopped.stdout
    assert gc.get_freeze_count() > 0  # nothing refgen is told of ends that build
    working = shapes_project(tmp_path / "working", FROZEN_WHEN_SET_UP)
    result = working.build("html", "-W")
    assert result.returncode == 0, result.stderr
    assert (working.docs / "frozen-when-set-up.txt").read_text() == "0"
    assert gc.get_freeze_count() == 0


# conf.py's own setup runs after its extensions', refgen's among them.
FROZEN_WHEN_SET_UP = """
import gc
from pathlib import Path


def setup(app):
    Path(__file__).with_name("frozen-when-set-up.txt").write_text(str(gc.get_freeze_count()))
"""

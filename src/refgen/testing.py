"""Test helpers: throwaway scenario projects, Sphinx builds in this process, in-memory analysis.

Tests describe a package as a dict of module sources, write it with
:func:`write_scenario_project` and build it with :meth:`ScenarioProject.build`.
A build runs in this interpreter, through Sphinx's own command-line entry point
(:func:`sphinx.cmd.build.build_main`), so it parses options, sets the exit
status and prints warnings exactly as ``python -m sphinx`` does, without paying
for a new interpreter and a fresh import of Sphinx every time. Each build
imports the project's package afresh: see :func:`fresh_imports`.

``build(..., isolated=True)`` runs ``python -m sphinx`` in a subprocess instead,
for the few tests that must show what a user's fresh interpreter does:

- ``test_determinism``: the second of two clean builds of the site, so the
  in-process session site is compared byte for byte with a user's build;
- ``test_incremental``: one rebuild after an edit, where only the pickled
  environment carries over from the first build (as between two user runs);
- ``test_testing``: in-process and subprocess builds report the same exit
  status and warnings.

Setting ``REFGEN_TEST_ISOLATED=1`` runs every test build in a subprocess, to
tell a harness problem from a refgen one.

:func:`analyse_source` analyses a module given as a string, without Sphinx, for
unit tests of the analysis stage.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import linecache
import logging
import os
import re
import subprocess
import sys
import tempfile
import textwrap
import warnings
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from refgen.analysis.model import Problem, RegistryDoc, ScenarioDoc
from refgen.config import Settings
from refgen.project import Project

ISOLATED_VARIABLE = "REFGEN_TEST_ISOLATED"
"""Set (to anything non-empty) to run every test build in a subprocess, as before."""

_WARNING = re.compile(r"^(?:(?P<location>.*?): )?WARNING: (?P<message>.*)$")
"""A warning's first line: at a location, or at none."""


@dataclass(frozen=True)
class BuildResult:
    """What one ``sphinx-build`` run printed and left behind."""

    returncode: int
    stdout: str
    stderr: str
    outdir: Path

    @property
    def warnings(self) -> list[str]:
        """Each warning with its continuation lines, as printed."""
        found: list[str] = []
        for line in self.stderr.splitlines():
            if _WARNING.match(line):
                found.append(line)
            elif found and line.startswith(" "):
                found[-1] += "\n" + line
        return found


# ---------------------------------------------------------------------- fresh imports


def _top_level_names(folder: Path) -> set[str]:
    """Packages and modules importable from ``folder``."""
    if not folder.is_dir():
        return set()
    return {
        entry.stem if entry.suffix == ".py" else entry.name
        for entry in folder.iterdir()
        if (entry.is_dir() and entry.name != "__pycache__" and "." not in entry.name)
        or entry.suffix == ".py"
    }


def _under(path: str | os.PathLike[str] | None, prefixes: tuple[str, ...]) -> bool:
    return isinstance(path, str | os.PathLike) and os.fspath(path).startswith(prefixes)


def purge_modules(folders: Iterable[Path], names: Iterable[str] = ()) -> None:
    """Forget every module imported from ``folders`` or named (with submodules) by ``names``.

    Also drops what the interpreter and Sphinx remember about those files: the
    import system's finder for each folder, ``linecache`` lines and Sphinx's
    process-wide :class:`~sphinx.pycode.ModuleAnalyzer` cache (which viewcode
    reads, keyed by module name: without this a later build of another
    package of the same name would show the old source).
    """
    folders = [Path(f) for f in folders]
    prefixes = tuple(os.path.join(os.fspath(f), "") for f in folders)
    tops = set(names)
    for name, module in list(sys.modules.items()):
        if name.partition(".")[0] in tops or _under(getattr(module, "__file__", None), prefixes):
            del sys.modules[name]
    for folder in folders:
        sys.path_importer_cache.pop(os.fspath(folder), None)
    for filename in [f for f in linecache.cache if _under(f, prefixes)]:
        del linecache.cache[filename]
    pycode = sys.modules.get("sphinx.pycode")
    if pycode is not None:
        cache = pycode.ModuleAnalyzer.cache
        for kind, key in list(cache):
            if (kind == "module" and str(key).partition(".")[0] in tops) or (
                kind == "file" and _under(key, prefixes)
            ):
                del cache[kind, key]
    importlib.invalidate_caches()


@contextlib.contextmanager
def fresh_imports(*folders: Path) -> Iterator[None]:
    """Import from ``folders`` (first on ``sys.path``) afresh, and leave nothing behind.

    Before and after: every module imported from the folders, and every
    module whose top-level package lives there (wherever an earlier test
    imported it from), is removed from ``sys.modules``, so an edit made
    between two builds is seen and no test leaks its package into another.
    No bytecode is written (a file edited within a second keeps the same
    mtime, and a stale ``.pyc`` would be imported instead).
    """
    names = set().union(*(_top_level_names(f) for f in folders))
    entries = [os.fspath(f) for f in folders]
    purge_modules(folders, names)
    saved_path = list(sys.path)
    saved_bytecode = sys.dont_write_bytecode
    sys.path[:0] = entries
    sys.dont_write_bytecode = True
    try:
        yield
    finally:
        sys.path[:] = saved_path
        sys.dont_write_bytecode = saved_bytecode
        purge_modules(folders, names)


# ---------------------------------------------------------------------- Sphinx builds


def sphinx_build(
    srcdir: Path,
    outdir: Path,
    builder: str = "html",
    *options: str,
    paths: Sequence[Path] = (),
    cwd: Path | None = None,
    isolated: bool = False,
    files: Sequence[Path] = (),
) -> BuildResult:
    """Build ``srcdir`` into ``outdir`` as ``python -m sphinx -b BUILDER *OPTIONS`` does
    (``files``: only those source files, named after the folders).

    ``paths`` are importable during the build only (``PYTHONPATH`` for an
    isolated build). In-process by default; ``isolated`` (or the environment
    variable ``REFGEN_TEST_ISOLATED``, to compare the two modes) runs a
    subprocess. Colour is always off.
    """
    argv = ["-b", builder, *options, os.fspath(srcdir), os.fspath(outdir), *map(os.fspath, files)]
    if isolated or os.environ.get(ISOLATED_VARIABLE):
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            [*map(os.fspath, paths), *filter(None, [env.get("PYTHONPATH")])]
        )
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env["NO_COLOR"] = "1"  # Sphinx colours its output under CI=true; tests read it
        completed = subprocess.run(
            [sys.executable, "-m", "sphinx", *argv],
            capture_output=True,
            text=True,
            env=env,
            cwd=cwd,
            check=False,
        )
        return BuildResult(completed.returncode, completed.stdout, completed.stderr, outdir)
    returncode, stdout, stderr = _build_in_process(["--no-color", *argv], paths, cwd)
    return BuildResult(returncode, stdout, stderr, outdir)


@contextlib.contextmanager
def _no_colour() -> Iterator[None]:
    """``NO_COLOR`` for the build: Sphinx colours (and redraws progress lines) under CI=true."""
    before = os.environ.get("NO_COLOR")
    os.environ["NO_COLOR"] = "1"
    try:
        yield
    finally:
        if before is None:
            del os.environ["NO_COLOR"]
        else:
            os.environ["NO_COLOR"] = before


def _forget_asset_checksums() -> None:
    """Sphinx keeps, for the life of the process, the checksum of each static file it links
    by path (the ``?v=`` of a page's stylesheets and scripts); a file a later build writes
    again with other content (``documentation_options.js``, after ``release`` changed)
    would keep the first one. A fresh interpreter starts without them."""
    assets = importlib.import_module("sphinx.builders.html._assets")
    checksum = getattr(assets, "_file_checksum_inner", None)
    if checksum is not None and hasattr(checksum, "cache_clear"):
        checksum.cache_clear()


def _build_in_process(
    argv: list[str], paths: Sequence[Path], cwd: Path | None
) -> tuple[int, str, str]:
    """``sphinx.cmd.build.build_main(argv)`` with its output captured.

    ``build_main`` is what ``python -m sphinx`` runs (less the locale set-up,
    which would change this whole process): it reads the options, builds
    under ``docutils_namespace`` (so roles and directives registered by one
    build do not outlive it), turns an exception into exit status 2 with the
    message on stderr, and logs to ``sys.stdout``/``sys.stderr`` as they are
    when it starts, which is how the output is captured here. ``-j N`` forks
    workers from this process, as Sphinx does from its own.
    """
    import sphinx.locale
    from sphinx.cmd.build import build_main

    out, err = io.StringIO(), io.StringIO()
    with (
        fresh_imports(*paths),
        contextlib.chdir(cwd or os.getcwd()),
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
        warnings.catch_warnings(),
        _no_colour(),
    ):
        # As in a fresh interpreter: deprecations are not shown (other Python
        # warnings still reach pytest's summary), except refgen's own use of a deprecated
        # API, which fails the build: a user's warnings.simplefilter("error") would.
        for category in (DeprecationWarning, PendingDeprecationWarning):
            warnings.simplefilter("ignore", category)
            warnings.filterwarnings("error", category=category, module="refgen")
        sphinx.locale.init_console()
        _forget_asset_checksums()
        try:
            returncode = build_main(argv)
        except SystemExit as exit:  # argparse refusing an option
            returncode = exit.code if isinstance(exit.code, int) else 1
        finally:
            # Sphinx points its logger at this build's streams; let them go.
            logging.getLogger("sphinx").handlers.clear()
    return returncode, out.getvalue(), err.getvalue()


@dataclass(frozen=True)
class ScenarioProject:
    """A package of scenario modules with a Sphinx project documenting it."""

    root: Path
    package: str

    @property
    def src(self) -> Path:
        return self.root / "src"

    @property
    def docs(self) -> Path:
        return self.root / "docs"

    def environment(self) -> dict[str, str]:
        """The environment of a subprocess that imports the package (pytest, the CLI)."""
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(self.src), env.get("PYTHONPATH")]))
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env["NO_COLOR"] = "1"  # Sphinx colours its output under CI=true; tests read it
        return env

    def build(
        self,
        builder: str = "html",
        *options: str,
        outdir: Path | None = None,
        isolated: bool = False,
        files: Sequence[Path] = (),
    ) -> BuildResult:
        """Build the project's docs as ``python -m sphinx -b BUILDER *OPTIONS`` does
        (``files``: only those source files).

        In this interpreter, importing the package afresh from ``src`` (see
        :func:`fresh_imports`). ``isolated=True`` runs ``python -m sphinx`` in
        a subprocess instead: use it only where a fresh interpreter is the
        point of the test (nothing an earlier build imported or cached can
        take part), since each one costs a second or more of start-up.
        """
        return sphinx_build(
            self.docs,
            outdir or self.root / "_build" / builder,
            builder,
            *options,
            paths=[self.src],
            cwd=self.root,
            isolated=isolated,
            files=files,
        )

    def module_path(self, module: str) -> Path:
        return self.src / self.package / f"{module}.py"


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")


def write_scenario_project(
    root: Path,
    package: str,
    modules: Mapping[str, str],
    *,
    registry: str | None = None,
    documented: Sequence[str] | None = None,
    conf_extra: str = "",
) -> ScenarioProject:
    """Write ``src/<package>/<module>.py`` for each of ``modules`` and a docs project.

    ``modules`` maps module names (without the package) to their source, which is
    dedented. ``documented`` lists the modules the docs document (all but
    ``registry``'s module by default); ``registry`` is ``"module.Name"`` inside the
    package.
    """
    project = ScenarioProject(root, package)
    _write_package(project.src, package, modules)
    registry_module = registry.rpartition(".")[0] if registry else None
    if documented is None:
        documented = [name for name in modules if name != registry_module]
    conf = f"""
        project = "{package}"
        extensions = ["refgen"]
        refgen_modules = {[f"{package}.{name}" for name in documented]!r}
        refgen_registry = {f"{package}.{registry}" if registry else None!r}
    """
    _write(project.docs / "conf.py", textwrap.dedent(conf) + textwrap.dedent(conf_extra))
    _write(
        project.docs / "index.rst",
        f"""
        {package}
        {"=" * len(package)}

        .. toctree::

           reference/index
        """,
    )
    return project


def _write_package(src: Path, package: str, modules: Mapping[str, str]) -> None:
    _write(src / package / "__init__.py", f'"""Throwaway package {package}."""\n')
    for name, source in modules.items():
        _write(src / package / f"{name}.py", source)


# ---------------------------------------------------------------------- in-memory analysis


@dataclass(frozen=True)
class AnalysedModule:
    """What analysis makes of one module: its scenario classes, problems and registry."""

    name: str
    """The module's dotted name (``package.module``)."""
    path: str
    """The file it was read from, as locations give it (the file is gone by now)."""
    source: str
    """The module's source as written to the file (dedented)."""
    scenarios: dict[str, ScenarioDoc]
    """Every scenario class of the module that could be analysed, by class name."""
    problems: list[Problem] = field(default_factory=list)
    """Import, analysis, registry and docstring problems, in the order found."""
    registry: RegistryDoc | None = None

    def __getitem__(self, name: str) -> ScenarioDoc:
        return self.scenarios[name]

    def line_of(self, text: str) -> int:
        """The number of the first line of the source containing ``text``."""
        for number, line in enumerate(self.source.splitlines(), start=1):
            if text in line:
                return number
        raise LookupError(f"{text!r} is not in the source of {self.name}")


def analyse_source(
    source: str,
    *,
    package: str = "memo",
    module: str = "mod",
    others: Mapping[str, str] | None = None,
    registry: str | None = None,
) -> AnalysedModule:
    """Analyse ``source`` as module ``package.module``, without Sphinx.

    The dedented source (and ``others``: more modules of the package, by name)
    is written to a temporary package, imported afresh, and every scenario
    class in it is analysed by a new :class:`~refgen.project.Project`; then
    the files and the imported modules are removed again. ``registry`` names
    the registry as ``Name`` (in the module) or ``module.Name`` (in the package).
    """
    others = dict(others or {})
    if registry is not None and "." not in registry:
        registry = f"{module}.{registry}"
    dotted = f"{package}.{module}"
    with tempfile.TemporaryDirectory(prefix="refgen-memo-") as folder:
        src = Path(folder).resolve()
        _write_package(src, package, {module: source, **others})
        path = src / package / f"{module}.py"
        with fresh_imports(src):
            settings = Settings(
                modules=(dotted,), registry=f"{package}.{registry}" if registry else None
            )
            project = Project(settings)
            loading_problems = project.load()
            analysed, analysis_problems = project.analysed()
            scenarios = {doc.name: doc for doc in analysed}
            problems = [*loading_problems, *analysis_problems]
            for doc in scenarios.values():
                problems += [p for p in doc.problems if p not in problems]
            return AnalysedModule(
                name=dotted,
                path=str(path),
                source=path.read_text(encoding="utf-8"),
                scenarios=scenarios,
                problems=problems,
                registry=project.registry,
            )

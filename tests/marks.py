"""Markers from what a test does: ``build`` (Sphinx runs), ``browser`` (Chromium), ``slow``.

Nobody marks 1,500 tests by hand. At collection, each test's code is read
(its function, its fixtures and parameters, and the functions of ``tests``
and :mod:`refgen.testing` they call, followed name by name) and marked:

- ``build`` when it reaches a Sphinx build: :func:`refgen.testing.sphinx_build`
  or ``build_main``, any ``.build(...)`` call (:meth:`ScenarioProject.build`),
  a ``python -m sphinx`` or ``sphinx_autobuild`` command, or the source of
  such a test written out for pytest to run;
- ``browser`` when it uses the ``chromium`` fixture;
- ``slow`` when, without building, it starts a process (the command line in a
  subprocess, pytest on a throwaway package), or is one of :data:`SLOW`.

Under pytest-xdist, the tests of the session's docs site share a group, so
that ``--dist loadgroup`` builds the site on one worker only.

The rule reads code, so code can hide a build from it. A test that builds
without the ``build`` marker fails: while an unmarked test is set up and
run, Sphinx's build entry point and any command that starts Sphinx raise
:class:`UnmarkedBuild` (``tests/unit/testing/test_marks.py`` shows both halves).
"""

from __future__ import annotations

import contextlib
import inspect
import itertools
import subprocess
import types
from collections.abc import Generator, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

BUILD_NAMES = frozenset({"sphinx_build", "build_main", "build"})
"""Names (global or attribute) whose call builds a Sphinx project."""
BUILD_COMMANDS = frozenset({"sphinx", "sphinx_autobuild", "sphinx-build", "sphinx-autobuild"})
"""What follows ``-m`` in a command that builds."""
BUILD_SOURCE = (".build(", "sphinx_build(")
"""Text of a test file that builds, written out for pytest to run."""
PROCESS_NAMES = frozenset({"subprocess", "runpytest_subprocess"})
"""Names that start another process."""
SLOW = frozenset(
    {
        # Each example draws and analyses a whole class (half a second).
        "test_fuzz_parsers.py::test_a_hostile_class_is_analysed_into_records_and_problems",
        # Each example lays an expression out, reads it back and evaluates both.
        "test_mathml.py::test_the_layout_read_as_written_computes_what_the_source_computes",
        # Each example lays out a generated expression and parses its MathML back.
        "test_fuzz_parsers.py::test_mathml_of_any_expression_is_safe_markup",
        # Lexes whole modules of the standard library, twice each.
        "test_highlighting.py::test_a_standard_module_highlights_the_same_in_pieces",
        # Twenty cases, each importing a package with a pint registry of its own.
        "test_sweeps.py::test_bad_requests_are_refused_with_a_reason",
        # Starts a Jupyter kernel (a process, through nbclient) and runs three cells.
        "test_notebook.py::test_a_notebook_executed_by_a_kernel_shows_the_page",
        # Each example writes a class and analyses its equation.
        "test_fuzz_parsers.py::test_an_equation_is_the_expression_the_property_returns",
    }
)
"""Tests that take seconds without building or starting a process, by ``file::name``
(from ``pytest --durations``: the slowest that neither build nor start a process)."""
SITE_FIXTURE = "site"
"""The docs site, built once per session (``tests/conftest.py``): once per worker under xdist."""
CONSTRUCTORS = frozenset({"__new__", "__init__", "__post_init__"})
FOLLOWED_MODULES = ("tests", "refgen.testing")
"""Modules whose functions are read too when a test calls them."""


class UnmarkedBuild(Exception):
    """A test without the ``build`` marker started a Sphinx build."""


# ---------------------------------------------------------------------- reading code


@dataclass(frozen=True)
class Reach:
    """What a piece of test code uses: the names it looks up, and what it builds or runs."""

    names: frozenset[str] = frozenset()
    commands: frozenset[str] = frozenset()
    """The module after each ``-m`` of a command line written in the code."""
    sources_that_build: bool = False

    def __or__(self, other: Reach) -> Reach:
        return Reach(
            self.names | other.names,
            self.commands | other.commands,
            self.sources_that_build or other.sources_that_build,
        )

    @property
    def builds(self) -> bool:
        return bool(
            self.names & BUILD_NAMES or self.commands & BUILD_COMMANDS or self.sources_that_build
        )

    @property
    def starts_a_process(self) -> bool:
        return bool(self.names & PROCESS_NAMES)


def _followed(value: Any, caller: str = "") -> bool:
    """Whether ``value`` is defined in the suite (or the module of ``caller``)."""
    module = getattr(value, "__module__", None) or ""
    return module == caller or any(
        module == name or module.startswith(name + ".") for name in FOLLOWED_MODULES
    )


def _code_objects(code: types.CodeType) -> Iterator[types.CodeType]:
    """``code`` and every function, lambda and comprehension defined inside it."""
    yield code
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            yield from _code_objects(constant)


def _own_reach(code: types.CodeType) -> Reach:
    strings = [c for c in code.co_consts if isinstance(c, str)]
    strings += [s for c in code.co_consts if isinstance(c, tuple) for s in c if isinstance(s, str)]
    return Reach(
        frozenset(code.co_names),
        frozenset(after for before, after in itertools.pairwise(strings) if before == "-m"),
        any(marker in text for text in strings for marker in BUILD_SOURCE),
    )


def _functions_of(value: Any) -> Iterator[types.FunctionType]:
    """The Python functions behind ``value``: itself, what it wraps; for a class, what
    making one runs, and every method of a class the suite defines for itself
    (:mod:`refgen.testing`'s classes are read by the methods called on them, by name)."""
    if isinstance(value, type):
        own = value.__module__ != "refgen.testing"
        for name, member in vars(value).items():
            if own or name in CONSTRUCTORS:
                yield from _functions_of(member)
        return
    if isinstance(value, property):
        value = value.fget
    value = getattr(value, "__func__", value)  # classmethod, staticmethod
    value = getattr(value, "func", value)  # functools.partial
    hypothesis = getattr(value, "hypothesis", None)  # @given hides the test it runs
    value = getattr(hypothesis, "inner_test", value)
    with contextlib.suppress(ValueError):
        value = inspect.unwrap(value)
    if isinstance(value, types.FunctionType):
        yield value


class CodeReader:
    """What a test's code reaches, name by name, each function read once per session."""

    def __init__(self) -> None:
        self._reach: dict[types.FunctionType, Reach] = {}

    def function(self, function: types.FunctionType) -> Reach:
        """What the function uses, and what the functions of :data:`FOLLOWED_MODULES`
        it names use, followed through its globals."""
        if function in self._reach:
            return self._reach[function]
        self._reach[function] = Reach()  # a cycle ends here
        found = Reach()
        for code in _code_objects(function.__code__):
            found |= _own_reach(code)
            for name in code.co_names:
                value = function.__globals__.get(name)
                if value is not None and _followed(value, function.__module__):
                    for called in _functions_of(value):
                        found |= self.function(called)
        self._reach[function] = found
        return found

    def item(self, item: pytest.Function) -> Reach:
        """What the test function, its fixtures and its parameters reach."""
        found = Reach()
        for function in _item_functions(item):
            found |= self.function(function)
        return found


def _item_functions(item: pytest.Function) -> Iterator[types.FunctionType]:
    yield from _functions_of(item.function)
    # Every fixture the test uses, directly or through another, as defined for this test.
    for definitions in item._fixtureinfo.name2fixturedefs.values():
        if definitions:
            yield from _functions_of(definitions[-1].func)
    callspec = getattr(item, "callspec", None)
    for value in callspec.params.values() if callspec else ():
        if _followed(value, item.module.__name__):
            yield from _functions_of(value)


def _short_id(item: pytest.Function) -> str:
    return f"{item.path.name}::{item.originalname}"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    reader = CodeReader()
    distributed = config.pluginmanager.hasplugin("xdist")
    for item in items:
        if not isinstance(item, pytest.Function):
            continue  # the plugin's items of Examples sections run no build
        if distributed and SITE_FIXTURE in item.fixturenames:
            # With --dist loadgroup, one worker builds the session's site and runs its tests.
            item.add_marker(pytest.mark.xdist_group(SITE_FIXTURE))
        reach = reader.item(item)
        if "chromium" in item.fixturenames:
            item.add_marker(pytest.mark.browser)
        if reach.builds:
            item.add_marker(pytest.mark.build)
        elif reach.starts_a_process or _short_id(item) in SLOW:
            item.add_marker(pytest.mark.slow)


# ---------------------------------------------------------------------- the guard


def _refuse(what: str) -> UnmarkedBuild:
    return UnmarkedBuild(
        f"{what} in a test without the `build` marker: the marking rule in tests/marks.py "
        "did not see this build; make the build visible to it (call .build or sphinx_build "
        "by name) or mark the test @pytest.mark.build"
    )


def _starts_sphinx(args: Any) -> bool:
    if isinstance(args, str | bytes):
        return False  # a shell string: not a form the suite uses
    words = [str(a) for a in args]
    after_m = {words[i + 1] for i, word in enumerate(words[:-1]) if word == "-m"}
    programs = {word.rsplit("/", 1)[-1] for word in words[:1]}
    return bool((after_m | programs) & BUILD_COMMANDS)


@contextlib.contextmanager
def builds_refused() -> Iterator[list[str]]:
    """Every Sphinx build started inside refused, and listed."""
    import sphinx.cmd.build

    refused: list[str] = []
    original_build_main = sphinx.cmd.build.build_main
    original_popen_init = subprocess.Popen.__init__

    def build_main(*args: Any, **kwargs: Any) -> int:
        refused.append("sphinx.cmd.build.build_main")
        raise _refuse("a Sphinx build (build_main)")

    def popen_init(self: subprocess.Popen[Any], args: Any, *rest: Any, **kwargs: Any) -> None:
        if _starts_sphinx(args):
            refused.append(" ".join(map(str, args)))
            raise _refuse(f"a process that runs Sphinx ({args!r})")
        original_popen_init(self, args, *rest, **kwargs)

    sphinx.cmd.build.build_main = build_main  # type: ignore[assignment]
    subprocess.Popen.__init__ = popen_init  # type: ignore[method-assign]
    try:
        yield refused
    finally:
        sphinx.cmd.build.build_main = original_build_main
        subprocess.Popen.__init__ = original_popen_init  # type: ignore[method-assign]


REFUSED = pytest.StashKey[list[str]]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, None, None]:
    return (yield from _guard(item))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    return (yield from _guard(item))


def _guard(item: pytest.Item) -> Generator[None, None, None]:
    if item.get_closest_marker("build") is not None or not isinstance(item, pytest.Function):
        return (yield)
    with builds_refused() as refused:
        try:
            return (yield)
        finally:
            item.stash.setdefault(REFUSED, []).extend(refused)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    refused = item.stash.get(REFUSED, [])
    if refused and report.when in ("setup", "call") and not report.failed:
        # The test caught the refusal (a build's failure can be what it expects): fail anyway.
        report.outcome = "failed"
        report.longrepr = str(_refuse(f"{len(refused)} Sphinx build(s): {refused}"))
    return report

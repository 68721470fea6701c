"""Edits an incremental build must not miss (issue 34): each test is a user's edit,
followed by a rebuild that must show what a clean build shows.

Most cases are edits to code a figure depends on that the page's fingerprint does not
reach: the incremental build keeps the old figure while a clean build shows the new one,
both with exit status 0 and no warning. Every such test builds a throwaway package
``chain`` (the scenario class ``chain.models.Gauge``, one registry entry ``Named.One``),
makes the edit with the file's time moved forward, builds again and reads the figure from
the Registry values table of the class page. The others are warnings a rebuild gives
again though their cause is gone, or gives twice.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from refgen.testing import BuildResult, ScenarioProject, write_scenario_project
from tests.sphinx.test_incremental import assert_same_as_clean, chain_value, reread, touch_edit

MODELS = '''
    """Gauges

    Readings.
    """

    from dataclasses import dataclass

    from chain import helpers


    @dataclass(frozen=True, kw_only=True)
    class Gauge:
        """A gauge."""

        x: float
        """Input."""

        @property
        def reading(self) -> float:
            """The reading."""
            return helpers.scale(self.x)
'''
HELPERS = '''
    """Helpers."""


    def scale(x: float) -> float:
        """Twice x."""
        return x * 2
'''
CONSTANTS = '''
    """Constants."""

    V = 2.0
'''
REGISTRY = '''
    """Named gauges."""

    from chain.models import Gauge


    class Named:
        """Named scenarios."""

        One = Gauge(x=3.0)
'''


def write_gauges(root: Path, **modules: str) -> ScenarioProject:
    """The ``chain`` package: ``models``, ``helpers`` and ``registry`` unless given, and
    any other module given."""
    sources = {"models": MODELS, "helpers": HELPERS, "registry": REGISTRY, **modules}
    return write_scenario_project(
        root, "chain", sources, registry="registry.Named", documented=["models"]
    )


def reading(result: BuildResult) -> str:
    """The figure of ``reading`` for ``Named.One`` on Gauge's Registry values table."""
    return chain_value(result, "Gauge", "reading")


def built(project: ScenarioProject, *options: str) -> BuildResult:
    result = project.build("html", *options)
    assert result.returncode == 0, result.stderr
    return result


def assert_edit_is_seen(
    project: ScenarioProject,
    path: Path,
    old: str,
    new: str,
    before: str,
    after: str,
    *options: str,
) -> BuildResult:
    """Build, edit ``path`` (``old`` to ``new``), build again: the figure goes from
    ``before`` to ``after``, and the rebuild gives what a clean build gives."""
    assert reading(built(project, *options)) == before
    touch_edit(path, old, new)
    result = built(project, *options)
    assert reading(result) == after
    assert_same_as_clean(project, result, *options)
    return result


# ---------------------------------------------------------------------- 1. namespace package

OWN_RETURN = MODELS.replace("from chain import helpers\n", "").replace(
    "return helpers.scale(self.x)", "return self.x * 2"
)


def test_an_edit_to_a_property_of_a_namespace_package_is_seen(tmp_path: Path) -> None:
    """The user's package has no ``__init__.py``. They edit the property's own ``return``:
    the class page shows the new figure."""
    project = write_gauges(tmp_path, models=OWN_RETURN)
    (project.src / "chain" / "__init__.py").unlink()
    models = project.module_path("models")
    assert_edit_is_seen(project, models, "self.x * 2", "self.x * 5", "6", "15", "-W")


# ---------------------------------------------------------------------- 2. imports in a body

IMPORTS_THE_CONSTANT = '''
    """Helpers."""


    def scale(x: float) -> float:
        """x times V."""
        from chain.consts import V

        return x * V
'''
IMPORTS_THE_MODULE = '''
    """Helpers."""


    def scale(x: float) -> float:
        """x times V."""
        from chain import consts

        return x * consts.V
'''


@pytest.mark.parametrize(
    "helpers",
    [IMPORTS_THE_CONSTANT, IMPORTS_THE_MODULE],
    ids=["from-module-import-constant", "from-package-import-module"],
)
def test_a_constant_a_helper_imports_in_its_body_is_followed(tmp_path: Path, helpers: str) -> None:
    """A helper imports a constant inside its body (``from chain.consts import V``, or
    ``from chain import consts`` then ``consts.V``; no other module imports
    ``chain.consts``). The user edits V: the page shows the new figure."""
    project = write_gauges(tmp_path, helpers=helpers, consts=CONSTANTS)
    consts = project.module_path("consts")
    assert_edit_is_seen(project, consts, "V = 2.0", "V = 5.0", "6", "15", "-W")


# ---------------------------------------------------------------------- 3. after the class body

ASSIGNED_AFTER_THE_CLASS = '''
    """Gauges

    Readings.
    """

    from dataclasses import dataclass


    @dataclass(frozen=True, kw_only=True)
    class Gauge:
        """A gauge."""

        x: float
        """Input."""

        @property
        def reading(self) -> float:
            """The reading."""
            return self.x * self.EFFICIENCY


    Gauge.EFFICIENCY = 0.5
'''


def test_a_class_attribute_assigned_after_the_class_body_is_followed(tmp_path: Path) -> None:
    """The module sets ``Gauge.EFFICIENCY = 0.5`` after the class; a property reads
    ``self.EFFICIENCY``. The user edits 0.5: the page shows the new figure."""
    project = write_gauges(tmp_path, models=ASSIGNED_AFTER_THE_CLASS)
    models = project.module_path("models")
    assert_edit_is_seen(project, models, "= 0.5", "= 0.25", "1.5", "0.75", "-W")


# ---------------------------------------------------------------------- 4. symbolic link


def test_a_module_linked_to_a_file_outside_the_package_is_followed(tmp_path: Path) -> None:
    """``chain/helpers.py`` is a symbolic link to ``outside/helpers.py``, beside the
    project's ``src``. The user edits the file it points to: the page shows the new
    figure."""
    project = write_gauges(tmp_path)
    outside = tmp_path / "outside" / "helpers.py"
    outside.parent.mkdir()
    linked = project.module_path("helpers")
    outside.write_text(linked.read_text())
    linked.unlink()
    os.symlink(os.path.join("..", "..", "outside", "helpers.py"), linked)
    assert linked.resolve() == outside.resolve()
    assert_edit_is_seen(project, outside, "x * 2", "x * 5", "6", "15", "-W")


# ---------------------------------------------------------------------- 5. dynamic imports

IMPORT_MODULE = '''
    """Helpers."""

    import importlib


    def scale(x: float) -> float:
        """x times V."""
        return x * importlib.import_module("chain.consts").V
'''
DUNDER_IMPORT = '''
    """Helpers."""


    def scale(x: float) -> float:
        """x times V."""
        return x * __import__("chain.consts", fromlist=["V"]).V
'''
SYS_MODULES = '''
    """Helpers."""

    import sys

    import chain.consts  # noqa: F401  (so that sys.modules holds it)


    def scale(x: float) -> float:
        """x times V."""
        return x * sys.modules["chain.consts"].V
'''


@pytest.mark.parametrize(
    "helpers",
    [IMPORT_MODULE, DUNDER_IMPORT, SYS_MODULES],
    ids=["importlib.import_module", "__import__", "sys.modules"],
)
def test_a_module_a_helper_reaches_by_a_literal_name_is_followed(
    tmp_path: Path, helpers: str
) -> None:
    """A helper reads V from the module ``"chain.consts"``, named in a string literal:
    through ``importlib.import_module``, ``__import__`` or ``sys.modules``. The user edits
    V: the page shows the new figure."""
    project = write_gauges(tmp_path, helpers=helpers, consts=CONSTANTS)
    consts = project.module_path("consts")
    assert_edit_is_seen(project, consts, "V = 2.0", "V = 5.0", "6", "15", "-W")


COMPUTED_NAME = '''
    """Helpers."""

    import importlib


    def scale(x: float) -> float:
        """x times V."""
        return x * importlib.import_module("chain." + "consts").V
'''


def test_a_module_imported_by_a_computed_name_is_warned_about_and_never_stale(
    tmp_path: Path,
) -> None:
    """A helper imports a module whose name it computes (``"chain." + "consts"``): what
    the figure depends on cannot be known from the source. The build says so in one
    refgen warning, and the page is never stale: the user edits V, and the rebuild shows
    the new figure, with the same warning as a clean build."""
    project = write_gauges(tmp_path, helpers=COMPUTED_NAME, consts=CONSTANTS)
    consts = project.module_path("consts")
    result = assert_edit_is_seen(project, consts, "V = 2.0", "V = 5.0", "6", "15")
    unknowable = [w for w in result.warnings if "[refgen." in w and "static" in w.lower()]
    assert len(unknowable) == 1, result.warnings


# ---------------------------------------------------------------------- 6. monkeypatches

WITH_EFFICIENCY = MODELS.replace(
    "        x: float\n", "        EFFICIENCY = 0.5\n\n        x: float\n"
).replace("return helpers.scale(self.x)", "return self.x * self.EFFICIENCY")
PATCHES_AN_ATTRIBUTE = '''
    """Patches the model."""

    import chain.models

    chain.models.Gauge.EFFICIENCY = 0.7
'''
PATCHES_A_HELPER = '''
    """Patches a helper."""

    import chain.helpers

    chain.helpers.scale = lambda x: x * 3
'''
IMPORTS_THE_PATCHES = REGISTRY.replace(
    "    from chain.models import Gauge\n",
    "    import chain.patches  # noqa: F401  (applies the patches)\n"
    "    from chain.models import Gauge\n",
)


@pytest.mark.parametrize(
    ("models", "patches", "old", "new", "before", "after"),
    [
        (WITH_EFFICIENCY, PATCHES_AN_ATTRIBUTE, "= 0.7", "= 0.9", "2.1", "2.7"),
        (MODELS, PATCHES_A_HELPER, "x * 3", "x * 4", "9", "12"),
    ],
    ids=["class-attribute", "helper-function"],
)
def test_a_monkeypatch_from_another_module_is_followed(
    tmp_path: Path, models: str, patches: str, old: str, new: str, before: str, after: str
) -> None:
    """``chain/patches.py``, imported by the registry's module, replaces a class
    attribute the property reads (``chain.models.Gauge.EFFICIENCY = 0.7``) or the helper
    it calls (``chain.helpers.scale = lambda x: x * 3``). The user edits the patch: the
    page shows the new figure. (Built without ``-W``: issue 34 lets refgen warn that a
    monkeypatch cannot be known statically; the rebuild must warn as a clean build does.)"""
    project = write_gauges(tmp_path, models=models, patches=patches, registry=IMPORTS_THE_PATCHES)
    path = project.module_path("patches")
    assert_edit_is_seen(project, path, old, new, before, after)


# ---------------------------------------------------------------------- 7. replayed warnings


def add_page(project: ScenarioProject, name: str, text: str) -> Path:
    """A hand-written page ``name``, listed in the site's contents."""
    page = project.docs / f"{name}.rst"
    page.write_text(text)
    index = project.docs / "index.rst"
    index.write_text(index.read_text() + f"   {name}\n")
    return page


HAND_WRITTEN_GAUGE = ".. py:class:: chain.models.Gauge\n\n   Described by hand.\n"


def test_a_warning_whose_cause_was_deleted_is_not_given_again(tmp_path: Path) -> None:
    """The user had described Gauge by hand on ``about.rst`` (read before the class page,
    so the class page gets the warning "duplicate object description of
    chain.models.Gauge"). They delete the hand-written description: the rebuild gives
    no warning, and passes under ``-W`` as a clean build does."""
    project = write_gauges(tmp_path)
    about = add_page(project, "about", f"About\n=====\n\n{HAND_WRITTEN_GAUGE}")
    options = ("-W", "--keep-going")
    first = project.build("html", *options)
    assert first.returncode == 1
    assert any("duplicate object description of chain.models.Gauge" in w for w in first.warnings)
    touch_edit(about, HAND_WRITTEN_GAUGE, "")
    result = project.build("html", *options)
    assert [w for w in result.warnings if "duplicate object description" in w] == []
    assert_same_as_clean(project, result, *options)


def test_a_label_added_for_a_docstring_reference_resolves_it(tmp_path: Path) -> None:
    """Gauge's docstring refers to ``:ref:`calibration```, a label no page has yet (warning
    "undefined label"). The user adds the label to a hand-written page: the rebuild gives
    no warning and links the reference, as a clean build does."""
    models = MODELS.replace('"""A gauge."""', '"""A gauge, calibrated as in :ref:`calibration`."""')
    project = write_gauges(tmp_path, models=models)
    about = add_page(project, "about", "About\n=====\n\nNothing yet.\n")
    first = project.build("html", "--keep-going")
    assert any("undefined label: 'calibration'" in w for w in first.warnings)
    label = ".. _calibration:\n\nCalibration\n-----------\n\nHow.\n"
    touch_edit(about, "Nothing yet.\n", label)
    result = project.build("html", "--keep-going")
    assert [w for w in result.warnings if "undefined label" in w] == []
    assert_same_as_clean(project, result, "--keep-going")


def test_a_page_written_again_for_its_sidebar_warns_once_about_its_links(
    tmp_path: Path,
) -> None:
    """With ``nitpicky``, Gauge's docstring names a function that does not exist. The user
    adds a hand-written page, which changes every sidebar, so the class page is written
    again: its missing link is warned about as often as in a clean build, not once
    replayed from the last build and once more as it is written."""
    models = MODELS.replace('"""A gauge."""', '"""A gauge, see :py:func:`chain.nowhere`."""')
    project = write_gauges(tmp_path, models=models)
    conf = project.docs / "conf.py"
    conf.write_text(conf.read_text() + "nitpicky = True\n")
    first = project.build("html", "--keep-going")
    missing = [w for w in first.warnings if "chain.nowhere" in w]
    assert missing
    add_page(project, "guide", "Guide\n=====\n\nA new page.\n")
    result = project.build("html", "--keep-going")
    assert sorted(w for w in result.warnings if "chain.nowhere" in w) == sorted(missing)
    assert_same_as_clean(project, result, "--keep-going")


# ---------------------------------------------------------------------- more ways to reach code

FUNCTION_IN_A_CLASS_ATTRIBUTE = '''
    """Gauges

    Readings.
    """

    from dataclasses import dataclass

    from chain import helpers


    @dataclass(frozen=True, kw_only=True)
    class Gauge:
        """A gauge."""

        convert = staticmethod(helpers.outer)

        x: float
        """Input."""

        @property
        def reading(self) -> float:
            """The reading."""
            return self.convert(self.x)
'''
OUTER = '''
    """Helpers that call helpers."""

    from chain import deep


    def outer(x: float) -> float:
        """One more than inner."""
        return deep.inner(x) + 1
'''
DEEP = '''
    """Helpers two calls away."""


    def inner(x: float) -> float:
        """Twice x."""
        return x * 2
'''


def test_a_helper_two_calls_away_through_a_class_attribute_is_followed(tmp_path: Path) -> None:
    """The class holds a helper as an attribute (``convert = staticmethod(helpers.outer)``)
    and the property calls ``self.convert``; ``outer`` calls ``deep.inner``. The user
    edits ``inner``: the page shows the new figure."""
    project = write_gauges(tmp_path, models=FUNCTION_IN_A_CLASS_ATTRIBUTE, helpers=OUTER, deep=DEEP)
    deep = project.module_path("deep")
    assert_edit_is_seen(project, deep, "x * 2", "x * 5", "7", "16", "-W")


PARTIAL = '''
    """Helpers."""

    import functools

    from chain import deep

    scale = functools.partial(deep.multiply, 3)
'''
MULTIPLY = '''
    """Helpers two calls away."""


    def multiply(factor: float, x: float) -> float:
        """factor times x."""
        return factor * x
'''


@pytest.mark.parametrize(
    ("module", "old", "new", "after"),
    [
        ("helpers", "multiply, 3)", "multiply, 4)", "12"),
        ("deep", "return factor * x", "return factor * x * 2", "18"),
    ],
    ids=["partial-argument", "partial-function"],
)
def test_a_helper_made_with_functools_partial_is_followed(
    tmp_path: Path, module: str, old: str, new: str, after: str
) -> None:
    """The helper is ``functools.partial(deep.multiply, 3)``. The user edits the bound
    argument, or ``multiply`` itself: the page shows the new figure."""
    project = write_gauges(tmp_path, helpers=PARTIAL, deep=MULTIPLY)
    path = project.module_path(module)
    assert_edit_is_seen(project, path, old, new, "9", after, "-W")


DECORATORS = '''
    """Decorators."""

    import functools


    def times(factor):
        """Multiply what the function returns by ``factor``."""

        def decorate(function):
            @functools.wraps(function)
            def wrapper(x):
                return function(x) * factor

            return wrapper

        return decorate


    def calibrated(efficiency):
        """Give the class an ``EFFICIENCY``."""

        def decorate(cls):
            cls.EFFICIENCY = efficiency
            return cls

        return decorate
'''
DECORATED_HELPER = '''
    """Helpers."""

    from chain.decorators import times


    @times(2)
    def scale(x: float) -> float:
        """x, times what the decorator says."""
        return x
'''


@pytest.mark.parametrize(
    ("module", "old", "new", "after"),
    [
        ("helpers", "@times(2)", "@times(5)", "15"),
        ("decorators", "return function(x) * factor", "return function(x) * factor + 1", "7"),
    ],
    ids=["decorator-argument", "decorator-body"],
)
def test_a_helper_decorated_from_another_module_is_followed(
    tmp_path: Path, module: str, old: str, new: str, after: str
) -> None:
    """The helper is decorated with ``@times(2)``, a decorator of ``chain.decorators``
    (with ``functools.wraps``). The user edits the decorator's argument, or the
    decorator: the page shows the new figure."""
    project = write_gauges(tmp_path, helpers=DECORATED_HELPER, decorators=DECORATORS)
    path = project.module_path(module)
    assert_edit_is_seen(project, path, old, new, "6", after, "-W")


DECORATED_CLASS = (
    ASSIGNED_AFTER_THE_CLASS.replace(
        "from dataclasses import dataclass\n",
        "from dataclasses import dataclass\n\n    from chain.decorators import calibrated\n",
    )
    .replace(
        "    @dataclass(frozen=True, kw_only=True)\n    class Gauge:",
        "    @calibrated(0.5)\n    @dataclass(frozen=True, kw_only=True)\n    class Gauge:",
    )
    .replace("\n\n    Gauge.EFFICIENCY = 0.5\n", "\n")
)


def test_the_argument_of_a_class_decorator_is_followed(tmp_path: Path) -> None:
    """The class is decorated with ``@calibrated(0.5)``, which sets ``EFFICIENCY``; the
    property reads ``self.EFFICIENCY``. The user edits 0.5: the page shows the new
    figure."""
    project = write_gauges(tmp_path, models=DECORATED_CLASS, decorators=DECORATORS)
    models = project.module_path("models")
    assert "@calibrated(0.5)" in models.read_text()
    assert_edit_is_seen(project, models, "(0.5)", "(0.25)", "1.5", "0.75", "-W")


READS_THE_PACKAGE = '''
    """Helpers."""

    from chain import V


    def scale(x: float) -> float:
        """x times V."""
        return x * V
'''


@pytest.mark.parametrize(
    "exported",
    ["from chain.consts import V\n", "from chain.consts import *  # noqa: F403\n"],
    ids=["named", "star"],
)
def test_a_constant_re_exported_by_the_package_is_followed(tmp_path: Path, exported: str) -> None:
    """``chain/__init__.py`` re-exports V from ``chain.consts`` (by name, or with a star
    import); the helper does ``from chain import V``. The user edits V in consts.py: the
    page shows the new figure."""
    project = write_gauges(tmp_path, helpers=READS_THE_PACKAGE, consts=CONSTANTS)
    (project.src / "chain" / "__init__.py").write_text(f'"""Gauges."""\n\n{exported}')
    consts = project.module_path("consts")
    assert_edit_is_seen(project, consts, "V = 2.0", "V = 5.0", "6", "15", "-W")


STAR_IMPORT = '''
    """Helpers."""

    from chain.consts import *  # noqa: F403


    def scale(x: float) -> float:
        """x times V."""
        return x * V  # noqa: F405
'''


def test_a_constant_star_imported_by_a_helper_is_followed(tmp_path: Path) -> None:
    """The helper's module does ``from chain.consts import *`` and reads V. The user edits
    V: the page shows the new figure."""
    project = write_gauges(tmp_path, helpers=STAR_IMPORT, consts=CONSTANTS)
    consts = project.module_path("consts")
    assert_edit_is_seen(project, consts, "V = 2.0", "V = 5.0", "6", "15", "-W")


DEFAULT_FACTORY = '''
    """Gauges

    Readings.
    """

    from dataclasses import dataclass, field

    from chain import helpers


    @dataclass(frozen=True, kw_only=True)
    class Gauge:
        """A gauge."""

        x: float
        """Input."""
        calibration: float = field(default_factory=helpers.default_calibration)
        """Calibration."""

        @property
        def reading(self) -> float:
            """The reading."""
            return self.x * self.calibration
'''
DEFAULT_CALIBRATION = '''
    """Helpers."""


    def default_calibration() -> float:
        """The calibration a gauge has unless told."""
        return 2.0
'''


def test_a_default_factory_calling_a_helper_is_followed(tmp_path: Path) -> None:
    """An input's default comes from ``field(default_factory=helpers.default_calibration)``
    and the registry entry leaves it out. The user edits the helper: the page shows the
    new figure."""
    project = write_gauges(tmp_path, models=DEFAULT_FACTORY, helpers=DEFAULT_CALIBRATION)
    helpers = project.module_path("helpers")
    assert_edit_is_seen(project, helpers, "return 2.0", "return 5.0", "6", "15", "-W")


SINGLEDISPATCH = '''
    """Helpers."""

    import functools


    @functools.singledispatch
    def scale(x: object) -> float:
        """x scaled, by its type."""
        raise TypeError(type(x).__name__)


    @scale.register
    def _(x: float) -> float:
        return x * 2
'''
REGISTERED_FORMULA = '''
    """Helpers."""

    FORMULAS = {}


    def formula(function):
        """Register ``function`` under its name."""
        FORMULAS[function.__name__] = function
        return function


    @formula
    def linear(x: float) -> float:
        """Twice x."""
        return x * 2


    def scale(x: float) -> float:
        """x scaled by the linear formula."""
        return FORMULAS["linear"](x)
'''
SET_AT_IMPORT = '''
    """Helpers."""

    FACTOR = 1.0


    def configure() -> None:
        """Set the factor."""
        global FACTOR
        FACTOR = 2.0


    configure()


    def scale(x: float) -> float:
        """x times the factor."""
        return x * FACTOR
'''
GETATTR = '''
    """Helpers."""

    from chain import deep


    def scale(x: float) -> float:
        """Twice x, looked up by name."""
        return getattr(deep, "inner")(x)
'''


@pytest.mark.parametrize(
    ("helpers", "module", "old", "new"),
    [
        (SINGLEDISPATCH, "helpers", "x * 2", "x * 5"),
        (REGISTERED_FORMULA, "helpers", "x * 2", "x * 5"),
        (SET_AT_IMPORT, "helpers", "FACTOR = 2.0", "FACTOR = 5.0"),
        (GETATTR, "deep", "x * 2", "x * 5"),
    ],
    ids=["singledispatch", "registration-decorator", "global-set-at-import", "getattr"],
)
def test_code_reached_at_run_time_only_is_followed(
    tmp_path: Path, helpers: str, module: str, old: str, new: str
) -> None:
    """The figure comes from code the property's source does not name: the float
    implementation of a ``functools.singledispatch`` helper; a function a registration
    decorator put in a table the helper reads; a global a function called at import time
    sets; a function looked up with ``getattr(deep, "inner")``. The user edits it: the
    page shows the new figure. (Built without ``-W``: refgen may warn that it cannot follow
    such code; the rebuild must warn as a clean build does.)"""
    project = write_gauges(tmp_path, helpers=helpers, deep=DEEP)
    path = project.module_path(module)
    assert_edit_is_seen(project, path, old, new, "6", "15")


@pytest.mark.parametrize("second", ["text", "dirhtml"])
def test_builders_sharing_a_doctree_folder_write_what_a_page_shows_now(
    tmp_path: Path, second: str
) -> None:
    """``sphinx -M`` (the Makefile's way): html and ``second`` share one doctree folder.
    Both build; the user edits Gauge's docstring; html builds (and reads Gauge's page
    again), then ``second``: its Gauge page shows the edit, as a build of its own does.
    (Failed for text: the page was read once, by html, and text kept its old output,
    whose stub was no newer.)"""
    project = write_gauges(tmp_path)
    shared = ("-d", str(project.root / "_build" / "doctrees"))
    outdir = project.root / "_build" / second
    for builder, folder in (("html", None), (second, outdir)):
        assert project.build(builder, *shared, outdir=folder).returncode == 0
    touch_edit(project.module_path("models"), "A gauge.", "A gauge, edited.")
    assert "reference/chain.models/Gauge" in reread(project.build("html", *shared))
    result = project.build(second, *shared, outdir=outdir)
    assert result.returncode == 0, result.stderr
    page = next(p for p in outdir.rglob("*") if p.is_file() and "Gauge" in str(p))
    assert "A gauge, edited." in page.read_text()


def test_a_build_of_named_files_leaves_the_next_to_write_what_it_read(tmp_path: Path) -> None:
    """The user edits Gauge's docstring, then builds only ``about.rst`` (a file named on
    the command line): Sphinx reads Gauge's page again but writes the named file alone.
    The next build writes Gauge's page, as a clean build shows it. (Failed: Gauge's
    page was taken to be written, and kept its old text until a build with ``-E``.)"""
    project = write_gauges(tmp_path)
    about = add_page(project, "about", "About\n=====\n\nNothing yet.\n")
    built(project)
    touch_edit(project.module_path("models"), "A gauge.", "A gauge, edited.")
    named = project.build("html", files=[about])
    assert "reference/chain.models/Gauge" in reread(named)
    result = built(project)
    assert_same_as_clean(project, result)
    assert "edited" in (result.outdir / "reference" / "chain.models" / "Gauge.html").read_text()


@pytest.mark.parametrize("shared", [False, True])
def test_a_title_whose_markup_alone_changes_reaches_every_sidebar(
    tmp_path: Path, shared: bool
) -> None:
    """With furo, every sidebar lists the site's pages by title. The user makes the
    hand-written page's title ``*About*``, its text unchanged: every page's sidebar
    shows it emphasised, as a clean build's does. (Failed without the shared navigation:
    the contents tree was compared by its titles' text, so no page but ``about`` was
    written again.)"""
    project = write_gauges(tmp_path)
    conf = project.docs / "conf.py"
    conf.write_text(
        conf.read_text() + f'html_theme = "furo"\nrefgen_shared_navigation = {shared}\n'
    )
    about = add_page(project, "about", "About\n=====\n\nText.\n")
    built(project)
    touch_edit(about, "About\n=====", "*About*\n=======")
    result = built(project)
    assert_same_as_clean(project, result)
    pages = ["index.html", "reference/chain.models/Gauge.html"]
    html = [(result.outdir / page).read_text(encoding="utf-8") for page in pages]
    if not shared:
        assert all("<em>About</em>" in text for text in html)


def assert_an_edit_to_about_drops_extra_from_every_sidebar(
    tmp_path: Path, shared: bool, about_text: str, old: str, new: str
) -> None:
    """A furo site whose hand-written ``about`` (``about_text``) lists ``extra``: after the
    edit of ``about`` from ``old`` to ``new``, no sidebar lists ``extra``, and the
    incremental build gives what a clean one gives."""
    project = write_gauges(tmp_path)
    conf = project.docs / "conf.py"
    conf.write_text(
        conf.read_text() + f'html_theme = "furo"\nrefgen_shared_navigation = {shared}\n'
    )
    about = add_page(project, "about", about_text)
    (project.docs / "extra.rst").write_text("Extra\n=====\n\nText.\n")
    first = built(project)
    shown = ["index.html", "reference/chain.models/Gauge.html"]
    if shared:
        shown[1] = "_static/refgen-navigation.js"
    assert all("extra.html" in (first.outdir / page).read_text() for page in shown)
    touch_edit(about, old, new)
    result = built(project)
    assert_same_as_clean(project, result)
    assert not any("extra.html" in (result.outdir / page).read_text() for page in shown)


@pytest.mark.parametrize("shared", [False, True])
def test_a_contents_entry_an_only_directive_hides_leaves_every_sidebar(
    tmp_path: Path, shared: bool
) -> None:
    """``about`` lists ``extra`` inside ``.. only:: html``. The user makes it
    ``.. only:: latex``: no sidebar of the HTML site lists ``extra`` any more, as in a
    clean build. (Failed before: the contents tree was compared without the directive's
    condition, so only ``about`` was written again, and the memo of the shared tree kept
    the old one.)"""
    about = "About\n=====\n\n.. only:: html\n\n   .. toctree::\n\n      extra\n"
    assert_an_edit_to_about_drops_extra_from_every_sidebar(
        tmp_path, shared, about, ".. only:: html", ".. only:: latex"
    )


@pytest.mark.parametrize("shared", [False, True])
def test_a_tocdepth_that_cuts_a_listed_page_off_reaches_every_sidebar(
    tmp_path: Path, shared: bool
) -> None:
    """``about`` lists ``extra``; the user adds ``:tocdepth: 1`` to ``about``, which cuts
    its toctree off the contents tree: no sidebar lists ``extra`` any more, as in a
    clean build. (Failed before: the contents tree was compared without the pages'
    ``tocdepth``, and the shared tree's memo kept the old one; found by a review.)"""
    about = "About\n=====\n\nText.\n\n.. toctree::\n\n   extra\n"
    assert_an_edit_to_about_drops_extra_from_every_sidebar(
        tmp_path, shared, about, "About\n=====", ":tocdepth: 1\n\nAbout\n====="
    )

"""The Project is where user code is guarded: its answers are data, whatever that code raises.

A front end asks the Project and shows what it gets; a scenario that raises
``SystemExit``, ``KeyboardInterrupt`` or ``GeneratorExit`` (none of them an
``Exception``) in the middle of a sweep, a quote or a module lookup gives a
reason, never an exception that ends the build or the command.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from refgen.analysis.model import RegistryEntryDoc, ScenarioDoc
from refgen.config import Settings
from refgen.evaluate.sweep_request import SweepRequest
from refgen.project import Project
from refgen.testing import fresh_imports, write_scenario_project

MODELS = '''
    """Hostile pumps."""

    from dataclasses import dataclass

    import pint

    ureg = pint.UnitRegistry()
    ERRORS = {
        "exit": lambda: SystemExit(3),
        "interrupt": KeyboardInterrupt,
        "generator": GeneratorExit,
    }


    class Hostile:
        """A figure that raises when it is only written down."""

        def __init__(self, failure: str) -> None:
            self.failure = failure

        def __repr__(self) -> str:
            raise ERRORS[self.failure]()

        __str__ = __repr__


    @dataclass(frozen=True, kw_only=True)
    class Pump:
        """A pump whose flow cannot be written down past one stage."""

        stages: int = 1
        """Stages the flow passes through."""
        failure: str = "exit"
        """What writing the flow down raises."""

        @property
        def flow(self) -> object:
            """The flow through the last stage."""
            return 2 * ureg.meter if self.stages == 1 else Hostile(self.failure)

        @property
        def broken(self) -> object:
            """A figure that raises when it is computed."""
            raise ERRORS[self.failure]()
'''
REGISTRY = '''
    """Named pumps."""

    from hostile_pumps.models import Pump


    class Named:
        """Named scenarios."""

        Exit = Pump(failure="exit")
        Interrupt = Pump(failure="interrupt")
        Generator = Pump(failure="generator")
'''
ENTRIES = ["Exit", "Interrupt", "Generator"]


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Project]:
    written = write_scenario_project(
        tmp_path,
        "hostile_pumps",
        {"models": MODELS, "registry": REGISTRY},
        registry="registry.Named",
    )
    with fresh_imports(written.src):
        settings = Settings(
            modules=("hostile_pumps.models",), registry="hostile_pumps.registry.Named"
        )
        yield Project(settings)


@pytest.mark.parametrize("entry", ENTRIES)
def test_a_sweep_whose_figure_raises_when_written_is_a_sweep_with_a_problem(
    project: Project, entry: str
) -> None:
    request = SweepRequest(entry, "stages", ("flow",), values=("1", "2"))
    swept = project.sweep(request)
    assert swept.request == request
    assert swept.problem
    assert swept.figures == ()


@pytest.mark.parametrize("entry", ENTRIES)
def test_a_quote_of_a_figure_that_raises_is_a_quote_with_a_problem(
    project: Project, entry: str
) -> None:
    quoted = project.quote(f"{entry}.broken")
    assert quoted.value is not None and not quoted.value.available
    assert quoted.problem == quoted.value.reason
    assert project.quote("Nobody.flow").problem == (
        "no registry scenario 'Nobody' in hostile_pumps.registry.Named"
    )


def test_a_module_that_exits_on_import_has_no_text(project: Project, tmp_path: Path) -> None:
    exits = tmp_path / "src" / "hostile_pumps" / "exits"
    exits.mkdir()
    (exits / "__init__.py").write_text("raise SystemExit(3)\n")
    (exits / "inner.py").write_text("X = 1\n")
    assert project.module_text_and_tags("hostile_pumps.exits.inner") is None
    found = project.module_text_and_tags("hostile_pumps.models")
    assert found is not None and "class Pump" in found[0]


# ---------------------------------------------------------------------- every public method

FAILURE = '''
    """What the hostile code of this package raises, chosen by the test."""

    ERROR = "exit"
    BROKEN = False
    """Set by a test once the project is loaded: the registry and the helpers then fail."""


    def fail() -> None:
        raise {
            "exit": SystemExit(3),
            "interrupt": KeyboardInterrupt("from the scenario"),
            "generator": GeneratorExit("from the scenario"),
            "plain": RuntimeError("from the scenario"),
        }[ERROR]
'''
SCENARIOS = '''
    """Pumps, and a scenario whose property cannot even be looked at."""

    from dataclasses import dataclass

    from facade_pkg.helpers import doubled
    from facade_pkg.failure import fail


    class _unreadable(property):
        @property
        def fget(self):
            fail()


    @dataclass(frozen=True, kw_only=True)
    class Pump:
        """A pump.

        Examples
        --------
        >>> Pump().flow
        2.0
        """

        stages: float = 1.0
        """Stages the flow passes through."""

        @property
        def flow(self) -> float:
            """The flow."""
            return doubled(self.stages)

        @property
        def broken(self) -> float:
            """A figure that raises."""
            fail()


    @dataclass(frozen=True)
    class Unreadable:
        """A scenario that cannot be analysed."""

        size: float = 2.0
        """The size."""

        @_unreadable
        def odd(self) -> float:
            """Unreadable."""
            return self.size
'''
HELPERS = '''
    """A helper in a module whose name, asked for once the test breaks it, raises."""

    import sys
    import types

    from facade_pkg import failure


    def doubled(x: float) -> float:
        """Twice ``x``."""
        return 2 * x


    class _Module(types.ModuleType):
        @property
        def __name__(self):
            if failure.BROKEN:
                failure.fail()
            return vars(self)["__name__"]


    sys.modules[__name__].__class__ = _Module
'''
LIAR = '''
    """A class whose module, asked for, raises."""

    from facade_pkg.failure import fail


    class _Lying(type):
        @property
        def __module__(cls):
            fail()


    class Liar(metaclass=_Lying):
        size: float = 2.0
'''
NAMED = '''
    """Named pumps, in a mapping that cannot be read once the test breaks it."""

    from facade_pkg import failure
    from facade_pkg.scenarios import Pump, Unreadable


    class Flaky(dict):
        def items(self):
            if failure.BROKEN:
                failure.fail()
            return super().items()


    Named = Flaky(Small=Pump(), Odd=Unreadable())
'''
EXITS = '''
    """A module that fails as it is imported."""

    from facade_pkg.failure import fail

    fail()
'''
KINDS = ["exit", "interrupt", "generator", "plain"]
RAISED = {
    "exit": "SystemExit: 3",
    "interrupt": "KeyboardInterrupt: from the scenario",
    "generator": "GeneratorExit: from the scenario",
    "plain": "RuntimeError: from the scenario",
}


@pytest.fixture(params=KINDS)
def kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def hostile(tmp_path: Path, kind: str) -> Iterator[Project]:
    """A project whose code raises ``kind`` wherever it can: a module and a registry that
    fail as they are imported, a class that cannot be analysed, a class whose module
    raises, a property; and, once a test sets ``failure.BROKEN``, the registry's mapping
    and the helper module's name too."""
    written = write_scenario_project(
        tmp_path,
        "facade_pkg",
        {
            "failure": FAILURE,
            "helpers": HELPERS,
            "scenarios": SCENARIOS,
            "liar": LIAR,
            "named": NAMED,
            "exits": EXITS,
        },
        registry="named.Named",
    )
    (written.src / "facade_pkg" / "exiting").mkdir()
    (written.src / "facade_pkg" / "exiting" / "__init__.py").write_text(
        "from facade_pkg.failure import fail\n\nfail()\n"
    )
    (written.src / "facade_pkg" / "exiting" / "inner.py").write_text("X = 1\n")
    with fresh_imports(written.src):
        failure = importlib.import_module("facade_pkg.failure")
        failure.ERROR = kind
        settings = Settings(
            modules=("facade_pkg.scenarios", "facade_pkg.liar", "facade_pkg.exits"),
            registry="facade_pkg.named.Named",
        )
        yield Project(settings)


def broken(project: Project) -> None:
    """From now on the registry's mapping and the helper module fail when read again."""
    importlib.import_module("facade_pkg.failure").BROKEN = True


def pump(project: Project) -> ScenarioDoc:
    scenario = project.scenario_named("facade_pkg.scenarios.Pump")
    assert not isinstance(scenario, str), scenario
    return scenario


def entry(project: Project, name: str) -> RegistryEntryDoc:
    found = project.entry(name)
    assert found is not None
    return found


def test_loading_reports_what_fails_as_problems(hostile: Project, kind: str) -> None:
    problems = hostile.load()
    messages = " | ".join(p.message for p in problems)
    assert "cannot import scenario module 'facade_pkg.exits'" in messages
    assert f"cannot list the classes of 'facade_pkg.liar': {RAISED[kind]}" in messages
    assert list(hostile.modules) == ["facade_pkg.scenarios", "facade_pkg.liar"]
    assert [cls.__name__ for cls in hostile.classes] == ["Pump", "Unreadable"]
    assert hostile.registry is not None and not hostile.registry_failed
    assert hostile.load() == problems  # the same problems at every call


def test_a_registry_that_fails_as_it_is_imported_is_a_problem(hostile: Project, kind: str) -> None:
    failing = Project(dataclasses.replace(hostile.settings, registry="facade_pkg.exits.Named"))
    assert any(RAISED[kind] in p.message for p in failing.load())
    assert failing.registry is None and failing.registry_failed
    assert failing.registry_at("facade_pkg.exits.Named") == RAISED[kind]
    assert isinstance(failing.registry_files(), tuple)
    assert failing.registry_module() == "facade_pkg.exits"
    assert failing.entry_named("Small") == "there is no registry to read"
    assert failing.quote("Small.flow").problem == "there is no registry to read"


def test_modules_that_fail_to_import_are_reasons(hostile: Project, kind: str) -> None:
    assert hostile.import_module("facade_pkg.exits") == RAISED[kind]
    assert hostile.module_file("facade_pkg.exiting.inner") is None  # its package fails
    assert hostile.class_named("facade_pkg.exits.Pump") == RAISED[kind]
    assert hostile.scenario_named("facade_pkg.exits.Pump") == RAISED[kind]
    assert hostile.scenarios_of("facade_pkg.exits") == RAISED[kind]
    assert hostile.helpers_of("facade_pkg.exits") == RAISED[kind]
    assert hostile.helper("facade_pkg.exits.doubled") == RAISED[kind]
    assert hostile.module_text_and_tags("facade_pkg.exiting.inner") is None


def test_a_class_that_cannot_be_analysed_is_a_reason(hostile: Project, kind: str) -> None:
    unreadable = hostile.class_named("facade_pkg.scenarios.Unreadable")
    assert isinstance(unreadable, type)
    assert hostile.scenario(unreadable) == RAISED[kind]
    assert hostile.scenario_named("facade_pkg.scenarios.Unreadable") == RAISED[kind]
    doc, problem = hostile.analyse(unreadable)
    assert doc is None and problem is not None
    assert problem.message == f"cannot analyse: {RAISED[kind]}"
    analysed, problems = hostile.analysed()
    assert [s.name for s in analysed] == ["Pump"] and problems == [problem]
    assert [s.name for s in hostile.scenarios()] == ["Pump"]
    assert hostile.scenarios_of("facade_pkg.scenarios") == analysed
    assert hostile.class_named("facade_pkg.scenarios.fail") == (
        "facade_pkg.scenarios.fail is not a class"
    )


def test_a_class_whose_module_raises_is_a_reason(hostile: Project, kind: str) -> None:
    hostile.load()
    liar = importlib.import_module("facade_pkg.liar").Liar
    assert hostile.class_location(liar) is None
    assert hostile.scenario(liar) == RAISED[kind]
    assert hostile.module("facade_pkg.liar") == RAISED[kind]
    assert hostile.scenarios_of("facade_pkg.liar") == RAISED[kind]
    assert hostile.module("facade_pkg.not_imported") == "KeyError: 'facade_pkg.not_imported'"


def test_an_entry_whose_class_cannot_be_analysed_is_a_reason(hostile: Project, kind: str) -> None:
    reason = f"cannot read registry scenario 'Odd': {RAISED[kind]}"
    assert hostile.entry_named("Odd") == reason
    assert hostile.found_entry(entry(hostile, "Odd")) == reason
    assert hostile.quote("Odd.size").problem == reason
    assert hostile.inspect_entry(entry(hostile, "Odd"), lambda found: found.instance) == reason


def test_a_look_at_a_live_scenario_that_raises_is_a_reason(hostile: Project, kind: str) -> None:
    small = entry(hostile, "Small")
    assert hostile.inspect_entry(small, lambda found: found.instance.flow) == 2.0
    assert hostile.inspect_entry(small, lambda found: found.instance.broken) == RAISED[kind]


def test_a_property_that_raises_is_a_value_not_available(hostile: Project, kind: str) -> None:
    scenario = pump(hostile)
    values = hostile.values(scenario)
    assert not isinstance(values, str), values
    [small] = values
    broken_value = small.value("broken")
    assert broken_value is not None and not broken_value.available
    assert broken_value.reason == RAISED[kind]
    assert hostile.value_of(scenario, entry(hostile, "Small"), "broken") == broken_value
    assert hostile.headline(scenario) == ("Small", small.value("flow"))
    assert not isinstance(hostile.sensitivities(scenario), str)
    assert hostile.quote("Small.broken").problem == RAISED[kind]


def test_a_registry_that_cannot_be_read_again_gives_reasons(hostile: Project, kind: str) -> None:
    scenario = pump(hostile)
    small = entry(hostile, "Small")
    broken(hostile)
    assert hostile.entry_named("Small") == f"cannot read registry scenario 'Small': {RAISED[kind]}"
    assert hostile.found_entry(small) == f"cannot read registry scenario 'Small': {RAISED[kind]}"
    assert hostile.values(scenario) == RAISED[kind]
    assert hostile.entry_values(scenario, small) == RAISED[kind]
    assert hostile.value_of(scenario, small, "flow") == RAISED[kind]
    assert hostile.sensitivities(scenario) == RAISED[kind]
    assert hostile.headline(scenario) == RAISED[kind]
    swept = hostile.sweep(SweepRequest("Small", "stages", ("flow",), values=("1", "2")))
    assert swept.problem == f"cannot read registry scenario 'Small': {RAISED[kind]}"


def test_a_helper_module_that_cannot_be_imported_again_gives_reasons(
    hostile: Project, kind: str
) -> None:
    assert "facade_pkg.helpers" in hostile.helper_modules()
    broken(hostile)
    assert hostile.helpers_of("facade_pkg.helpers") == RAISED[kind]
    assert hostile.helpers() == RAISED[kind]


def test_what_needs_no_user_code_answers_on_a_hostile_project(hostile: Project) -> None:
    """The rest of the facade, asked of the same project, answers too."""
    hostile.load()
    assert hostile.documented_classes() == frozenset(
        {"facade_pkg.scenarios.Pump", "facade_pkg.scenarios.Unreadable"}
    )
    assert hostile.registry_module() == "facade_pkg.named"
    assert hostile.package_roots() and isinstance(hostile.registry_files(), tuple)
    assert hostile.unit_registries() == {}
    source = hostile.module_file("facade_pkg.scenarios")
    assert source is not None and hostile.module_source(source).path == source
    text = hostile.module_text_and_tags("facade_pkg.scenarios")
    assert text is not None and "class Pump" in text[0]
    location = hostile.class_location(hostile.classes[0])
    assert location is not None and location.path == source
    scenario = pump(hostile)
    assert not hostile.has_figures(scenario)
    values, sensitivities = hostile.values(scenario), hostile.sensitivities(scenario)
    assert not isinstance(values, str) and not isinstance(sensitivities, str)
    assert hostile.has_figures(scenario)
    hostile.remember_figures(scenario, values, sensitivities)
    hostile.release_syntax_trees()


TESTED = {
    "analyse", "analysed", "class_location", "class_named", "classes", "documented_classes",
    "entry", "entry_named", "entry_values", "found_entry", "has_figures", "headline",
    "helper", "helper_modules", "helpers", "helpers_of", "import_module", "inspect_entry",
    "load", "module", "module_file", "module_source", "module_text_and_tags", "modules",
    "package_roots", "progress", "quote", "registry", "registry_at", "registry_failed",
    "registry_files", "registry_module", "release_syntax_trees", "remember_figures",
    "scenario", "scenario_named", "scenarios", "scenarios_of", "sensitivities", "settings",
    "sweep", "unit_registries", "units", "value_of", "values",
}  # fmt: skip
"""Every public name of the Project these tests ask of a hostile project."""


def test_every_public_method_of_the_project_is_asked_of_a_hostile_project() -> None:
    """A new public method of the facade comes with its hostile case above."""
    public = {name for name in dir(Project) if not name.startswith("_")}
    public |= {"settings", "progress", "units"}  # set in __init__
    assert public == TESTED

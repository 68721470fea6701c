"""The Project is where user code is guarded: its answers are data, whatever that code raises.

A front end asks the Project and shows what it gets; a scenario that raises
``SystemExit``, ``KeyboardInterrupt`` or ``GeneratorExit`` (none of them an
``Exception``) in the middle of a sweep, a quote or a module lookup gives a
reason, never an exception that ends the build or the command.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

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

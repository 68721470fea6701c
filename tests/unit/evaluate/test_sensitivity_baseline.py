"""The elasticities' baseline: an entry's figures, when the class built again holds its state."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pydantic
import pytest

from refgen.config import Settings
from refgen.evaluate.sensitivity import same_state
from refgen.project import Project
from refgen.testing import fresh_imports, write_scenario_project


@dataclass(frozen=True, kw_only=True)
class Box:
    side: float = 2.0
    count: int = 3
    label: str = "box"
    sizes: list[float] = field(default_factory=list)


@dataclass(frozen=True, kw_only=True, slots=True)
class SlottedBox:
    side: float = 2.0


class Model(pydantic.BaseModel):
    side: float = 2.0
    count: int = 3
    _seen: int = pydantic.PrivateAttr(default=0)


class Watched(Box):
    def __getattribute__(self, name: str) -> Any:
        return object.__getattribute__(self, name)


def rebuilt(instance: Any, **changed: Any) -> Any:
    kind = type(instance)
    names = kind.model_fields if issubclass(kind, pydantic.BaseModel) else vars(instance)
    return type(instance)(**{**{n: getattr(instance, n) for n in names}, **changed})


def test_an_instance_built_again_from_its_fields_holds_the_same_state() -> None:
    box, model = Box(side=3.0, sizes=[1.0, 2.0]), Model(side=3.0)
    assert same_state(box, rebuilt(box))  # the same list in both
    assert same_state(model, rebuilt(model))


@pytest.mark.parametrize(
    ("one", "other"),
    [
        (Box(side=3.0), Box(side=3.5)),
        (Box(), Watched()),  # another class
        (Box(sizes=[1.0]), Box(sizes=[1.0])),  # equal lists, not the same one: not known
        (Box(side=1), Box(side=1.0)),  # equal, of other types
        (SlottedBox(), SlottedBox()),  # state in slots
        (Watched(), Watched()),  # a __getattribute__ of its own
    ],
)
def test_instances_not_known_to_hold_the_same_state(one: Any, other: Any) -> None:
    assert not same_state(one, other)


def test_state_set_after_construction_is_compared_too() -> None:
    model, again = Model(), Model()
    model._seen = 5  # pydantic's private attribute
    assert not same_state(model, again)
    box = Box()
    object.__setattr__(box, "extra", 1.0)
    assert not same_state(box, Box())


COUNTED = '''
    """Counted scenarios"""

    from dataclasses import dataclass

    CALLS = {"seconds": 0}


    @dataclass(frozen=True, kw_only=True)
    class Transfer:
        """A transfer."""

        size: float
        """Megabytes."""
        rate: float
        """Megabytes per second."""

        @property
        def seconds(self) -> float:
            """Transfer time."""
            CALLS["seconds"] += 1
            return self.size / self.rate * getattr(self, "slowdown", 1.0)
'''
COUNTED_REGISTRY = '''
    """Named transfers."""

    from counted.kinds import Transfer


    class Named:
        """Named transfers."""

        Plain = Transfer(size=10.0, rate=2.0)
        """A transfer as built."""
        Slowed = Transfer(size=10.0, rate=2.0)
        """A transfer slowed after it was built: the class built again is not."""
        object.__setattr__(Slowed, "slowdown", 3.0)
'''


def test_the_entry_figures_serve_as_the_baseline_only_for_the_same_state(tmp_path: Path) -> None:
    """Each entry's values, then its elasticities: ``seconds`` computed again for each of
    two inputs 1 % larger, and once more on the class built again for the entry whose
    state that instance does not hold."""
    written = write_scenario_project(
        tmp_path,
        "counted",
        {"kinds": COUNTED, "registry": COUNTED_REGISTRY},
        registry="registry.Named",
    )
    with fresh_imports(written.src):
        settings = Settings.from_mapping(
            {"modules": ["counted.kinds"], "registry": "counted.registry.Named"}, "the test"
        )
        project = Project(settings)
        found = project.entry_named("Plain")
        assert not isinstance(found, str), found
        scenario = found.scenario
        from counted.kinds import CALLS  # type: ignore[import-not-found]

        values = project.values(scenario)
        assert not isinstance(values, str), values
        assert CALLS["seconds"] == 2
        assert project.values(scenario) == values  # kept: not computed again
        assert CALLS["seconds"] == 2
        sensitivities = project.sensitivities(scenario)
        assert not isinstance(sensitivities, str), sensitivities
    assert CALLS["seconds"] == 2 + 2 + 3
    for sensitivity in sensitivities:
        cell = sensitivity.cell("seconds", "rate")
        assert cell is not None and cell.text == "\u22121.00"

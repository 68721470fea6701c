"""Scenario classes of every kind, and property bodies that defeat naive extraction."""

from __future__ import annotations

from pathlib import Path

import pytest

from refgen.analysis.model import ScenarioDoc
from refgen.testing import ScenarioProject, analyse_source, write_scenario_project
from tests.html_helpers import read_html, row_cells, text

KINDS = '''
    """Kinds of scenario

    One class per way of declaring inputs.
    """

    from __future__ import annotations

    import dataclasses
    import functools
    from dataclasses import dataclass, field
    from typing import Annotated, Optional, Union

    import attrs
    import pydantic

    from kinds.helpers import split_cost


    @dataclass(frozen=True, kw_only=True)
    class Base:
        """A base scenario."""

        size: float
        """Size of the thing."""

        @property
        def doubled(self) -> float:
            """Twice the size."""
            return 2 * self.size


    @dataclass(frozen=True, kw_only=True)
    class Derived(Base):
        """A scenario that inherits an input and a property."""

        tags: list[str] = field(default_factory=list)
        """Labels."""
        scale: dict[str, float] = field(default_factory=lambda: {"x": 1.0})
        """Scale per axis."""
        rate: Optional[float] = None
        """Rate, when known."""

        @property
        def local_import(self) -> float:
            """Uses a local import."""
            import math

            return math.sqrt(self.size)

        @property
        def unpacked(self) -> float:
            """Unpacks a helper's tuple."""
            first, _ = split_cost(self.size)
            return first

        @property
        def conditional(self) -> float:
            """Branches."""
            if self.rate is None:
                return 0.0
            return self.size / self.rate

        @property
        def multi_line(self) -> float:
            """Spans lines."""
            return (
                self.size
                + self.doubled
            )

        @functools.cached_property
        def cached(self) -> float:
            """Computed once."""
            return self.size + 1


    class Model(pydantic.BaseModel):
        """A pydantic scenario."""

        model_config = pydantic.ConfigDict(frozen=True)

        count: int = pydantic.Field(description="How many there are.")
        weight: Annotated[float, "kg"] = pydantic.Field(3.5, description="Mass of one.")
        extras: dict[str, int] = pydantic.Field(default_factory=dict)
        mode: Union[int, str] = "fast"

        @property
        def total(self) -> float:
            """All the mass."""
            return self.count * self.weight


    @attrs.frozen(kw_only=True)
    class Measured:
        """An attrs scenario."""

        length: float = attrs.field(default=2.0)
        """A length."""
        marks: list[int] = attrs.field(factory=list)
        """Marks along it."""

        @property
        def half(self) -> float:
            """Half the length."""
            return self.length / 2


    class Plain:
        """A plain annotated class."""

        width: float
        """A width."""
        height: float = 1.0
        """A height."""

        def __init__(self, *, width: float, height: float = 1.0) -> None:
            self.width = width
            self.height = height

        @property
        def area(self) -> float:
            """Width times height."""
            return self.width * self.height


    Runtime = dataclasses.make_dataclass(
        "Runtime",
        [("span", float)],
        namespace={"twice": property(lambda self: 2 * self.span, doc="Twice the span.")},
        frozen=True,
    )
    Runtime.__module__ = __name__
    Runtime.__doc__ = "A class made at run time."
'''

HELPERS = '''
    """Helpers for the kinds."""


    def split_cost(total: float) -> tuple[float, float]:
        """Split a cost in two.

        Notes
        -----
        Equation: parts = total / 2 each.
        """
        half = total / 2
        return half, half
'''


@pytest.fixture(scope="module")
def kinds_project(tmp_path_factory: pytest.TempPathFactory) -> ScenarioProject:
    root: Path = tmp_path_factory.mktemp("kinds")
    return write_scenario_project(
        root, "kinds", {"models": KINDS, "helpers": HELPERS}, documented=["models"]
    )


@pytest.fixture(scope="module")
def kinds() -> dict[str, ScenarioDoc]:
    analysed = analyse_source(KINDS, package="kinds", module="models", others={"helpers": HELPERS})
    assert list(analysed.scenarios) == ["Base", "Derived", "Model", "Measured", "Plain", "Runtime"]
    return analysed.scenarios


def inputs(doc: ScenarioDoc) -> dict[str, tuple[str, str | None, str]]:
    return {i.name: (i.annotation, i.default, i.description) for i in doc.inputs}


def test_dataclass_inputs_with_factories_and_inheritance(kinds: dict[str, ScenarioDoc]) -> None:
    derived = kinds["Derived"]
    assert inputs(derived) == {
        "size": ("float", None, "Size of the thing."),
        "tags": ("list[str]", "list() (from a factory)", "Labels."),
        "scale": ("dict[str, float]", '{"x": 1.0} (from a factory)', "Scale per axis."),
        "rate": ("Optional[float]", "None", "Rate, when known."),
    }
    size = derived.inputs[0]
    assert size.inherited_from == "kinds.models.Base"
    assert size.location.line < derived.location.line  # declared in Base, above Derived
    doubled = next(d for d in derived.derived if d.name == "doubled")
    assert doubled.inherited_from == "kinds.models.Base"
    assert doubled.equation.expression == "2 * self.size"
    assert derived.derived[0].name == "doubled"  # a base's properties come first


def test_pydantic_fields_and_descriptions(kinds: dict[str, ScenarioDoc]) -> None:
    assert inputs(kinds["Model"]) == {
        "count": ("int", None, "How many there are."),
        "weight": ('Annotated[float, "kg"]', "3.5", "Mass of one."),
        "extras": ("dict[str, int]", "dict() (from a factory)", ""),
        "mode": ("Union[int, str]", '"fast"', ""),
    }
    assert [d.name for d in kinds["Model"].derived] == ["total"]


def test_attrs_and_plain_classes(kinds: dict[str, ScenarioDoc]) -> None:
    assert inputs(kinds["Measured"]) == {
        "length": ("float", "2.0", "A length."),
        "marks": ("list[int]", "list() (from a factory)", "Marks along it."),
    }
    assert inputs(kinds["Plain"]) == {
        "width": ("float", None, "A width."),
        "height": ("float", "1.0", "A height."),
    }
    assert kinds["Plain"].derived[0].equation.expression == "self.width * self.height"


def test_awkward_property_bodies_fall_back_or_keep_their_equation(
    kinds: dict[str, ScenarioDoc],
) -> None:
    derived = {d.name: d for d in kinds["Derived"].derived}
    # An import inside the body is not part of the equation.
    assert derived["local_import"].equation.expression == "math.sqrt(self.size)"
    assert derived["unpacked"].equation.helpers == ("kinds.helpers.split_cost",)
    assert derived["unpacked"].reads == ("size",)
    assert "statements" in derived["conditional"].equation.reason
    assert set(derived["conditional"].reads) == {"rate", "size"}
    assert derived["multi_line"].equation.expression == "(\n    self.size\n    + self.doubled\n)"
    assert derived["cached"].equation.expression == "self.size + 1"


def test_runtime_class_without_source(kinds: dict[str, ScenarioDoc]) -> None:
    runtime = kinds["Runtime"]
    assert inputs(runtime) == {"span": ("float", None, "")}
    twice = runtime.derived[0]
    assert twice.name == "twice" and twice.description == "Twice the span."
    assert twice.equation.expression is None
    assert "no source code" in twice.equation.reason


def test_every_kind_builds_a_page(kinds_project: ScenarioProject) -> None:
    result = kinds_project.build("html", "--keep-going")
    assert result.returncode == 0, result.stderr
    assert [w for w in result.warnings if "[refgen.analysis]" in w] == []
    folder = result.outdir / "reference" / "kinds.models"
    for name in ["Base", "Derived", "Model", "Measured", "Plain", "Runtime"]:
        assert (folder / f"{name}.html").exists(), name
    page = read_html(folder / "Derived.html")
    inherited = row_cells(page, "kinds.models.Derived.size")["Description"]
    assert inherited.find("a")["href"].endswith("Base.html#kinds.models.Base")
    # Described once, on the base's page; the subclass links there.
    assert text(inherited) == "Inherited from Base ( size )."
    base = read_html(folder / "Base.html")
    assert text(row_cells(base, "kinds.models.Base.size")["Description"]) == "Size of the thing."
    tags = row_cells(page, "kinds.models.Derived.tags")
    assert text(tags["Declared default"]) == "list() (from a factory)"

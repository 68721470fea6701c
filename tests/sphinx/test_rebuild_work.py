"""A rebuild does the work its edit calls for once: no source file is parsed twice."""

from __future__ import annotations

import os
import time
from collections import Counter
from pathlib import Path

import pytest

from refgen.analysis import cache
from refgen.testing import ScenarioProject, write_scenario_project
from tests.html_helpers import main, read_html, text

PHYSICS = """
    def scaled(value):
        return value * 2.0
"""
MODELS = '''
    """Shapes"""

    from dataclasses import dataclass

    from shapes.physics import scaled


    @dataclass(frozen=True, kw_only=True)
    class Square:
        """A square whose side is scaled in its own body."""

        side: float
        """Metres."""

        @property
        def area(self) -> float:
            """Square metres."""
            return scaled(self.side) ** 2


    @dataclass(frozen=True, kw_only=True)
    class Cube:
        """A cube: only its registry entry calls the helper."""

        edge: float
        """Metres."""

        @property
        def volume(self) -> float:
            """Cubic metres."""
            return self.edge**3
'''
REGISTRY = """
    from shapes.models import Cube, Square
    from shapes.physics import scaled


    class Named:
        Tile = Square(side=1.0)
        Box = Cube(edge=scaled(1.0))
"""


@pytest.fixture
def shapes(tmp_path: Path) -> ScenarioProject:
    project = write_scenario_project(
        tmp_path,
        "shapes",
        {"physics": PHYSICS, "models": MODELS, "registry": REGISTRY},
        registry="registry.Named",
        documented=["models"],
    )
    first = project.build("html", "-W")
    assert first.returncode == 0, first.stderr
    return project


def counting_parses(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How often the analysis parses each file (by name) from now on."""
    parsed: Counter[str] = Counter()
    parse = cache._parse

    def counted(key: cache.FileKey) -> cache.ModuleSource:
        parsed[Path(key[0]).name] += 1
        return parse(key)

    monkeypatch.setattr(cache, "_parse", counted)
    return parsed


def test_a_rebuild_with_nothing_changed_parses_no_scenario_or_helper_module(
    shapes: ScenarioProject, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fresh build (its fingerprints taken in a fork, which keeps what each file
    holds for the next build) leaves the rebuild no module of classes or helpers to
    parse. (The registry's module is parsed for where its entries are written.)"""
    parsed = counting_parses(monkeypatch)
    result = shapes.build("html", "-W")
    assert result.returncode == 0, result.stderr
    assert set(parsed) <= {"registry.py"}


def test_a_helper_edit_parses_each_file_once(
    shapes: ScenarioProject, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Square reaches the helper from its body, so planning analyses it; Cube only from
    its entry, so it is first analysed when its page is composed to see whether it
    changed. Both come from one module, which must not be parsed a second time."""
    physics = shapes.module_path("physics")
    physics.write_text(physics.read_text().replace("* 2.0", "* 3.0"))
    later = time.time() + 2
    os.utime(physics, (later, later))
    parsed = counting_parses(monkeypatch)
    result = shapes.build("html", "-W")
    assert result.returncode == 0, result.stderr
    assert parsed["models.py"] == 1, parsed
    cube = read_html(result.outdir / "reference" / "shapes.models" / "Cube.html")
    assert "27" in text(main(cube))

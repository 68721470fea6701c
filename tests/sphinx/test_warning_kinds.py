"""Every warning kind is ``refgen.<kind>`` and ``suppress_warnings`` silences it alone.

One throwaway project gives a warning of every kind refgen has; it is built
once as it is, once with each kind suppressed and once with all of refgen's
warnings suppressed.
"""

from __future__ import annotations

import re

import pytest

from refgen.analysis.model import WarningKind
from refgen.testing import BuildResult, write_scenario_project

MODELS = '''
"""Scenarios with something wrong of every kind"""

from dataclasses import dataclass


class _weird(property):
    @property
    def fget(self):  # type: ignore[override]
        raise RuntimeError("no getter to read")


@dataclass(frozen=True)
class Flawed:
    """A scenario with a flaw of each kind a class can have.

    Notes
    -----
    Nothing under its headings.

    Caveats
    -------
    Not a section numpydoc knows.

    References
    ----------
    kinds.nowhere.helper

    Examples
    --------
    >>> from kinds.registry import Registry
    >>> Registry.One.doubled
    5.0
    """

    size: float = 2.0
    """The size."""

    @property
    def doubled(self) -> float:
        """Twice the size."""
        return self.size * 2

    @property
    def undocumented(self) -> float:
        return self.size

    @property
    def failing(self) -> float:
        """Never computed."""
        raise ValueError("no value")

    @property
    def dynamic(self) -> float:
        """Read from a module named at run time."""
        import importlib

        return importlib.import_module("kinds" + ".other").SCALE * self.size


@dataclass(frozen=True)
class Broken:
    """A scenario whose property cannot be read."""

    size: float = 2.0

    @_weird
    def odd(self) -> float:
        """Unreadable."""
        return self.size
'''

OTHER = '''
"""A module the reference does not document."""

SCALE = 1.0

from dataclasses import dataclass


@dataclass(frozen=True)
class Stray:
    """Documented nowhere."""

    size: float = 1.0
'''

REGISTRY = '''
"""Named scenarios."""

from kinds.models import Flawed
from kinds.other import Stray


class Registry:
    One = Flawed(size=2.0)
    """One, whose doubled figure is 3 (a figure typed by hand, and wrong)."""
    Lost = Stray()
'''

MISSING = "raise ImportError('a configured module that cannot be imported')\n"

KIND = re.compile(r"\[refgen\.(\w+)\]$", re.MULTILINE)


def kinds_of(result: BuildResult) -> set[str]:
    return set(KIND.findall(result.stderr))


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, BuildResult]:
    """The project built as it is ("") and with each kind, and all of them, suppressed."""
    built = {}
    for suppressed in ["", *[f"refgen.{kind}" for kind in WarningKind], "refgen"]:
        conf = "refgen_checks = True\n"
        if suppressed:
            conf += f"suppress_warnings = [{suppressed!r}]\n"
        project = write_scenario_project(
            tmp_path_factory.mktemp("kinds"),
            "kinds",
            {"models": MODELS, "other": OTHER, "registry": REGISTRY, "missing": MISSING},
            registry="registry.Registry",
            documented=["models", "missing"],
            conf_extra=conf,
        )
        result = project.build("html", "--keep-going")
        assert result.returncode == 0, result.stderr
        built[suppressed] = result
    return built


def test_the_project_gives_a_warning_of_every_kind(builds: dict[str, BuildResult]) -> None:
    assert kinds_of(builds[""]) == {str(kind) for kind in WarningKind}


@pytest.mark.parametrize("kind", [str(kind) for kind in WarningKind])
def test_suppressing_one_kind_silences_it_alone(builds: dict[str, BuildResult], kind: str) -> None:
    assert kinds_of(builds[f"refgen.{kind}"]) == {str(k) for k in WarningKind} - {kind}


def test_suppressing_refgen_silences_every_kind(builds: dict[str, BuildResult]) -> None:
    assert kinds_of(builds["refgen"]) == set()
    assert (builds["refgen"].outdir / "reference" / "kinds.models" / "Flawed.html").exists()

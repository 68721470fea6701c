"""A synthetic scenario package for benchmarks: N classes, 5 inputs and 10 derived each.

Every class has an example that runs through a registry entry, like the real
library. Classes are spread over modules of ``PER_MODULE`` classes each.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

PER_MODULE = 10
INPUTS = ("alpha", "beta", "gamma", "delta", "epsilon")


def _derived(index: int) -> str:
    """Ten properties: a chain of one-line expressions over the inputs."""
    bodies = [
        "self.alpha * self.beta",
        "self.first + self.gamma",
        "(self.second - self.delta) / 2",
        "self.third * self.epsilon",
        "max(self.fourth, self.alpha)",
        "self.fifth + self.first",
        "(self.sixth / (1 + self.beta)) ** 2",
        "min(self.seventh, self.second)",
        "self.eighth + self.third - self.delta",
        "self.ninth / self.alpha",
    ]
    names = [
        *("first", "second", "third", "fourth", "fifth"),
        *("sixth", "seventh", "eighth", "ninth", "tenth"),
    ]
    return "".join(
        f'''
    @property
    def {name}(self) -> float:
        """Derived figure {name} of scenario {index}, from the inputs above."""
        return {body}
'''
        for name, body in zip(names, bodies, strict=True)
    )


def scenario_class(index: int, module: str, package: str) -> str:
    fields = "".join(
        f'    {name}: float\n    """Input {name} of scenario {index}."""\n' for name in INPUTS
    )
    return f'''

@dataclass(frozen=True, kw_only=True)
class Scenario{index:04d}:
    """Synthetic scenario {index}: a chain of ten derived figures.

    The inputs alpha to epsilon feed the chain; each figure reads the one
    before it.

    Notes
    -----
    Equation: tenth = ninth / alpha.
    Assumptions: The numbers are made up.
    Excludes: Anything real.

    References
    ----------
    - A benchmark, not a paper.

    Examples
    --------
    >>> from {package}.registry import Named
    >>> round(Named.Entry{index:04d}.first, 3)
    {2.0 * (1 + index % 7):.1f}
    """

{fields}{_derived(index)}'''


def write_package(root: Path, package: str, count: int) -> list[str]:
    """Write ``count`` classes under ``root/package``; return the module names."""
    folder = root / package
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "__init__.py").write_text(f'"""Synthetic package {package}."""\n')
    modules = []
    registry = [
        '"""Named synthetic scenarios."""\n\n',
    ]
    entries = []
    for start in range(0, count, PER_MODULE):
        name = f"group{start // PER_MODULE:03d}"
        modules.append(f"{package}.{name}")
        stop = min(start + PER_MODULE, count)
        header = (
            f'"""Group {start // PER_MODULE} scenarios\n\n'
            f'Synthetic classes {start} to {stop - 1}.\n"""\n\n'
            "from dataclasses import dataclass\n"
        )
        body = "".join(scenario_class(i, name, package) for i in range(start, stop))
        (folder / f"{name}.py").write_text(header + body)
        for i in range(start, stop):
            registry.append(f"from {package}.{name} import Scenario{i:04d}\n")
            entries.append(
                f"    Entry{i:04d} = Scenario{i:04d}(\n"
                f"        alpha=2.0, beta={1 + i % 7}.0, gamma=3.0, delta=1.0, epsilon=0.5\n    )\n"
            )
    registry.append('\n\nclass Named:\n    """Named synthetic scenarios."""\n\n')
    (folder / "registry.py").write_text("".join(registry) + "".join(entries))
    return modules


def write_conf(docs: Path, lines: str) -> None:
    docs.mkdir(parents=True, exist_ok=True)
    (docs / "conf.py").write_text(textwrap.dedent(lines))

"""Test helpers: throwaway scenario packages and the Sphinx projects that document them.

Tests describe a package as a dict of module sources, write it with
:func:`write_scenario_project` and build it with :meth:`ScenarioProject.build`,
which runs ``python -m sphinx`` in a subprocess, the way a user builds: fresh
imports every time, so no module cached by an earlier test leaks into a build.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

_WARNING = re.compile(r"^(?P<location>.*?): WARNING: (?P<message>.*)$")


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
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(self.src), env.get("PYTHONPATH")]))
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env["NO_COLOR"] = "1"  # Sphinx colours its output under CI=true; tests read it
        return env

    def build(
        self, builder: str = "html", *options: str, outdir: Path | None = None
    ) -> BuildResult:
        """Run ``python -m sphinx -b BUILDER`` over the project's docs."""
        outdir = outdir or self.root / "_build" / builder
        command = [sys.executable, "-m", "sphinx", "-b", builder, *options, str(self.docs)]
        completed = subprocess.run(
            [*command, str(outdir)],
            capture_output=True,
            text=True,
            env=self.environment(),
            cwd=self.root,
            check=False,
        )
        return BuildResult(completed.returncode, completed.stdout, completed.stderr, outdir)

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
    _write(project.src / package / "__init__.py", f'"""Throwaway package {package}."""\n')
    for name, source in modules.items():
        _write(project.module_path(name), source)
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

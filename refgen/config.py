"""Project configuration for the command line: ``[tool.refgen]`` in pyproject.toml.

The Sphinx extension reads ``refgen_modules`` and ``refgen_registry`` from
``conf.py``; the command line has no ``conf.py``, so it reads the same two
settings from the nearest ``pyproject.toml``::

    [tool.refgen]
    modules = ["scenarios.training"]
    registry = "scenarios.Scenarios"

Only the standard library is used here, so reading the configuration costs
next to nothing at start-up.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

PYPROJECT = "pyproject.toml"


class ConfigError(ValueError):
    """The configuration exists but cannot be used (bad TOML, wrong types)."""


@dataclass(frozen=True)
class ProjectConfig:
    """What to document: scenario modules (dotted names) and the registry, if any."""

    modules: tuple[str, ...] = ()
    registry: str | None = None
    source: Path | None = None
    """The pyproject.toml the settings came from; None when there is none."""

    @property
    def is_empty(self) -> bool:
        return not self.modules and not self.registry


def find_pyproject(start: Path) -> Path | None:
    """The nearest ``pyproject.toml`` in ``start`` or one of its parents."""
    start = start.resolve()
    for folder in (start, *start.parents):
        candidate = folder / PYPROJECT
        if candidate.is_file():
            return candidate
    return None


def load_project_config(start: Path) -> ProjectConfig:
    """Read ``[tool.refgen]`` from the nearest ``pyproject.toml`` at or above ``start``.

    A missing file or a file without the table gives an empty configuration
    (``source`` still names the file, so an error message can point at it);
    a table with values of the wrong type raises :class:`ConfigError`.
    """
    import tomllib

    path = find_pyproject(start)
    if path is None:
        return ProjectConfig()
    try:
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from error
    table = data.get("tool", {}).get("refgen", {})
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.refgen] must be a table")
    modules = table.get("modules", [])
    if not isinstance(modules, list) or not all(isinstance(m, str) and m for m in modules):
        raise ConfigError(f"{path}: [tool.refgen] modules must be a list of dotted module names")
    registry = table.get("registry")
    if registry is not None and (not isinstance(registry, str) or not registry):
        raise ConfigError(f"{path}: [tool.refgen] registry must be a dotted path (a string)")
    unknown = sorted(set(table) - {"modules", "registry"})
    if unknown:
        raise ConfigError(
            f"{path}: unknown [tool.refgen] setting(s) {', '.join(unknown)}; "
            "known settings are modules and registry"
        )
    return ProjectConfig(tuple(modules), registry, path)

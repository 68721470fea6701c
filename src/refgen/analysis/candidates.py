"""Candidates for a new project's settings: which modules and which registry to document.

``refgen init`` asks this module what a package holds before any setting
exists. A **scenario module** is one that defines a dataclass, pydantic or
attrs class with at least one property; a **registry** is an object holding
named instances of those classes: a class, a dict or a module. Importing the
package runs its code, so every import is guarded and time-limited; a module
that fails is skipped with its reason.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import pkgutil
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from refgen.analysis.discovery import (
    class_dict,
    class_mro,
    import_module,
    is_class,
    registry_items,
)
from refgen.analysis.failures import describe_error
from refgen.analysis.guard import call_user_code

SKIPPED_FOLDERS = frozenset({"docs", "doc", "tests", "test", "build", "dist", "venv", ".venv"})
"""Folders beside a project's package that hold no package of its own."""

IMPORT_TIMEOUT = 30.0
"""Seconds one module's import may take before it is skipped."""


@dataclass(frozen=True)
class LocalPackage:
    """A top-level package found in a project folder."""

    name: str
    path_entry: Path
    """The folder that must be on ``sys.path`` for ``import name`` (``src`` or the root)."""


@dataclass(frozen=True)
class ModuleCandidate:
    """A module defining scenario classes."""

    name: str
    classes: tuple[str, ...]


@dataclass(frozen=True)
class RegistryCandidate:
    """An object naming instances of scenario classes."""

    path: str
    kind: str
    """``class``, ``dict`` or ``module``."""
    entries: int


@dataclass(frozen=True)
class Candidates:
    """What a package offers, best first, and the modules that could not be imported."""

    modules: tuple[ModuleCandidate, ...]
    registries: tuple[RegistryCandidate, ...]
    skipped: tuple[tuple[str, str], ...]


def import_name(distribution: str) -> str:
    """The import name a distribution name usually has (``my-serving`` → ``my_serving``)."""
    return distribution.replace("-", "_").replace(".", "_").lower()


def local_packages(root: Path) -> list[LocalPackage]:
    """Top-level packages of the project at ``root``: ``src/*/`` first, then ``*/``.

    The ``[project] name`` of ``pyproject.toml``, when it names one of them,
    comes first.
    """
    found: list[LocalPackage] = []
    for entry in (root / "src", root):
        if not entry.is_dir():
            continue
        for folder in sorted(entry.iterdir()):
            if _is_package_folder(folder) and folder.name not in {p.name for p in found}:
                found.append(LocalPackage(folder.name, entry))
    declared = _declared_name(root)
    return sorted(found, key=lambda package: package.name != declared)


def _is_package_folder(folder: Path) -> bool:
    return (
        folder.is_dir()
        and folder.name.isidentifier()
        and folder.name not in SKIPPED_FOLDERS
        and (folder / "__init__.py").is_file()
    )


def _declared_name(root: Path) -> str | None:
    name = project_name(root)
    return import_name(name) if name is not None else None


def project_name(root: Path) -> str | None:
    """The ``[project] name`` of ``root/pyproject.toml``, when it has a readable one."""
    try:
        with (root / "pyproject.toml").open("rb") as handle:
            name = tomllib.load(handle).get("project", {}).get("name")
    except (OSError, tomllib.TOMLDecodeError):
        return None
    return name if isinstance(name, str) and name.strip() else None


def find_candidates(package: str, path_entry: Path | None = None) -> Candidates:
    """Import ``package`` and its submodules, and list what could be documented."""
    if path_entry is not None and str(path_entry) not in sys.path:
        sys.path.insert(0, str(path_entry))
    imported, skipped = _import_all(package)
    classes_by_module = {module.__name__: _scenario_classes(module) for module in imported.values()}
    modules = tuple(
        ModuleCandidate(name, tuple(cls.__qualname__ for cls in classes))
        for name, classes in classes_by_module.items()
        if classes
    )
    scenario_types = tuple(cls for classes in classes_by_module.values() for cls in classes)
    registries = sorted(
        _registries(imported.values(), scenario_types),
        key=lambda candidate: (-candidate.entries, candidate.path),
    )
    return Candidates(modules, tuple(registries), tuple(skipped))


def _import_all(package: str) -> tuple[dict[str, ModuleType], list[tuple[str, str]]]:
    imported: dict[str, ModuleType] = {}
    skipped: list[tuple[str, str]] = []
    for name in _module_names(package, skipped):
        module, error = call_user_code(import_module, name, timeout=IMPORT_TIMEOUT)
        if module is None:
            skipped.append((name, describe_error(error) if error else "not a module"))
        else:
            imported[name] = module
    return imported, skipped


def _module_names(package: str, skipped: list[tuple[str, str]]) -> Iterator[str]:
    top, error = call_user_code(import_module, package, timeout=IMPORT_TIMEOUT)
    if top is None:
        skipped.append((package, describe_error(error) if error else "not a module"))
        return
    yield package
    for info in pkgutil.walk_packages(getattr(top, "__path__", []), prefix=f"{package}."):
        leaf = info.name.rsplit(".", 1)[-1]
        if not (leaf.startswith("test") or leaf == "conftest" or leaf == "__main__"):
            yield info.name


def _scenario_classes(module: ModuleType) -> list[type]:
    """Dataclass, pydantic and attrs classes ``module`` defines that have a property."""
    return [
        value
        for name, value in list(vars(module).items())
        if is_class(value)
        and getattr(value, "__module__", None) == module.__name__
        and name == value.__name__
        and not name.startswith("_")
        and _is_data_class(value)
        and _has_property(value)
    ]


def _is_data_class(cls: type) -> bool:
    own = [class_dict(base) for base in class_mro(cls)]
    return (
        dataclasses.is_dataclass(cls)
        or any(
            "__pydantic_fields__" in namespace or "model_fields" in namespace for namespace in own
        )
        or any("__attrs_attrs__" in namespace for namespace in own)
    )


def _has_property(cls: type) -> bool:
    return any(
        isinstance(value, property | functools.cached_property)
        or type(value).__name__ == "PydanticDescriptorProxy"
        for base in class_mro(cls)[:-1]
        for value in class_dict(base).values()
    )


def _registries(modules: Any, scenario_types: tuple[type, ...]) -> Iterator[RegistryCandidate]:
    if not scenario_types:
        return
    for module in modules:
        own_entries = _count_entries(module, scenario_types)
        if own_entries:
            yield RegistryCandidate(module.__name__, "module", own_entries)
        for name, value in list(vars(module).items()):
            if name.startswith("_") or not _is_holder(value, module):
                continue
            entries = _count_entries(value, scenario_types)
            if entries:
                kind = "dict" if isinstance(value, dict) else "class"
                yield RegistryCandidate(f"{module.__name__}.{name}", kind, entries)


def _is_holder(value: Any, module: ModuleType) -> bool:
    if isinstance(value, dict):
        return True
    return inspect.isclass(value) and getattr(value, "__module__", None) == module.__name__


def _count_entries(holder: Any, scenario_types: tuple[type, ...]) -> int:
    """How many of ``holder``'s entries are scenarios; 0 when it is no registry at all."""

    def count() -> int:
        return sum(issubclass(type(value), scenario_types) for _, value in registry_items(holder))

    entries, _ = call_user_code(count, timeout=IMPORT_TIMEOUT)
    return entries or 0

"""The files ``refgen init`` writes, as text: ``conf.py``, the index page, the ignore
file and the ``[tool.refgen]`` table of ``pyproject.toml``.

Nothing here touches the disk; :mod:`refgen.cli.init` decides what to write
where. Names typed by the user are written as Python and TOML string literals,
never pasted into code.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Choice:
    """What the new docs document."""

    project: str
    modules: tuple[str, ...]
    registry: str | None
    import_folder: str | None
    """The folder, relative to the project root, to put on ``sys.path`` (``src``, ``.``)."""


def toml_string(text: str) -> str:
    """``text`` as a TOML basic string (JSON's escapes are TOML's)."""
    return json.dumps(text, ensure_ascii=False)


def refgen_table(choice: Choice) -> str:
    """The ``[tool.refgen]`` table naming the modules and the registry."""
    modules = ", ".join(toml_string(name) for name in choice.modules)
    lines = ["[tool.refgen]", f"modules = [{modules}]"]
    if choice.registry:
        lines.append(f"registry = {toml_string(choice.registry)}")
    return "\n".join(lines) + "\n"


class TableExists(ValueError):
    """``pyproject.toml`` already has a ``[tool.refgen]`` table."""


def with_refgen_table(pyproject: str, choice: Choice) -> str:
    """``pyproject`` with the table added at its end, every other byte as it was.

    Raises :class:`TableExists` when it has one already, and
    :class:`tomllib.TOMLDecodeError` when the file (or the file with the table,
    say one whose ``tool`` is an inline table) is not valid TOML.
    """
    if "refgen" in tomllib.loads(pyproject).get("tool", {}):
        raise TableExists("pyproject.toml has a [tool.refgen] table already")
    newline = "\r\n" if "\r\n" in pyproject else "\n"
    separator = newline if pyproject and not pyproject.endswith("\n") else ""
    if pyproject.strip():
        separator += newline
    updated = pyproject + separator + refgen_table(choice).replace("\n", newline)
    tomllib.loads(updated)
    return updated


def conf_py(choice: Choice, settings_in_pyproject: bool) -> str:
    """A Sphinx ``conf.py`` with refgen and furo, reading the settings from
    ``pyproject.toml`` when they are there, else naming them itself."""
    lines = ['"""Sphinx configuration of the documentation, written by ``refgen init``."""', ""]
    if choice.import_folder is not None:
        lines += ["import sys"]
    lines += ["from pathlib import Path", ""]
    if settings_in_pyproject:
        lines += ["from refgen.config import load_settings", ""]
    if choice.import_folder is not None:
        folder = _folder_expression(choice.import_folder)
        lines += [
            "# The package is imported from its source folder, installed or not.",
            f"sys.path.insert(0, str({folder}))",
            "",
        ]
    lines += [
        f"project = {_python_string(choice.project)}",
        'extensions = ["refgen"]',
        'html_theme = "furo"',
        'exclude_patterns = ["_build"]',
        "",
    ]
    if settings_in_pyproject:
        lines += [
            "# The modules and the registry are named once, in pyproject.toml's [tool.refgen]",
            "# table, which the command line and the pytest plugin read too.",
            "_settings = load_settings(Path(__file__).parent)",
            "refgen_modules = list(_settings.modules)",
            "refgen_registry = _settings.registry",
        ]
    else:
        lines += [
            f"refgen_modules = {_python_list(choice.modules)}",
            f"refgen_registry = {_python_string(choice.registry) if choice.registry else None}",
        ]
    return "\n".join(lines) + "\n"


def index_rst(choice: Choice, root: str = "reference") -> str:
    """The master page: the project's title and the reference in its toctree."""
    title = " ".join(choice.project.split()) or "Documentation"
    rule = "=" * max(len(title), 3)
    return f"{title}\n{rule}\n\n.. toctree::\n   :maxdepth: 2\n\n   {root}/index\n"


IGNORES = "# Written by every build: never edited, never committed.\n/_build/\n/reference/\n"
"""``docs/.gitignore``: the build output and the generated reference."""


def _python_string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _python_list(items: Sequence[str]) -> str:
    return "[" + ", ".join(_python_string(item) for item in items) + "]"


def _folder_expression(folder: str) -> str:
    root = "Path(__file__).resolve().parents[1]"
    parts = [part for part in folder.replace("\\", "/").split("/") if part not in ("", ".")]
    return " / ".join([root, *(_python_string(part) for part in parts)])

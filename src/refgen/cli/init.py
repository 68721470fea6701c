"""``refgen init [--module MODULE ...] [--registry PATH] [DIR]``: docs for a package that exists.

The ``sphinx-quickstart`` of refgen. It writes ``DIR/docs/conf.py`` (refgen,
furo, the settings), ``DIR/docs/index.rst`` (the reference in its toctree)
and ``DIR/docs/.gitignore``, and adds the ``[tool.refgen]`` table to
``DIR/pyproject.toml`` (or prints it when there is no such file). Without
``--module`` it imports the package found in ``DIR`` and proposes the modules
and the registry it finds (:mod:`refgen.analysis.candidates`): on a terminal
it asks, elsewhere ``--yes`` accepts. It never overwrites a file: when one of
them exists it says which and writes nothing.
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

from refgen.analysis.candidates import (
    Candidates,
    LocalPackage,
    find_candidates,
    local_packages,
    project_name,
)
from refgen.cli.common import EXIT_NOT_FOUND, EXIT_OK, CliError, emit, warn
from refgen.cli.scaffold import (
    IGNORES,
    Choice,
    TableExists,
    conf_py,
    index_rst,
    refgen_table,
    with_refgen_table,
)

BUILD_COMMAND = "python -m sphinx -W --keep-going -b html docs docs/_build/html"


@dataclass(frozen=True)
class Written:
    """A file ``refgen init`` will write, and its text."""

    path: Path
    text: str


def run(args: argparse.Namespace) -> int:
    root = Path(args.dir).resolve()
    if not root.is_dir():
        raise CliError(f"refgen init: {root} is not a folder")
    pyproject = root / "pyproject.toml"
    _refuse_existing(root, pyproject)
    packages = local_packages(root)
    choice = _choice(args, root, packages)
    if choice is None:
        return EXIT_NOT_FOUND
    table_added = _with_table(pyproject, choice) if pyproject.is_file() else None
    for written in _docs_files(root / "docs", choice, settings_in_pyproject=bool(table_added)):
        written.path.parent.mkdir(parents=True, exist_ok=True)
        with written.path.open("x", encoding="utf-8", newline="") as handle:
            handle.write(written.text)
        emit([f"wrote {_shown(root, written.path)}"])
    if table_added is not None:
        pyproject.write_bytes(table_added.encode("utf-8"))
        emit([f"added [tool.refgen] to {_shown(root, pyproject)}"])
    else:
        emit(
            [
                "",
                "No pyproject.toml here: add this table to yours, so that `refgen show` "
                "and the pytest plugin find the same modules:",
                "",
                *refgen_table(choice).splitlines(),
            ]
        )
    emit(["", f"Build the site: {BUILD_COMMAND}"])
    return EXIT_OK


def _refuse_existing(root: Path, pyproject: Path) -> None:
    docs = root / "docs"
    present = [
        _shown(root, path)
        for path in (docs / "conf.py", docs / "index.rst", docs / "index.md")
        if path.exists()
    ]
    if pyproject.is_file() and _has_refgen_table(pyproject):
        present.append("pyproject.toml's [tool.refgen] table")
    if present:
        raise CliError(
            "refgen init: nothing written, these exist already: "
            + ", ".join(present)
            + ". To add refgen to docs you have, see 'Using refgen in your own project'."
        )


def _has_refgen_table(pyproject: Path) -> bool:
    try:
        return "refgen" in tomllib.loads(pyproject.read_text("utf-8")).get("tool", {})
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise CliError(f"refgen init: {pyproject} cannot be read: {error}") from error


def _with_table(pyproject: Path, choice: Choice) -> str:
    """The new text of ``pyproject.toml``, checked before anything is written."""
    try:
        return with_refgen_table(pyproject.read_bytes().decode("utf-8"), choice)
    except (UnicodeDecodeError, TableExists, tomllib.TOMLDecodeError) as error:
        raise CliError(f"refgen init: nothing written: {pyproject}: {error}") from error


def _docs_files(docs: Path, choice: Choice, settings_in_pyproject: bool) -> list[Written]:
    files = [
        Written(docs / "conf.py", conf_py(choice, settings_in_pyproject)),
        Written(docs / "index.rst", index_rst(choice)),
    ]
    if not (docs / ".gitignore").exists():
        files.append(Written(docs / ".gitignore", IGNORES))
    return files


def _choice(args: argparse.Namespace, root: Path, packages: list[LocalPackage]) -> Choice | None:
    project = _project_name(root, packages)
    import_folder = _import_folder(root, packages)
    modules = tuple(getattr(args, "module", ()) or ())
    registry = getattr(args, "registry", None) or None
    if modules:
        return Choice(project, modules, registry, import_folder)
    if not packages:
        raise CliError(
            f"refgen init: no package in {root} (looked for src/*/__init__.py and "
            "*/__init__.py); name your scenario modules with --module"
        )
    found = [find_candidates(p.name, p.path_entry) for p in packages]
    proposal = _merged(found)
    _print_proposal(proposal, [p.name for p in packages])
    if not proposal.modules:
        warn("refgen init: no scenario modules found; name them with --module")
        return None
    if args.yes:
        return _proposed(project, proposal, registry, import_folder)
    if not sys.stdin.isatty():
        raise CliError("refgen init: not a terminal: pass --yes to accept these, or --module")
    return _asked(project, proposal, registry, import_folder)


def _merged(found: list[Candidates]) -> Candidates:
    return Candidates(
        tuple(m for c in found for m in c.modules),
        tuple(r for c in found for r in c.registries),
        tuple(s for c in found for s in c.skipped),
    )


def _print_proposal(proposal: Candidates, packages: list[str]) -> None:
    lines = [f"Scenario modules in {', '.join(packages)}:"]
    for number, module in enumerate(proposal.modules, 1):
        lines.append(f"  [{number}] {module.name}: {_counted(module.classes, 'class')}")
    if proposal.registries:
        lines.append("Registries (objects naming scenario instances):")
        for number, registry in enumerate(proposal.registries, 1):
            lines.append(
                f"  [{number}] {registry.path}: a {registry.kind} of "
                f"{registry.entries} entr{'y' if registry.entries == 1 else 'ies'}"
            )
    for name, reason in proposal.skipped:
        lines.append(f"  skipped {name}: {reason}")
    emit(lines)


def _counted(classes: tuple[str, ...], noun: str) -> str:
    shown = ", ".join(classes[:4]) + (", ..." if len(classes) > 4 else "")
    plural = noun if len(classes) == 1 else noun + "es"
    return f"{len(classes)} {plural} ({shown})"


def _proposed(
    project: str, proposal: Candidates, registry: str | None, import_folder: str | None
) -> Choice:
    best = registry or (proposal.registries[0].path if proposal.registries else None)
    return Choice(project, tuple(m.name for m in proposal.modules), best, import_folder)


def _asked(
    project: str, proposal: Candidates, registry: str | None, import_folder: str | None
) -> Choice:
    modules = _pick(
        "Modules to document (numbers separated by commas, Enter for all): ",
        [m.name for m in proposal.modules],
        default="all",
    )
    if registry is None and proposal.registries:
        picked = _pick(
            "Registry (a number, 0 for none, Enter for 1): ",
            [r.path for r in proposal.registries],
            default="1",
        )
        registry = picked[0] if picked else None
    return Choice(project, tuple(modules), registry, import_folder)


def _pick(question: str, options: list[str], default: str) -> list[str]:
    while True:
        answer = input(question).strip() or default
        if answer == "all":
            return options
        if answer == "0":
            return []
        numbers = [part.strip() for part in answer.split(",")]
        if all(n.isdigit() and 1 <= int(n) <= len(options) for n in numbers):
            return [options[int(n) - 1] for n in numbers]
        warn(f"answer with numbers from 1 to {len(options)}")


def _project_name(root: Path, packages: list[LocalPackage]) -> str:
    return project_name(root) or (packages[0].name if packages else root.name)


def _import_folder(root: Path, packages: list[LocalPackage]) -> str | None:
    if not packages:
        return None
    entry = packages[0].path_entry
    return "." if entry == root else entry.relative_to(root).as_posix()


def _shown(root: Path, path: Path) -> str:
    return path.relative_to(root).as_posix()

"""``refgen completion SHELL``: a shell completion script, made by shtab from the parser.

The script is static, so a tab costs the shell nothing, except for ``refgen
show NAME``, which it completes by running ``refgen completion --names``:
every registry entry, class, ``Class.attribute`` and helper, one a line,
kept in ``.refgen_cache/`` like a lookup (:mod:`refgen.cli.cache`).
"""

from __future__ import annotations

import argparse
import sys

from refgen.cli.cache import cached_page, folder_for, lookup_key, source_files
from refgen.cli.common import (
    EXIT_OK,
    CliError,
    build_project,
    emit,
    helpers,
    known_entries,
    scenarios,
)
from refgen.project import Project

NAMES_COMMAND = "refgen completion --names 2>/dev/null"


def run(args: argparse.Namespace) -> int:
    if args.names:
        emit(cached_names(args))
        return EXIT_OK
    if args.shell is None:
        raise CliError("refgen completion: name a shell (bash, zsh, tcsh) or give --names")
    sys.stdout.write(script(args.shell))
    return EXIT_OK


def script(shell: str) -> str:
    """The completion script for ``shell``: commands, options, choices, files for ``-o``,
    and the names ``show`` knows."""
    import shtab

    from refgen.cli import parser

    main_parser = parser()
    for action in walk_actions(main_parser):
        if action.dest == "output":
            action.complete = shtab.FILE  # type: ignore[attr-defined]
        elif action.dest == "name":
            action.complete = shtab.cmd(NAMES_COMMAND)  # type: ignore[attr-defined]
    return str(shtab.complete(main_parser, shell))


def walk_actions(main_parser: argparse.ArgumentParser) -> list[argparse.Action]:
    """Every argument of the parser and of its subcommands."""
    found = list(main_parser._actions)
    for action in main_parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                found += walk_actions(sub)
    return found


def cached_names(args: argparse.Namespace) -> list[str]:
    project = build_project(args)
    if args.no_cache:
        return names(project)
    key = lookup_key(project.settings, "completion-names")
    found: list[str] = cached_page(
        folder_for(project.settings), key, lambda: (names(project), source_files(project))
    )
    return found


def names(project: Project) -> list[str]:
    """Every name ``show`` takes in its shortest form, in the reference's order."""
    found = [known.item.name for known in known_entries(project)]
    for scenario in scenarios(project):
        found.append(scenario.name)
        found += [f"{scenario.name}.{a}" for a in scenario.attribute_names]
    found += [helper.name for helper in helpers(project)]
    return list(dict.fromkeys(found))

"""The ``refgen`` command line: look things up in the reference without building it.

``refgen show NAME`` prints one registry entry, class, attribute or helper;
``refgen search QUERY`` ranks what QUERY's words lead to; ``refgen check``
prints the findings of :mod:`refgen.checks`; ``refgen export`` writes the
whole reference as JSON (see ``export_schema.json``) or every registry value
as CSV; ``refgen completion SHELL`` prints a completion script; ``refgen init``
writes a new project's ``docs/`` and settings. Every command but ``completion``
and ``init`` takes ``--format json``; human output goes through rich.

Each command is a module of this package with a ``run(args) -> int``
(:mod:`~refgen.cli.show`, :mod:`~refgen.cli.search`, :mod:`~refgen.cli.check`,
:mod:`~refgen.cli.export`, :mod:`~refgen.cli.completion`, :mod:`~refgen.cli.init`);
what they share is in :mod:`refgen.cli.common`.
All but ``init`` ask one :class:`refgen.project.Project`, and none imports Sphinx
or docutils. This module holds only the argument parser and :func:`main`, and
imports a command (and with it the analysis) only once it is chosen.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from refgen.render.markup import printable


def parser() -> argparse.ArgumentParser:
    from refgen import __version__

    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "-m",
        "--module",
        action="append",
        metavar="MODULE",
        default=argparse.SUPPRESS,
        help="scenario module to look in (repeatable); replaces [tool.refgen] modules",
    )
    common.add_argument(
        "--registry",
        metavar="PATH",
        default=argparse.SUPPRESS,
        help="dotted path of the registry object; replaces [tool.refgen] registry ('' for none)",
    )
    main_parser = argparse.ArgumentParser(
        prog="refgen",
        parents=[common],
        description="Look up scenario classes, registry entries and their figures.",
        epilog="Configuration: [tool.refgen] modules and registry in the nearest pyproject.toml.",
    )
    main_parser.add_argument("--version", action="version", version=f"refgen {__version__}")
    main_parser.add_argument(
        "--debug",
        action="store_true",
        help="on an unexpected error, print the Python traceback too",
    )
    commands = main_parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    show = commands.add_parser(
        "show",
        parents=[common, output_format("text", "json")],
        help="print a registry entry, class, attribute or helper",
        description="NAME is a registry entry (PhoneFullUpdateWorkingSet, "
        "Scenarios.PhoneFullUpdateWorkingSet), a class (UpdateWorkingSetScenario or "
        "refgen_scenarios.training.UpdateWorkingSetScenario), an attribute of either "
        "(UpdateWorkingSetScenario.step_floor) or a helper function, in any case.",
    )
    show.add_argument("name", metavar="NAME")
    show.add_argument(
        "--page",
        action="store_true",
        help="print the class's (or the entry's class's) whole reference page as text, "
        "values included: the same page the site shows",
    )
    show.add_argument(
        "--no-cache",
        action="store_true",
        help="look NAME up afresh, without reading or writing .refgen_cache/ (kept beside "
        "pyproject.toml; a page is used again only while every file it came from is unchanged)",
    )
    search = commands.add_parser(
        "search",
        parents=[common, output_format("text", "json")],
        help="list the classes, attributes, entries and helpers QUERY's words lead to, best first",
        description="Ranks by how many of QUERY's words each item has, and where: its name, "
        "then its summary, then its description, equation and units.",
    )
    search.add_argument("query", metavar="QUERY")
    search.add_argument(
        "--limit",
        type=whole_number,
        default=20,
        metavar="N",
        help="show the best N results (default 20; 0 shows all)",
    )
    check = commands.add_parser(
        "check",
        parents=[common, output_format("text", "json")],
        help="lint the scenario metadata; non-zero exit on findings",
    )
    check.add_argument(
        "--kind",
        action="append",
        metavar="KIND",
        help="only findings of this kind (repeatable): missing-docstring, value, ...",
    )
    check.add_argument(
        "--prose",
        nargs="+",
        metavar="PATH",
        type=Path,
        help="audit the figures typed in these Markdown, Quarto, reST, LaTeX or text files "
        "(or the files under these folders) against the registry instead: a figure that "
        "quotes a registry value and disagrees is a finding (non-zero exit); one that agrees "
        "is listed as a prose-quote suggestion",
    )
    export = commands.add_parser(
        "export",
        parents=[common, output_format("json", "csv")],
        help="write the whole reference (JSON) or every registry value (CSV)",
    )
    export.add_argument(
        "--json",
        dest="format",
        action="store_const",
        const="json",
        help="the same as --format json",
    )
    export.add_argument("-o", "--output", metavar="FILE", help="write to FILE, not stdout")
    completion = commands.add_parser(
        "completion",
        parents=[common],
        help="print a shell completion script (bash, zsh or tcsh)",
        description="Print the completion script for SHELL; the command line's documentation "
        "says where to put it.",
    )
    completion.add_argument(
        "shell", metavar="SHELL", nargs="?", choices=SHELLS, help=" or ".join(SHELLS)
    )
    completion.add_argument(
        "--names",
        action="store_true",
        help="print every name `refgen show` takes, one a line (what the script completes with)",
    )
    completion.add_argument(
        "--no-cache",
        action="store_true",
        help="with --names: list them afresh, without reading or writing .refgen_cache/",
    )
    init = commands.add_parser(
        "init",
        parents=[common],
        help="write docs/ (conf.py, index page) and [tool.refgen] for a package that exists",
        description="Set up refgen's documentation for the package in DIR: docs/conf.py, "
        "docs/index.rst, docs/.gitignore and the [tool.refgen] table of pyproject.toml. "
        "Without --module, proposes the modules and the registry it finds in the package. "
        "Never overwrites a file.",
    )
    init.add_argument(
        "dir", metavar="DIR", nargs="?", default=".", help="the project's folder (default .)"
    )
    init.add_argument(
        "-y", "--yes", action="store_true", help="accept the proposed modules and registry"
    )
    return main_parser


SHELLS = ("bash", "zsh", "tcsh")


def output_format(*choices: str) -> argparse.ArgumentParser:
    """The ``--format`` option, its first choice the default."""
    options = argparse.ArgumentParser(add_help=False)
    options.add_argument(
        "--format",
        choices=choices,
        default=choices[0],
        help=f"output format (default {choices[0]})",
    )
    return options


def whole_number(text: str) -> int:
    """An option's value that must be 0 or more."""
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}")
    return int(text)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; returns the exit status (the console script exits with it)."""
    if sys.stdout.encoding and sys.stdout.encoding.lower().replace("-", "") != "utf8":
        sys.stdout.reconfigure(errors="replace")  # type: ignore[union-attr]
    args = parser().parse_args(argv)
    from refgen.cli.common import EXIT_NOT_FOUND, CliError, emit_json, error_record  # after parsing

    command = importlib.import_module(f"refgen.cli.{args.command}")
    # The user's code is guarded by the Project, which gives reasons, never exceptions;
    # what is left to catch here is the command's own.
    try:
        return _run(command, args)
    except CliError as error:
        if getattr(args, "format", None) == "json":
            emit_json(error_record(error))
        print(printable(str(error)), file=sys.stderr)
        return error.status
    except BrokenPipeError:  # `refgen export --json | head`: the reader left
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_NOT_FOUND
    except Exception as error:  # a file it cannot write, or a bug of refgen's
        return _unexpected(error, args)


def _unexpected(error: Exception, args: argparse.Namespace) -> int:
    """A failure no command expected, in one line (with its traceback under --debug)."""
    from refgen.analysis.failures import describe_error
    from refgen.cli.common import EXIT_USAGE, CliError, emit_json, error_record

    if getattr(args, "debug", False):
        import traceback

        traceback.print_exception(error, file=sys.stderr)
    hint = "" if getattr(args, "debug", False) else " (--debug shows the traceback)"
    message = f"refgen: {describe_error(error)}"
    if getattr(args, "format", None) == "json":
        emit_json(error_record(CliError(message)))
    print(printable(message + hint), file=sys.stderr)
    return EXIT_USAGE


def _run(command: Any, args: argparse.Namespace) -> int:
    status: int = command.run(args)
    sys.stdout.flush()
    return int(status or 0)


if __name__ == "__main__":
    sys.exit(main())

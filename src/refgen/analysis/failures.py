"""Failures: describing code that cannot be imported, at the statement at fault.

A traceback from importing user code is reduced to one
:class:`~refgen.analysis.model.Problem`: located at the deepest statement that
ran at import time (a registry entry, a module-level import) rather than deep
inside a validation function, and naming the object that statement defines.
Used by the Project when it imports the configured modules and the registry,
so every front end reports the same problem.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

from refgen.analysis.guard import call_user_code
from refgen.analysis.model import Problem, SourceLocation, WarningKind
from refgen.analysis.source import ModuleSource, SourceTooDeep, source_too_deep

Reader = Callable[[str], ModuleSource]
"""Reads a source file, through the Project's cache."""


def _inside_function(read: Reader, path: str, line: int) -> bool:
    """Whether ``line`` of ``path`` lies in the body of a function."""
    try:
        tree = read(path).tree
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
        return True
    return any(
        isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
        and node.lineno < line <= (node.end_lineno or node.lineno)
        for node in ast.walk(tree)
    )


def _statement_name(read: Reader, path: str, line: int) -> str | None:
    """The name assigned by the statement of ``path`` that spans ``line``."""
    try:
        tree = read(path).tree
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.lineno <= line <= (
            node.end_lineno or node.lineno
        ):
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            if isinstance(target, ast.Name):
                return target.id
    return None


def import_problem(
    read: Reader,
    module_name: str,
    error: BaseException,
    what: str = "scenario module",
    scope: str = "",
) -> Problem:
    """Describe a failed import at the failing statement of the module itself.

    When the error was raised deeper (a validation in another file), the
    message says where, and names the object the failing statement defines.
    """
    frames = [
        f
        for f in traceback.extract_tb(error.__traceback__)
        if not f.filename.startswith("<frozen importlib")
        and not _in_importlib(f.filename)
        and not _in_refgen(f.filename)
    ]
    if not frames and isinstance(error, RecursionError | MemoryError):
        # Python gave up compiling the module: nested too deeply, and no line named.
        origin = _module_origin(module_name)
        if origin:
            error = source_too_deep(origin, 1, error, "to compile")
    elif (
        isinstance(error, SyntaxError)
        and error.filename
        and error.msg.startswith("too many nested")
    ):
        error = source_too_deep(error.filename, error.lineno or 1, error, "to compile")
    if isinstance(error, SourceTooDeep):
        return Problem(
            WarningKind.IMPORT,
            f"cannot import {what} {module_name!r}: {error.msg}",
            SourceLocation(error.filename or "", error.lineno or 1),
            module_name,
        )
    if isinstance(error, SyntaxError):
        # A file Python cannot even compile (a NUL byte) names no file: it is the module's.
        filename = error.filename or _module_origin(module_name)
        if filename:
            return Problem(
                WarningKind.IMPORT,
                f"cannot import {what} {module_name!r}: {describe_error(error)}",
                SourceLocation(filename, error.lineno or _nul_line(filename)),
                module_name,
            )
    # The deepest statement run at import time (module or class body, not inside a
    # function): the registry entry or import that failed, not the validation code
    # deep below it.
    import_time = [f for f in frames if not _inside_function(read, f.filename, f.lineno or 0)]
    candidates = import_time or frames
    frame = candidates[-1] if candidates else None
    # Raised in no code of the user's (a package that does not exist, a lookup a
    # builtin refused): no location here, the caller's is the setting that names it.
    location = SourceLocation(frame.filename, frame.lineno or 1) if frame else None
    subject = module_name
    detail = describe_error(error)
    if frame is not None:
        name = _statement_name(read, frame.filename, frame.lineno or 1)
        if name:
            subject = f"{scope or module_name}.{name}"
        if frames and frames[-1] is not frame:
            detail += f" (raised at {frames[-1].filename}:{frames[-1].lineno})"
    message = f"cannot import {what} {module_name!r}: {detail}"
    return Problem(WarningKind.IMPORT, message, location, subject)


def _in_importlib(filename: str) -> bool:
    return Path(filename).parent == Path(importlib.__file__).parent


_REFGEN = Path(__file__).resolve().parents[1]
"""refgen's own package: no line of it is where the user's code failed."""


def _in_refgen(filename: str) -> bool:
    return Path(filename).resolve().is_relative_to(_REFGEN)


def _nul_line(filename: str) -> int:
    """The line of the first NUL byte in ``filename`` (1 when there is none)."""
    try:
        data = Path(filename).read_bytes()
    except OSError:
        return 1
    found = data.find(b"\0")
    return data[:found].count(b"\n") + 1 if found >= 0 else 1


def _module_origin(module_name: str) -> str | None:
    spec, _error = call_user_code(importlib.util.find_spec, module_name)
    return getattr(spec, "origin", None) if spec is not None else None


T = TypeVar("T")


def guarded(function: Callable[..., T], *args: Any, timeout: float | None = None) -> T | str:
    """``function(*args)`` run as user code, or why the user's code it ran failed
    (``Type: message``)."""
    found, error = call_user_code(function, *args, timeout=timeout)
    return describe_error(error) if error is not None else cast(T, found)


MESSAGE_SECONDS = 5.0
"""How long an exception's own message may take to make."""


def describe_error(error: BaseException) -> str:
    """``Type: message``; an exception whose own message raises anything, never
    returns or is not text is described by its type."""
    message = plain_text(error, "(its message cannot be shown: str() failed)")
    return f"{type(error).__name__}: {message}" if message else type(error).__name__


def plain_text(value: object, fallback: str) -> str:
    """``str(value)`` as a plain ``str``, made under the guard and a time limit;
    ``fallback`` when that raises, hangs or gives something else than text."""
    made, error = call_user_code(str, value, timeout=MESSAGE_SECONDS)
    if error is not None or not isinstance(made, str):
        return fallback
    return str.__str__(made)  # a str subclass's own __str__ is the user's code


def imported_from(dotted: str) -> str:
    """Where the deepest imported package on the way to ``dotted`` came from, for a
    name missing in it: the usual cause is a folder of that name in the current
    directory hiding the package the user meant."""
    parts = dotted.split(".")
    prefixes = (".".join(parts[:end]) for end in range(1, len(parts)))
    found = [prefix for prefix in prefixes if prefix in sys.modules]
    if not found:
        return ""
    package = found[-1]
    module = sys.modules[package]
    if getattr(module, "__file__", None):
        return f"; {package!r} was imported from {module.__file__}"
    folders = ", ".join(str(folder) for folder in getattr(module, "__path__", ()))
    return f"; {package!r} was imported from {folders}, a folder without __init__.py"

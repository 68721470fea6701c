"""Source reading: the parsed text of a module and the declarations in a class body.

Everything here works on the file as written (via :mod:`ast`), so annotations
and defaults are shown the way the author typed them, and every item keeps
its line number.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import importlib.util
from collections.abc import Callable
from dataclasses import dataclass

from refgen.collector import collector_paused


@dataclass(frozen=True)
class ModuleSource:
    """A module's file, its text and its syntax tree."""

    path: str
    text: str
    tree: ast.Module

    @functools.cached_property
    def _encoded_lines(self) -> list[bytes]:
        # bytes.splitlines breaks only at \n, \r and \r\n, as ast counts lines;
        # str.splitlines would also break at form feeds and U+2028.
        return self.text.encode().splitlines(keepends=True)

    def segment(self, node: ast.AST) -> str:
        """The source text of ``node`` exactly as written.

        Same result as :func:`ast.get_source_segment`, without splitting the
        whole file again for every node (column offsets count UTF-8 bytes).
        """
        end_line, end_col = getattr(node, "end_lineno", None), getattr(node, "end_col_offset", None)
        if end_line is None or end_col is None:
            return ""
        lines = self._encoded_lines
        first, last = node.lineno - 1, end_line - 1  # type: ignore[attr-defined]
        start = node.col_offset  # type: ignore[attr-defined]
        if first == last:
            return str(lines[first][start:end_col].decode())
        parts = [lines[first][start:], *lines[first + 1 : last], lines[last][:end_col]]
        return b"".join(parts).decode()

    @functools.cached_property
    def _top_level(self) -> dict[tuple[type[ast.stmt], str], ast.stmt]:
        """The first top-level class and function of each name: looked up once per class
        and helper, in modules of hundreds of classes."""
        found: dict[tuple[type[ast.stmt], str], ast.stmt] = {}
        for node in self.tree.body:
            if isinstance(node, ast.ClassDef | ast.FunctionDef):
                found.setdefault((type(node), node.name), node)
        return found

    @functools.cached_property
    def _statements_by_line(self) -> dict[int, ast.stmt]:
        found: dict[int, ast.stmt] = {}
        for node in ast.walk(self.tree):
            if isinstance(node, ast.stmt):
                found.setdefault(node.lineno, node)
        return found

    def definition_tags(self) -> dict[str, tuple[str, int, int]]:
        """Where each class and function is written, as Sphinx's viewcode tags name them:
        ``qualname -> ("class" | "def", first line, last line)``.

        What :meth:`sphinx.pycode.ModuleAnalyzer.find_tags` finds, read from the
        syntax tree rather than by Sphinx's own tokenizer: the first line is the
        first decorator's; a function written directly in a function's body is
        left out; of two definitions of one name, the later one counts.
        """
        found: dict[str, tuple[str, int, int]] = {}
        self._add_definitions(self.tree.body, (), False, found)
        return found

    def _add_definitions(
        self,
        body: list[ast.stmt],
        context: tuple[str, ...],
        in_function: bool,
        found: dict[str, tuple[str, int, int]],
    ) -> None:
        for node in body:
            if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                kind = "class" if isinstance(node, ast.ClassDef) else "def"
                first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                last = node.lineno if self._is_one_liner(node) else node.end_lineno or node.lineno
                name = (*context, node.name)
                if not (in_function and kind == "def"):
                    found[".".join(name)] = (kind, first, last)
                self._add_definitions(node.body, name, kind == "def", found)
                continue
            for field in ("body", "handlers", "orelse", "finalbody", "cases"):
                for child in getattr(node, field, None) or []:
                    nested = (
                        child.body
                        if isinstance(child, ast.ExceptHandler | ast.match_case)
                        else [child]
                    )
                    self._add_definitions(nested, context, False, found)

    def _is_one_liner(self, node: ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
        """Whether the body starts on the line of the header's colon."""
        first = node.body[0]
        before = self._encoded_lines[first.lineno - 1][: first.col_offset]
        return before.decode(errors="replace").rstrip().endswith(":")

    def find_class(self, qualname: str) -> ast.ClassDef | None:
        """The class definition for a (possibly nested) qualified name.

        Classes defined inside functions (``f.<locals>.C``) are found by name when
        exactly one class of that name exists in the module.
        """
        if "<locals>" in qualname:
            name = qualname.rpartition(".")[2]
            matches = [
                n for n in ast.walk(self.tree) if isinstance(n, ast.ClassDef) and n.name == name
            ]
            return matches[0] if len(matches) == 1 else None
        outer, *inner = qualname.split(".")
        found = self._top_level.get((ast.ClassDef, outer))
        for part in inner:
            if not isinstance(found, ast.ClassDef):
                return None
            found = next(
                (n for n in found.body if isinstance(n, ast.ClassDef) and n.name == part), None
            )
        return found if isinstance(found, ast.ClassDef) else None

    def find_function(self, name: str) -> ast.FunctionDef | None:
        """The top-level function definition called ``name``."""
        found = self._top_level.get((ast.FunctionDef, name))
        return found if isinstance(found, ast.FunctionDef) else None

    def statement_at(self, line: int) -> ast.stmt | None:
        """The first statement (in ``ast.walk`` order) that starts at ``line``."""
        return self._statements_by_line.get(line)


@dataclass(frozen=True)
class FieldSource:
    """An annotated assignment in a class body: one declared input."""

    name: str
    annotation: str
    default: str | None
    docstring: str | None
    line: int
    default_node: ast.expr | None = None
    docstring_line: int | None = None
    """Where ``docstring``'s string literal begins."""


@dataclass(frozen=True)
class PropertySource:
    """A method decorated as a property (or cached property)."""

    name: str
    node: ast.FunctionDef
    docstring: str | None
    line: int
    docstring_line: int | None = None
    """Where ``docstring``'s string literal begins."""


PROPERTY_DECORATORS = frozenset({"property", "cached_property"})


def parse_module(path: str) -> ModuleSource:
    """Read and parse ``path`` (the Project's cache keeps the result until the file changes).

    The file is decoded as Python decodes it: a UTF-8 byte-order mark or a
    PEP 263 ``coding`` line is honoured, and CRLF line endings become ``\\n``.
    """
    with open(path, "rb") as handle:
        text = importlib.util.decode_source(handle.read())
    return ModuleSource(path, text, parse_source(text, path))


class SourceTooDeep(SyntaxError):
    """Source nested past what Python can hold: too many nested brackets, or a
    ``RecursionError`` or ``MemoryError`` while it is parsed or compiled. A
    :class:`SyntaxError` at the file (the line Python names, else line 1), so whatever
    skips a file it cannot parse skips this one too."""


def source_too_deep(
    path: str, line: int, why: BaseException, doing: str = "to parse"
) -> SourceTooDeep:
    """The file ``path`` is nested too deeply for Python ``doing`` (``"to parse"``,
    ``"to compile"``), as ``why`` says."""
    if isinstance(why, SyntaxError):
        said = why.msg
    else:
        said = f"{type(why).__name__}: {why}" if str(why) else type(why).__name__
    return SourceTooDeep(f"nested too deeply for Python {doing} ({said})", (path, line, None, None))


def parse_source(text: str, path: str) -> ast.Module:
    """``text``, the source of the file ``path``, as a syntax tree: the one place refgen
    parses a user's source file, so that one nested too deeply for Python's parser is a
    :class:`SourceTooDeep` at that file, never an error raised inside refgen."""
    try:
        with collector_paused():
            return ast.parse(text, filename=path)
    except (RecursionError, MemoryError) as error:
        raise source_too_deep(path, 1, error) from None
    except SyntaxError as error:
        if not error.msg.startswith("too many nested"):  # parentheses, blocks
            raise
        raise source_too_deep(path, error.lineno or 1, error) from None


def is_class_variable(annotation: object) -> bool:
    """Whether an annotation (as text or object) declares a ``ClassVar``."""
    text = annotation if isinstance(annotation, str) else repr(annotation)
    return text.startswith(("ClassVar", "typing.ClassVar"))


def dotted_name(node: ast.expr) -> str | None:
    """``a.b.c`` for a chain of attributes on a plain name, else None."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        owner = dotted_name(node.value)
        return f"{owner}.{node.attr}" if owner else None
    return None


def docstring_node(body: list[ast.stmt]) -> ast.Constant | None:
    """The string literal that opens ``body``, if any."""
    if body and isinstance(body[0], ast.Expr):
        value = body[0].value
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            return value
    return None


def _attribute_docstring(body: list[ast.stmt], index: int) -> ast.Constant | None:
    """The string literal right after statement ``index`` (Sphinx's ``#:`` rival)."""
    return docstring_node(body[index + 1 :]) if index + 1 < len(body) else None


def _text(node: ast.Constant | None) -> str | None:
    return str(node.value) if node is not None else None


def _line(node: ast.Constant | None) -> int | None:
    return node.lineno if node is not None else None


def class_fields(module: ModuleSource, classdef: ast.ClassDef) -> list[FieldSource]:
    """Annotated names in the class body, in order, skipping ``ClassVar``."""
    fields = []
    for index, node in enumerate(classdef.body):
        if not (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)):
            continue
        annotation = module.segment(node.annotation)
        if is_class_variable(annotation):
            continue
        docstring = _attribute_docstring(classdef.body, index)
        fields.append(
            FieldSource(
                name=node.target.id,
                annotation=annotation,
                default=module.segment(node.value) if node.value is not None else None,
                docstring=_text(docstring),
                line=node.lineno,
                default_node=node.value,
                docstring_line=_line(docstring),
            )
        )
    return fields


def last_name(node: ast.expr) -> str:
    """``c`` for ``c`` or ``a.b.c``; ``""`` for anything else."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def class_properties(classdef: ast.ClassDef) -> list[PropertySource]:
    """Methods decorated with ``property`` or ``cached_property``, and properties made of a
    lambda (``hours = property(lambda self: ..., doc=...)``), in order."""
    found = []
    for node in classdef.body:
        made_of_lambda = lambda_property(node)
        if made_of_lambda is not None:
            found.append(made_of_lambda)
            continue
        if not isinstance(node, ast.FunctionDef):
            continue
        if not any(last_name(d) in PROPERTY_DECORATORS for d in node.decorator_list):
            continue
        doc = docstring_node(node.body)
        found.append(PropertySource(node.name, node, _text(doc), node.lineno, _line(doc)))
    return found


def lambda_property(node: ast.stmt) -> PropertySource | None:
    """``name = property(lambda self: expression, ..., doc)`` as the method it stands for,
    ``def name(self): return expression``, at the lambda's own place in the file."""
    if not (
        isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and isinstance(node.value, ast.Call)
        and last_name(node.value.func) == "property"
        and node.value.args
        and isinstance(node.value.args[0], ast.Lambda)
    ):
        return None
    getter = node.value.args[0]
    returned = ast.copy_location(ast.Return(value=getter.body), getter.body)
    method = ast.FunctionDef(
        name=node.targets[0].id,
        args=getter.args,
        body=[returned],
        decorator_list=[],
        returns=None,
    )
    ast.copy_location(method, node)
    method.end_lineno, method.end_col_offset = node.end_lineno, node.end_col_offset
    doc = _lambda_doc(node.value)
    return PropertySource(method.name, method, _text(doc), node.lineno, _line(doc))


def _lambda_doc(call: ast.Call) -> ast.Constant | None:
    """The ``doc`` of ``property(fget, fset, fdel, doc)``, as a keyword or the fourth argument."""
    written = [k.value for k in call.keywords if k.arg == "doc"] + call.args[3:4]
    if written and isinstance(written[0], ast.Constant) and isinstance(written[0].value, str):
        return written[0]
    return None


@dataclass(frozen=True)
class AssignmentSource:
    """A plain ``name = value`` in a class body, e.g. one registry entry."""

    name: str
    keywords: tuple[tuple[str, str], ...]
    """Keyword arguments as written, when the value is a call."""
    docstring: str | None
    line: int
    node: ast.Assign | None = dataclasses.field(default=None, compare=False, repr=False)
    """The statement, for what needs more than its text (the imports it uses)."""
    docstring_line: int | None = None
    """Where ``docstring``'s string literal begins."""


def class_assignments(module: ModuleSource, classdef: ast.ClassDef) -> dict[str, AssignmentSource]:
    """The plain assignments of a class body, by name."""
    found = {}
    for index, node in enumerate(classdef.body):
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
            continue
        target = node.targets[0]
        if not isinstance(target, ast.Name):
            continue
        keywords: tuple[tuple[str, str], ...] = ()
        if isinstance(node.value, ast.Call):
            keywords = tuple(
                (kw.arg, module.segment(kw.value)) for kw in node.value.keywords if kw.arg
            )
        docstring = _attribute_docstring(classdef.body, index)
        found[target.id] = AssignmentSource(
            target.id, keywords, _text(docstring), node.lineno, node, _line(docstring)
        )
    return found


def imported_modules(module: ModuleSource, package: str | None) -> list[str]:
    """Absolute names of the modules a module imports at its top level.

    ``from pkg import name`` yields ``pkg.name`` too, in case ``name`` is a
    submodule; the caller keeps the names that are modules.
    """
    names: list[str] = []
    for node in module.tree.body:
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level and package:
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{parent}.{base}" if base else parent
            names.append(base)
            names += [f"{base}.{alias.name}" for alias in node.names]
    return names


def parse_problem(path: str, read: Callable[[str], ModuleSource]) -> SourceTooDeep | None:
    """Why Python cannot parse ``path`` (``read`` parses it, and analysis shares that
    parse): nested too deeply; None when it can, and when it cannot be read or parsed for
    another reason (its classes are documented without their source)."""
    try:
        read(path)
    except SourceTooDeep as error:
        return error
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
        return None
    return None

"""Shortcuts in reading source agree with what they replace, on real code.

Looking up imports inside bodies and definitions by name happens for every
class and property of a library of hundreds of classes, so both avoid
walking whole trees; the lines of each definition that viewcode's pages
mark are read from the syntax tree rather than by Sphinx's tokenizer. These
tests hold each to the straightforward version (or to Sphinx's) over every
module of refgen, of our scenario library and of the tests.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from sphinx.pycode import ModuleAnalyzer

from refgen.analysis.reach_index import import_statements
from refgen.analysis.source import ModuleSource
from tests.conftest import REPO

SOURCES = sorted(
    path
    for path in [*(REPO / "src").rglob("*.py"), *(REPO / "tests").rglob("*.py")]
    if "hostile" not in path.parts  # broken on purpose
)


def parsed(path: Path) -> ModuleSource:
    text = path.read_text(encoding="utf-8")
    return ModuleSource(str(path), text, ast.parse(text))


NESTED = '''
def f(x):
    import a
    if x:
        from b import c
    else:
        import d.e as e
    try:
        import g
    except ImportError:
        from . import h
    finally:
        import i
    for _ in x:
        with open(x) as y:
            import j
    match x:
        case 1:
            import k
    class Inner:
        import m
        def method(self):
            import n
    return lambda: [z for z in x]
'''


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.relative_to(REPO).as_posix())
def test_imports_in_bodies_are_those_a_full_walk_finds(path: Path) -> None:
    tree = parsed(path).tree
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            walked = [n for n in ast.walk(node) if isinstance(n, ast.Import | ast.ImportFrom)]
            assert list(import_statements(node)) == walked


def test_imports_in_every_kind_of_block_are_found() -> None:
    function = ast.parse(NESTED).body[0]
    names = [
        alias.asname or alias.name
        for statement in import_statements(function)
        for alias in statement.names
    ]
    assert sorted(names) == ["a", "c", "e", "g", "h", "i", "j", "k", "m", "n"]


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.relative_to(REPO).as_posix())
def test_definitions_and_statements_by_name_and_line_match_a_scan(path: Path) -> None:
    source = parsed(path)
    body = source.tree.body
    for node in body:
        if isinstance(node, ast.ClassDef):
            first = next(n for n in body if isinstance(n, ast.ClassDef) and n.name == node.name)
            assert source.find_class(node.name) is first
        if isinstance(node, ast.FunctionDef):
            first = next(n for n in body if isinstance(n, ast.FunctionDef) and n.name == node.name)
            assert source.find_function(node.name) is first
    statements = [n for n in ast.walk(source.tree) if isinstance(n, ast.stmt)]
    for line in sorted({n.lineno for n in statements})[:60]:
        first = next(n for n in statements if n.lineno == line)
        assert source.statement_at(line) is first


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.relative_to(REPO).as_posix())
def test_definition_lines_are_those_sphinx_finds(path: Path) -> None:
    source = parsed(path)
    analyzer = ModuleAnalyzer.for_string(source.text, path.stem)
    analyzer.find_tags()
    assert source.definition_tags() == analyzer.tags


def test_definition_lines_in_every_kind_of_block() -> None:
    text = (
        NESTED
        + """

@decorator(
    "spanning lines",
)
def decorated():  # a comment
    pass
    # a trailing comment, not part of it


def one_liner(): return 1
class Short: pass


if True:
    def chosen(): ...
else:
    def chosen():
        return 2
"""
    )
    analyzer = ModuleAnalyzer.for_string(text, "nested")
    analyzer.find_tags()
    tags = ModuleSource("nested.py", text, ast.parse(text)).definition_tags()
    assert tags == analyzer.tags
    assert {"f", "f.Inner", "f.Inner.method", "decorated", "one_liner", "Short", "chosen"} <= set(
        tags
    )


def test_definition_lines_are_read_once_per_version_of_a_file() -> None:
    """viewcode asks for them once for every object a page documents."""
    from refgen.config import Settings
    from refgen.project import Project

    project = Project(Settings(modules=("refgen_scenarios.training",)))
    first = project.module_text_and_tags("refgen_scenarios.training")
    assert first is not None and "UpdateWorkingSetScenario" in first[1]
    assert project.module_text_and_tags("refgen_scenarios.training") is first
    assert project.module_text_and_tags("json") is None  # not the project's

"""What a module's functions may set, found in one walk of its syntax.

:func:`refgen.analysis.reach_module.index_module` reads, for every function, the
names it declares ``global`` and what it changes (``effects``), nested
functions' included. It does so in one walk of the module; the oracle here
walks each function on its own, as the definitions say, over generated nests
of functions and over real modules.
"""

from __future__ import annotations

import ast
import inspect
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from refgen.analysis.reach_index import Patch, local_of, parse_text
from refgen.analysis.reach_module import effects, index_module

STATEMENTS = [
    "global G",
    "global G, H",
    "G = 1",
    "X.a = 1",
    "X.b.c += 1",
    'T["k"] = 1',
    'setattr(Y, "b", 2)',
    "delattr(Y, name)",
    "obj.method(Z, key=W.v)",
    "del W.c",
    "for Q in []: pass",
    "with open(p) as (F, E.x): pass",
    "lambda: setattr(L, 'q', 1)",
    "[V.x for V.y in []]",
    "return helper(X)",
]


@st.composite
def nests(draw: st.DrawFn, depth: int = 0) -> str:
    """Source of functions (async, decorated, inside classes) holding statements and
    functions of their own."""
    lines: list[str] = []
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["statement", "def", "async", "class"]))
        if kind == "statement" or depth >= 3:
            lines.append(draw(st.sampled_from(STATEMENTS)))
            continue
        body = textwrap.indent(draw(nests(depth + 1)), "    ")
        if kind == "class":
            lines.append(f"class C{depth}:\n{body}")
        else:
            decorator = draw(st.sampled_from(["", "@register(R)\n", "@R.set(S.t)\n"]))
            asynchronous = "async " if kind == "async" else ""
            lines.append(f"{decorator}{asynchronous}def f{depth}(a=D.d):\n{body}")
    return "\n".join(lines) + "\n"


def each_function_walked_alone(tree: ast.Module) -> tuple[set[Patch], dict[str, set[object]]]:
    """The oracle: what each function sets, from a walk of that function."""
    patches: set[Patch] = set()
    set_by: dict[str, set[object]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            local = local_of(node)
            for inner in ast.walk(node):
                if isinstance(inner, ast.Global):
                    for name in inner.names:
                        set_by.setdefault(name, set()).add(local)
            for owner, attribute, rebinds in effects(node):
                if not rebinds:
                    patches.add(Patch(local, owner, attribute))
    return patches, set_by


def assert_one_walk_finds_what_each_walk_finds(path: str, text: str) -> None:
    source = parse_text(path, text.encode())
    index = index_module(path, "digest", source)
    patches, set_by = each_function_walked_alone(source.tree)
    top_level = {
        Patch(local_of(statement), owner, attribute)
        for statement in source.tree.body
        if not isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        for owner, attribute, rebinds in effects(statement)
        if not rebinds
    }
    assert set(index.patches) - top_level == patches - top_level
    assert {name: set(found) for name, found in index.set_by_functions.items()} == set_by
    assert all(len(set(found)) == len(found) for found in index.set_by_functions.values())


@given(nests())
def test_every_function_sets_what_its_own_walk_finds(text: str) -> None:
    assert_one_walk_finds_what_each_walk_finds("generated.py", text)


REAL = [
    Path(module.__file__)
    for module in (ast, textwrap, pytest, sys.modules["refgen.analysis.reach_module"])
    if module.__file__
]


@pytest.mark.parametrize("path", REAL, ids=lambda path: path.name)
def test_real_modules_give_what_walking_each_function_gives(path: Path) -> None:
    assert_one_walk_finds_what_each_walk_finds(str(path), path.read_text(encoding="utf-8"))


def test_an_expression_deeper_than_the_recursion_limit_is_walked() -> None:
    """``x + x + ... + x`` of 2,000 terms nests 2,000 deep; Python compiles it. The walk
    needs no frame per level (found by a review: a recursive walk raised RecursionError,
    and the fingerprints lost the file)."""
    text = "def f(x):\n    G.a = " + " + ".join(["x"] * 2000) + "\n"
    source = parse_text("deep.py", text.encode())
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack()) + 200)
    try:
        index = index_module("deep.py", "digest", source)
    finally:
        sys.setrecursionlimit(limit)
    assert [patch.attribute for patch in index.patches] == ["a"]

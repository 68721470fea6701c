"""Highlighted module source lexed a definition at a time gives what lexing it whole gives."""

from __future__ import annotations

import importlib
import os
import time
from pathlib import Path

import pytest
import sphinx.highlighting
from hypothesis import given
from hypothesis import strategies as st
from pygments.lexers import PythonLexer
from sphinx.highlighting import PygmentsBridge

from refgen.sphinx.highlighting import (
    _FOLLOWING,
    CACHE_FILE,
    ChunkedHighlighter,
    split_at_definitions,
)
from refgen.testing import ScenarioProject, write_scenario_project
from tests.html_helpers import read_html

STANDARD_MODULES = ("argparse", "ast", "dataclasses", "enum", "functools", "inspect", "typing")


def whole_and_in_pieces(source: str) -> tuple[str, str]:
    bridge = PygmentsBridge("html")
    in_pieces = ChunkedHighlighter(bridge, {source}, {})
    return bridge.highlight_block(source, "python"), in_pieces.highlight_block(source, "python")


@pytest.mark.parametrize("name", STANDARD_MODULES)
def test_a_standard_module_highlights_the_same_in_pieces(name: str) -> None:
    module = importlib.import_module(name)
    source = Path(str(module.__file__)).read_text(encoding="utf-8")
    pieces = split_at_definitions(source)
    assert pieces is not None and len(pieces) > 10
    assert "".join(pieces) == source
    whole, in_pieces = whole_and_in_pieces(source)
    assert in_pieces == whole


FRAGMENTS = (
    '"""A module docstring.\n\nclass NotADefinition:\n    pass\n"""\n',
    "import math\n",
    "\n\n",
    "# class Commented:\n",
    "\x0c\n",
    "class Plain:\n    x = 1\n",
    "@decorated\nclass Decorated:\n    pass\n",
    "@first\n@second(\n    'argument',\n)\ndef twice():\n    return 1\n",
    "async def waits():\n    await thing\n",
    'TEXT = """\nclass InsideAString:\n    pass\ndef neither():\n"""\n',
    "if True:\n    def conditional():\n        pass\n",
    "def one_line(): return 1\n",
    "x = 1; y = 2\n",
    "value = (\n    1\n    + 2\n)\n",
    "r'''raw\nclass Raw:\n'''\n",
    "f'{1}'\n",
    "class Body:\n    '''Doc.\n\ndef at_column_zero_in_a_docstring():\n    '''\n",
    "def trailing():\n    pass\n# a comment at the end\n",
    "class (:\n",  # not Python: Pygments lexes it all the same
    "x = (1\n@ 2)\n",
    # Pygments ends a docstring at an escaped triple quote and opens a string after it.
    '"""Doc with \\""" inside."""\n',
    "'''It\\''' s'''\n",
    '"""A \\""" B."""\n\n\ndef f():\n    """Cost in $."""\n',
)


@given(st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=12))
def test_any_module_highlights_the_same_in_pieces(fragments: list[str]) -> None:
    source = "".join(fragments)
    pieces = split_at_definitions(source)
    if pieces is None:  # does not parse: left whole
        return
    assert "".join(pieces) == source
    whole, in_pieces = whole_and_in_pieces(source)
    assert in_pieces == whole


@pytest.mark.parametrize(
    "source",
    ["class A:\r\n    pass\r\n", "\ufeffclass A:\n    pass\n", "class A:\n    pass"],
)
def test_text_pygments_would_change_is_left_whole(source: str) -> None:
    assert split_at_definitions(source) is None
    whole, in_pieces = whole_and_in_pieces(source)
    assert in_pieces == whole


def test_a_second_build_lexes_only_the_pieces_that_changed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    source = "class A:\n    x = 1\n\n\nclass B:\n    y = 2\n\n\ndef c():\n    return 3\n"
    bridge = PygmentsBridge("html")
    first = ChunkedHighlighter(bridge, {source}, {})
    first.highlight_block(source, "python")
    edited = source.replace("y = 2", "y = 20")
    lexed: list[str] = []
    original = PythonLexer.get_tokens

    def counting(self: PythonLexer, text: str, *args: object) -> object:
        lexed.append(text)
        return original(self, text, *args)

    monkeypatch.setattr(PythonLexer, "get_tokens", counting)
    second = ChunkedHighlighter(bridge, {edited}, first.used)
    highlighted = second.highlight_block(edited, "python")
    # What follows a piece to check where it ends, then the changed piece with it; nothing else.
    assert lexed == [_FOLLOWING, "class B:\n    y = 20\n\n\n" + _FOLLOWING]
    monkeypatch.undo()
    assert highlighted == bridge.highlight_block(edited, "python")


def test_a_piece_ends_only_where_the_lexer_is_back_at_its_start() -> None:
    escaped = '"""Doc with \\""" inside."""\n\ndef f():\n    return 1\n'
    assert split_at_definitions(escaped) == [
        '"""Doc with \\""" inside."""\n\n',
        "def f():\n    return 1\n",
    ]
    whole, in_pieces = whole_and_in_pieces(escaped)
    assert '<span class="s2">def f():' in whole  # Pygments takes it for a string
    assert in_pieces == whole


def test_a_string_of_many_definition_lines_is_not_tried_line_by_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    source = (
        'TEMPLATE = """\n' + "def f():\n    pass\n" * 2000 + '"""\n\n\nclass After:\n    pass\n'
    )
    bridge = PygmentsBridge("html")
    lexed: list[int] = []
    original = PythonLexer.get_tokens

    def counting(self: PythonLexer, text: str, *args: object) -> object:
        lexed.append(len(text))
        return original(self, text, *args)

    monkeypatch.setattr(PythonLexer, "get_tokens", counting)
    in_pieces = ChunkedHighlighter(bridge, {source}, {}).highlight_block(source, "python")
    assert sum(lexed) < 12 * len(source)  # tried a few times, then lexed whole: not 2,000 times
    monkeypatch.undo()
    assert in_pieces == bridge.highlight_block(source, "python")


def test_decorated_definitions_start_pieces() -> None:
    source = "import x\n\n@dataclass\nclass A:\n    pass\n\n@dataclass(frozen=True)\nclass B:\n"
    assert split_at_definitions(source + "    pass\n") == [
        "import x\n\n",
        "@dataclass\nclass A:\n    pass\n\n",
        "@dataclass(frozen=True)\nclass B:\n    pass\n",
    ]


def test_other_blocks_go_through_sphinx_unchanged() -> None:
    bridge = PygmentsBridge("html")
    highlighter = ChunkedHighlighter(bridge, {"class A:\n    pass\n"}, {})
    other = "class Other:\n    pass\n"
    assert highlighter.highlight_block(other, "python") == bridge.highlight_block(other, "python")
    assert not highlighter.used


class ProjectPythonLexer(PythonLexer):
    """A Python lexer a project gives Sphinx (``app.add_lexer("python", ...)``)."""


def test_a_python_lexer_of_the_projects_own_lexes_the_whole_source(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Where app.add_lexer puts it.
    monkeypatch.setitem(sphinx.highlighting.lexer_classes, "python", ProjectPythonLexer)
    source = "class A:\n    pass\n\n\nclass B:\n    pass\n"
    bridge = PygmentsBridge("html")
    highlighter = ChunkedHighlighter(bridge, {source}, {})
    assert highlighter.highlight_block(source, "python") == bridge.highlight_block(source, "python")
    assert not highlighter.used


MODELS = '''
    """Sizes"""

    from dataclasses import dataclass


    @dataclass(frozen=True, kw_only=True)
    class Box:
        """A box."""

        edge: float
        """Metres."""

        @property
        def volume(self) -> float:
            """Cubic metres."""
            return self.edge**3


    @dataclass(frozen=True, kw_only=True)
    class Sheet:
        """A sheet."""

        side: float
        """Metres."""

        @property
        def area(self) -> float:
            """Square metres."""
            return self.side**2
'''


def test_an_edited_module_is_highlighted_from_kept_pieces(tmp_path: Path) -> None:
    project: ScenarioProject = write_scenario_project(tmp_path, "sizes", {"models": MODELS})
    first = project.build("html", "-W")
    assert first.returncode == 0, first.stderr
    cache = first.outdir / ".doctrees" / CACHE_FILE
    assert cache.is_file()
    models = project.module_path("models")
    models.write_text(models.read_text().replace("self.side**2", "self.side * self.side"))
    later = time.time() + 2  # viewcode writes a module's page again when the file is newer
    os.utime(models, (later, later))
    again = project.build("html", "-W")
    assert again.returncode == 0, again.stderr
    highlighted = read_html(again.outdir / "_modules" / "sizes" / "models.html").get_text()
    assert "self.side * self.side" in highlighted
    assert "self.edge**3" in highlighted

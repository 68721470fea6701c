"""Hostile input, round two: wrong or missing locations (issue 36, point 14).

Each case of ``tests/hostile/`` named in :data:`CASES` is built in process, and
each problem is one warning at the user's file and line, never at a line inside
refgen or at a generated page: a label Sphinx keeps for its own pages, a module
nested too deeply for Python, broken markup a few lines into a description shown
in a table cell, and a registry setting naming what cannot be imported.
"""

from __future__ import annotations

import contextlib
import py_compile
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.html_helpers import read_html
from tests.sphinx.test_hostile import corpus_project, marked_line
from tests.sphinx.test_hostile_round_two_hidden import marked_lines, refgen_warnings

CASES = {"docstring_labels", "module_too_deep", "description_lines", "registry_not_found"}
"""The corpus cases this module tests (``tests/sphinx/test_hostile.py`` checks every case
is tested)."""


def line_holding(path: Path, text: str) -> int:
    """The number of the first line of ``path`` that holds ``text``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(number for number, line in enumerate(lines, 1) if text in line)


# ---------------------------------------------------------------------- reserved labels


def test_labels_sphinx_keeps_for_its_own_pages_are_left_out_at_their_lines(
    tmp_path: Path,
) -> None:
    """``.. _genindex:`` in a class docstring, an inline ``_`modindex``` in an input's
    description and ``.. _search:`` in a registry entry's: Sphinx said nothing, or a
    duplicate label at the wrong line, and let the docstring take the name."""
    project = corpus_project(tmp_path, "docstring_labels")
    index = project.docs / "index.rst"
    links = "\nSee :ref:`genindex`, :ref:`search` and :ref:`the notes <gauge-notes>`.\n"
    index.write_text(index.read_text(encoding="utf-8") + links, encoding="utf-8")
    result = project.build("html", "-W", "--keep-going")
    assert result.returncode == 1, result.stderr  # warnings under -W, not a crash
    models, registry = project.module_path("models"), project.module_path("registry")
    expected = [
        (models, ".. _genindex:", "docstring_labels.models.Gauge", "genindex", "general index"),
        (models, "_`modindex`", "docstring_labels.models.Gauge.size", "modindex", "module index"),
        (registry, ".. _search:", "docstring_labels.registry.Registry.Small", "search", "search"),
    ]
    assert len(result.warnings) == len(expected), result.warnings  # no duplicate label
    for (path, written, subject, label, page), warning in zip(
        expected, sorted(result.warnings), strict=True
    ):
        assert warning.startswith(f"{path}:{line_holding(path, written)}: WARNING: "), warning
        assert f"docstring of {subject} sets the label {label!r}" in warning
        assert f"which Sphinx keeps for its {page}" in warning
        assert warning.endswith("; left out [refgen.docstring]")
    for page in ("reference/docstring_labels.models/Gauge.html", "reference/registry.html"):
        html = read_html(result.outdir / page)
        assert not html.find(id=["genindex", "modindex", "search"]), page
    gauge = read_html(result.outdir / "reference" / "docstring_labels.models" / "Gauge.html")
    shown = gauge.get_text()
    assert "A paragraph under the label of the general index." in shown  # the rest is built
    assert gauge.find(id="gauge-notes") is not None  # the author's own label stays
    registry_text = read_html(result.outdir / "reference" / "registry.html").get_text()
    assert "Found under the label of the search page." in registry_text
    hrefs = [a.get("href", "") for a in read_html(result.outdir / "index.html").find_all("a")]
    assert "genindex.html" in hrefs and "search.html" in hrefs
    assert "reference/docstring_labels.models/Gauge.html#gauge-notes" in hrefs


# ---------------------------------------------------------------------- too deep to compile

DEEP = "DEEP = " + " + ".join(["1"] * 4_000) + "\n"
"""A sum of 4,000 terms: a syntax tree 4,000 levels deep, past what Python compiles or
parses with its default recursion limit (about 3,000 levels at the top of the stack)."""


@contextlib.contextmanager
def recursion_limit(limit: int) -> Iterator[None]:
    """Python's recursion limit at ``limit`` (importing jedi, as the notebook tests do
    through IPython, leaves it at 3,000 for the process)."""
    saved = sys.getrecursionlimit()
    sys.setrecursionlimit(limit)
    try:
        yield
    finally:
        sys.setrecursionlimit(saved)


@pytest.mark.parametrize("compiled_ahead", [False, True], ids=["python", "refgen"])
def test_a_module_nested_too_deeply_for_python_is_reported_at_its_file(
    tmp_path: Path, compiled_ahead: bool
) -> None:
    """Python gives up compiling the module (a RecursionError, reported inside refgen,
    at the line of discovery.py that imports); or, its bytecode compiled ahead with
    more room, Python imports it and refgen's own parse gives up (the build crashed).
    A rebuild with nothing changed reports it again, from what the last build kept."""
    project = corpus_project(tmp_path, "module_too_deep")
    models = project.module_path("models")
    models.write_text(models.read_text(encoding="utf-8") + DEEP, encoding="utf-8")
    if compiled_ahead:
        with recursion_limit(10_000):
            py_compile.compile(str(models), doraise=True)
    with recursion_limit(1_000):  # Python's default
        result = project.build("html", "-W", "--keep-going")
        # A build with nothing changed, which parses no file it read before, says it again.
        again = project.build("html", "-W", "--keep-going")
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    [warning] = refgen_warnings(result.warnings)
    path, line = marked_line(project, "module_too_deep")
    assert warning.startswith(f"{path}:{line}: WARNING: "), warning
    doing = "parse" if compiled_ahead else "compile"
    assert (
        f"cannot import scenario module 'module_too_deep.models': nested too deeply for "
        f"Python to {doing} (RecursionError: maximum recursion depth exceeded"
    ) in warning
    assert warning.endswith("[refgen.import]")
    assert (result.outdir / "reference" / "index.html").exists()  # the rest is built
    assert refgen_warnings(again.warnings) == [warning], again.stderr


# ---------------------------------------------------------------------- description lines


def test_markup_in_a_description_cell_is_reported_at_its_own_line(tmp_path: Path) -> None:
    """An input's docstring after an empty first line, a property's and a lambda
    property's docstrings, a pydantic ``Field(description=...)`` and a registry entry's
    docstring, each broken a few lines in: reported at the generated page (one line
    early, counted from the attribute), now at the line of the broken markup."""
    project = corpus_project(tmp_path, "description_lines")
    result = project.build("html", "-W", "--keep-going")
    assert result.returncode == 1, result.stderr
    marked = marked_lines(project, "description_lines")
    assert len(result.warnings) == len(marked), result.warnings
    for (path, line), warning in zip(marked, sorted(result.warnings), strict=True):
        assert warning.startswith(f"{path}:{line}: WARNING: Inline "), warning
    page = read_html(result.outdir / "reference" / "description_lines.models" / "Gauge.html")
    assert "The size, after an empty first line." in page.get_text()


# ---------------------------------------------------------------------- registry setting


@pytest.mark.parametrize(
    ("setting", "said"),
    [
        (None, "cannot import registry module 'registry_not_found.registry': KeyError"),
        ("registry_nto_found.registry.Registry", "which cannot be found (ModuleNotFoundError"),
    ],
    ids=["lookup-in-c", "no-such-package"],
)
def test_a_registry_that_fails_in_no_code_of_the_users_is_reported_at_the_setting(
    tmp_path: Path, setting: str | None, said: str
) -> None:
    """A module whose ``__getattr__`` is a dict's ``__getitem__`` (its KeyError raised in
    C, where Python's import expects an AttributeError), and a registry path whose first
    name is no package: both were reported inside refgen (``discovery.py``)."""
    project = corpus_project(tmp_path, "registry_not_found")
    conf = project.docs / "conf.py"
    if setting is not None:
        text = conf.read_text(encoding="utf-8").splitlines()
        text = [
            f"refgen_registry = {setting!r}" if t.startswith("refgen_registry") else t for t in text
        ]
        conf.write_text("\n".join(text) + "\n", encoding="utf-8")
    result = project.build("html", "-W", "--keep-going")
    assert result.returncode == 1, result.stderr
    [warning] = refgen_warnings(result.warnings)
    line = line_holding(conf, "refgen_registry")
    assert warning.startswith(f"{conf}:{line}: WARNING: "), warning
    assert said in warning and warning.endswith("[refgen.import]"), warning
    assert "refgen/analysis" not in warning
    assert (result.outdir / "reference" / "registry_not_found.models" / "Gauge.html").exists()

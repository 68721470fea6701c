"""Hostile input, round two: names, links and prose that would be markup, values that
change from run to run, docstrings nested past Python's limits, and locations that
pointed at the wrong line (cases in tests/hostile/).

Each test goes through a real build, the command line or the exported files.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from refgen.testing import ScenarioProject, write_scenario_project
from tests.html_helpers import read_html
from tests.sphinx.test_hostile import corpus_project, marked_line

HOSTILE_NAME = 'q" onmouseover="alert(4)" x="'


def run_module(project: ScenarioProject, *argv: str) -> subprocess.CompletedProcess[str]:
    """``python -m *argv`` in the project's folder, importing its package."""
    return subprocess.run(
        [sys.executable, "-m", *argv],
        capture_output=True,
        text=True,
        cwd=project.root,
        env=project.environment(),
        check=False,
    )


def published_files(outdir: Path) -> list[Path]:
    """What a build publishes, but the highlighted source (where the code shows as text)."""
    skipped = {"_modules", ".doctrees"}
    return [p for p in outdir.rglob("*") if p.is_file() and not skipped & set(p.parts)]


# ---------------------------------------------------------------------- 1. registry names


@pytest.mark.parametrize("theme", ["alabaster", "furo"])
def test_a_registry_name_that_is_not_an_identifier_is_refused_at_its_line(
    tmp_path: Path, theme: str
) -> None:
    project = corpus_project(tmp_path, "registry_names")
    conf = project.docs / "conf.py"
    conf.write_text(conf.read_text() + f"html_theme = {theme!r}\n")
    result = project.build("html", "--keep-going")
    assert result.returncode == 0, result.stderr
    path, line = marked_line(project, "registry_names")
    [warning] = [w for w in result.warnings if "[refgen." in w]
    assert warning.startswith(f"{path}:{line}: WARNING: ")
    assert "is not named by a Python identifier; left out [refgen.registry]" in warning
    leaked = [p for p in published_files(result.outdir) if b"onmouseover" in p.read_bytes()]
    assert leaked == []
    for page in ("genindex.html", "reference/registry.html"):
        html = read_html(result.outdir / page)
        assert not [tag for tag in html.find_all(True) if tag.has_attr("onmouseover")]
    registry = read_html(result.outdir / "reference" / "registry.html")
    assert registry.find(id="registry_names.registry.Registry.Fine") is not None


def test_a_mapping_key_that_is_not_an_identifier_is_refused_in_the_export_too(
    tmp_path: Path,
) -> None:
    project = write_scenario_project(
        tmp_path,
        "keys",
        {
            "models": '''
                """Gauges"""

                from dataclasses import dataclass


                @dataclass(frozen=True)
                class Gauge:
                    """A gauge."""

                    size: float = 1.0
                    """The size."""
            ''',
            "registry": f'''
                """Named gauges."""

                from keys.models import Gauge

                Registry = {{
                    "Fine": Gauge(),
                    {HOSTILE_NAME!r}: Gauge(size=2.0),
                }}
            ''',
        },
        registry="registry.Registry",
        documented=["models"],
    )
    options = ["--module", "keys.models", "--registry", "keys.registry.Registry"]
    exported = run_module(project, "refgen", *options, "export", "--json")
    assert exported.returncode == 0, exported.stderr
    assert "onmouseover" not in exported.stdout
    assert "Fine" in json.dumps(json.loads(exported.stdout))
    checked = run_module(project, "refgen", *options, "check")
    [finding] = [line for line in checked.stdout.splitlines() if "[registry]" in line]
    assert finding.startswith("src/keys/registry.py:7: [registry]")  # the key's line


# ---------------------------------------------------------------------- 2. script links


def script_hrefs(outdir: Path) -> list[str]:
    pages = [p for p in outdir.rglob("*.html") if "_modules" not in p.parts]
    hrefs = [a.get("href", "") for page in pages for a in read_html(page).find_all("a")]
    return ["".join(h.split()).lower() for h in hrefs if "script:" in h.lower() or "data:" in h]


def test_targets_resolved_after_parsing_never_link_a_script(tmp_path: Path) -> None:
    """Indirect targets, anonymous targets (paired within each docstring), image
    ``:target:``, substitutions, and named targets after an anonymous mismatch."""
    project = corpus_project(tmp_path, "docstring_targets")
    result = project.build("html", "--keep-going")
    assert result.returncode == 0, result.stderr
    assert script_hrefs(result.outdir) == []
    path, line = marked_line(project, "docstring_targets")
    [warning] = result.warnings  # in the docstring, not at the generated page
    # A table cell's description is mapped from its docstring's first line, not from the
    # attribute's own line (one above): the warning is at the unmatched link's line.
    assert warning.startswith(f"{path}:{line}: WARNING: docstring has an anonymous link")
    assert warning.endswith("[refgen.docstring]")
    page = read_html(result.outdir / "reference" / "docstring_targets.models" / "Gauge.html")
    hrefs = [a.get("href") for a in page.find_all("a")]
    assert "https://example.org" in hrefs
    images = {img["src"]: img.parent.name for img in page.find_all("img")}
    assert images["https://example.org/gauge.png"] != "a"  # the image stays, unlinked
    text = page.get_text()
    assert "the paper" in text and "the notes" in text and "named" in text


# ---------------------------------------------------------------------- 3. Markdown prose


def test_the_markdown_files_carry_docstring_prose_as_text(tmp_path: Path) -> None:
    """A summary, a paragraph, a Notes entry, input and attribute descriptions, the
    registry's and an entry's docstrings: HTML and links in them stay text."""
    project = corpus_project(tmp_path, "docstring_markdown")
    result = project.build("html", "-W", "--keep-going")
    assert result.returncode == 0, result.stderr
    written = {p.name: p.read_text(encoding="utf-8") for p in result.outdir.rglob("*.md")}
    shown = "\n".join(written.values())
    assert "\\[a link\\](javascript:alert(3))" in shown
    for number in (0, 1, 2, 4, 5, 6, 7, 8):
        assert f"\\<img src=x onerror=alert({number})\\>" in shown, number
    for name, text in written.items():
        assert not re.search(r"(?<!\\)<img", text), name
        assert not re.search(r"(?<!\\)\]\(javascript:", text), name


# ---------------------------------------------------------------------- 10. memory addresses


def test_values_holding_memory_addresses_are_the_same_in_every_build(tmp_path: Path) -> None:
    project = corpus_project(tmp_path, "value_addresses")
    first = project.build("html", "-W", "--keep-going", outdir=tmp_path / "first")
    assert first.returncode == 0, first.stderr
    second = project.build("html", "-W", "--keep-going", outdir=tmp_path / "second")
    page = Path("reference", "value_addresses.models", "Gauge.html")
    shown = (first.outdir / page).read_text(encoding="utf-8")
    assert shown == (second.outdir / page).read_text(encoding="utf-8")
    assert (first.outdir / "reference" / "registry.json").read_bytes() == (
        second.outdir / "reference" / "registry.json"
    ).read_bytes()
    values = read_html(first.outdir / page).find("table", class_="refgen-values").get_text()
    assert "<value_addresses.models.Chip object>" in values
    assert "<generator object Gauge.readings.<locals>.<genexpr>>" in values
    assert not re.search(r"0x[0-9a-f]{6,}", shown)
    # The two entries are the same gauge: no row differs.
    assert "The entries have the same values in every row." in read_html(first.outdir / page).text


# ---------------------------------------------------------------------- 11. deep nesting


def test_a_docstring_nested_past_the_parsers_limits_is_shown_as_text(tmp_path: Path) -> None:
    """A 200-level block quote (docutils recurses past Python's limit) and 150 nested
    bullets (parsed, then too deep to pickle): each one warning, the pages built."""
    project = corpus_project(tmp_path, "docstring_depth")
    result = project.build("html", "--keep-going")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    path, line = marked_line(project, "docstring_depth")
    warnings = [w for w in result.warnings if "[refgen." in w]
    assert all("nested too deeply to read" in w for w in warnings), warnings
    assert any(w.startswith(f"{path}:{line}: WARNING: ") for w in warnings), warnings
    assert not [w for w in result.warnings if "[refgen." not in w]
    folder = result.outdir / "reference" / "docstring_depth.models"
    assert "level 199" in read_html(folder / "Quoted.html").get_text()
    listed = read_html(folder / "Listed.html")
    assert "item 149" in listed.get_text()
    assert listed.find(id="docstring_depth.models.Listed.doubled") is not None


# ---------------------------------------------------------------------- the corpus index


def test_the_corpus_readme_documents_every_case_in_one_line() -> None:
    corpus = Path(__file__).parents[1] / "hostile"
    cases = sorted(p.name for p in corpus.iterdir() if p.is_dir() and p.name != "__pycache__")
    listed = re.findall(r"^- `(\w+)`: .+$", (corpus / "README.md").read_text(), re.MULTILINE)
    assert listed == cases


# ---------------------------------------------------------------------- 17. lambda properties


def test_a_property_made_of_a_lambda_shows_its_equation(tmp_path: Path) -> None:
    """``step_time = property(lambda self: self.size * 2, doc=...)`` has an equation, read
    from the lambda's body as from a method's single return; its docstring is ``doc``."""
    project = corpus_project(tmp_path, "dynamic_shapes")
    built = project.build("html", "--keep-going")
    page = read_html(built.outdir / "reference" / "dynamic_shapes.models" / "Shapes.html")
    row = page.find(id="dynamic_shapes.models.Shapes.step_time").find_parent("tr")
    shown = " ".join(row.get_text(" ").split())
    assert "no source code to read" not in shown
    assert "Twice the size, from a lambda." in shown
    equation = row.find(class_="refgen-equation")
    assert equation is not None and " ".join(equation.get_text(" ").split()) == "self.size * 2"
    assert row.find("math") is not None, "typeset as the equations of methods are"

"""Class pages through Sphinx: fragment links, descriptions with blocks, other builders."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from bs4 import Tag

from refgen.testing import ScenarioProject, write_scenario_project
from tests.html_helpers import read_html, row_cells, text

BASES = '''
    """Bases

    Not documented: the base class lives outside the reference.
    """

    from dataclasses import dataclass


    @dataclass(frozen=True, kw_only=True)
    class Base:
        """Holds a size."""

        size: float
        """A size, in any unit."""
'''

CALC = '''
    """Calculations

    A scenario with an inherited input and a description that is a list.
    """

    from dataclasses import dataclass

    from pkgx.bases import Base


    @dataclass(frozen=True, kw_only=True)
    class Doubling(Base):
        """Doubles a size."""

        factor: float = 2.0
        """What the size is multiplied by."""

        @property
        def doubled(self) -> float:
            """- the size times the factor"""
            return self.size * self.factor
'''


def project(tmp_path: Path, conf_extra: str = "") -> ScenarioProject:
    return write_scenario_project(
        tmp_path, "pkgx", {"bases": BASES, "calc": CALC}, documented=["calc"], conf_extra=conf_extra
    )


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> ScenarioProject:
    built = project(tmp_path_factory.mktemp("fragments"))
    result = built.build("html", "-W")
    assert result.returncode == 0, result.stderr
    return built


def page(built: ScenarioProject) -> Path:
    return built.root / "_build" / "html" / "reference" / "pkgx.calc" / "Doubling.html"


def row(built: ScenarioProject, name: str) -> dict[str, Tag]:
    return row_cells(read_html(page(built)), f"pkgx.calc.Doubling.{name}")


def test_description_with_a_list_is_parsed_as_rest(built: ScenarioProject) -> None:
    description = row(built, "doubled")["Description"]
    items = [text(li) for li in description.find("ul").find_all("li")]
    assert items == ["the size times the factor"]


def test_link_to_an_undocumented_base_keeps_its_label(built: ScenarioProject) -> None:
    inherited = row(built, "size")["Description"]
    assert text(inherited).endswith("Inherited from Base ( size ).")
    assert inherited.find("a") is None
    assert "refgen-xref" not in page(built).read_text()


def test_unresolved_link_is_a_warning_under_nitpicky(tmp_path: Path) -> None:
    result = project(tmp_path, "nitpicky = True\n").build("html", "--keep-going")
    messages = [w for w in result.warnings if "reference target not found" in w]
    assert any("py:class reference target not found: pkgx.bases.Base" in w for w in messages)
    assert all("calc.py" in w.split(": WARNING")[0] for w in messages), messages


def test_text_builder_gets_the_fields_as_text(built: ScenarioProject) -> None:
    result = built.build("text", "-W")
    assert result.returncode == 0, result.stderr
    page_text = (result.outdir / "reference" / "pkgx.calc" / "Doubling.txt").read_text()
    folded = " ".join(page_text.split())
    assert '| "factor" | "float" | "2.0" |' in folded
    assert '| "self.size * self.factor" |' in folded
    assert "<dl" not in page_text


def test_text_builder_lays_out_a_table_with_readable_columns(built: ScenarioProject) -> None:
    """The Attributes table (a refgen-table here: one description is a list) keeps cells whole."""
    result = built.build("text", "-W")
    lines = (result.outdir / "reference" / "pkgx.calc" / "Doubling.txt").read_text().splitlines()
    rows = [line for line in lines if line.startswith("|") and "factor" in line]
    assert any("What the size is multiplied by." in row for row in rows), "\n".join(lines)


def test_an_epub_carries_the_math_font_and_its_licence(
    built: ScenarioProject, tmp_path: Path
) -> None:
    """Sphinx's EPUB builder leaves out files of a media type it does not know, with a
    warning each: refgen's font (.woff2), its licence and its notes go into the book."""
    result = built.build(
        "epub", "-W", "-d", str(tmp_path / "doctrees"), "-D", "version=1", "-D", "copyright=2026"
    )
    assert result.returncode == 0, result.stderr
    (book,) = result.outdir.glob("*.epub")
    packed = zipfile.ZipFile(book).namelist()
    for name in ("STIXTwoMath-Regular.woff2", "OFL-STIXTwoMath.txt", "README.md"):
        assert f"_static/fonts/{name}" in packed

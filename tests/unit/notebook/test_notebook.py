"""``%load_ext refgen``: scenario instances shown in IPython as their reference page.

Everything goes through IPython's own display formatter (what a notebook and the
terminal show), then, when nbclient and ipykernel are installed, through a real
kernel executing a notebook.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup, Tag

from refgen.config import load_settings
from refgen.project import Project
from refgen.site.plan import plan_pages
from refgen.testing import fresh_imports

IPython = pytest.importorskip("IPython")
from IPython.core.interactiveshell import InteractiveShell  # noqa: E402

REPO = Path(__file__).resolve().parents[3]
ENTRY = "PhoneFullUpdateWorkingSet"
SCRIPT = "<script>alert(1)</script>"

TANKS = '''
    """Tanks, a throwaway module no settings name."""

    from dataclasses import dataclass

    import pint

    ureg = pint.UnitRegistry()


    @dataclass(frozen=True)
    class Tank:
        """A water tank.

        Its volume is its floor area times its depth.
        """

        width: float = 2.0
        """Width of the floor, in m."""
        depth: float = 3.0
        """Depth of the water, in m."""
        label: str = "tank"
        """What the tank is called."""

        @property
        def volume(self) -> pint.Quantity:
            """Water held, in m³."""
            return self.width * self.width * self.depth * ureg.m**3

        @property
        def fills(self) -> int:
            """Buckets of 10 litres that fill it."""
            return round(self.volume.to("L").magnitude) // 10

        @property
        def drain_rate(self) -> pint.Quantity:
            """Water let out per second, in L/s."""
            raise ValueError("the tank has no drain")
'''


def write_settings(folder: Path, site_url: str | None = None) -> Path:
    """A pyproject.toml documenting refgen_scenarios' training module and its registry."""
    lines = [
        "[tool.refgen]",
        'modules = ["refgen_scenarios.training"]',
        'registry = "refgen_scenarios.Scenarios"',
    ]
    if site_url is not None:
        lines.append(f"site_url = {json.dumps(site_url)}")
    (folder / "pyproject.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


@pytest.fixture
def ipython() -> Iterator[InteractiveShell]:
    shell = InteractiveShell.instance()
    yield shell
    shell.extension_manager.unload_extension("refgen")


def load_refgen(shell: InteractiveShell, folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``%load_ext refgen`` in a kernel started in ``folder``."""
    monkeypatch.chdir(folder)
    assert shell.extension_manager.load_extension("refgen") is None  # None: loaded


@pytest.fixture
def shell(
    ipython: InteractiveShell, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> InteractiveShell:
    load_refgen(ipython, write_settings(tmp_path), monkeypatch)
    return ipython


@pytest.fixture
def tanks(tmp_path: Path) -> Iterator[Any]:
    """The throwaway module ``tanks``, importable from a folder of its own."""
    folder = tmp_path / "lib"
    folder.mkdir()
    (folder / "tanks.py").write_text(textwrap.dedent(TANKS), encoding="utf-8")
    with fresh_imports(folder):
        import tanks

        yield tanks


def shown(shell: InteractiveShell, obj: object) -> dict[str, Any]:
    data, _metadata = shell.display_formatter.format(obj)
    return data


def html_of(data: dict[str, Any]) -> BeautifulSoup:
    return BeautifulSoup(data["text/html"], "html.parser")


def value_cells(soup: BeautifulSoup, name: str) -> tuple[Tag, Tag]:
    """The number and unit cells of the row of attribute ``name``."""
    heading = next(th for th in soup.select("tbody th") if th.get_text() == name)
    row = heading.parent
    assert isinstance(row, Tag)
    number = row.select_one("td.refgen-number")
    unit = row.select_one("td.refgen-unit-cell")
    assert number is not None and unit is not None
    return number, unit


def shown_value(soup: BeautifulSoup, name: str) -> str:
    number, unit = value_cells(soup, name)
    return " ".join(part for part in (number.get_text(), unit.get_text()) if part)


# ---------------------------------------------------------------------- a registry entry


def test_a_registry_entry_shows_the_values_refgen_show_prints(shell: InteractiveShell) -> None:
    from refgen_scenarios import Scenarios

    data = shown(shell, getattr(Scenarios, ENTRY))
    assert {"text/html", "text/markdown", "text/plain"} <= set(data)
    printed = subprocess.run(
        [sys.executable, "-m", "refgen", "show", ENTRY, "--format", "json", "--no-cache"],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
        check=True,
    )
    expected = json.loads(printed.stdout)["entry"]["values"]
    soup = html_of(data)
    assert soup.select_one("h3") is not None
    assert soup.select_one("h3").get_text() == ENTRY  # type: ignore[union-attr]
    subtitle = soup.select_one("p.refgen-subtitle").get_text()  # type: ignore[union-attr]
    assert subtitle == (
        f"Registry entry refgen_scenarios.Scenarios.{ENTRY}, an instance of "
        "refgen_scenarios.training.UpdateWorkingSetScenario"
    )
    assert [shown_value(soup, value["name"]) for value in expected] == [
        value["text"] for value in expected
    ]
    plain = data["text/plain"]
    for value in expected:
        number, _, unit = value["text"].partition(" ")
        row = next(line for line in plain.splitlines() if line.startswith(value["name"] + " "))
        assert re.search(rf"\s{re.escape(number)}\s+{re.escape(unit)}", row), (row, value)
    markdown = data["text/markdown"]
    assert f"# {ENTRY}" in markdown
    assert "| `weights` | 40 | MB |" in markdown


def test_an_entry_s_equations_are_mathml_with_the_code_folded(shell: InteractiveShell) -> None:
    from refgen_scenarios import Scenarios

    data = shown(shell, getattr(Scenarios, ENTRY))
    soup = html_of(data)
    derived = soup.select_one("table.refgen-notebook-derived")
    assert derived is not None
    row = next(th for th in derived.select("tbody th") if th.get_text() == "weights").parent
    assert isinstance(row, Tag)
    math = row.select_one(".refgen-math math")
    assert math is not None and "parameters" in math.get_text()
    code = row.select_one("details.refgen-code code")
    assert code is not None
    assert code.get_text() == "(self.parameters * self.bytes_per_param).to('MB')"
    # Markdown and text have no MathML: the code stands in for it.
    assert "<math" not in data["text/markdown"] and "<math" not in data["text/plain"]
    assert "`(self.parameters * self.bytes_per_param).to('MB')`" in data["text/markdown"]


def test_an_instance_built_by_hand_shows_its_own_values(shell: InteractiveShell) -> None:
    from refgen_scenarios import Scenarios
    from refgen_scenarios.training import UpdateWorkingSetScenario

    entry = getattr(Scenarios, ENTRY)
    larger = dataclasses.replace(entry, parameters=2 * entry.parameters)
    assert type(larger) is UpdateWorkingSetScenario and larger is not entry
    soup = html_of(shown(shell, larger))
    assert soup.select_one("h3").get_text() == "UpdateWorkingSetScenario"  # type: ignore[union-attr]
    assert soup.select_one("p.refgen-subtitle").get_text() == (  # type: ignore[union-attr]
        "An instance of refgen_scenarios.training.UpdateWorkingSetScenario"
    )
    assert shown_value(soup, "weights") == "80 MB"
    assert shown_value(html_of(shown(shell, entry)), "weights") == "40 MB"


def test_the_link_goes_to_the_class_s_page_on_the_site(
    ipython: InteractiveShell, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from refgen_scenarios import Scenarios

    load_refgen(ipython, write_settings(tmp_path, "https://example.org/docs/"), monkeypatch)
    data = shown(ipython, getattr(Scenarios, ENTRY))
    link = html_of(data).select_one("p.refgen-reference-link a")
    assert link is not None and link.get_text() == "Reference page"
    href = str(link["href"])
    page, _, anchor = href.removeprefix("https://example.org/docs/").partition(".html#")
    planned = plan_pages(Project(load_settings(tmp_path))).pages
    assert (page, "scenario", anchor) in [(p.docname, p.kind, p.argument) for p in planned]
    assert anchor == "refgen_scenarios.training.UpdateWorkingSetScenario"
    assert f"[Reference page](<{href}>)" in data["text/markdown"]
    assert data["text/plain"].rstrip().endswith(f"Reference page: {href}")


def test_without_a_site_url_there_is_no_link(shell: InteractiveShell) -> None:
    from refgen_scenarios import Scenarios

    data = shown(shell, getattr(Scenarios, ENTRY))
    assert html_of(data).select_one("a") is None
    assert "Reference page" not in data["text/markdown"] + data["text/plain"]


# ---------------------------------------------------------------------- a throwaway class


def test_a_throwaway_class_shows_its_inputs_and_figures(
    shell: InteractiveShell, tanks: Any
) -> None:
    data = shown(shell, tanks.Tank(width=2.5, depth=1.5))
    soup = html_of(data)
    assert soup.select_one("h3").get_text() == "Tank"  # type: ignore[union-attr]
    assert soup.select_one("p.refgen-subtitle").get_text() == "An instance of tanks.Tank"  # type: ignore[union-attr]
    assert shown_value(soup, "width") == "2.5"
    assert shown_value(soup, "volume") == "9.375 m³"
    assert shown_value(soup, "fills") == "937"
    descriptions = [
        td.get_text() for td in soup.select("table.refgen-notebook-inputs td:last-child")
    ]
    assert descriptions == [
        "Width of the floor, in m.",
        "Depth of the water, in m.",
        "What the tank is called.",
    ]
    assert "A water tank." in soup.get_text()
    plain = data["text/plain"]
    assert plain.startswith("Tank\n====\n")
    assert re.search(r"^volume\s+9\.375\s+m³", plain, re.M)


def test_a_property_that_raises_shows_its_reason(shell: InteractiveShell, tanks: Any) -> None:
    data = shown(shell, tanks.Tank())
    reason = "not available (ValueError: the tank has no drain)"
    number, unit = value_cells(html_of(data), "drain_rate")
    assert number.get_text() == reason and unit.get_text() == ""
    assert (
        "| `drain_rate` | not available (ValueError: the tank has no drain) |"
        in data["text/markdown"]
    )
    # Text wraps the reason in its column: read the column down the row's lines.
    lines = data["text/plain"].splitlines()
    at = next(number for number, line in enumerate(lines) if line.startswith("drain_rate "))
    first, *more = lines[at : at + 4]
    left, right = first.index("not available"), first.index("The method")
    column = " ".join(line[left:right].strip() for line in [first, *more])
    assert column.strip() == reason


def test_figures_line_up_on_the_decimal_point(shell: InteractiveShell, tanks: Any) -> None:
    data = shown(shell, tanks.Tank(width=1.0, depth=1.5))
    soup = html_of(data)
    derived = soup.select_one("table.refgen-notebook-derived")
    assert derived is not None
    parts = [
        (figure.select_one(".refgen-whole"), figure.select_one(".refgen-fraction"))
        for figure in derived.select("span.refgen-figure")
    ]
    assert [(w.get_text(), f.get_text()) for w, f in parts if w and f] == [
        ("1", ".5"),
        ("150", ""),
    ]
    # Each part is as wide as the column's widest: the decimal points line up.
    assert {tuple(w["class"]) for w, _ in parts if w} == {("refgen-whole", "refgen-w3")}
    assert {tuple(f["class"]) for _, f in parts if f} == {("refgen-fraction", "refgen-w2")}
    style = soup.select_one("style")
    assert style is not None
    assert ".refgen-w3 { min-width: 3ch; }" in style.get_text()
    # The same in text: the decimal point of 1.5 stands right after 150.
    lines = data["text/plain"].splitlines()
    volume = next(line for line in lines if line.startswith("volume "))
    fills = next(line for line in lines if line.startswith("fills "))
    assert volume.index("1.5") + 1 == fills.index("150") + 3, (volume, fills)


def test_a_value_is_text_in_every_form(shell: InteractiveShell, tanks: Any) -> None:
    data = shown(shell, tanks.Tank(label=SCRIPT))
    assert "<script>" not in data["text/html"]
    assert shown_value(html_of(data), "label") == SCRIPT  # read back as the text it is
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in data["text/html"]
    assert "<script>" not in data["text/markdown"]
    assert r"\<script\>alert(1)\</script\>" in data["text/markdown"]
    assert SCRIPT in data["text/plain"]  # plain text is shown as it is: no markup there


# ---------------------------------------------------------------------- everything else


class Pretty:
    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text("pretty!")


class Repr:
    def __repr__(self) -> str:
        return "Repr()"


class Html:
    """Like a data frame: a table of its own in HTML."""

    value: int = 3

    @property
    def doubled(self) -> int:
        return 2 * self.value

    def _repr_html_(self) -> str:
        return "<table><tr><td>3</td></tr></table>"


class Bundle:
    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        return {"text/plain": "bundled", "text/html": "<b>bundled</b>"}


class Liar:
    """Says it is of another class; asking raises."""

    @property  # type: ignore[misc]
    def __class__(self) -> type:
        raise RuntimeError("no class for you")


PLAIN_OBJECT = object()
OTHERS = {
    "dict": lambda: {"a": 1, "b": [1, 2]},
    "list": lambda: [1, "two", 3.0],
    "_repr_pretty_": Pretty,
    "__repr__": Repr,
    "object": lambda: PLAIN_OBJECT,
    "_repr_html_ and properties": Html,
    "_repr_mimebundle_": Bundle,
    "__class__ raises": Liar,
    "installed class with properties": lambda: Fraction(1, 3),
    "installed class with properties, too": lambda: Path("/tmp"),
}


@pytest.mark.parametrize("make", OTHERS.values(), ids=OTHERS.keys())
def test_other_objects_show_as_before(
    ipython: InteractiveShell, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, make: Any
) -> None:
    obj = make()
    before = ipython.display_formatter.format(obj)
    load_refgen(ipython, write_settings(tmp_path), monkeypatch)
    assert ipython.display_formatter.format(obj) == before
    ipython.extension_manager.unload_extension("refgen")
    assert ipython.display_formatter.format(obj) == before


def test_unloading_shows_scenarios_as_before(
    ipython: InteractiveShell, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tanks: Any
) -> None:
    tank = tanks.Tank()
    before = ipython.display_formatter.format(tank)
    assert before[0] == {"text/plain": repr(tank)}
    load_refgen(ipython, write_settings(tmp_path), monkeypatch)
    assert "text/html" in shown(ipython, tank)
    ipython.extension_manager.unload_extension("refgen")
    assert ipython.display_formatter.format(tank) == before


def test_importing_refgen_does_not_import_ipython_or_the_notebook_module() -> None:
    code = (
        "import sys, refgen; "
        "print(sorted(m for m in sys.modules if m.startswith(('IPython', 'refgen.'))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO
    )
    assert done.stdout.strip() == "[]"


def test_the_notebook_module_imports_no_sphinx() -> None:
    code = (
        "import sys, refgen.notebook; "
        "print(sorted({m.partition('.')[0] for m in sys.modules} & {'sphinx', 'docutils'}))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO
    )
    assert done.stdout.strip() == "[]"


# ---------------------------------------------------------------------- a real notebook


def test_a_notebook_executed_by_a_kernel_shows_the_page(tmp_path: Path) -> None:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_code_cell("%load_ext refgen"),
        nbformat.v4.new_code_cell("from refgen_scenarios import Scenarios"),
        nbformat.v4.new_code_cell(f"Scenarios.{ENTRY}"),
    ]
    folder = write_settings(tmp_path, "https://example.org/docs")
    client = nbclient.NotebookClient(
        notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(folder)}}
    )
    client.execute()
    first, second, third = notebook.cells
    assert first.outputs == [] and second.outputs == []
    [result] = third.outputs
    assert result.output_type == "execute_result"
    soup = BeautifulSoup(result.data["text/html"], "html.parser")
    assert soup.select_one("h3").get_text() == ENTRY  # type: ignore[union-attr]
    assert shown_value(soup, "weights") == "40 MB"
    assert soup.select_one("math") is not None
    link = soup.select_one("p.refgen-reference-link a")
    assert link is not None and str(link["href"]).startswith(
        "https://example.org/docs/reference/refgen_scenarios.training/"
    )
    assert "| `weights` | 40 | MB |" in result.data["text/markdown"]
    assert result.data["text/plain"].startswith(f"{ENTRY}\n")

"""The page plan: one page per category and class, written only when it changes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from refgen.testing import ScenarioProject, write_scenario_project
from tests.html_helpers import read_html

MODULE = '''
    """Counting scenarios

    Tiny classes for tests.
    """

    from dataclasses import dataclass


    @dataclass(frozen=True, kw_only=True)
    class Apples:
        """Apples in a basket."""

        count: int
        """How many."""

        @property
        def doubled(self) -> int:
            """Twice as many."""
            return 2 * self.count


    @dataclass(frozen=True, kw_only=True)
    class Pears:
        """Pears in a basket."""

        count: int
        """How many."""
'''


def project(root: Path) -> ScenarioProject:
    return write_scenario_project(root, "fruit", {"counting": MODULE})


def stubs(project: ScenarioProject) -> dict[str, int]:
    folder = project.docs / "reference"
    return {p.relative_to(folder).as_posix(): p.stat().st_mtime_ns for p in folder.rglob("*.rst")}


def test_one_page_per_category_and_class(tmp_path: Path) -> None:
    fruit = project(tmp_path)
    result = fruit.build("html", "-W")
    assert result.returncode == 0, result.stderr
    assert sorted(stubs(fruit)) == [
        "fruit.counting/Apples.rst",
        "fruit.counting/Pears.rst",
        "fruit.counting/index.rst",
        "index.rst",
    ]
    assert "[refgen] 2 scenario classes, 4 pages planned, 4 stubs rewritten" in result.stdout


def test_unchanged_stubs_keep_their_mtime(tmp_path: Path) -> None:
    fruit = project(tmp_path)
    assert fruit.build("html").returncode == 0
    first = stubs(fruit)
    second_build = fruit.build("html")
    assert stubs(fruit) == first
    assert "0 stubs rewritten" in second_build.stdout


def test_stubs_of_removed_classes_are_deleted_but_hand_written_pages_stay(tmp_path: Path) -> None:
    fruit = project(tmp_path)
    assert fruit.build("html").returncode == 0
    own_page = fruit.docs / "reference" / "notes.rst"
    own_page.write_text("Notes\n=====\n\n:orphan:\n")
    source = fruit.module_path("counting")
    text = source.read_text()
    source.write_text(text[: text.index("@dataclass(frozen=True, kw_only=True)\nclass Pears")])
    assert fruit.build("html").returncode == 0
    assert "fruit.counting/Pears.rst" not in stubs(fruit)
    assert own_page.exists()


ODD = '''
    """Odd declarations

    Aliases, cached properties and calls into the standard library.
    """

    import functools
    import statistics
    from dataclasses import dataclass


    @dataclass(frozen=True)
    class Cached:
        """Only a cached property."""

        @functools.cached_property
        def answer(self) -> float:
            """The mean of three numbers."""
            return statistics.fmean([1.0, 2.0, 3.0])


    Alias = Cached
'''


def test_aliases_cached_properties_and_library_calls(tmp_path: Path) -> None:
    project = write_scenario_project(tmp_path, "odd", {"decl": ODD})
    result = project.build("html", "-W")
    assert result.returncode == 0, result.stderr
    assert sorted(stubs(project)) == ["index.rst", "odd.decl/Cached.rst", "odd.decl/index.rst"]


LISTED = '''
    """Listed scenarios"""

    from dataclasses import dataclass


    @dataclass(frozen=True)
    class Basket:
        """A basket whose description is more than sentences.

        It holds:

        - apples,
          counted one by one;
        - pears.

        .. note::
           Fruit is not counted by weight.

        Written as code::

            basket = Basket(3)
        """

        count: int = 3
'''


def test_a_description_keeps_its_lists_directives_and_literal_blocks(tmp_path: Path) -> None:
    project = write_scenario_project(tmp_path, "listed", {"fruit": LISTED})
    result = project.build("html", "-W", "--keep-going")
    assert result.returncode == 0, result.stderr
    page = read_html(result.outdir / "reference" / "listed.fruit" / "Basket.html")
    items = [
        " ".join(item.get_text().split()) for item in page.select("dl.py.class > dd ul.simple li")
    ]
    assert items == ["apples, counted one by one;", "pears."]
    assert page.select_one("div.admonition.note p:not(.admonition-title)").get_text() == (
        "Fruit is not counted by weight."
    )
    assert "basket = Basket(3)" in [pre.get_text().strip() for pre in page.select("pre")]


IMPORTS_INSIDE = '''
    """Scenarios whose helpers are imported inside the property"""

    from dataclasses import dataclass


    @dataclass(frozen=True)
    class Ring:
        """A ring of devices."""

        devices: int = 4

        @property
        def traffic(self) -> float:
            """Bytes each device sends, per byte of payload."""
            from inside.helpers import ring_traffic

            return ring_traffic(self.devices)
'''
INSIDE_HELPERS = '''
    """Helpers"""


    def ring_traffic(devices: int) -> float:
        """Share of the payload each device sends in a ring all-reduce."""
        return 2 * (devices - 1) / devices
'''


def test_a_helper_imported_inside_the_body_keeps_the_equation_and_its_link(
    tmp_path: Path,
) -> None:
    project = write_scenario_project(
        tmp_path,
        "inside",
        {"models": IMPORTS_INSIDE, "helpers": INSIDE_HELPERS},
        documented=["models"],
    )
    result = project.build("html", "-W", "--keep-going")
    assert result.returncode == 0, result.stderr
    page = read_html(result.outdir / "reference" / "inside.models" / "Ring.html")
    equation = page.find(class_="refgen-equation")
    assert equation is not None and equation.get_text() == "ring_traffic(self.devices)"
    # The helper it calls is documented: its module gets a page with the helper on it.
    helpers = read_html(result.outdir / "reference" / "helpers" / "inside.helpers.html")
    assert helpers.find(id="inside.helpers.ring_traffic") is not None


MANY = """
    \"\"\"Named apples.\"\"\"

    from fruit.counting import Apples


    class Named:
        \"\"\"Named scenarios.\"\"\"

""" + "".join(f"        Basket{n} = Apples(count={n})\n" for n in range(1, 6))


def test_a_large_registry_is_split_into_pages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("refgen.site.plan.REGISTRY_PAGE_SIZE", 2)
    project = write_scenario_project(
        tmp_path, "fruit", {"counting": MODULE, "named": MANY}, registry="named.Named"
    )
    result = project.build("html", "-W", "--keep-going")
    assert result.returncode == 0, result.stderr
    reference = result.outdir / "reference"
    listed = {
        page: re.findall(r'id="fruit\.named\.Named\.(\w+)"', (reference / page).read_text())
        for page in ("registry.html", "registry-1.html", "registry-2.html", "registry-3.html")
    }
    assert listed == {
        "registry.html": [],
        "registry-1.html": ["Basket1", "Basket2"],
        "registry-2.html": ["Basket3", "Basket4"],
        "registry-3.html": ["Basket5"],
    }
    main_page = read_html(reference / "registry.html")
    assert "fruit.named.Named" in [tag.get("id") for tag in main_page.find_all(id=True)]
    apples = read_html(reference / "fruit.counting" / "Apples.html")
    hrefs = [a.get("href", "") for a in apples.find_all("a")]
    assert "../registry-3.html#fruit.named.Named.Basket5" in hrefs


MARKED_UP = '''
    """Named apples."""

    from fruit.counting import Apples


    class Named:
        """Named scenarios."""

        Plain = Apples(count=1)
        """A basket without markup."""

        Marked = Apples(count=2)
        """A basket counted ``twice``, *by hand*; see `the method <https://example.org>`_.

        - one list item
        - and another
        """

        Noted = Apples(count=3)
        """.. note:: A description that starts with a directive."""
'''


def test_a_registry_entry_shows_its_qualified_name_before_its_description(
    tmp_path: Path,
) -> None:
    """Whatever markup the description holds, the entry's name heads its entry."""
    project = write_scenario_project(
        tmp_path, "fruit", {"counting": MODULE, "named": MARKED_UP}, registry="named.Named"
    )
    result = project.build("html", "-W", "--keep-going")
    assert result.returncode == 0, result.stderr
    page = read_html(result.outdir / "reference" / "registry.html")
    for name, description in [
        ("Plain", "A basket without markup."),
        ("Marked", "A basket counted twice, by hand; see the method."),
        ("Noted", "A description that starts with a directive."),
    ]:
        signature = page.find(id=f"fruit.named.Named.{name}")
        assert signature is not None and signature.name == "dt", name
        assert f"Named.{name}" in signature.get_text("").replace("\u200b", ""), name
        body = signature.find_next_sibling("dd")
        assert description in " ".join(body.get_text("").split()), name
        before = " ".join(str(s) for s in signature.find_all_previous(string=True))
        assert description.split()[-1] not in before, name
    marked = page.find(id="fruit.named.Named.Marked").find_next_sibling("dd")
    assert [li.get_text(" ", strip=True) for li in marked.find("ul").find_all("li")][:2] == [
        "one list item",
        "and another",
    ]

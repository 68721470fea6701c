"""Every standard numpydoc section on a built class page and helper entry (issue 15).

One small project whose class docstring uses each section, and whose helper
uses the ones a function has, built once with ``nitpicky`` on: each section is
a heading after Notes and before References, See Also names link to what the
site documents, a name of an object documented nowhere is code without a
warning, and a misspelt name is the one unresolved-reference warning. The same
blocks in terminal text (``refgen show --page``) show every section too.
"""

from __future__ import annotations

import itertools

import pytest
from bs4 import BeautifulSoup, Tag

from refgen.render.scenario_page import scenario_page
from refgen.render.text import TextWriter
from refgen.testing import BuildResult, ScenarioProject, analyse_source, write_scenario_project
from tests.html_helpers import heading_text, main, read_html, section, text

TANKS = '''
    """Tank scenarios

    Tanks for tests.
    """

    from dataclasses import dataclass

    from tanks.physics import fill_time


    @dataclass(frozen=True, kw_only=True)
    class Tank:
        """A tank of water.

        Parameters
        ----------
        side : float
            Side in metres.

        Attributes
        ----------
        volume : float
            The tank's volume.

        Methods
        -------
        drained()
            An empty tank.

        Returns
        -------
        float
            A volume.

        Yields
        ------
        litre : float
            One litre at a time.

        Receives
        --------
        tap : bool
            Whether the tap is open.

        Other Parameters
        ----------------
        colour : str
            Paint; not an input.

        Raises
        ------
        ValueError
            If the side is negative.

        Warns
        -----
        UserWarning
            When the tank overflows.

        Warnings
        --------
        Not for *drinking* water.

        See Also
        --------
        volume : Its own figure.
        fill_time : The helper that fills it.
        Pond : Another scenario.
        json.dumps : Documented nowhere on this site.
        no_such_helper : A typo.

        Notes
        -----
        Equation: volume = side ** 3.
        Assumptions: A cube.
        Excludes: Walls.

        A free paragraph after the labels, with *emphasis*.

        References
        ----------
        - tanks.physics.fill_time
        """

        side: float
        """Side in metres."""

        @property
        def volume(self) -> float:
            """Volume in cubic metres."""
            return self.side**3

        @property
        def fill(self) -> float:
            """Seconds to fill."""
            return fill_time(self.volume)


    @dataclass(frozen=True, kw_only=True)
    class Pond:
        """A pond."""

        area: float
        """Square metres."""
'''

PHYSICS = '''
    """Tank physics"""


    def fill_time(volume: float) -> float:
        """Seconds to fill a tank.

        Parameters
        ----------
        volume : float
            Cubic metres.

        Returns
        -------
        float
            Seconds.

        Raises
        ------
        ZeroDivisionError
            Never, in fact.

        Warnings
        --------
        Assumes a steady flow.

        See Also
        --------
        drain_time : The other way.
        """
        return volume / 0.001


    def drain_time(volume: float) -> float:
        """Seconds to drain a tank."""
        return volume / 0.002
'''

CLASS_SECTIONS = [
    "Inputs",
    "Derived attributes",
    "Notes",
    "Parameters",
    "Attributes",
    "Methods",
    "Returns",
    "Yields",
    "Receives",
    "Other Parameters",
    "Raises",
    "Warns",
    "Warnings",
    "See Also",
    "References",
    "Data flow",
]

Built = tuple[ScenarioProject, BuildResult]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    project = write_scenario_project(
        tmp_path_factory.mktemp("tanks"),
        "tanks",
        {"tanks": TANKS, "physics": PHYSICS},
        documented=["tanks"],
        conf_extra="nitpicky = True\n",
    )
    return project, project.build("html", "--keep-going")


def page(built: Built, name: str) -> BeautifulSoup:
    _, result = built
    return read_html(result.outdir / "reference" / name)


def class_page(built: Built) -> BeautifulSoup:
    return page(built, "tanks.tanks/Tank.html")


def headings(soup: BeautifulSoup) -> list[str]:
    return [heading_text(h) for h in main(soup).find_all("h2")]


def shown(container: Tag) -> str:
    """The text of a section as read (no space added around inline markup), its
    heading's link mark left out."""
    return " ".join(container.get_text().replace("¶", " ").split())


def links(container: Tag) -> dict[str, str]:
    """Each linked name under ``container``: its text and where it points."""
    return {text(a): str(a["href"]) for a in container.find_all("a", class_="reference")}


def test_each_section_is_a_heading_after_notes_and_before_references(built: Built) -> None:
    _, result = built
    assert result.returncode == 0, result.stderr
    assert headings(class_page(built)) == CLASS_SECTIONS


def test_entries_show_name_type_and_description(built: Built) -> None:
    soup = class_page(built)
    assert shown(section(soup, "Raises")) == "Raises ValueError If the side is negative."
    assert shown(section(soup, "Warns")) == "Warns UserWarning When the tank overflows."
    assert shown(section(soup, "Other Parameters")) == (
        "Other Parameters colour (str) Paint; not an input."
    )
    assert shown(section(soup, "Yields")) == "Yields litre (float) One litre at a time."
    assert shown(section(soup, "Receives")) == "Receives tap (bool) Whether the tap is open."
    assert shown(section(soup, "Methods")) == "Methods drained() An empty tank."
    # A name the page documents links to its row in the tables.
    attributes = section(soup, "Attributes")
    assert links(attributes) == {"volume": "#tanks.tanks.Tank.volume"}
    assert links(section(soup, "Parameters")) == {"side": "#tanks.tanks.Tank.side"}


def test_warnings_and_free_notes_are_prose(built: Built) -> None:
    soup = class_page(built)
    assert section(soup, "Warnings").find("em").get_text() == "drinking"
    notes = section(soup, "Notes")
    assert "A free paragraph after the labels, with emphasis" in text(notes)
    assert notes.find("em").get_text() == "emphasis"


def test_see_also_names_link_to_what_the_site_documents(built: Built) -> None:
    see_also = section(class_page(built), "See Also")
    assert links(see_also) == {
        "volume": "#tanks.tanks.Tank.volume",
        "fill_time": "../helpers/tanks.physics.html#tanks.physics.fill_time",
        "Pond": "Pond.html#tanks.tanks.Pond",
    }
    listed = text(see_also)
    for name, description in [
        ("json.dumps", "Documented nowhere on this site."),
        ("no_such_helper", "A typo."),
    ]:
        assert f"{name} {description}" in listed  # code, not a link


def test_only_the_name_nothing_answers_to_is_a_warning(built: Built) -> None:
    project, result = built
    unresolved = [w for w in result.warnings if "reference target not found" in w]
    assert len(unresolved) == 1, result.warnings
    assert "py:obj reference target not found: no_such_helper" in unresolved[0]
    assert unresolved[0].startswith(str(project.module_path("tanks")))
    assert [w for w in result.warnings if w not in unresolved] == []


def test_a_helper_entry_shows_its_sections(built: Built) -> None:
    soup = page(built, "helpers/tanks.physics.html")
    entry = soup.find("dt", id="tanks.physics.fill_time").parent
    listed = text(entry)
    assert "Raises : ZeroDivisionError Never, in fact." in listed
    assert "Warnings Assumes a steady flow." in listed
    assert links(entry)["drain_time"] == "#tanks.physics.drain_time"
    rubrics = [text(r) for r in entry.find_all(class_="rubric")]
    assert rubrics == ["Warnings", "See Also"]


def test_the_terminal_page_shows_every_section() -> None:
    analysed = analyse_source(TANKS, package="tanks", module="tanks", others={"physics": PHYSICS})
    shown = TextWriter().page(scenario_page(analysed["Tank"]))
    lines = shown.split("\n")
    titles = [line for line, under in itertools.pairwise(lines) if under and set(under) == {"-"}]
    assert titles == CLASS_SECTIONS
    assert "- ValueError\n  If the side is negative." in shown
    assert "- json.dumps\n  Documented nowhere on this site." in shown
    assert "A free paragraph after the labels, with *emphasis*." in shown
